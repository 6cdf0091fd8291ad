//! Window skips: a dense loop over `v` whose body does nothing unless a
//! window of stored coordinates that `v` offsets holds an entry (`y[i] =
//! x[i + k] * f[k]` into a sparse `y`: only the `i` whose window `i .. i +
//! len(f)` of `x` holds a stored coordinate insert anything) jumps from one
//! such `v` to the next instead of visiting every `v` of its range. Its
//! cost then follows the stored entries, not the dimension's size: a
//! sparse output of `2^62` elements over a handful of entries takes a
//! handful of steps, where the dense walk would never end.
//!
//! The loop qualifies when its body is *gated* by a walk `g` (the gate)
//! over a level `L` of a sparse operand `t` read through a window (or an
//! intersection of such a level with others): every
//! effect of the body (an accumulation, a store, an insertion, a
//! workspace) happens inside `g`'s walk, except the final store or
//! insertion of a local that records whether anything was produced (which
//! then stores nothing). Moreover:
//! - `L` stores sorted coordinates of its own kind (compressed, loose
//!   compressed or singleton; no packed 2-bit coordinates, no block map),
//!   so one binary search (`__private::next_window`) finds the next
//!   offset whose window holds one;
//! - `v` has a positive coefficient in `L`'s subscript, and no subscript of
//!   a level above `L` uses `v` (the window's parent range is the same for
//!   every `v`);
//! - every loop between `v` and `g` that the window depends on (a variable
//!   of `t`'s subscripts down to `L`) is a reduction: a dense loop, or a
//!   walk over a level of `t` above `L` (2-D windows: the rows a window
//!   spans). They form the *probe*: per step, the next `v` is the least
//!   one any probe iteration's window allows. Loops the window does not
//!   depend on (the output's other indices) are not in the probe.
//!
//! Each candidate is a lower bound of the next `v` whose body does
//! something (with a coefficient `a > 1` the window at the candidate may
//! still be empty; the next step then starts past it), so the skip never
//! changes a result. Codegen lowers it in `codegen/kernel/window_skip.rs`.
//! A body that is a union (`x[i + k] * f[k] + b[i]`) does work outside
//! any window and keeps the dense walk.

use crate::plan::KernelPlan;
use crate::sparsifier::{LoopId, Node, Role, Space, Stmt, StmtPlan, TensorId, Value};
use crate::vocab::LevelFormat;

/// A dense loop that jumps to the next offset whose window holds an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowSkip {
    /// The dense loop.
    pub loop_id: LoopId,
    /// The walk over the windowed level (the gate).
    pub gate: LoopId,
    /// The operand whose level the gate walks.
    pub tensor: TensorId,
    /// That level.
    pub level: usize,
    /// The dense loop's coefficient in the level's subscript (positive).
    pub coefficient: u64,
    /// The loops between the dense loop and the gate that the window
    /// depends on, outermost first: walked by the probe.
    pub probe: Vec<LoopId>,
}

/// The window skips of `sp`'s dense loops (see the module docs); `taken`
/// are the loops another strategy already runs.
pub fn window_skips(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    taken: &[LoopId],
) -> Vec<WindowSkip> {
    let mut out = Vec::new();
    super::unroll::visit(&sp.tree, &mut |node| {
        let Node::For { loop_id, body, .. } = node else {
            return;
        };
        if taken.contains(loop_id) {
            return;
        }
        let mut path = Vec::new();
        if let Some(skip) = find_gate(kp, stmt, taken, *loop_id, body, body, &mut path) {
            out.push(skip);
        }
    });
    out
}

