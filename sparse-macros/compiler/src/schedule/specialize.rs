//! Weights compiled into code (`#[specialize(w = W)]`): when operand `w`
//! is the constant `W` of the block, the loops over `w`'s levels are
//! written out at expansion time, one copy of the body per stored entry,
//! with its coordinates, positions and value as constants. What remains at
//! run time is the arithmetic on the other operands at fixed offsets
//! (`ldrsb r, [x, #col]` on a Cortex-M): no position, coordinate or value
//! loads, no loop tests.
//!
//! A statement's loops are compiled when every level of `w` is walked by
//! a loop of its own, outermost level first (a dense level by a `for`
//! over its index, any other by a walk over its entries), none through a
//! window, duplicate segments or parallel chunks, and `W` stores at most
//! `max_entries` entries. Otherwise the statement keeps its loops, which
//! read `W`'s arrays, and the schedule says why.

use super::parallel::windowed;
use super::Chunks;
use crate::plan::KernelPlan;
use crate::sparsifier::{Expr, LoopId, Node, Stmt, StmtPlan, TensorId};
use crate::vocab::{parent_range, ParentRange};

/// The loops of `sp` compiled over the stored entries of specialized
/// operand `t`, outermost first (one per level), or why they are not;
/// `Ok(None)` when the statement does not read `t`.
pub fn compiled_loops(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    t: TensorId,
    chunks: Option<Chunks>,
) -> Result<Option<Vec<LoopId>>, String> {
    let Some(access) = stmt.rhs.accesses().into_iter().find(|a| a.tensor == t) else {
        return Ok(None);
    };
    let Some(info) = kp.tensors.get(t.index()).and_then(Option::as_ref) else {
        return Ok(None);
    };
    let Some(spec) = &kp.specialized else {
        return Ok(None);
    };
    let entries = spec.storage().map_or(0, |s| s.entries) as u64;
    if entries > spec.max_entries {
        return Err(format!(
            "`{}` stores {entries} entries, more than `max_entries = {}`",
            spec.constant.name, spec.max_entries
        ));
    }
    // Dense levels are written out whole, empty rows too: a tall constant
    // with few entries would otherwise cost a copy per row.
    let blocks = written_blocks(spec.storage(), &info.levels);
    if blocks > spec.max_entries.saturating_mul(2) {
        return Err(format!(
            "its levels would be written out as {blocks} blocks (dense levels count every \
             position), more than twice `max_entries = {}`",
            spec.max_entries
        ));
    }
    if kp.sliced(t).is_some() {
        return Err("it is a slice walked in place".to_string());
    }
    let mut nodes: &[Node] = &sp.tree;
    let mut loops = Vec::new();
    for (l, level) in info.levels.iter().enumerate() {
        if info.segmented(l) {
            return Err(format!(
                "level {l} is non-unique: its duplicates are walked as segments"
            ));
        }
        if windowed(kp, stmt, t, l) {
            return Err(format!("level {l} is read through a window"));
        }
        let plain = access.is_plain(level.dim);
        let own = access.indices.get(level.dim).copied();
        let found = find(nodes, &mut |node| match node {
            Node::For { loop_id, .. } => level.ty.is_dense() && plain && own == Some(*loop_id),
            Node::Iterate { space, .. } => space.tensor == t && space.level.index() == l,
            _ => false,
        });
        let Some(node) = found else {
            return Err(format!(
                "no loop of its own walks level {l} (it is co-iterated, or read by lookup)"
            ));
        };
        let (Node::For { loop_id, body, .. } | Node::Iterate { loop_id, body, .. }) = node else {
            return Err(format!("level {l} is not walked by a loop"));
        };
        if chunks.is_some_and(|c| c.loop_id == *loop_id) {
            return Err(format!("level {l}'s loop runs in parallel chunks"));
        }
        loops.push(*loop_id);
        nodes = body;
    }
    Ok(Some(loops))
}

/// Under a compiled walk, `r += w as i32 * (x[j] as i32 + off)` with
/// integer weights: the product without `off` and `off`. The walk then
/// adds `off * (the row's weights summed)`, a constant, once per row
/// instead of `off` once per entry (the same `i32` sum: integer sums wrap
/// and multiplication distributes over them).
pub fn folded_offset(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    t: TensorId,
    last: LoopId,
) -> Option<(Expr, Expr)> {
    // A custom reduction folds its own way; a sparse output's flagged
    // local records each entry.
    if stmt.reduce.is_some() || super::dual_mac::has_flagged_local(&sp.tree) {
        return None;
    }
    let ints = kp
        .specialized
        .as_ref()
        .and_then(|s| s.storage())
        .is_some_and(|s| {
            s.values
                .iter()
                .all(|v| matches!(v, crate::model::Scalar::Int(_)))
        });
    if !ints {
        return None;
    }
    let mut found = None;
    super::unroll::visit(&sp.tree, &mut |node| {
        if let Node::Iterate { loop_id, body, .. } | Node::For { loop_id, body, .. } = node {
            if *loop_id != last {
                return;
            }
            if let [Node::Accumulate { value } | Node::SumAdd { value, .. }] = body.as_slice() {
                found = super::dual_mac::split_offset(kp, value, t, last);
            }
        }
    });
    found
}

/// How many blocks writing out every level of `storage` makes: the
/// positions of each level, summed (a dense level has `size` under each
/// parent entry, any other level its stored entries).
fn written_blocks(
    storage: Option<&crate::model::SparseStorage>,
    levels: &[crate::plan::Lvl],
) -> u64 {
    let Some(storage) = storage else { return 0 };
    let mut parents: u64 = 1;
    let mut total: u64 = 0;
    for (l, lvl) in levels.iter().enumerate() {
        let size = storage.lvl_sizes.get(l).copied().unwrap_or(0);
        // The storage rule of `sparse_vocab`: a fixed count under each
        // parent entry (dense, singleton, n:m), or the level's own entries.
        let count = match parent_range(lvl.ty.format, usize::try_from(size).unwrap_or(usize::MAX)) {
            ParentRange::Fixed { count } => parents.saturating_mul(count as u64),
            ParentRange::Positions { .. } if l + 1 == levels.len() => storage.entries as u64,
            ParentRange::Positions { .. } => match storage.levels.get(l) {
                Some(stored) => (stored.coordinates.len() / stored.stride.max(1)) as u64,
                None => return u64::MAX,
            },
        };
        total = total.saturating_add(count);
        parents = count;
    }
    total
}

/// The first node under `nodes` (depth first, not inside co-iteration)
/// for which `f` holds.
fn find<'a>(nodes: &'a [Node], f: &mut impl FnMut(&Node) -> bool) -> Option<&'a Node> {
    for node in nodes {
        if f(node) {
            return Some(node);
        }
        if let Node::For { body, .. } | Node::Iterate { body, .. } = node {
            if let Some(found) = find(body, f) {
                return Some(found);
            }
        }
    }
    None
}
