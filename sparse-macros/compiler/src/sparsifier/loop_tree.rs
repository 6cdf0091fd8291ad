//! Builds the loop tree ([`super::ir`]) of a checked statement: the output
//! strategy, one loop node per index variable with its lattice, the leaves,
//! and the inner nests of scoped sums (`loop_tree_sums.rs`).

use super::check::StmtView;
pub use super::ir::*;
use super::kernel::{AssignOp, Expr, Kernel, Stmt};
use super::merger::{self, Lattice, LoopKind, TensorLevel};
use super::walks;
use super::{LatPointId, Level, LoopId, SparsifyError};

#[path = "loop_tree_sums.rs"]
mod sums;

/// Where the scalarised reduction's result goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dest {
    Dense,
    Insert,
    Workspace,
    Update,
}

struct Builder<'a> {
    kernel: &'a Kernel,
    stmt: &'a Stmt,
    view: &'a StmtView,
    order: &'a [LoopId],
    /// Every loop, the scoped sums' included, in the iteration graph's
    /// order: each sum's loops nest in this order.
    full_order: &'a [LoopId],
    /// The next number for a sum's local.
    next_local: u32,
    lattices: Vec<Lattice>,
    dest: Dest,
    /// Depth at which the reduction local lives (after the last parallel
    /// loop), if reduction loops follow it.
    local_depth: Option<usize>,
    /// Depth at which the workspace lives, for [`Dest::Workspace`].
    workspace: Option<(usize, TensorLevel)>,
    /// The output accumulates across outer loops (`+=` or an enclosing
    /// reduction): stores add and the local starts from the output.
    accumulates: bool,
    /// Co-iteration cases generated so far, against [`MAX_CASES`].
    cases: usize,
}

/// Whether `e` may produce no value at some coordinate it is evaluated at
/// (a `none` region, a `select`), so a dense output must be zeroed first.
fn may_be_absent(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        found |= matches!(
            x,
            Expr::Binary(_) | Expr::Unary(_) | Expr::Select(..) | Expr::Absent
        )
    });
    found
}

/// Co-iteration repeats each case's subtree in every phase that covers it,
/// so the tree grows with the product of the lattice sizes of nested loops.
/// Past this many cases the statement is rejected rather than expanded into
/// code nobody could compile or read.
pub const MAX_CASES: usize = 4096;

