//! Where each reduction is summed: TACO's rule for tensor index notation.
//!
//! Design note. An index variable that is not on the left-hand side is
//! summed over the *smallest subexpression that contains every use of it*
//! (an access it indexes, its use as a value, a closure that names it). In
//! `y[i] = w[i, j] * x[j] + b[i]` every use of `j` is inside `w[i, j] *
//! x[j]`, so the statement means `y[i] = sum(j, w[i, j] * x[j]) + b[i]`:
//! `b[i]` is added once, not once per `j`. A reduction whose smallest
//! subexpression is the whole right-hand side stays implicit (the loop
//! tree's statement-level reduction); every other one becomes an
//! [`Expr::Sum`] node, which the loop tree evaluates by an inner loop nest
//! into a local before the expression around it.
//!
//! Factors free of the summed index are moved inside the sum
//! (`sum(j, e) * f` → `sum(j, e * f)`, likewise `/ f`, `-` and casts: `s[]
//! += a[i, j] as u32` counts the `true` entries of a `bool` matrix), as MLIR's
//! `linalg.generic` computes its body per iteration point. The value is the
//! same (up to floating-point rounding), and it keeps kernels like
//! `y[i] = a[i, j] * x[j] * 2.0` a single loop nest, which a CSC `a`
//! (whose loop over `j` must enclose the loop over `i`) requires. A factor
//! that holds a sum itself is not moved: `sum(j, ..) * sum(k, ..)` stays a
//! product of two sums, linear rather than quadratic work; nor is a factor
//! that reads the statement's output (`y[i] *= a[i, j] * x[j]` reads the
//! old `y[i]` once, after the sum).
//!
//! A `reduce(e, ..)` statement folds its combiner over every reduction
//! index of `e`, so its indices are not scoped here (only sums written out
//! with `sum(..)` inside it are).

use super::kernel::{Expr, Kernel, Stmt};
use super::{LoopId, TensorId};

/// `stmt`'s right-hand side with every reduction index not summed over the
/// whole of it wrapped in a [`Expr::Sum`] at its scope.
pub fn place_sums(kernel: &Kernel, stmt: &Stmt) -> Expr {
    if stmt.reduce.is_some() {
        return stmt.rhs.clone();
    }
    let mut free = free_loops(kernel, &stmt.rhs);
    let written = stmt.lhs.loops();
    free.retain(|l| !written.contains(l));
    let placed = place(kernel, stmt.rhs.clone(), &free, true);
    hoist_root(hoist(placed, kernel, stmt.lhs.tensor))
}

/// The index variables `e` uses outside any sum that binds them, in order
/// of first use.
fn collect_free(kernel: &Kernel, e: &Expr, bound: &mut Vec<LoopId>, out: &mut Vec<LoopId>) {
    let mut add = |l: LoopId, bound: &Vec<LoopId>| {
        if !bound.contains(&l) && !out.contains(&l) {
            out.push(l);
        }
    };
    for l in own_uses(kernel, e) {
        add(l, bound);
    }
    if let Expr::Sum(loops, body) = e {
        let n = bound.len();
        bound.extend(loops);
        collect_free(kernel, body, bound, out);
        bound.truncate(n);
        return;
    }
    for c in e.children() {
        collect_free(kernel, c, bound, out);
    }
}

/// The index variables node `e` uses itself, not through a child: the
/// indices of an access, an index used as a value, and the indices the
/// closures of a semiring operation name.
fn own_uses(kernel: &Kernel, e: &Expr) -> Vec<LoopId> {
    match e {
        Expr::Access(a) => a.loops(),
        Expr::Index(l) => vec![*l],
        Expr::Binary(b) => [b.overlap, b.left, b.right]
            .iter()
            .flat_map(|r| region_indices(kernel, *r))
            .collect(),
        Expr::Unary(u) => [u.present, u.absent]
            .iter()
            .flat_map(|r| region_indices(kernel, *r))
            .collect(),
        Expr::Select(f, _) | Expr::Apply(f, _) => kernel.func_indices(*f).to_vec(),
        _ => Vec::new(),
    }
}

fn region_indices(kernel: &Kernel, r: super::kernel::Region) -> Vec<LoopId> {
    match r {
        super::kernel::Region::Func(f) => kernel.func_indices(f).to_vec(),
        _ => Vec::new(),
    }
}

/// Whether `e` uses `l` (free in `e`).
fn uses(kernel: &Kernel, e: &Expr, l: LoopId) -> bool {
    free_loops(kernel, e).contains(&l)
}

