//! What a loop tree may ask of the levels it walks: sorted coordinates for
//! a merge, and each coordinate once where visiting it twice changes the
//! result.
//!
//! A co-iteration advances cursors by comparing coordinates, so a
//! `nonordered` level cannot take part in one (nor feed a sparse output that
//! is appended to in level order). A single walk over it is fine when the
//! output is random access.
//!
//! Codegen groups the duplicates of a `nonunique` level into one visit only
//! where they are adjacent and what follows them is a run of entries: the
//! last level (their values add up) or a level followed by a singleton (the
//! singleton walks the run) — see `segmented` in the codegen. Any other
//! `nonunique` level (`compressed(nonunique), compressed`, or a `nonordered`
//! one whose duplicates may be far apart) is *split*: one coordinate is
//! visited once per entry, each visit seeing part of the tensor. The sum of
//! the parts is the tensor, so a split walk is still correct exactly when
//! (1) it is a plain walk, not a merge (a merge advances the other cursors
//! past the coordinate on the first visit), (2) the statement is linear in
//! the split tensor, and (3) what each visit computes is added to the
//! result rather than stored over it: the walk is inside the reduction
//! local or the workspace, or the dense output accumulates (`+=`, or zeroed
//! first under an enclosing reduction). Everything else is rejected here.

use super::check::StmtView;
use super::kernel::{Expr, Kernel};
use super::loop_tree::{Node, Role, Space};
use super::{LoopId, SparsifyError, TensorId};

/// Where each visit of a loop's iterations ends up, from the loop tree
/// builder.
pub(super) struct Sink {
    /// Depth of the reduction local, if any.
    pub local_depth: Option<usize>,
    /// Depth of the sparse output's workspace, if any.
    pub workspace_depth: Option<usize>,
    /// The output is sparse and appended to directly.
    pub inserts: bool,
    /// A dense output that every store adds to.
    pub dense_accumulates: bool,
    /// The sums scoped inside the statement: their loops and the summed
    /// expression. A walk over such a loop adds into the sum's local.
    pub sums: Vec<(Vec<LoopId>, Expr)>,
}

struct Walks<'a> {
    kernel: &'a Kernel,
    rhs: &'a Expr,
    view: &'a StmtView,
    order: &'a [LoopId],
    sink: &'a Sink,
}

/// Checks every walk of `tree`; the first problem found is returned.
pub(super) fn check(
    kernel: &Kernel,
    rhs: &Expr,
    view: &StmtView,
    order: &[LoopId],
    sink: &Sink,
    tree: &[Node],
) -> Result<(), SparsifyError> {
    let w = Walks {
        kernel,
        rhs,
        view,
        order,
        sink,
    };
    w.nodes(tree)
}

/// Whether level `l` of `t` may visit one coordinate more than once, each
/// time with part of its entries.
pub fn splits_duplicates(kernel: &Kernel, t: TensorId, l: usize) -> bool {
    let levels = &kernel.desc(t).levels;
    let Some(&(here, _)) = levels.get(l) else {
        return false;
    };
    let grouped = crate::vocab::groups_duplicates(here, levels.get(l + 1).map(|&(ty, _)| ty));
    !here.is_unique() && (!grouped || !here.is_ordered())
}