/// Builds the loop tree of a checked statement for loop order
/// `full_order`; `stmt` has its sums scoped ([`super::scope::place_sums`]).
pub fn build(
    kernel: &Kernel,
    stmt: &Stmt,
    view: &StmtView,
    full_order: &[LoopId],
) -> Result<StmtPlan, SparsifyError> {
    let summed = super::scope::sum_loops(&stmt.rhs);
    let main: Vec<LoopId> = full_order
        .iter()
        .copied()
        .filter(|l| !summed.contains(l))
        .collect();
    let order = &main[..];
    let roles: Vec<(LoopId, Role)> = order
        .iter()
        .map(|&l| {
            (
                l,
                if view.is_parallel(l) {
                    Role::Parallel
                } else {
                    Role::Reduction
                },
            )
        })
        .collect();
    let inner_start = roles
        .iter()
        .rposition(|r| r.1 == Role::Parallel)
        .map_or(0, |p| p + 1);
    let outer_reduction = roles[..inner_start]
        .iter()
        .find(|r| r.1 == Role::Reduction)
        .map(|r| r.0);
    let name = |l: LoopId| kernel.loop_name(l).to_string();
    let out = &view.output;
    let out_name = kernel.tensor_name(out.tensor).to_string();
    let (dest, mut output, workspace) = if out.sparse && super::in_place::is_update(kernel, stmt) {
        (
            Dest::Update,
            OutputPlan {
                strategy: OutputStrategy::InPlace,
                reason: format!(
                    "sparse, updated in place: the value is zero wherever `{out_name}` stores \
                     nothing, so its stored entries are walked and overwritten"
                ),
            },
            None,
        )
    } else if out.sparse && view.scatters() {
        (
            Dest::Insert,
            OutputPlan {
                strategy: OutputStrategy::SparseUnordered,
                reason: "sparse, staged in any order: an affine output subscript may reach a \
                         coordinate from several points or out of order; sorted and summed when \
                         the statement finishes"
                    .to_string(),
            },
            None,
        )
    } else if out.sparse {
        let parallel: Vec<String> = out.levels.iter().map(|&(_, l)| name(l)).collect();
        match outer_reduction {
            None => (
                Dest::Insert,
                OutputPlan {
                    strategy: OutputStrategy::SparseInsert,
                    reason: format!(
                        "sparse, direct insertion: parallel loops {} are outermost, in level order",
                        parallel.join(", ")
                    ),
                },
                None,
            ),
            Some(red) => {
                let rank = out.levels.len();
                let leading_ok = rank >= 1
                    && order[..rank - 1]
                        .iter()
                        .zip(&out.levels)
                        .all(|(&o, &(_, l))| o == l);
                if !leading_ok {
                    return Err(SparsifyError::SparseOutputOrder {
                        tensor: out_name.clone(),
                        message: format!(
                            "sparse output `{out_name}` cannot be built in loop order {}: reduction `{}` encloses more than its last level, so neither direct insertion nor a one-level workspace works; use a dense output",
                            roles.iter().map(|r| name(r.0)).collect::<Vec<_>>().join(", "),
                            name(red)
                        ),
                    });
                }
                let level = TensorLevel {
                    tensor: out.tensor,
                    level: Level(rank as u32 - 1),
                };
                let last = out.levels[rank - 1].1;
                (
                    Dest::Workspace,
                    OutputPlan {
                        strategy: OutputStrategy::SparseExpand { level: level.level },
                        reason: format!(
                            "sparse, expanded into a workspace over {out_name}.lvl{}: reduction {} encloses parallel loop {}",
                            rank - 1,
                            name(red),
                            name(last)
                        ),
                    },
                    Some((rank - 1, level)),
                )
            }
        }
    } else if out.levels.is_empty() {
        let reason = if order.is_empty() {
            "scalar, stored directly: no loops".to_string()
        } else {
            "scalar, reduced in a local".to_string()
        };
        let strategy = OutputStrategy::ScalarReduction;
        (Dest::Dense, OutputPlan { strategy, reason }, None)
    } else {
        // The reason is settled once the tree shows whether loops skip.
        let strategy = OutputStrategy::DenseStore { zero_first: false };
        (
            Dest::Dense,
            OutputPlan {
                strategy,
                reason: String::new(),
            },
            None,
        )
    };
    let mut b = Builder {
        kernel,
        stmt,
        view,
        order,
        full_order,
        next_local: 1,
        lattices: Vec::new(),
        dest,
        // A custom reduction into a workspace folds every value straight
        // into its slot: a combiner need not combine partial results.
        local_depth: (inner_start < order.len()
            && !(stmt.reduce.is_some() && dest == Dest::Workspace))
            .then_some(inner_start),
        workspace,
        // An output written at an affine subscript gathers every point's
        // value by adding (`x[i + j] = ..` sums the points reaching one
        // element), into an output zeroed first for `=`.
        accumulates: stmt.op == AssignOp::AddAssign || outer_reduction.is_some() || view.scatters(),
        cases: 0,
    };
    let mut tree = b.gen(&stmt.rhs, 0);
    if b.cases > MAX_CASES {
        return Err(SparsifyError::TooComplex {
            message: format!(
                "this statement needs more than {MAX_CASES} co-iteration cases; split it into several statements (into a dense output, the later ones can add their terms with `+=`)"
            ),
        });
    }
    if let OutputStrategy::DenseStore { .. } = output.strategy {
        let skips = skips_parallel(&tree);
        let (zero_first, reason) = match (stmt.op, outer_reduction) {
            (AssignOp::AddAssign, _) => (false, "dense, accumulated into (+=)".to_string()),
            (AssignOp::Assign, _) if view.scatters() => (
                true,
                "dense, zeroed then accumulated: an affine output subscript may reach an \
                 element from several points"
                    .to_string(),
            ),
            (AssignOp::Assign, Some(red)) => {
                let after = roles.iter().skip_while(|r| r.0 != red);
                let inner = after
                    .clone()
                    .find(|r| r.1 == Role::Parallel)
                    .map_or(String::new(), |r| name(r.0));
                (true, format!("dense, zeroed then accumulated: reduction {} encloses parallel loop {inner}", name(red)))
            }
            (AssignOp::Assign, None) if skips => (
                true,
                "dense, zeroed first: sparse loops skip elements".to_string(),
            ),
            (AssignOp::Assign, None) if stmt.reduce.is_none() && may_be_absent(&stmt.rhs) => (
                true,
                "dense, zeroed first: some coordinates produce no value".to_string(),
            ),
            (AssignOp::Assign, None) => (
                false,
                "dense, stored directly: every element is visited once".to_string(),
            ),
        };
        if zero_first {
            tree.insert(0, Node::Zero { tensor: out.tensor });
        }
        output = OutputPlan {
            strategy: OutputStrategy::DenseStore { zero_first },
            reason,
        };
    }
    let sink = walks::Sink {
        local_depth: b.local_depth,
        workspace_depth: b.workspace.map(|w| w.0),
        inserts: b.dest == Dest::Insert,
        dense_accumulates: b.dest == Dest::Dense && b.accumulates,
        sums: {
            let mut sums = Vec::new();
            stmt.rhs.visit(&mut |e| {
                if let Expr::Sum(loops, body) = e {
                    sums.push((loops.clone(), (**body).clone()));
                }
            });
            sums
        },
    };
    walks::check(kernel, &stmt.rhs, view, order, &sink, &tree)?;
    let scoped = kernel
        .stmts
        .get(view.index)
        .filter(|s| s.rhs != stmt.rhs && !summed.is_empty())
        .map(|_| stmt.rhs.clone());
    Ok(StmtPlan {
        stmt: view.index,
        order: roles,
        summed: full_order
            .iter()
            .copied()
            .filter(|l| summed.contains(l))
            .collect(),
        scoped,
        part: None,
        output,
        lattices: b.lattices,
        tree,
    })
}

