//! Int8 dot products over 2:4 rows as one call: the walk over the groups
//! of an int8 layer whose weights are `structured[2, 4]`,
//!
//! ```text
//! for jb in 0..w.dim1                       // the groups of one row
//!   iterate jin in w.lvl2 structured[2, 4]  // two entries per group
//!     r += w[i, jb, jin] as i32 * (x[jb, jin] as i32 + off)
//! ```
//!
//! with `w` an `i8` sparse operand whose last level is `structured[2, 4]`
//! under a dense level of the groups, `x` a dense `i8` vector read at the
//! group's column (`x` split by the same 4-column blocks: `4 jb + jin`)
//! and `off` loop-invariant, becomes one call to sparse-core's
//! `dot_s8_2_4`. With 2-bit coordinates packed four per byte (`crdWidth =
//! 2`) on targets with the DSP extension it reads eight groups'
//! coordinates in one word and sums each pair of stored values with one
//! `SMLAD` (sparse-core's `kernel/dual_mac_2_4.rs`); elsewhere a plain
//! loop, with the same bits.
//!
//! The loop qualifies when it is not chunked, written out or unrolled,
//! neither level is read through a window or a slice, and the sum is a
//! plain `i32` sum (no custom reduction, no flag of a sparse output's
//! insertion).

use super::dual_mac::{has_flagged_local, product};
use super::parallel::windowed;
use crate::plan::{KernelPlan, Kind};
use crate::sparsifier::demap::DimPart;
use crate::sparsifier::{Expr, LoopId, Node, Stmt, StmtPlan, TensorId};
use crate::vocab::{LevelFormat, ValueType};

/// One loop over 2:4 groups summed by `dot_s8_2_4`.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupMac {
    /// The dense loop over the groups of a row.
    pub loop_id: LoopId,
    /// The walk over each group's two entries (inside `loop_id`).
    pub walk: LoopId,
    /// The `i8` sparse operand.
    pub weights: TensorId,
    /// Its `structured[2, 4]` level (the last).
    pub level: usize,
    /// The dense `i8` vector read at `4 group + coordinate`.
    pub input: TensorId,
    /// The loop-invariant term added to each input, if any.
    pub offset: Option<Expr>,
}

/// The dense loops of `sp` over 2:4 groups that `dot_s8_2_4` sums, except
/// loops in `taken` (chunked, written out, unrolled or compiled).
pub fn group_macs(kp: &KernelPlan, sp: &StmtPlan, stmt: &Stmt, taken: &[LoopId]) -> Vec<GroupMac> {
    let mut found = Vec::new();
    if stmt.reduce.is_some() || has_flagged_local(&sp.tree) {
        return found;
    }
    super::unroll::visit(&sp.tree, &mut |node| {
        let Node::For { loop_id, body, .. } = node else {
            return;
        };
        let [Node::Iterate {
            loop_id: walk,
            space,
            body: inner,
            ..
        }] = body.as_slice()
        else {
            return;
        };
        let (w, l) = (space.tensor, space.level.index());
        let Some(info) = kp.tensors.get(w.index()).and_then(Option::as_ref) else {
            return;
        };
        let groups_level = l.checked_sub(1).and_then(|g| info.levels.get(g));
        let groups_dense = groups_level.is_some_and(|g| g.ty.is_dense());
        if taken.contains(loop_id)
            || !groups_dense
            || l + 1 != info.levels.len()
            || space.level_type.format != (LevelFormat::Structured { n: 2, m: 4 })
            || windowed(kp, stmt, w, l)
            || kp.sliced(w).is_some()
            || info.elem != ValueType::I8
            || info.kind != Kind::Sparse
            || info.mutable
        {
            return;
        }
        // The weights read at the groups' loop and the walk's.
        let (Some(gdim), Some(edim)) = (
            groups_level.map(|g| g.dim),
            info.levels.get(l).map(|e| e.dim),
        ) else {
            return;
        };
        let Some(value) = super::dual_mac::accumulated_i32(kp, stmt, inner) else {
            return;
        };
        let Some(p) = product(kp, value, w, &[*loop_id, *walk]) else {
            return;
        };
        let reads_groups = weight_indices(value, w)
            .is_some_and(|ix| ix.get(gdim) == Some(loop_id) && ix.get(edim) == Some(walk));
        if reads_groups && columns_of_four(kp, p.input) {
            found.push(GroupMac {
                loop_id: *loop_id,
                walk: *walk,
                weights: w,
                level: l,
                input: p.input,
                offset: p.offset,
            });
        }
    });
    found
}

/// The subscripts of `w` in the product `value`.
fn weight_indices(value: &Expr, w: TensorId) -> Option<&[LoopId]> {
    let Expr::Mul(a, b) = value else { return None };
    [a, b].into_iter().find_map(|f| match f.as_ref() {
        Expr::Cast(inner, _) => match inner.as_ref() {
            Expr::Access(x) if x.tensor == w => Some(x.indices.as_slice()),
            _ => None,
        },
        _ => None,
    })
}

/// Whether dense operand `x` is one vector split into blocks of four (its
/// element `4 jb + jin` at subscripts `[jb, jin]`).
fn columns_of_four(kp: &KernelPlan, x: TensorId) -> bool {
    let Some(info) = kp.tensors.get(x.index()).and_then(Option::as_ref) else {
        return false;
    };
    info.shape.len() == 1
        && info.parts.as_deref()
            == Some(&[
                DimPart::Blocks { dim: 0, block: 4 },
                DimPart::Within { dim: 0, block: 4 },
            ])
}
