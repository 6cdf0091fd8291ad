//! Iteration lattices (the "merger" of MLIR and TACO): for one loop and one
//! expression, which storage levels to co-iterate and what to compute where.
//!
//! Design note. Inside a loop over `i`, each operand that stores `i` in a
//! sparse level only has values at its stored coordinates; everywhere else
//! it is an implicit zero. A lattice point is a *conjunction* of such levels
//! ("a and b both store this i") together with the expression that is
//! correct at exactly those coordinates. Worked example, `a[i] * b[i] + d[i]`
//! with all three sparse:
//!
//! ```text
//! a*b        → {a, b}: a*b                      (zero unless both stored)
//! (a*b) + d  → {a, b, d}: a*b + d               (conjunction point)
//!              {a, b}:    a*b                   (left only: d is zero)
//!              {d}:       d                     (right only: a*b is zero)
//! ```
//!
//! `*` and `/` take the cross product of their operands' points (zero times
//! anything is zero); `+` and `-` add each side's points on their own, with
//! the right-only point of `a - b` becoming `-b`. A dense level or a
//! loop-invariant value has a value at every `i`: it adds no sparse level,
//! so a point without sparse levels means "every remaining coordinate", and
//! a loop whose lattice has one (`a[i] + 1.0`) must visit the whole range.
//!
//! Simplification: points are ordered so a point precedes every point whose
//! sparse levels are a subset of its own (a co-iteration loop runs while all
//! of its levels have entries; when one runs out, the loops of the smaller
//! points finish the rest — the exhaustion order). A point whose sparse set
//! equals an earlier one's only differs by dense levels or invariants, which
//! the earlier (larger) point already covers, so it is dropped: in
//! `a[i] * d[i] + a[i]` with dense `d`, `{a}: a` is subsumed by
//! `{a, d}: a*d + a`. This is MLIR's `optimizeSet`.
//!
//! Calls are zero-extended: each argument lattice gets a point `{}: 0` for
//! the coordinates it does not store, the cross product gives `f` over every
//! combination, and the all-zero point is dropped only when `f(0, ..) = 0`
//! (`sqrt`, `max`); `exp(a[i])` keeps it and iterates the whole range.

use super::kernel::{Access, BinaryOp, Expr, Kernel, UnaryOp};
use super::{LatPointId, Level, LoopId, TensorId};

/// One storage level of one tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TensorLevel {
    /// The tensor.
    pub tensor: TensorId,
    /// Its level.
    pub level: Level,
}

/// A lattice point: where its sparse levels all store the loop's coordinate,
/// the statement's value is `expr`.
#[derive(Clone, Debug, PartialEq)]
pub struct LatPoint {
    /// The sparse levels co-iterated (the condition), sorted.
    pub sparse: Vec<TensorLevel>,
    /// Dense levels merely indexed by the coordinate, sorted.
    pub dense: Vec<TensorLevel>,
    /// The sub-expression to evaluate at this point.
    pub expr: Expr,
}

/// The simplified, ordered lattice of one loop for one expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice {
    /// The loop.
    pub loop_id: LoopId,
    /// Points in exhaustion order: a point comes before every point whose
    /// sparse set is a subset of its own.
    pub points: Vec<LatPoint>,
}

/// How a loop walks its coordinates, decided by its lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// No sparse level: a dense `for` over the whole range.
    Dense,
    /// One sparse level and nothing else needed: walk its stored entries.
    Iterate(TensorLevel),
    /// Several sparse levels, or a sparse level merged with the whole range.
    CoIterate {
        /// Every sparse level of the top point.
        spaces: Vec<TensorLevel>,
        /// Whether a point without sparse levels makes the loop visit every
        /// coordinate too (a union with the dense range).
        universal: bool,
    },
}

impl Lattice {
    /// The point with id `p`.
    pub fn point(&self, p: LatPointId) -> Option<&LatPoint> {
        self.points.get(p.index())
    }

    /// Whether some point holds at coordinates no sparse level stores.
    pub fn is_universal(&self) -> bool {
        self.points.iter().any(|p| p.sparse.is_empty())
    }

