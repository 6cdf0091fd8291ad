//! Two-way merges by comparison: a co-iteration of exactly two sparse
//! levels (no dense range) whose coordinates are ordered and unique steps
//! as a hand-written merge does. The general shape takes the smaller
//! coordinate (`min`), then tests each cursor against it to pick the case
//! and again to advance it: a `min` and four equality tests per step. With
//! two cursors the three outcomes are told apart by comparing the two
//! coordinates: `a < b` (only `a`'s case, `a` advances), `b < a` (only
//! `b`'s), else both; each arm knows its case and which cursors move.
//! (Measured on the sparse add: the general step was ~27 instructions.)
//!
//! Lowered by `codegen/kernel/two_way_merge.rs`.

use crate::plan::KernelPlan;
use crate::sparsifier::{LoopId, Node, StmtPlan};

/// The co-iterations of `sp` merged by comparison (see the module docs):
/// two spaces, no universe, both ordered, unique and not walked by
/// duplicate segments; loops in `taken` keep their strategy.
pub fn two_way_merges(kp: &KernelPlan, sp: &StmtPlan, taken: &[LoopId]) -> Vec<LoopId> {
    let mut out = Vec::new();
    super::unroll::visit(&sp.tree, &mut |node| {
        let Node::CoIterate {
            loop_id,
            spaces,
            universe: None,
            ..
        } = node
        else {
            return;
        };
        let plain = |s: &crate::sparsifier::Space| {
            let lv = s.level.index();
            s.level_type.is_ordered()
                && s.level_type.is_unique()
                && kp
                    .tensors
                    .get(s.tensor.index())
                    .and_then(Option::as_ref)
                    .is_some_and(|info| !info.segmented(lv))
        };
        if spaces.len() == 2 && spaces.iter().all(plain) && !taken.contains(loop_id) {
            out.push(*loop_id);
        }
    });
    out
}
