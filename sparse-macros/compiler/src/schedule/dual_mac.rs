//! Int8 dot products as one call (dual multiply-accumulates on Cortex-M4/
//! M7): the innermost walk of an int8 layer,
//!
//! ```text
//! iterate j in w.lvl1 compressed
//!   r += w[i, j] as i32 * (x[j] as i32 + off)      // or without `+ off`
//! ```
//!
//! with `w` an `i8` sparse operand walked at its last level, `x` a dense
//! `i8` vector indexed by the walk's own index and `off` loop-invariant (a
//! literal or a scalar parameter), becomes one call to sparse-core's
//! `dot_s8`, which sums the row four entries per step with `SXTB16`/
//! `SMLAD` where the target has the DSP extension (sparse-core's
//! `kernel/dual_mac.rs`) and one by one elsewhere, with the same bits.
//!
//! The walk qualifies when its level stores a coordinate per entry
//! (compressed or loose compressed, not duplicate segments, not through a
//! window), it is not the loop that runs in chunks, written out or
//! unrolled, and the sum is a plain `i32` sum (no custom reduction, no
//! flag of a sparse output's insertion).

use super::parallel::windowed;
use crate::plan::{KernelPlan, Kind};
use crate::sparsifier::{Access, Expr, LoopId, Node, Stmt, StmtPlan, TensorId};
use crate::vocab::{LevelFormat, ValueType};

/// One walk summed by `dot_s8`.
#[derive(Clone, Debug, PartialEq)]
pub struct DualMac {
    /// The walk (over the last level of `weights`).
    pub loop_id: LoopId,
    /// The `i8` sparse operand.
    pub weights: TensorId,
    /// The dense `i8` vector read at the walk's coordinates.
    pub input: TensorId,
    /// The loop-invariant term added to each input, if any.
    pub offset: Option<Expr>,
}

/// The innermost walks of `sp` that `dot_s8` sums, except loops in
/// `taken` (chunked, written out, unrolled or compiled).
pub fn dual_mac_walks(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    taken: &[LoopId],
) -> Vec<DualMac> {
    let mut found = Vec::new();
    if stmt.reduce.is_some() {
        return found;
    }
    let flagged = has_flagged_local(&sp.tree);
    super::unroll::visit(&sp.tree, &mut |node| {
        let Node::Iterate {
            loop_id,
            space,
            body,
            ..
        } = node
        else {
            return;
        };
        let (w, l) = (space.tensor, space.level.index());
        let Some(info) = kp.tensors.get(w.index()).and_then(Option::as_ref) else {
            return;
        };
        let last = l + 1 == info.levels.len();
        let format = matches!(
            space.level_type.format,
            LevelFormat::Compressed | LevelFormat::LooseCompressed
        );
        if flagged
            || taken.contains(loop_id)
            || !last
            || !format
            || info.segmented(l)
            || !info.levels[l].own_coordinates()
            || windowed(kp, stmt, w, l)
            || kp.sliced(w).is_some()
            || kp.packed_coordinates(w)
            || info.elem != ValueType::I8
            || info.kind != Kind::Sparse
            || info.mutable
        {
            return;
        }
        let Some(value) = accumulated_i32(kp, stmt, body) else {
            return;
        };
        if let Some(p) = product(kp, value, w, &[*loop_id]) {
            found.push(DualMac {
                loop_id: *loop_id,
                weights: w,
                input: p.input,
                offset: p.offset,
            });
        }
    });
    found
}

/// `w[..] as i32 * (x[j] as i32 + off)` as `(w[..] as i32 * x[j] as
/// i32, off)`: the product without the offset, and the offset, whose sum
/// over a row a constant `w` folds into one term (`schedule::specialize`).
pub fn split_offset(kp: &KernelPlan, value: &Expr, w: TensorId, j: LoopId) -> Option<(Expr, Expr)> {
    let p = product(kp, value, w, &[j])?;
    Some((p.without_offset, p.offset?))
}

/// A recognized `w[..] as i32 * (x[j] as i32 [+ off])`.
pub(super) struct Product {
    /// The dense `i8` input `x`.
    pub(super) input: TensorId,
    /// `off`, if there is one.
    pub(super) offset: Option<Expr>,
    /// `w[..] as i32 * x[j] as i32`.
    without_offset: Expr,
}

/// `w[..] as i32 * (x[j] as i32 [+ off])` (either factor first, `off`
/// on either side), `off` a literal or a scalar parameter, `x` read at
/// exactly the loops `j` (one, or a block's number and offset).
pub(super) fn product(kp: &KernelPlan, value: &Expr, w: TensorId, j: &[LoopId]) -> Option<Product> {
    let Expr::Mul(a, b) = value else { return None };
    let (weight, rest) = if is_weight(a, w) {
        (a, b)
    } else if is_weight(b, w) {
        (b, a)
    } else {
        return None;
    };
    let input = |e: &Expr| -> Option<TensorId> {
        let Expr::Cast(inner, ty) = e else {
            return None;
        };
        let Expr::Access(x) = inner.as_ref() else {
            return None;
        };
        let info = kp.tensors.get(x.tensor.index())?.as_ref()?;
        let dense = matches!(info.kind, Kind::Slice | Kind::Array);
        (ty == "i32"
            && dense
            && info.elem == ValueType::I8
            && x.indices.as_slice() == j
            && x.affine.is_empty())
        .then_some(x.tensor)
    };
    let found = |x: TensorId, cast: &Expr, offset: Option<&Expr>| Product {
        input: x,
        offset: offset.cloned(),
        without_offset: Expr::Mul(weight.clone(), Box::new(cast.clone())),
    };
    if let Some(x) = input(rest) {
        return Some(found(x, rest, None));
    }
    let Expr::Add(l, r) = rest.as_ref() else {
        return None;
    };
    let invariant = |e: &Expr| matches!(e, Expr::Literal(_));
    match (input(l), input(r)) {
        (Some(x), None) if invariant(r) => Some(found(x, l, Some(r))),
        (None, Some(x)) if invariant(l) => Some(found(x, r, Some(l))),
        _ => None,
    }
}

/// `w[..] as i32`, every subscript plain.
fn is_weight(e: &Expr, w: TensorId) -> bool {
    let Expr::Cast(inner, ty) = e else {
        return false;
    };
    matches!(inner.as_ref(), Expr::Access(Access { tensor, affine, .. })
        if *tensor == w && affine.is_empty())
        && ty == "i32"
}

/// Whether the tree declares a local with a "produced" flag (a sparse
/// output's guarded insertion), which each accumulation sets.
pub(super) fn has_flagged_local(nodes: &[Node]) -> bool {
    let mut flagged = false;
    super::unroll::visit(nodes, &mut |node| {
        if let Node::Local { produced: true, .. } = node {
            flagged = true;
        }
    });
    flagged
}

/// The value a walk's body adds when it is one accumulation into an `i32`:
/// `r += v` into the statement's own local of an `i32` output, or a sum
/// scoped inside the statement (`i32` by the product pattern).
pub(super) fn accumulated_i32<'a>(
    kp: &KernelPlan,
    stmt: &Stmt,
    body: &'a [Node],
) -> Option<&'a Expr> {
    match body {
        [Node::Accumulate { value }] => {
            let out = kp
                .tensors
                .get(stmt.lhs.tensor.index())
                .and_then(Option::as_ref);
            out.is_some_and(|o| o.elem == ValueType::I32)
                .then_some(value)
        }
        [Node::SumAdd { value, .. }] => Some(value),
        _ => None,
    }
}
