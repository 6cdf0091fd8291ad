//! The loop-tree IR: the sparsifier's result, which codegen lowers to Rust.
//!
//! Close to the set-based loops of MLIR's `sparse_tensor.iterate` /
//! `coiterate`: a dense [`Node::For`], a walk over one sparse level
//! [`Node::Iterate`], and [`Node::CoIterate`] over several levels with one
//! [`Phase`] per lattice point. A phase runs while all of its spaces still
//! have entries and holds one [`Case`] per lattice point it covers; when a
//! space runs out the later phases finish the others (exhaustion). Leaves
//! are loads, computations and stores with the reduction scalarised in a
//! local. The stable text form is in [`super::text`].

use super::kernel::{Access, AssignOp, Expr, Stmt};
use super::merger::{Lattice, TensorLevel};
use super::{LatPointId, Level, LoopId, TensorId};
use crate::vocab::LevelType;

/// Whether a loop's index appears in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Indexes the output: iterations write distinct elements.
    Parallel,
    /// Summed over: iterations accumulate into one element.
    Reduction,
}

/// The range of a dense loop: the size of one tensor dimension, or an
/// explicit size (`#[range(k = n)]`, a pooling window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The size of a dimension.
    Dim {
        /// The tensor whose dimension gives the size.
        tensor: TensorId,
        /// The dimension.
        dim: usize,
    },
    /// `0..n`.
    Range(u64),
}

/// One sparse storage level walked by a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    /// The tensor.
    pub tensor: TensorId,
    /// The level.
    pub level: Level,
    /// Its type (compressed, singleton, ...), which picks the iterator.
    pub level_type: LevelType,
}

/// One branch of a co-iteration phase: the spaces that store the current
/// coordinate (the others in the phase do not), and what to do there.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The spaces present; every other space of the phase is absent.
    pub present: Vec<Space>,
    /// The lattice point this case evaluates.
    pub point: LatPointId,
    /// The nested loops and leaves.
    pub body: Vec<Node>,
}

/// One loop of a co-iteration: runs while all its spaces have entries.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// The spaces that must all have entries left.
    pub spaces: Vec<Space>,
    /// Whether the loop also visits coordinates none of them stores.
    pub universal: bool,
    /// The cases, tested in order; the first whose spaces are present runs.
    pub cases: Vec<Case>,
}

/// Where a leaf's value goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An expression of the loaded operands.
    Expr(Expr),
    /// The reduction local `r`.
    Local,
    /// The reduction local `r`, written only if some value was accumulated
    /// into it: a sparse output stores no entry where every term was absent
    /// (a `none` region, a dropped `select`), as MLIR's sparsifier guards
    /// such insertions with a valid-insert flag.
    LocalIfProduced,
}