/// Places each of `free` (indices whose every use is inside `e`) at the
/// smallest subexpression of `e` holding all its uses. At the root the
/// indices placed there stay implicit.
fn place(kernel: &Kernel, e: Expr, free: &[LoopId], root: bool) -> Expr {
    if free.is_empty() {
        return e;
    }
    let own = own_uses(kernel, &e);
    let kids: Vec<Vec<LoopId>> = e.children().iter().map(|c| free_loops(kernel, c)).collect();
    let mut here = Vec::new();
    let mut down: Vec<Vec<LoopId>> = vec![Vec::new(); kids.len()];
    for &l in free {
        let users: Vec<usize> = (0..kids.len()).filter(|&c| kids[c].contains(&l)).collect();
        match (own.contains(&l), users.as_slice()) {
            (false, [one]) => down[*one].push(l),
            _ => here.push(l),
        }
    }
    let mut n = 0;
    let placed = map_children(e, &mut |c| {
        let c = place(kernel, c, &down[n], false);
        n += 1;
        c
    });
    if here.is_empty() || root {
        placed
    } else {
        Expr::Sum(here, Box::new(placed))
    }
}

/// `e` with `f` applied to each direct subexpression, left to right.
pub(super) fn map_children(e: Expr, f: &mut impl FnMut(Expr) -> Expr) -> Expr {
    let mut bx = |x: Box<Expr>| Box::new(f(*x));
    match e {
        Expr::Access(_)
        | Expr::Literal(_)
        | Expr::Index(_)
        | Expr::Zero
        | Expr::Absent
        | Expr::Local(_) => e,
        Expr::Neg(x) => Expr::Neg(bx(x)),
        Expr::Cast(x, ty) => Expr::Cast(bx(x), ty),
        Expr::Select(g, x) => Expr::Select(g, bx(x)),
        Expr::Sum(loops, x) => Expr::Sum(loops, bx(x)),
        Expr::Add(l, r) => {
            let l = bx(l);
            Expr::Add(l, bx(r))
        }
        Expr::Sub(l, r) => {
            let l = bx(l);
            Expr::Sub(l, bx(r))
        }
        Expr::Mul(l, r) => {
            let l = bx(l);
            Expr::Mul(l, bx(r))
        }
        Expr::Div(l, r) => {
            let l = bx(l);
            Expr::Div(l, bx(r))
        }
        Expr::Call(name, args) => Expr::Call(name, args.into_iter().map(&mut *f).collect()),
        Expr::Apply(g, args) => Expr::Apply(g, args.into_iter().map(&mut *f).collect()),
        Expr::Binary(mut b) => {
            b.x = f(b.x);
            b.y = f(b.y);
            Expr::Binary(b)
        }
        Expr::Unary(mut u) => {
            u.x = f(u.x);
            Expr::Unary(u)
        }
    }
}

fn has_sum(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Sum(..)));
    found
}

/// Moves sum-free factors, divisors and negations inside the sums they
/// apply to, bottom-up.
fn hoist(e: Expr, kernel: &Kernel, out: TensorId) -> Expr {
    let e = map_children(e, &mut |c| hoist(c, kernel, out));
    let free_of = |f: &Expr, loops: &[LoopId]| {
        !has_sum(f)
            && loops.iter().all(|&l| !uses(kernel, f, l))
            && f.accesses().iter().all(|a| a.tensor != out)
    };
    match e {
        Expr::Neg(x) => match *x {
            Expr::Sum(loops, body) => {
                Expr::Sum(loops, Box::new(hoist(Expr::Neg(body), kernel, out)))
            }
            other => Expr::Neg(Box::new(other)),
        },
        Expr::Cast(x, ty) => match *x {
            Expr::Sum(loops, body) => {
                Expr::Sum(loops, Box::new(hoist(Expr::Cast(body, ty), kernel, out)))
            }
            other => Expr::Cast(Box::new(other), ty),
        },
        Expr::Mul(l, r) => match (*l, *r) {
            // SDDMM's `s[i, j] * sum(k, ..)`: the sum first (`Kernel::sum_first`).
            (Expr::Sum(loops, body), f) if keeps_sum_first(kernel, &f, &body) => {
                Expr::Mul(Box::new(Expr::Sum(loops, body)), Box::new(f))
            }
            (f, Expr::Sum(loops, body)) if keeps_sum_first(kernel, &f, &body) => {
                Expr::Mul(Box::new(f), Box::new(Expr::Sum(loops, body)))
            }
            (Expr::Sum(loops, body), f) if free_of(&f, &loops) => Expr::Sum(
                loops,
                Box::new(hoist(Expr::Mul(body, Box::new(f)), kernel, out)),
            ),
            (f, Expr::Sum(loops, body)) if free_of(&f, &loops) => Expr::Sum(
                loops,
                Box::new(hoist(Expr::Mul(Box::new(f), body), kernel, out)),
            ),
            (l, r) => Expr::Mul(Box::new(l), Box::new(r)),
        },
        Expr::Div(l, r) => match (*l, *r) {
            (Expr::Sum(loops, body), f) if free_of(&f, &loops) => Expr::Sum(
                loops,
                Box::new(hoist(Expr::Div(body, Box::new(f)), kernel, out)),
            ),
            (l, r) => Expr::Div(Box::new(l), Box::new(r)),
        },
        // A sum directly inside another is one sum over both index sets:
        // the iteration graph then orders all their loops together.
        Expr::Sum(mut outer, body) => match *body {
            Expr::Sum(inner, body) => {
                outer.extend(inner);
                Expr::Sum(outer, body)
            }
            other => Expr::Sum(outer, Box::new(other)),
        },
        other => other,
    }
}

