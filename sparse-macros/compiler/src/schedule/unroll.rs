//! Unrolled walks (`#[unroll(n)]`): an innermost loop over the stored
//! entries of a compressed or loose compressed level runs `n` entries per
//! step, the body written out `n` times, and the rest of each range one
//! entry at a time. Fewer loop tests and branches per entry where the
//! compiler does not unroll on its own (opt-level `s`, Cortex-M).
//!
//! A walk qualifies when its body holds no loop, its level has a
//! coordinate per entry (not duplicate segments of a non-unique level),
//! its coordinates are the loop's (no window of an affine subscript or a
//! slice), and it is not the loop that runs in parallel chunks.

use super::parallel::windowed;
use super::Chunks;
use crate::plan::KernelPlan;
use crate::sparsifier::{LoopId, Node, Stmt, StmtPlan};
use crate::vocab::LevelFormat;

/// The largest factor `#[unroll(n)]` accepts: beyond it the copies cost
/// more code than the loop tests they save.
pub const MAX_UNROLL: u32 = 16;

/// The innermost walks of `sp` that `#[unroll(n)]` unrolls, or why none.
pub fn innermost_walks(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    chunks: Option<Chunks>,
) -> Result<Vec<LoopId>, String> {
    let mut found = Vec::new();
    let mut innermost = false;
    visit(&sp.tree, &mut |node| {
        let Node::Iterate {
            loop_id,
            space,
            body,
            ..
        } = node
        else {
            return;
        };
        if body.iter().any(is_loop) {
            return;
        }
        innermost = true;
        let (t, l) = (space.tensor, space.level.index());
        let own = kp
            .tensors
            .get(t.index())
            .and_then(Option::as_ref)
            .is_some_and(|info| !info.segmented(l));
        let format = matches!(
            space.level_type.format,
            LevelFormat::Compressed | LevelFormat::LooseCompressed
        );
        let chunked = chunks.is_some_and(|c| c.loop_id == *loop_id);
        if format && own && !chunked && !windowed(kp, stmt, t, l) {
            found.push(*loop_id);
        }
    });
    if !found.is_empty() {
        return Ok(found);
    }
    Err(if innermost {
        "its innermost walk is not over the entries of a compressed level one by one \
         (duplicate segments, a window, or the loop that runs in chunks)"
            .to_string()
    } else {
        "it has no innermost walk over stored entries".to_string()
    })
}

/// Whether `node` is a loop.
fn is_loop(node: &Node) -> bool {
    matches!(
        node,
        Node::For { .. } | Node::Iterate { .. } | Node::CoIterate { .. }
    )
}

/// Calls `f` on every node of `nodes`, outermost first.
pub(super) fn visit(nodes: &[Node], f: &mut impl FnMut(&Node)) {
    for node in nodes {
        f(node);
        match node {
            Node::For { body, .. } | Node::Iterate { body, .. } => visit(body, f),
            Node::CoIterate { phases, .. } => {
                for phase in phases {
                    for case in &phase.cases {
                        visit(&case.body, f);
                    }
                }
            }
            _ => {}
        }
    }
}
