//! Gathered float dot products as one call (`#[reassociate]`): the
//! innermost walk of an SpMV-like kernel,
//!
//! ```text
//! iterate j in a.lvl1 compressed
//!   r += a[i, j] * x[j]          // either factor first
//! ```
//!
//! with `a` an `f32`/`f64` sparse operand walked at its last level and `x`
//! a dense vector of the same type indexed by the walk's own index,
//! becomes one call to sparse-core's `dot_gather`, which sums the row in 8
//! partial sums (AVX-512 or AVX2 vectors in the kernel's copies compiled
//! for them, [`super::vector_isa`]; a portable loop in registers
//! otherwise; the same bits on every path: sparse-core's
//! `kernel/gather_dot.rs`).
//! The partial sums round differently from the in-order sum, so the rule
//! applies only under `#[reassociate]`; without it the walk stays in
//! order, bit for bit today's.
//!
//! The walk qualifies on the same terms as the int8 rule
//! ([`super::dual_mac`]): its level stores a coordinate per entry
//! (compressed or loose compressed, not duplicate segments, not through a
//! window, not packed), it is not the loop that runs in chunks, written
//! out or unrolled, the sum is a plain sum (no custom reduction, no flag
//! of a sparse output's insertion) and not fused (`#[fma]` keeps its
//! walk: `dot_gather` rounds the product and the sum apart).

use super::dual_mac::has_flagged_local;
use super::parallel::windowed;
use crate::plan::{KernelPlan, Kind};
use crate::sparsifier::{Access, Expr, LoopId, Node, Stmt, StmtPlan, TensorId};
use crate::vocab::{LevelFormat, ValueType};

/// One walk summed by `dot_gather`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherDot {
    /// The walk (over the last level of `values`).
    pub loop_id: LoopId,
    /// The float sparse operand.
    pub values: TensorId,
    /// The dense vector read at the walk's coordinates.
    pub input: TensorId,
    /// `f32` or `f64`, of both and of the sum.
    pub elem: ValueType,
    /// The walk's coordinates strictly increase (an ordered, unique
    /// level, which validation checks): `dot_gather_increasing`, one run
    /// test per row instead of one per step.
    pub increasing: bool,
}

/// The innermost walks of `sp` that `dot_gather` sums under
/// `#[reassociate]`, except loops in `taken` (chunked, written out,
/// unrolled or compiled).
pub fn gather_dots(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    taken: &[LoopId],
) -> Vec<GatherDot> {
    let mut found = Vec::new();
    if kp.def.reassociate.is_none() || kp.def.fma.is_some() || stmt.reduce.is_some() {
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
        let (a, l) = (space.tensor, space.level.index());
        let Some(info) = kp.tensors.get(a.index()).and_then(Option::as_ref) else {
            return;
        };
        let format = matches!(
            space.level_type.format,
            LevelFormat::Compressed | LevelFormat::LooseCompressed
        );
        let elem = info.elem;
        if flagged
            || taken.contains(loop_id)
            || l + 1 != info.levels.len()
            || !format
            || info.segmented(l)
            || !info.levels[l].own_coordinates()
            || windowed(kp, stmt, a, l)
            || kp.sliced(a).is_some()
            || kp.packed_coordinates(a)
            || !matches!(elem, ValueType::F32 | ValueType::F64)
            || info.kind != Kind::Sparse
            || info.mutable
        {
            return;
        }
        let value = match body.as_slice() {
            [Node::Accumulate { value }] => {
                let out = kp
                    .tensors
                    .get(stmt.lhs.tensor.index())
                    .and_then(Option::as_ref);
                if out.is_none_or(|o| o.elem != elem) {
                    return;
                }
                value
            }
            [Node::SumAdd { value, .. }] => value,
            _ => return,
        };
        if let Some(input) = product(kp, value, a, *loop_id, elem) {
            found.push(GatherDot {
                loop_id: *loop_id,
                values: a,
                input,
                elem,
                increasing: space.level_type.is_ordered() && space.level_type.is_unique(),
            });
        }
    });
    found
}

/// `a[..] * x[j]` or `x[j] * a[..]`, every subscript plain, `x` a dense
/// vector of `elem` read at exactly `j`: `x`.
fn product(
    kp: &KernelPlan,
    value: &Expr,
    a: TensorId,
    j: LoopId,
    elem: ValueType,
) -> Option<TensorId> {
    let Expr::Mul(l, r) = value else { return None };
    let is_a = |e: &Expr| matches!(e, Expr::Access(Access { tensor, affine, .. }) if *tensor == a && affine.is_empty());
    let input = |e: &Expr| -> Option<TensorId> {
        let Expr::Access(x) = e else { return None };
        let info = kp.tensors.get(x.tensor.index())?.as_ref()?;
        (matches!(info.kind, Kind::Slice | Kind::Array)
            && info.elem == elem
            && x.indices.as_slice() == [j]
            && x.affine.is_empty())
        .then_some(x.tensor)
    };
    if is_a(l) {
        input(r)
    } else if is_a(r) {
        input(l)
    } else {
        None
    }
}