/// Depth-first over `nodes` (inside the loop `v`, whose whole body is
/// `body`) for a gate; `path` holds the loops entered so far.
fn find_gate<'a>(
    kp: &KernelPlan,
    stmt: &Stmt,
    taken: &[LoopId],
    v: LoopId,
    body: &[Node],
    nodes: &'a [Node],
    path: &mut Vec<&'a Node>,
) -> Option<WindowSkip> {
    for node in nodes {
        for (g, space) in gate_spaces(node) {
            let gate = (g, space.tensor, space.level.index());
            if let Some(skip) = qualifies(kp, stmt, taken, v, gate, path) {
                if quiet_without(body, g) {
                    return Some(skip);
                }
            }
        }
        let (Node::For { body: inner, .. } | Node::Iterate { body: inner, .. }) = node else {
            continue;
        };
        path.push(node);
        let found = find_gate(kp, stmt, taken, v, body, inner, path);
        path.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The levels whose empty windows leave the reduction walk `node` idle:
/// the level of a walk, or every level of an intersection (a merge that
/// runs only while all of its levels have entries left, `a[i + k] * f[k]`
/// over two sparse operands).
fn gate_spaces(node: &Node) -> Vec<(LoopId, Space)> {
    match node {
        Node::Iterate {
            loop_id,
            role: Role::Reduction,
            space,
            ..
        } => vec![(*loop_id, *space)],
        Node::CoIterate {
            loop_id,
            role: Role::Reduction,
            spaces,
            universe: None,
            phases,
            ..
        } => spaces
            .iter()
            .filter(|s| phases.iter().all(|p| !p.universal && p.spaces.contains(s)))
            .map(|s| (*loop_id, *s))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `nodes` do nothing observable when the walk `gate` runs no
/// iteration (see the module docs).
fn quiet_without(nodes: &[Node], gate: LoopId) -> bool {
    nodes.iter().all(|n| match n {
        Node::Iterate { loop_id, .. } | Node::CoIterate { loop_id, .. } if *loop_id == gate => true,
        Node::Local { .. } | Node::SumLocal { .. } => true,
        Node::Store {
            value: Value::LocalIfProduced,
            ..
        }
        | Node::Insert {
            value: Value::LocalIfProduced,
            ..
        } => true,
        Node::For { body, .. } | Node::Iterate { body, .. } => quiet_without(body, gate),
        _ => false,
    })
}

/// The skip of loop `v` through the walk `gate` (its loop, tensor and
/// level), entered through `path`, if the level and the loops the window
/// depends on qualify.
fn qualifies(
    kp: &KernelPlan,
    stmt: &Stmt,
    taken: &[LoopId],
    v: LoopId,
    (g, t, level): (LoopId, TensorId, usize),
    path: &[&Node],
) -> Option<WindowSkip> {
    let info = kp.tensors.get(t.index())?.as_ref()?;
    if info.parts.is_some() || taken.contains(&g) {
        return None;
    }
    let lvl = info.levels.get(level)?;
    let sorted = matches!(
        lvl.ty.format,
        LevelFormat::Compressed | LevelFormat::LooseCompressed | LevelFormat::Singleton
    ) && lvl.ty.is_ordered();
    if !sorted {
        return None;
    }
    let access = stmt.rhs.accesses().into_iter().find(|a| a.tensor == t)?;
    let sub = access.affine_dim(lvl.dim)?;
    if *access.indices.get(lvl.dim)? != g || !sub.terms.contains(&(g, 1)) {
        return None;
    }
    let coefficient = sub
        .terms
        .iter()
        .find_map(|&(l, c)| (l == v && c > 0).then_some(c.unsigned_abs()))?;
    // The variables the window's parent range and offset depend on: every
    // subscript of the levels above `L`, and `L`'s own but the gate's.
    let mut needed: Vec<LoopId> = sub.terms.iter().map(|&(l, _)| l).collect();
    for above in info.levels.get(..level)? {
        let d = above.dim;
        match access.affine_dim(d) {
            Some(a) => needed.extend(a.terms.iter().map(|&(l, _)| l)),
            None => needed.push(*access.indices.get(d)?),
        }
        if access
            .affine_dim(d)
            .is_some_and(|a| a.terms.iter().any(|&(l, _)| l == v))
            || (access.affine_dim(d).is_none() && access.indices.get(d) == Some(&v))
        {
            return None;
        }
    }
    needed.retain(|&l| l != g && l != v);
    let mut probe = Vec::new();
    for node in path {
        let included = match node {
            Node::For {
                loop_id,
                role: Role::Reduction,
                ..
            } => needed.contains(loop_id).then_some(*loop_id),
            Node::Iterate {
                loop_id,
                role: Role::Reduction,
                space,
                ..
            } if space.tensor == t && space.level.index() < level => {
                needed.contains(loop_id).then_some(*loop_id)
            }
            Node::For { loop_id, .. } | Node::Iterate { loop_id, .. } => {
                if needed.contains(loop_id) {
                    return None;
                }
                None
            }
            _ => return None,
        };
        if let Some(l) = included {
            if taken.contains(&l) {
                return None;
            }
            probe.push(l);
        }
    }
    Some(WindowSkip {
        loop_id: v,
        gate: g,
        tensor: t,
        level,
        coefficient,
        probe,
    })
}
