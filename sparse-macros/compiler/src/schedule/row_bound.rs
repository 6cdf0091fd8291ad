//! Rows written into slots reserved for their bound: when the loop whose
//! iterations append one segment of a sparse output (the schedule's
//! `segment_append`) walks or merges sparse levels, every iteration
//! advances at least one of their cursors and inserts at most one entry,
//! so the row holds at most as many entries as those levels store under
//! their parents together. The kernel reserves that many slots once per
//! row (sparse-core's `Segment::row`) and writes each entry into its slot
//! (one test for the slot count, the order and the range) instead of
//! pushing it into two buffers.
//!
//! A merge's exhaustion phase that copies one operand's entries unchanged
//! (`c = a + b` once `b`'s row has run out) appends the rest of that row
//! in one step: the coordinates and values between the cursor and the
//! row's end, copied (`Row::extend_from`).

use crate::plan::{KernelPlan, Kind};
use crate::sparsifier::{Expr, LoopId, Node, Space, Stmt, StmtPlan, TensorId, Value};

/// A row written into reserved slots.
#[derive(Clone, Debug, PartialEq)]
pub struct RowBound {
    /// The loop over the output's last level (the segment's loop).
    pub loop_id: LoopId,
    /// The sparse output.
    pub output: TensorId,
    /// The levels the loop walks or merges: their entries under the current
    /// parents bound the row's.
    pub spaces: Vec<Space>,
    /// The levels whose exhaustion phase copies the rest of their row in
    /// one step.
    pub tails: Vec<Space>,
}

/// The row bound of statement `stmt`, whose segment loop is `segment`:
/// `Some` when that loop walks one sparse level or merges several without
/// the whole range (a loop that visits every coordinate has only the
/// level size as a bound).
pub fn row_bound(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    segment: (LoopId, TensorId),
    taken: &[LoopId],
) -> Option<RowBound> {
    let (l, output) = segment;
    if taken.contains(&l) {
        return None;
    }
    let mut found = None;
    super::unroll::visit(&sp.tree, &mut |node| match node {
        Node::Iterate { loop_id, space, .. } if *loop_id == l => {
            found = Some((vec![*space], Vec::new()));
        }
        Node::CoIterate {
            loop_id,
            spaces,
            universe: None,
            phases,
            ..
        } if *loop_id == l => {
            let tails = phases
                .iter()
                .filter_map(|ph| copied_tail(kp, stmt, ph))
                .collect();
            found = Some((spaces.clone(), tails));
        }
        _ => {}
    });
    let (spaces, tails) = found?;
    Some(RowBound {
        loop_id: l,
        output,
        spaces,
        tails,
    })
}

/// The level whose rest of the row phase `ph` copies unchanged: one level,
/// not the whole range, one case inserting exactly that tensor's value at
/// the output's own indices, read from a plain last level with a
/// coordinate buffer of its own and one value per entry, of the output's
/// element type.
fn copied_tail(kp: &KernelPlan, stmt: &Stmt, ph: &crate::sparsifier::Phase) -> Option<Space> {
    let ([space], [case], false) = (ph.spaces.as_slice(), ph.cases.as_slice(), ph.universal) else {
        return None;
    };
    let [Node::Insert {
        access,
        value: Value::Expr(Expr::Access(a)),
    }] = case.body.as_slice()
    else {
        return None;
    };
    let t = space.tensor;
    let info = kp.tensors.get(t.index())?.as_ref()?;
    let out = kp.tensors.get(access.tensor.index())?.as_ref()?;
    let last = info.levels.last()?;
    let plain = a.affine.is_empty() && access.affine.is_empty();
    let enc = kp.encoding_named(info.encoding.as_ref()?)?;
    let copies = *access == stmt.lhs
        && a.tensor == t
        && a.indices == access.indices
        && plain
        && info.kind == Kind::Sparse
        && info.elem == out.elem
        && info.parts.is_none()
        && space.level.index() + 1 == info.levels.len()
        && last.own_coordinates()
        && last.ty.is_unique()
        && !info.segmented(space.level.index())
        && enc.explicit_val.is_none()
        && !enc.is_sliced()
        && !kp.packed_coordinates(t)
        && case.present == ph.spaces;
    copies.then_some(*space)
}