    /// Whether point `q`'s coordinates are a subset of point `p`'s, i.e.
    /// `q` is a case inside `p`'s co-iteration loop (MLIR's `latGT` or equal).
    pub fn covers(&self, p: LatPointId, q: LatPointId) -> bool {
        match (self.point(p), self.point(q)) {
            (Some(p), Some(q)) => q.sparse.iter().all(|s| p.sparse.contains(s)),
            _ => false,
        }
    }

    /// The loop strategy this lattice calls for.
    pub fn kind(&self) -> LoopKind {
        let top = self.points.first().map_or(&[][..], |p| &p.sparse[..]);
        match (self.points.len(), top) {
            (_, []) => LoopKind::Dense,
            (1, [one]) => LoopKind::Iterate(*one),
            _ => LoopKind::CoIterate {
                spaces: top.to_vec(),
                universal: self.is_universal(),
            },
        }
    }

    /// One line per point, `{a.lvl0, b.lvl0}: a[i] + b[i]`, for tests and
    /// debugging.
    pub fn text(&self, kernel: &Kernel) -> String {
        let level =
            |tl: &TensorLevel| format!("{}.lvl{}", kernel.tensor_name(tl.tensor), tl.level.0);
        self.points
            .iter()
            .map(|p| {
                let sparse: Vec<String> = p.sparse.iter().map(level).collect();
                format!("{{{}}}: {}", sparse.join(", "), kernel.show(&p.expr))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The lattice of `expr` for loop `loop_id`, simplified and ordered.
pub fn lattice(kernel: &Kernel, expr: &Expr, loop_id: LoopId) -> Lattice {
    lattice_in(kernel, expr, loop_id, Mode::default())
}

/// What the loop tree knows about the loop a lattice is built for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// The loop must visit every coordinate (it writes a dense output that
    /// the statement also reads, `y[i] = y[i] * a[i]`: where nothing is
    /// stored the element becomes zero, so it must be visited), so a point
    /// without sparse levels that computes zero is added where none exists.
    pub complete: bool,
    /// The loop is the innermost: the presence of every operand is settled
    /// at its points, so `binary`/`unary` resolve to their regions.
    pub innermost: bool,
}

/// The lattice of `expr` for loop `loop_id` in `mode`.
///
/// Semiring operations (seed 000) follow MLIR's `combiSet`: `binary` has
/// its conjunction points (kept whole: inner loops still decide between the
/// regions) and each side's points mapped through `left`/`right`; `unary`
/// has its operand's points and one point without sparse levels for
/// `absent`. A `none` region gives `Absent` points; they stay while a later
/// point needs their levels walked to exclude coordinates (set difference:
/// `{a, b}: none` before `{a}: a`), and are dropped otherwise (intersection:
/// `{a}: none` and `{b}: none` go, leaving `{a, b}`).
pub fn lattice_in(kernel: &Kernel, expr: &Expr, loop_id: LoopId, mode: Mode) -> Lattice {
    // A custom `reduce` folds present values only (MLIR's
    // `sparse_tensor.reduce`), so its lattices are the plain ones.
    let mut points = build(kernel, expr, loop_id);
    if mode.complete {
        zero_extend(&mut points);
    }
    for p in &mut points {
        if mode.innermost {
            p.expr = finalize(std::mem::replace(&mut p.expr, Expr::Zero));
        }
    }
    let points = drop_absent(simplify(points));
    Lattice { loop_id, points }
}

/// A point's expression once every operand's presence is settled: `binary`
/// becomes its `overlap` region, `unary` its `present` region.
pub fn finalize(e: Expr) -> Expr {
    match e {
        Expr::Binary(b) => {
            let BinaryOp { x, y, overlap, .. } = *b;
            overlap.apply(vec![x, y])
        }
        Expr::Unary(u) => {
            let UnaryOp { x, present, .. } = *u;
            present.apply(vec![x])
        }
        other => other,
    }
}

/// Drops `Absent` points that no later point needs: a later point whose
/// levels are a subset runs only where the absent point's levels are not
/// all present, which the co-iteration can only know by walking them.
fn drop_absent(points: Vec<LatPoint>) -> Vec<LatPoint> {
    let n = points.len();
    let mut keep = vec![true; n];
    for i in (0..n).rev() {
        if points[i].expr != Expr::Absent {
            continue;
        }
        let needed = (i + 1..n).any(|j| {
            keep[j]
                && points[j]
                    .sparse
                    .iter()
                    .all(|s| points[i].sparse.contains(s))
        });
        keep[i] = needed;
    }
    points
        .into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect()
}

/// The level `access` iterates with `loop_id`, if it uses the loop. The map
/// is a checked permutation, so dimension `d` is stored by the level whose
/// expression reads `d`.
fn level_of(kernel: &Kernel, access: &Access, loop_id: LoopId) -> Option<(TensorLevel, bool)> {
    let desc = kernel.tensors.get(access.tensor.index())?;
    let dim = access.indices.iter().position(|&l| l == loop_id)?;
    let level = desc.levels.iter().position(|(_, e)| e.dim() == dim)?;
    let tl = TensorLevel {
        tensor: access.tensor,
        level: Level(level as u32),
    };
    Some((tl, !desc.levels[level].0.is_dense()))
}

fn leaf(expr: Expr) -> Vec<LatPoint> {
    vec![LatPoint {
        sparse: Vec::new(),
        dense: Vec::new(),
        expr,
    }]
}

/// Adds the point `{}: 0` (the coordinates no sparse level stores) unless
/// some point already holds there.
fn zero_extend(points: &mut Vec<LatPoint>) {
    if points.iter().all(|p| !p.sparse.is_empty()) {
        points.extend(leaf(Expr::Zero));
    }
}

fn union_sorted(a: &[TensorLevel], b: &[TensorLevel]) -> Vec<TensorLevel> {
    let mut out: Vec<TensorLevel> = a.iter().chain(b).copied().collect();
    out.sort();
    out.dedup();
    out
}

/// The cross product of two point lists, combining expressions with `f`.
fn conjunction(l: &[LatPoint], r: &[LatPoint], f: impl Fn(Expr, Expr) -> Expr) -> Vec<LatPoint> {
    let mut out = Vec::new();
    for p in l {
        for q in r {
            out.push(LatPoint {
                sparse: union_sorted(&p.sparse, &q.sparse),
                dense: union_sorted(&p.dense, &q.dense),
                expr: f(p.expr.clone(), q.expr.clone()),
            });
        }
    }
    out
}

/// Conjunction points, then the left points, then the right points with
/// their expression mapped by `right` (negated for `-`).
fn disjunction(
    l: Vec<LatPoint>,
    r: Vec<LatPoint>,
    f: impl Fn(Expr, Expr) -> Expr,
    right: impl Fn(Expr) -> Expr,
) -> Vec<LatPoint> {
    let mut out = conjunction(&l, &r, f);
    out.extend(l);
    out.extend(r.into_iter().map(|p| LatPoint {
        expr: right(p.expr),
        ..p
    }));
    out
}

fn map(points: Vec<LatPoint>, f: impl Fn(Expr) -> Expr) -> Vec<LatPoint> {
    points
        .into_iter()
        .map(|p| LatPoint {
            expr: f(p.expr),
            ..p
        })
        .collect()
}

/// Functions with `f(0, .., 0) = 0` for float and integer zeros, so their
/// all-absent point can be skipped. `signum` is absent on purpose: Rust's
/// `0.0f64.signum()` is `1.0`. Comparisons are here by MLIR's rule, not by
/// their value: MLIR compares on the union of the operands (an absent one
/// reads as zero) and leaves the coordinates no operand stores at the
/// implicit zero (`false`), even for `==` (its `disjSetWithZero`). A choice
/// with no operand present is `if false { 0 } else { 0 }`, zero. `!x` keeps
/// its all-absent point: `!false` is `true` everywhere `x` is absent, and
/// the bitwise `!0` is -1. Shifts, `|` and `^` of zeros are 0, and so is
/// `clamp(0, 0, 0)`.
const ZERO_PRESERVING: &[&str] = &[
    "abs", "sqrt", "cbrt", "sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh",
    "exp_m1", "expm1", "ln_1p", "log1p", "ceil", "floor", "round", "trunc", "max", "min", "eq",
    "ne", "lt", "le", "gt", "ge", "choose", "shl", "shr", "bitor", "bitxor", "clamp",
];

/// Shifts of a zero are zero whatever the amount (MLIR's `shli`/`shrsi`/
/// `shrui` of 0), and so is the requantization of a zero accumulator
/// (`requantize(0, m, s) = 0` for every multiplier and shift): only the
/// points where the first operand is present compute anything, as a
/// product's left factor.
fn zero_shifted(name: &str, exprs: &[Expr]) -> bool {
    matches!(name, "shl" | "shr" | "requantize") && exprs.first() == Some(&Expr::Zero)
}

/// The points of `expr` for `loop_id`, bottom-up, with each node's points
/// merged by sparse set as they are built (see [`merge_equal_sets`]).
fn build(kernel: &Kernel, expr: &Expr, loop_id: LoopId) -> Vec<LatPoint> {
    merge_equal_sets(build_node(kernel, expr, loop_id))
}

/// Keeps the first point of every sparse set, in construction order.
///
/// Why this is exact: [`simplify`] keeps, of the points sharing a sparse
/// set, the first in construction order. Every combinator here (cross
/// products, disjunctions, maps) builds its points in the order of its
/// operands' points, and a point built from a later same-set operand point
/// has the same set as, and comes after, the one built from the earlier:
/// it could never be the one `simplify` keeps. Dropping it at once leaves
/// the final lattice unchanged and makes the number of points at every
/// node at most the number of distinct sparse sets, so a sum of `n` dense
/// operands, literals or repeated accesses builds one point instead of
/// `3^n` (a lattice is exponential only in its distinct sparse levels,
/// which `MAX_SPARSE_INPUTS` bounds).
fn merge_equal_sets(points: Vec<LatPoint>) -> Vec<LatPoint> {
    let mut kept: Vec<LatPoint> = Vec::with_capacity(points.len());
    for p in points {
        if !kept.iter().any(|k| k.sparse == p.sparse) {
            kept.push(p);
        }
    }
    kept
}

/// The points of one node, from its operands' merged points.
fn build_node(kernel: &Kernel, expr: &Expr, loop_id: LoopId) -> Vec<LatPoint> {
    let b = |e: &Expr| build(kernel, e, loop_id);
    match expr {
        Expr::Access(a) => match level_of(kernel, a, loop_id) {
            Some((tl, true)) => vec![LatPoint {
                sparse: vec![tl],
                dense: Vec::new(),
                expr: expr.clone(),
            }],
            Some((tl, false)) => vec![LatPoint {
                sparse: Vec::new(),
                dense: vec![tl],
                expr: expr.clone(),
            }],
            None => leaf(expr.clone()),
        },
        Expr::Literal(_) | Expr::Index(_) | Expr::Zero | Expr::Local(_) => leaf(expr.clone()),
        // A sum is zero wherever its summand is zero at every coordinate of
        // its own loops: it has the summand's points for the loops around it.
        Expr::Sum(loops, e) => map(b(e), |x| Expr::Sum(loops.clone(), Box::new(x))),
        Expr::Neg(e) => map(b(e), |x| -x),
        Expr::Cast(e, ty) => map(b(e), |x| x.cast(ty)),
        Expr::Mul(l, r) => conjunction(&b(l), &b(r), |x, y| x * y),
        Expr::Div(l, r) => conjunction(&b(l), &b(r), |x, y| x / y),
        Expr::Add(l, r) => disjunction(b(l), b(r), |x, y| x + y, |y| y),
        Expr::Sub(l, r) => disjunction(b(l), b(r), |x, y| x - y, |y| -y),
        // `&&` is false where either side is absent (false): a conjunction;
        // `||` is the other side there: a disjunction (MLIR's `andi`/`ori`).
        // The bitwise `&` is zero where either side is: a conjunction too;
        // `|` and `^` are the other side there (`0 | y = 0 ^ y = y`).
        Expr::Call(name, args) if matches!(name.as_str(), "and" | "bitand") && args.len() == 2 => {
            conjunction(&b(&args[0]), &b(&args[1]), |x, y| {
                Expr::call(name, vec![x, y])
            })
        }
        Expr::Call(name, args)
            if matches!(name.as_str(), "or" | "bitor" | "bitxor") && args.len() == 2 =>
        {
            disjunction(
                b(&args[0]),
                b(&args[1]),
                |x, y| Expr::call(name, vec![x, y]),
                |y| y,
            )
        }
        Expr::Call(name, args) => call(kernel, name, args, loop_id),
        Expr::Absent => Vec::new(),
        Expr::Binary(op) => {
            let (px, py) = (b(&op.x), b(&op.y));
            let mut out = conjunction(&px, &py, |x, y| {
                Expr::Binary(Box::new(BinaryOp {
                    x,
                    y,
                    ..(**op).clone()
                }))
            });
            out.extend(map(px, |x| op.left.apply(vec![x])));
            out.extend(map(py, |y| op.right.apply(vec![y])));
            out
        }
        Expr::Unary(op) => {
            let mut out = map(b(&op.x), |x| {
                Expr::Unary(Box::new(UnaryOp {
                    x,
                    ..(**op).clone()
                }))
            });
            out.extend(leaf(op.absent.apply(Vec::new())));
            out
        }
        Expr::Select(f, x) => map(b(x), |x| Expr::Select(*f, Box::new(x))),
        // A region's closure sees values only where all its operands are
        // present: the conjunction of their points.
        Expr::Apply(f, args) => {
            let mut acc = leaf(Expr::Zero);
            let mut exprs: Vec<Vec<Expr>> = vec![Vec::new()];
            for arg in args {
                let points = b(arg);
                let mut next = Vec::new();
                let mut next_exprs = Vec::new();
                for (p, es) in acc.iter().zip(&exprs) {
                    for q in &points {
                        next.push(LatPoint {
                            sparse: union_sorted(&p.sparse, &q.sparse),
                            dense: union_sorted(&p.dense, &q.dense),
                            expr: Expr::Zero,
                        });
                        let mut es = es.clone();
                        es.push(q.expr.clone());
                        next_exprs.push(es);
                    }
                }
                acc = next;
                exprs = next_exprs;
            }
            acc.into_iter()
                .zip(exprs)
                .map(|(p, es)| LatPoint {
                    expr: Expr::Apply(*f, es),
                    ..p
                })
                .collect()
        }
    }
}

fn call(kernel: &Kernel, name: &str, args: &[Expr], loop_id: LoopId) -> Vec<LatPoint> {
    let mut acc: Vec<(LatPoint, Vec<Expr>)> = vec![(leaf(Expr::Zero).remove(0), Vec::new())];
    for arg in args {
        let mut points = build(kernel, arg, loop_id);
        zero_extend(&mut points);
        let mut next = Vec::new();
        for (p, exprs) in &acc {
            for q in &points {
                let mut exprs = exprs.clone();
                exprs.push(q.expr.clone());
                let point = LatPoint {
                    sparse: union_sorted(&p.sparse, &q.sparse),
                    dense: union_sorted(&p.dense, &q.dense),
                    expr: Expr::Zero,
                };
                next.push((point, exprs));
            }
        }
        acc = next;
    }
    let preserves_zero = !args.is_empty() && ZERO_PRESERVING.contains(&name);
    // A choice between two absent values is zero whatever its condition.
    let zero_choice = |exprs: &[Expr]| {
        name == "choose" && exprs.len() == 3 && exprs[1..].iter().all(|e| *e == Expr::Zero)
    };
    acc.into_iter()
        .filter(|(_, exprs)| {
            let all_absent = preserves_zero && exprs.iter().all(|e| *e == Expr::Zero);
            !(all_absent || zero_choice(exprs) || zero_shifted(name, exprs))
        })
        .map(|(p, exprs)| LatPoint {
            expr: Expr::call(name, exprs),
            ..p
        })
        .collect()
}

/// Orders points for exhaustion and drops points whose sparse set an
/// earlier point already has.
fn simplify(mut points: Vec<LatPoint>) -> Vec<LatPoint> {
    // Stable: among equal sizes the construction order (conjunction first)
    // is kept, and a strict subset is always smaller, so it comes later.
    points.sort_by_key(|p| std::cmp::Reverse(p.sparse.len()));
    merge_equal_sets(points)
}