/// What follows a loop: the statement's nest at a depth, or a scoped sum's.
enum Next<'o> {
    Main(usize),
    Sum {
        order: &'o [LoopId],
        depth: usize,
        local: u32,
    },
}

/// Whether some parallel loop visits only stored coordinates, leaving other
/// output elements unwritten.
fn skips_parallel(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::For { body, .. } => skips_parallel(body),
        Node::Iterate { role, body, .. } => *role == Role::Parallel || skips_parallel(body),
        Node::CoIterate {
            role,
            universe,
            phases,
            ..
        } => {
            (*role == Role::Parallel && universe.is_none())
                || phases
                    .iter()
                    .any(|p| p.cases.iter().any(|c| skips_parallel(&c.body)))
        }
        _ => false,
    })
}

impl Builder<'_> {
    /// The nodes evaluating `expr` from loop depth `depth` inwards.
    fn gen(&mut self, expr: &Expr, depth: usize) -> Vec<Node> {
        let mut out = Vec::new();
        let ws = self.workspace.filter(|w| w.0 == depth).map(|w| w.1);
        let local = self.local_depth == Some(depth);
        if let Some(level) = ws {
            out.push(Node::Expand { level });
        }
        // A sparse destination must not receive the local where no term
        // produced a value: a `none` region, a dropped `select`, or a custom
        // reduction that found nothing present to fold (MLIR's `reduce`
        // folds present values only).
        // So must an element whose terms read a sparse operand through an
        // affine subscript and found nothing in its window: MLIR's
        // slice-driven loops never visit it (a convolution of a sparse
        // image stores the outputs some stored pixel reaches).
        let produced = local
            && self.dest != Dest::Dense
            && (self.stmt.reduce.is_some()
                || may_be_absent(&self.stmt.rhs)
                || self.reads_through_subscripts());
        if local {
            let init = self.accumulates && self.dest == Dest::Dense;
            out.push(Node::Local {
                init: init.then(|| self.stmt.lhs.clone()),
                produced,
            });
        }
        if depth == self.order.len() {
            let value = merger::finalize(expr.clone());
            if value == Expr::Absent {
                // No value here: nothing is stored or accumulated.
            } else {
                let value = self.lower_sums(value, &mut out);
                if self.local_depth.is_some() {
                    out.push(Node::Accumulate { value });
                } else {
                    out.push(self.store(Value::Expr(value)));
                }
            }
        } else {
            let loop_id = self.order[depth];
            let role = if self.view.is_parallel(loop_id) {
                Role::Parallel
            } else {
                Role::Reduction
            };
            let mode = merger::Mode {
                innermost: depth + 1 == self.order.len(),
                complete: role == Role::Parallel && self.rewrites_output(),
            };
            out.push(self.loop_node(expr, loop_id, role, mode, &Next::Main(depth + 1)));
        }
        if local {
            out.push(self.store(if produced {
                Value::LocalIfProduced
            } else {
                Value::Local
            }));
        }
        if let Some(level) = ws {
            out.push(Node::Compress { level });
        }
        out
    }

    /// Whether the statement reads a sparse input through an affine
    /// subscript (`a[i + k, j]` with `a` sparse). A slice walked in place
    /// (`Affine::slice`) does not count: its windows hold exactly the
    /// entries the compact copy would, so the output stores what it would
    /// store reading the copy.
    fn reads_through_subscripts(&self) -> bool {
        self.stmt.rhs.accesses().iter().any(|a| {
            a.affine.iter().any(|(_, sub)| sub.slice.is_none())
                && self
                    .kernel
                    .tensors
                    .get(a.tensor.index())
                    .is_some_and(|d| d.is_sparse())
        })
    }

    fn store(&self, value: Value) -> Node {
        let access = self.stmt.lhs.clone();
        match self.dest {
            // A local started from the output already holds the old value.
            Dest::Dense => Node::Store {
                access,
                op: if self.accumulates && value != Value::Local {
                    AssignOp::AddAssign
                } else {
                    AssignOp::Assign
                },
                value,
            },
            Dest::Insert => Node::Insert { access, value },
            Dest::Update => Node::Update { access, value },
            Dest::Workspace => Node::WorkspaceAdd {
                index: self.view.output.levels.last().map_or(LoopId(0), |l| l.1),
                value,
            },
        }
    }

    fn space(&self, tl: TensorLevel) -> Space {
        let level_type = self.kernel.desc(tl.tensor).levels[tl.level.index()].0;
        Space {
            tensor: tl.tensor,
            level: tl.level,
            level_type,
        }
    }

    /// The explicit range of `l`, else the first tensor dimension indexed
    /// by `l`, left-hand side first.
    fn extent(&self, l: LoopId) -> Extent {
        if let Some(n) = self.kernel.range_of(l) {
            return Extent::Range(n);
        }
        let mut accesses = vec![&self.stmt.lhs];
        accesses.extend(self.stmt.rhs.accesses());
        accesses
            .iter()
            .find_map(|a| {
                // An affine subscript's dimension is not the loop's range.
                let dim = (0..a.indices.len()).find(|&d| a.indices[d] == l && a.is_plain(d))?;
                Some(Extent::Dim {
                    tensor: a.tensor,
                    dim,
                })
            })
            .unwrap_or(Extent::Dim {
                tensor: self.stmt.lhs.tensor,
                dim: 0,
            })
    }

    /// Whether the statement overwrites a dense output it also reads
    /// (`y[i] *= e`): then every element is visited, since zeroing first
    /// would lose the values read.
    fn rewrites_output(&self) -> bool {
        self.dest == Dest::Dense && self.stmt.op == AssignOp::Assign && self.stmt.reads_output()
    }

    /// The body of a loop: the rest of the statement's nest, or of a sum's.
    fn descend(&mut self, expr: &Expr, next: &Next<'_>) -> Vec<Node> {
        match *next {
            Next::Main(depth) => self.gen(expr, depth),
            Next::Sum {
                order,
                depth,
                local,
            } => self.gen_sum(expr, order, depth, local),
        }
    }

    fn loop_node(
        &mut self,
        expr: &Expr,
        loop_id: LoopId,
        role: Role,
        mode: merger::Mode,
        next: &Next<'_>,
    ) -> Node {
        let lat = merger::lattice_in(self.kernel, expr, loop_id, mode);
        let index = self.lattices.len();
        self.lattices.push(lat.clone());
        let first = lat.points.first().map_or(Expr::Zero, |p| p.expr.clone());
        match lat.kind() {
            LoopKind::Dense => Node::For {
                loop_id,
                role,
                extent: self.extent(loop_id),
                lattice: index,
                body: if lat.points.is_empty() {
                    Vec::new()
                } else {
                    self.descend(&first, next)
                },
            },
            LoopKind::Iterate(tl) => Node::Iterate {
                loop_id,
                role,
                space: self.space(tl),
                lattice: index,
                body: self.descend(&first, next),
            },
            LoopKind::CoIterate { spaces, universal } => {
                let mut phases = Vec::new();
                for (i, p) in lat.points.iter().enumerate() {
                    let pi = LatPointId(i as u32);
                    let mut cases = Vec::new();
                    for (j, q) in lat.points.iter().enumerate().skip(i) {
                        let pj = LatPointId(j as u32);
                        if lat.covers(pi, pj) {
                            self.cases += 1;
                            // Past the budget, stop descending: the caller
                            // rejects the statement.
                            let body = if self.cases > MAX_CASES {
                                Vec::new()
                            } else {
                                self.descend(&q.expr, next)
                            };
                            cases.push(Case {
                                present: q.sparse.iter().map(|&t| self.space(t)).collect(),
                                point: pj,
                                body,
                            });
                        }
                    }
                    phases.push(Phase {
                        spaces: p.sparse.iter().map(|&t| self.space(t)).collect(),
                        universal,
                        cases,
                    });
                }
                Node::CoIterate {
                    loop_id,
                    role,
                    spaces: spaces.iter().map(|&t| self.space(t)).collect(),
                    universe: universal.then(|| self.extent(loop_id)),
                    lattice: index,
                    phases,
                }
            }
        }
    }
}