impl Walks<'_> {
    fn nodes(&self, nodes: &[Node]) -> Result<(), SparsifyError> {
        nodes.iter().try_for_each(|n| self.node(n))
    }

    fn node(&self, n: &Node) -> Result<(), SparsifyError> {
        match n {
            Node::For { body, .. } => self.nodes(body),
            Node::Iterate {
                loop_id,
                role,
                space,
                body,
                ..
            } => {
                self.iterate(*loop_id, *role, space)?;
                self.nodes(body)
            }
            Node::CoIterate {
                loop_id,
                spaces,
                universe,
                phases,
                ..
            } => {
                self.coiterate(*loop_id, spaces, universe.is_some())?;
                phases
                    .iter()
                    .flat_map(|p| &p.cases)
                    .try_for_each(|c| self.nodes(&c.body))
            }
            _ => Ok(()),
        }
    }

    fn name(&self, t: TensorId) -> String {
        self.kernel.tensor_name(t).to_string()
    }

    fn depth(&self, l: LoopId) -> usize {
        self.order.iter().position(|&o| o == l).unwrap_or(0)
    }

    fn coiterate(&self, l: LoopId, spaces: &[Space], universal: bool) -> Result<(), SparsifyError> {
        let index = self.kernel.loop_name(l).to_string();
        let with = |me: &Space| {
            let others: Vec<String> = spaces
                .iter()
                .filter(|s| s.tensor != me.tensor)
                .map(|s| format!("`{}`", self.name(s.tensor)))
                .collect();
            match (others.is_empty(), universal) {
                (true, _) => format!("with the whole range of `{index}`"),
                (false, false) => format!("with {}", others.join(", ")),
                (false, true) => format!(
                    "with {} and the whole range of `{index}`",
                    others.join(", ")
                ),
            }
        };
        for s in spaces {
            if !s.level_type.is_ordered() {
                return Err(SparsifyError::NonorderedCoIteration {
                    tensor: self.name(s.tensor),
                    level: s.level.index(),
                    index: index.clone(),
                    reason: format!("the loop over it merges it {}", with(s)),
                });
            }
        }
        for s in spaces {
            if splits_duplicates(self.kernel, s.tensor, s.level.index()) {
                return Err(self.ungrouped(
                    s,
                    l,
                    format!(
                        "and the loop over `{index}` merges it {}, which needs each coordinate once",
                        with(s)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn iterate(&self, l: LoopId, role: Role, s: &Space) -> Result<(), SparsifyError> {
        if let Some((_, body)) = self.sink.sums.iter().find(|(loops, _)| loops.contains(&l)) {
            if splits_duplicates(self.kernel, s.tensor, s.level.index()) && !linear(body, s.tensor)
            {
                let name = self.name(s.tensor);
                return Err(self.ungrouped(
                    s,
                    l,
                    format!(
                        "and the sum over it is not linear in `{name}`, so the parts of a \
                         duplicate do not add up to its sum"
                    ),
                ));
            }
            return Ok(());
        }
        let d = self.depth(l);
        let inside_local = self.sink.local_depth.is_some_and(|ld| d >= ld);
        let inside_ws = self.sink.workspace_depth.is_some_and(|wd| d >= wd);
        let out = self.name(self.view.output.tensor);
        let index = self.kernel.loop_name(l).to_string();
        let appends = role == Role::Parallel
            && (self.sink.inserts || (self.sink.workspace_depth.is_some() && !inside_ws));
        if !s.level_type.is_ordered() && appends {
            return Err(SparsifyError::NonorderedCoIteration {
                tensor: self.name(s.tensor),
                level: s.level.index(),
                index,
                reason: format!(
                    "the loop over it appends to sparse output `{out}`, which is built in level order"
                ),
            });
        }
        if !splits_duplicates(self.kernel, s.tensor, s.level.index()) {
            return Ok(());
        }
        let adds = inside_local
            || inside_ws
            || (!self.sink.inserts
                && self.sink.workspace_depth.is_none()
                && self.sink.dense_accumulates);
        if !adds {
            let how = if self.sink.inserts || self.sink.workspace_depth.is_some() {
                format!("appends to sparse output `{out}` on each visit")
            } else {
                format!("overwrites `{out}` on each visit (`=`), so the last duplicate wins")
            };
            return Err(self.ungrouped(s, l, format!("and the statement {how}")));
        }
        if !linear(self.rhs, s.tensor) {
            let name = self.name(s.tensor);
            return Err(self.ungrouped(
                s,
                l,
                format!(
                    "and the statement is not linear in `{name}`, so the parts of a duplicate do not add up to its sum"
                ),
            ));
        }
        Ok(())
    }

    fn ungrouped(&self, s: &Space, l: LoopId, reason: String) -> SparsifyError {
        SparsifyError::UngroupedDuplicates {
            tensor: self.name(s.tensor),
            level: s.level.index(),
            index: self.kernel.loop_name(l).to_string(),
            nonordered: !s.level_type.is_ordered(),
            reason,
        }
    }
}

/// Whether `e` is a sum of terms each of which is `t` times a factor free
/// of `t`: then evaluating it on parts of `t` and adding gives its value.
fn linear(e: &Expr, t: TensorId) -> bool {
    let mentions = |x: &Expr| x.accesses().iter().any(|a| a.tensor == t);
    match e {
        Expr::Access(a) => a.tensor == t,
        Expr::Neg(x) => linear(x, t),
        Expr::Add(x, y) | Expr::Sub(x, y) => linear(x, t) && linear(y, t),
        Expr::Mul(x, y) => (linear(x, t) && !mentions(y)) || (!mentions(x) && linear(y, t)),
        Expr::Div(x, y) => linear(x, t) && !mentions(y),
        Expr::Sum(_, x) => linear(x, t),
        _ => false,
    }
}