/// Whether factor `f` of a sum over `body` stays outside it: the kernel
/// asks for sums first (integers, `#[reassociate]`), `f` is sum-free,
/// reads a sparse tensor (whose loops then enclose the sum's) and nothing
/// the statement writes, and the sum reads only dense operands (its loops
/// run innermost over whole rows). Moving `f` inside would multiply every
/// term by it: MLIR's order, one more multiply per term, and for floats a
/// different rounding.
fn keeps_sum_first(kernel: &Kernel, f: &Expr, body: &Expr) -> bool {
    let sparse = |e: &Expr| {
        e.accesses().iter().any(|a| {
            kernel
                .tensors
                .get(a.tensor.index())
                .is_some_and(|t| t.levels.iter().any(|(lt, _)| !lt.is_dense()))
        })
    };
    let writes = |e: &Expr| {
        e.accesses().iter().any(|a| {
            kernel
                .tensors
                .get(a.tensor.index())
                .is_none_or(|t| t.is_output)
        })
    };
    kernel.sum_first
        && !has_sum(f)
        && !has_sum(body)
        && sparse(f)
        && !writes(f)
        && !sparse(body)
        && !writes(body)
}

/// A sum that became the whole right-hand side is the statement's own
/// reduction: left implicit.
fn hoist_root(e: Expr) -> Expr {
    match e {
        Expr::Sum(_, body) => hoist_root(*body),
        other => other,
    }
}

/// `(enclosing, inner)` loop pairs that scoped sums impose: every loop
/// enclosing a sum (the statement's own loops, `main`, and the loops of the
/// sums around it) runs outside each loop of the sum.
pub fn scope_edges(main: &[LoopId], rhs: &Expr) -> Vec<(LoopId, LoopId)> {
    let mut edges = Vec::new();
    fn walk(e: &Expr, outer: &mut Vec<LoopId>, edges: &mut Vec<(LoopId, LoopId)>) {
        if let Expr::Sum(loops, body) = e {
            for &o in outer.iter() {
                for &l in loops {
                    edges.push((o, l));
                }
            }
            let n = outer.len();
            outer.extend(loops);
            walk(body, outer, edges);
            outer.truncate(n);
            return;
        }
        for c in e.children() {
            walk(c, outer, edges);
        }
    }
    walk(rhs, &mut main.to_vec(), &mut edges);
    edges
}

/// The index variables `e` uses outside any sum that binds them, in order
/// of first use.
pub fn free_loops(kernel: &Kernel, e: &Expr) -> Vec<LoopId> {
    let mut free = Vec::new();
    collect_free(kernel, e, &mut Vec::new(), &mut free);
    free
}

/// `e` as a value of its own (the right operand of `y *= e`): its sums
/// placed as for a statement `lhs = e`, and the reductions that would cover
/// all of it summed explicitly around it.
pub fn scoped_operand(kernel: &Kernel, lhs: &super::kernel::Access, e: Expr) -> Expr {
    let pseudo = Stmt {
        lhs: lhs.clone(),
        op: super::kernel::AssignOp::Assign,
        rhs: e,
        reduce: None,
    };
    let placed = place_sums(kernel, &pseudo);
    let root: Vec<LoopId> = free_loops(kernel, &placed)
        .into_iter()
        .filter(|l| !lhs.loops().contains(l))
        .collect();
    if root.is_empty() {
        placed
    } else {
        Expr::Sum(root, Box::new(placed))
    }
}

/// Every loop some [`Expr::Sum`] of `e` binds.
pub fn sum_loops(e: &Expr) -> Vec<LoopId> {
    let mut out = Vec::new();
    e.visit(&mut |x| {
        if let Expr::Sum(loops, _) = x {
            out.extend(loops.iter().copied());
        }
    });
    out
}