/// A node of the loop tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Sets every element of a dense output to zero (`=` whose loops skip
    /// elements, or whose reduction encloses a parallel loop).
    Zero {
        /// The output.
        tensor: TensorId,
    },
    /// Declares the reduction local `r`: zero, or the output element.
    Local {
        /// `None` for zero, else the output element it starts from.
        init: Option<Access>,
        /// Whether a flag records that some value was accumulated, for a
        /// later [`Value::LocalIfProduced`].
        produced: bool,
    },
    /// `r += value`.
    Accumulate {
        /// The value added.
        value: Expr,
    },
    /// Declares local `r<n>` = 0 for a sum scoped inside the statement
    /// ([`Expr::Sum`]); the loops after it add into it, and the expression
    /// around the sum reads it as [`Expr::Local`].
    SumLocal {
        /// The local's number (1, 2, ...; `r` itself is the statement's).
        local: u32,
        /// The summed expression, for the local's element type.
        body: Expr,
    },
    /// `r<n> += value`.
    SumAdd {
        /// The local.
        local: u32,
        /// The value added.
        value: Expr,
    },
    /// A dense or scalar output element: `y[i] = v` or `y[i] += v`.
    Store {
        /// The element.
        access: Access,
        /// Assign or accumulate.
        op: AssignOp,
        /// The value.
        value: Value,
    },
    /// Overwrites the value of a stored entry of a sparse output (an
    /// in-place update, [`OutputStrategy::InPlace`]): the entry at the
    /// output's current last-level position.
    Update {
        /// The element.
        access: Access,
        /// The value.
        value: Value,
    },
    /// Appends an element to a sparse output, in level order.
    Insert {
        /// The element.
        access: Access,
        /// The value.
        value: Value,
    },
    /// Starts a dense workspace `w` for one level of a sparse output.
    Expand {
        /// The output level the workspace stands for.
        level: TensorLevel,
    },
    /// `w[index] += value`, recording `index` as filled.
    WorkspaceAdd {
        /// The coordinate of the workspace's level.
        index: LoopId,
        /// The value.
        value: Value,
    },
    /// Inserts the filled workspace entries in coordinate order, then clears
    /// them.
    Compress {
        /// The output level the workspace stands for.
        level: TensorLevel,
    },
    /// A dense loop over the whole range.
    For {
        /// The index variable.
        loop_id: LoopId,
        /// Parallel or reduction.
        role: Role,
        /// Where the range comes from.
        extent: Extent,
        /// Index into [`StmtPlan::lattices`].
        lattice: usize,
        /// The loop body.
        body: Vec<Node>,
    },
    /// A walk over the stored entries of one sparse level.
    Iterate {
        /// The index variable.
        loop_id: LoopId,
        /// Parallel or reduction.
        role: Role,
        /// The level walked.
        space: Space,
        /// Index into [`StmtPlan::lattices`].
        lattice: usize,
        /// The loop body.
        body: Vec<Node>,
    },
    /// A merge of several sparse levels (and possibly the whole range).
    CoIterate {
        /// The index variable.
        loop_id: LoopId,
        /// Parallel or reduction.
        role: Role,
        /// Every level merged.
        spaces: Vec<Space>,
        /// The whole range, when some lattice point holds everywhere.
        universe: Option<Extent>,
        /// Index into [`StmtPlan::lattices`].
        lattice: usize,
        /// One phase per lattice point, in exhaustion order.
        phases: Vec<Phase>,
    },
}

/// How the output is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputStrategy {
    /// Dense output stored element by element, zeroed first if needed.
    DenseStore {
        /// Whether `Node::Zero` runs first.
        zero_first: bool,
    },
    /// Rank-0 output reduced in a local.
    ScalarReduction,
    /// Sparse output built by appending in level order.
    SparseInsert,
    /// Sparse output written at an affine subscript (`c[i + j] = ..`):
    /// every point's value is staged by `insert_unordered` in the
    /// output's workspace, in any order, and `finish_unordered` sorts the
    /// staged entries and sums those at one coordinate.
    SparseUnordered,
    /// Sparse output whose stored entries are walked and their values
    /// overwritten (`a[i, j] = a[i, j] * 2.0`).
    InPlace,
    /// Sparse output whose last level goes through a dense workspace
    /// (access-pattern expansion).
    SparseExpand {
        /// The expanded level.
        level: Level,
    },
    /// Sparse output that is a copy of one sparse input in another order
    /// (`c[j, i] = a[i, j]`, CSR → CSC written `c[i, j] = a[i, j]`) which
    /// no loop order can walk in both storage orders: built by sparse-core's
    /// conversion (count, then scatter into the output's own buffers), no
    /// loops of its own.
    Convert {
        /// The input copied.
        source: TensorId,
        /// For each output dimension, the input dimension it is (the first
        /// rank-many entries; tensors have at most 8 dimensions).
        perm: [u8; 8],
    },
}

/// The output strategy with the reason it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPlan {
    /// The decision.
    pub strategy: OutputStrategy,
    /// Why, in words (shown in the text form).
    pub reason: String,
}

/// The sparsified form of one statement.
#[derive(Clone, Debug, PartialEq)]
pub struct StmtPlan {
    /// The statement's position in the kernel.
    pub stmt: usize,
    /// Loops outermost first.
    pub order: Vec<(LoopId, Role)>,
    /// Loops of sums scoped inside the statement, each run by an inner nest
    /// where its sum is evaluated.
    pub summed: Vec<LoopId>,
    /// The right-hand side with its scoped sums written out, when some sum
    /// does not cover the whole of it.
    pub scoped: Option<Expr>,
    /// When the statement was split into one statement per term (see
    /// [`super::split_terms`]), the term this plan computes, as a statement
    /// of its own; codegen reads it instead of the kernel's statement.
    pub part: Option<Stmt>,
    /// How the output is written.
    pub output: OutputPlan,
    /// Every lattice built, referenced by the loop nodes.
    pub lattices: Vec<Lattice>,
    /// The loop tree.
    pub tree: Vec<Node>,
}
