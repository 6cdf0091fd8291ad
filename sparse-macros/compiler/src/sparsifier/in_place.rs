//! In-place updates of a sparse output: `a[i, j] = a[i, j] * 2.0` (or
//! `a[i, j] *= 2.0`) over a `&mut` sparse tensor walks its stored entries and
//! overwrites their values, positions and coordinates untouched.
//!
//! Design note. An update keeps the output's sparsity only where the new
//! value is zero wherever the output stores nothing — then the entries the
//! output has are exactly the ones to write. That holds when the output is
//! a factor of every term (`a * s`, `a * a`, `a / d`, `-a`, `a * x[j] +
//! a`), or the operand of a `unary` whose absent region is `none` and
//! whose present region gives a value (`unary(a[i], present = |v|
//! tanh(v), absent = none)`); `a + 1.0` would fill the implicit zeros and
//! is refused. Every other
//! operand must be dense: a sparse `b` in `a * b` would turn the entries
//! where `b` stores nothing into zeros the update cannot remove. Reductions
//! may only be sums inside the expression (the output element is read once
//! per element), and the output's levels must be unique (a duplicate would
//! be updated as if it were the whole element).

use super::kernel::{Expr, Kernel, Region, Stmt};
use super::{AssignOp, SparsifyError, TensorId};

/// Whether `stmt` reads its own sparse output: an update (valid or not).
pub fn is_update(kernel: &Kernel, stmt: &Stmt) -> bool {
    kernel
        .tensors
        .get(stmt.lhs.tensor.index())
        .is_some_and(|d| d.is_sparse() && d.is_output)
        && stmt.reads_output()
}

/// Checks an update (`is_update`) whose sums are scoped: `Ok` if it keeps
/// the output's sparsity, else the reason it does not.
pub fn check(kernel: &Kernel, stmt: &Stmt) -> Result<(), SparsifyError> {
    let out = stmt.lhs.tensor;
    let name = kernel.tensor_name(out).to_string();
    let fail = |reason: String| {
        Err(SparsifyError::InPlaceUpdate {
            tensor: name.clone(),
            reason,
        })
    };
    if stmt.op != AssignOp::Assign || stmt.reduce.is_some() {
        return fail("an update assigns with `=`, `*=` or `/=`".to_string());
    }
    if let Some(a) = stmt
        .rhs
        .accesses()
        .into_iter()
        .find(|a| a.tensor == out && (a.indices != stmt.lhs.indices || !a.affine.is_empty()))
    {
        return fail(format!(
            "`{}` reads it at other coordinates than the element written",
            kernel.show_access(a)
        ));
    }
    if let Some(a) = stmt.rhs.accesses().into_iter().find(|a| {
        a.tensor != out
            && kernel
                .tensors
                .get(a.tensor.index())
                .is_some_and(|d| d.is_sparse())
    }) {
        let other = kernel.tensor_name(a.tensor);
        return fail(format!(
            "`{other}` is sparse: where it stores nothing the result is zero, an entry an \
             in-place update cannot remove"
        ));
    }
    let summed = super::scope::free_loops(kernel, &stmt.rhs)
        .into_iter()
        .find(|l| !stmt.lhs.indices.contains(l));
    if let Some(l) = summed {
        return fail(format!(
            "`{}` is summed over the whole right-hand side, so the element would be read once \
             per term; sum inside the expression, e.g. `{name}[..] * sum({0}, ..)`",
            kernel.loop_name(l)
        ));
    }
    if let Some(d) = kernel.tensors.get(out.index()) {
        if d.levels.iter().any(|(lt, _)| !lt.is_unique()) {
            return fail(format!(
                "`{name}` has a nonunique level, whose duplicates would each be updated as the \
                 whole element"
            ));
        }
    }
    let mut drops = false;
    stmt.rhs.visit(&mut |e| {
        drops |= matches!(e, Expr::Unary(u) if u.present == Region::None)
            || matches!(e, Expr::Select(..));
    });
    if drops {
        return fail(format!(
            "`{}` leaves no value at some entries `{name}` stores (a `none` region or a \
             `select`), which an in-place update cannot remove",
            kernel.show(&stmt.rhs)
        ));
    }
    if !zero_where_absent(&stmt.rhs, out) {
        return fail(format!(
            "the value is not zero where `{name}` stores nothing (`{}`), so the update would \
             change its sparsity",
            kernel.show(&stmt.rhs)
        ));
    }
    Ok(())
}

/// Whether `e` is zero wherever tensor `t` is (an implicit zero of `t`
/// makes every term vanish).
fn zero_where_absent(e: &Expr, t: TensorId) -> bool {
    let z = |x: &Expr| zero_where_absent(x, t);
    match e {
        Expr::Access(a) => a.tensor == t,
        Expr::Mul(l, r) => z(l) || z(r),
        Expr::Div(l, _) => z(l),
        Expr::Neg(x) | Expr::Cast(x, _) | Expr::Sum(_, x) => z(x),
        Expr::Add(l, r) | Expr::Sub(l, r) => z(l) && z(r),
        // `unary(a[i], present = f, absent = none)`: no value where `a`
        // has none, and a value wherever it has one (a `none` present
        // region would have to delete entries).
        Expr::Unary(u) => u.absent == Region::None && u.present != Region::None && z(&u.x),
        Expr::Call(name, args) => match (name.as_str(), args.as_slice()) {
            ("and" | "bitand", [l, r]) => z(l) || z(r),
            ("shl" | "shr", [l, _]) | ("requantize", [l, _, _]) => z(l),
            ("choose", [_, then, els]) => z(then) && z(els),
            ("abs" | "sqrt" | "max" | "min" | "clamp" | "bitor" | "bitxor", _) => {
                args.iter().all(z)
            }
            _ => false,
        },
        _ => false,
    }
}
