//! Row cursors: a dense loop over the rows of a CSR-like operand whose
//! body walks one row and stores one output element, `for i in 0..n { r =
//! 0; walk a[i, :]; y[i] = r }` (SpMV and every row reduction), reads its
//! rows from a cursor (each row starts where the previous one ended: one
//! position load per row) and, when the output is only written, writes
//! its elements through a `slots` cursor (a post-incremented store). On
//! the Cortex-M4F the SpMV row costs 10 instructions instead of 16
//! (`bench/firmware`). Codegen lowers the decision (`codegen/kernel/rows.rs`).
//!
//! The loop qualifies when its body is exactly a local, one walk over
//! level 1 of a sparse input and a store; that level is compressed with a
//! coordinate per entry (no duplicate segments, no packed 2-bit
//! coordinates, no block parts), below a dense level 0 this loop indexes;
//! neither level is read through an affine subscript or a slice; the walk
//! is not unrolled (an unrolled walk reads its own range); and, under
//! `#[parallel]`, the loop is the one split into chunks (each chunk then
//! starts its cursor at its first row) or outside any chunk.

use super::Chunks;
use crate::plan::{KernelPlan, Kind, TensorInfo};
use crate::sparsifier::{AssignOp, LoopId, Node, OutputStrategy, Stmt, StmtPlan, TensorId, Value};
use crate::vocab::LevelFormat;

/// A dense loop that reads the rows of `tensor`'s level 1 through a
/// cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowCursor {
    /// The dense loop over the rows.
    pub loop_id: LoopId,
    /// The operand whose level 1 the loop walks row after row.
    pub tensor: TensorId,
    /// The output written once per row through a `slots` cursor, if any.
    pub slots: Option<TensorId>,
}

/// The row cursors of `sp`'s loops (see the module docs).
pub fn row_cursors(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    chunks: Option<Chunks>,
    unrolled: &[(LoopId, u32)],
) -> Vec<RowCursor> {
    let mut out = Vec::new();
    let cx = Context {
        kp,
        sp,
        stmt,
        unrolled,
    };
    // Under `#[parallel]` only the split loop (the outermost) qualifies:
    // a loop nested in a chunk reads its rows itself.
    if let Some(c) = chunks {
        for node in &sp.tree {
            if let Node::For { loop_id, body, .. } = node {
                if *loop_id == c.loop_id {
                    out.extend(cx.cursor(*loop_id, body));
                }
            }
        }
        return out;
    }
    super::unroll::visit(&sp.tree, &mut |node| {
        if let Node::For { loop_id, body, .. } = node {
            out.extend(cx.cursor(*loop_id, body));
        }
    });
    out
}

struct Context<'a> {
    kp: &'a KernelPlan,
    sp: &'a StmtPlan,
    stmt: &'a Stmt,
    unrolled: &'a [(LoopId, u32)],
}

impl Context<'_> {
    fn info(&self, t: TensorId) -> Option<&TensorInfo> {
        self.kp.tensors.get(t.index())?.as_ref()
    }

    /// The cursor of the dense loop `l` with `body`, if it qualifies.
    fn cursor(&self, l: LoopId, body: &[Node]) -> Option<RowCursor> {
        let [Node::Local { init, .. }, Node::Iterate {
            space,
            loop_id: row_loop,
            ..
        }, Node::Store { access, op, value }] = body
        else {
            return None;
        };
        if self.unrolled.iter().any(|&(u, _)| u == *row_loop) {
            return None;
        }
        let t = space.tensor;
        let info = self.info(t)?;
        let (l0, l1) = (info.levels.first()?, info.levels.get(1)?);
        let input = self
            .stmt
            .rhs
            .accesses()
            .into_iter()
            .find(|a| a.tensor == t)?;
        let in_place =
            self.sp.output.strategy == OutputStrategy::InPlace && self.stmt.lhs.tensor == t;
        let row_level = space.level.index() == 1
            && space.level_type.format == LevelFormat::Compressed
            && info.kind == Kind::Sparse
            && info.parts.is_none()
            && l0.ty.is_dense()
            && l1.own_coordinates()
            && !in_place
            && !info.segmented(1)
            && self.kp.sliced(t).is_none()
            && !self.kp.packed_coordinates(t)
            // Rows read through affine subscripts (`a[i + 1, j]`) start
            // elsewhere, and windows narrow them.
            && input.affine_dim(l0.dim).is_none()
            && input.affine_dim(l1.dim).is_none()
            // Level 0 positioned by this loop.
            && input.indices.get(l0.dim) == Some(&l);
        if !row_level {
            return None;
        }
        // The output written once per row and never read (not even at
        // another index: its slice then has no other user while the
        // cursor's pointer lives).
        let y = access.tensor;
        let yinfo = self.info(y)?;
        let slots = (init.is_none()
            && !self.stmt.reads_output()
            && *op == AssignOp::Assign
            && *value == Value::Local
            && matches!(yinfo.kind, Kind::Slice | Kind::Array)
            && yinfo.shape.len() == 1
            && access.indices == [l]
            && y != t)
            .then_some(y);
        Some(RowCursor {
            loop_id: l,
            tensor: t,
            slots,
        })
    }
}
