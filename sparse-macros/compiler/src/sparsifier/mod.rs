//! The sparsifier: from statements in tensor index notation to a loop tree
//! that iterates only what the operands' encodings store.
//!
//! Pure data with integer ids, after MLIR's `Merger` and TACO: no tokens and
//! no spans here, so every step is tested on hand-built kernels. For each
//! statement, [`graph`] orders the loops so each sparse operand is visited
//! in its level order, [`merger`] builds the iteration lattice of every loop
//! (which storage levels to co-iterate, what to compute where), and
//! [`loop_tree`] turns both into the `For`/`Iterate`/`CoIterate` tree that
//! codegen lowers and whose text documents each generated function.

pub mod check;
mod copies;
pub mod demap;
mod expr_type;
pub mod graph;
pub mod in_place;
pub mod ir;
pub mod kernel;
mod kernel_show;
pub mod loop_tree;
pub mod merger;
pub mod reorder;
pub mod scope;
#[cfg(test)]
mod tests;
pub mod text;
mod walks;

use std::fmt;

pub use kernel::{
    is_integer_operator, operator_of, Access, Affine, AssignOp, BinaryOp, Expr, FuncDesc, Kernel,
    Reduce, Region, Stmt, TensorDesc, UnaryOp, OPERATOR_CALLS,
};
pub use loop_tree::{
    Case, Extent, Node, OutputPlan, OutputStrategy, Phase, Role, Space, StmtPlan, Value,
};
pub use merger::{LatPoint, Lattice, LoopKind, Mode, TensorLevel};
pub use text::ShowPlan;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            /// The id as a vector index.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A tensor operand of a kernel (index into [`Kernel::tensors`]).
    TensorId
);
id_type!(
    /// An index variable, which becomes one loop (index into [`Kernel::loops`]).
    LoopId
);
id_type!(
    /// A storage level of a tensor, outermost 0 (not a dimension: the
    /// dim→lvl map has been applied).
    Level
);
id_type!(
    /// A closure of a kernel (index into [`Kernel::funcs`]).
    FuncId
);
id_type!(
    /// A point of an iteration lattice (index into [`Lattice::points`]).
    LatPointId
);

/// Why a statement cannot be sparsified. Every variant names tensors and
/// index variables by their source names, and says what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SparsifyError {
    /// A statement names a tensor id the kernel lacks.
    UnknownTensor {
        /// The statement.
        stmt: usize,
        /// The id.
        id: u32,
    },
    /// A statement names an index variable id the kernel lacks.
    UnknownIndex {
        /// The statement.
        stmt: usize,
        /// The id.
        id: u32,
    },
    /// An access has a different number of indices than its tensor has
    /// dimensions.
    WrongRank {
        /// The access as written.
        access: String,
        /// The tensor's dimension count.
        dims: usize,
    },
    /// An index variable indexes two dimensions of one access (a diagonal).
    RepeatedIndex {
        /// The access as written.
        access: String,
        /// The repeated variable.
        index: String,
    },
    /// The left-hand side is not an output.
    NotAnOutput {
        /// The tensor.
        tensor: String,
    },
    /// A sparse tensor accessed with two different index lists in one
    /// statement (a transpose of itself).
    InconsistentAccess {
        /// The tensor.
        tensor: String,
    },
    /// A sparse output also read on the right-hand side.
    SparseOutputRead {
        /// The tensor.
        tensor: String,
    },
    /// An in-place update of a sparse output that would change its
    /// sparsity, or that cannot be done in place.
    InPlaceUpdate {
        /// The output.
        tensor: String,
        /// Why.
        reason: String,
    },
    /// `+=` into a sparse output.
    SparseOutputAccumulate {
        /// The tensor.
        tensor: String,
    },
    /// A division by a sparse operand.
    SparseDivisor {
        /// The tensor.
        tensor: String,
    },
    /// A level expression other than a plain dimension.
    UnsupportedLevel {
        /// The tensor.
        tensor: String,
        /// The level.
        level: usize,
    },
    /// An index variable a block operand splits into blocks, used where
    /// the split cannot follow it.
    BlockIndex {
        /// The tensor (or, for a closure, the index variable) concerned.
        tensor: String,
        /// What, and what to do.
        message: String,
    },
    /// A dim→lvl map that does not use each dimension exactly once.
    NotAPermutation {
        /// The tensor.
        tensor: String,
    },
    /// An index variable that indexes no tensor, so its range is unknown.
    UnboundedIndex {
        /// The variable.
        index: String,
    },
    /// No loop order visits every sparse operand in its level order.
    OrderConflict {
        /// The tensors whose level orders conflict.
        tensors: Vec<String>,
        /// What conflicts.
        message: String,
        /// What to write instead.
        fix: String,
    },
    /// A statement whose co-iteration would be too large to generate.
    TooComplex {
        /// How large, and what to do.
        message: String,
    },
    /// A sparse output that can be built neither by direct insertion nor
    /// through a workspace in the chosen loop order.
    SparseOutputOrder {
        /// The tensor.
        tensor: String,
        /// Why, and what to do.
        message: String,
    },
    /// A sparse operand's level order puts a summed loop outside a loop the
    /// sum is evaluated in.
    SumOrder {
        /// The operand.
        tensor: String,
        /// What conflicts and what to do.
        message: String,
    },
    /// An affine subscript on a level it cannot be walked at.
    AffineSubscript {
        /// The tensor.
        tensor: String,
        /// Why, and what to do.
        message: String,
    },
    /// A `nonordered` level walked where sorted coordinates are needed: in
    /// a co-iteration, or feeding a sparse output built in level order.
    NonorderedCoIteration {
        /// The tensor.
        tensor: String,
        /// The level.
        level: usize,
        /// The index variable of the loop over it.
        index: String,
        /// What the loop does that needs the order.
        reason: String,
    },
    /// A `nonunique` level whose duplicates codegen visits one entry at a
    /// time, where that changes the result.
    UngroupedDuplicates {
        /// The tensor.
        tensor: String,
        /// The level.
        level: usize,
        /// The index variable of the loop over it.
        index: String,
        /// The level is also `nonordered`, so even a last level's
        /// duplicates need not be adjacent.
        nonordered: bool,
        /// Why visiting the duplicates separately goes wrong here.
        reason: String,
    },
}

impl fmt::Display for SparsifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SparsifyError::*;
        match self {
            UnknownTensor { stmt, id } => write!(f, "statement {stmt} names tensor #{id}, which the kernel does not declare"),
            UnknownIndex { stmt, id } => write!(f, "statement {stmt} names index variable #{id}, which the kernel does not declare"),
            WrongRank { access, dims } => write!(f, "`{access}` needs {dims} indices, one per dimension"),
            RepeatedIndex { access, index } => write!(f, "`{access}` uses `{index}` for two dimensions of the output; a statement writes each output element through distinct index variables: write the diagonal as a choice over a dense output, e.g. `c[{index}, j] = if {index} == j {{ .. }} else {{ 0.0 }}`"),
            NotAnOutput { tensor } => write!(f, "`{tensor}` is assigned to but is not an output; declare it `&mut`"),
            InconsistentAccess { tensor } => write!(f, "sparse tensor `{tensor}` is accessed two different ways in one statement (other index orders or other subscripts), and a statement walks each sparse operand once; read one of them from a copy: a copy in the other order (`sparse_core::convert::convert`), or a dense copy for a shifted read such as `{tensor}[i + 1]`"),
            SparseOutputRead { tensor } => write!(f, "sparse output `{tensor}` is also read on the right-hand side; read from a separate input tensor"),
            InPlaceUpdate { tensor, reason } => write!(f, "`{tensor}` cannot be updated in place: {reason}; write the result into a separate output"),
            SparseOutputAccumulate { tensor } => write!(f, "`+=` into sparse output `{tensor}` is not supported; use `=` and add the old values as an input operand"),
            SparseDivisor { tensor } => write!(f, "division by sparse tensor `{tensor}` would divide by its implicit zeros; divide by a dense tensor or a literal"),
            UnsupportedLevel { tensor, level } => write!(f, "level {level} of `{tensor}` is a counting level (ELL) or a block map kernels cannot walk yet (each dimension stored whole, or as `d floordiv b` then `d mod b` with one block size); use a permutation or a BSR-style block map, or copy `{tensor}` into such an output first (a statement `c[i, j] = {tensor}[i, j]` is a conversion and needs no walk) or with `sparse_core::convert::convert`"),
            NotAPermutation { tensor } => write!(f, "the map of `{tensor}` does not use every dimension exactly once"),
            UnboundedIndex { index } => write!(f, "index variable `{index}` indexes no tensor, so its range is unknown; use it to index a tensor dimension"),
            OrderConflict { message, fix, .. } => write!(f, "{message}; {fix}"),
            SumOrder { message, .. } => f.write_str(message),
            BlockIndex { message, .. } => f.write_str(message),
            SparseOutputOrder { message, .. } => f.write_str(message),
            TooComplex { message } => f.write_str(message),
            AffineSubscript { tensor, message } => write!(f, "affine subscript of sparse `{tensor}`: {message}"),
            NonorderedCoIteration { tensor, level, index, reason } => write!(f, "level {level} of `{tensor}` (over `{index}`) is `nonordered`, but {reason}, which needs sorted coordinates; use an ordered encoding for `{tensor}` (drop `nonordered`) or convert it first"),
            UngroupedDuplicates { tensor, level, index, nonordered, reason } => {
                write!(f, "level {level} of `{tensor}` is nonunique but its duplicates of one `{index}` are not grouped: each is visited on its own, {reason}; a nonunique level must be the last level or be followed by singleton levels (COO)")?;
                if *nonordered {
                    f.write_str(", and be ordered so its duplicates are adjacent")?;
                }
                f.write_str("; use `compressed(nonunique), singleton` or a unique level")
            }
        }
    }
}

/// The sparsified kernel: one plan per statement, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// One loop nest per statement.
    pub stmts: Vec<StmtPlan>,
    /// The kernel in level space the statements were planned over, when an
    /// operand has block levels (see [`demap`]); `None` when the kernel was
    /// planned as written.
    pub level_space: Option<(Kernel, demap::Demap)>,
}

impl Plan {
    /// The stable text of every statement's loop tree, for snapshot tests
    /// and the doc comment of the generated function.
    pub fn text(&self, kernel: &Kernel) -> String {
        self.stmts
            .iter()
            .map(|s| s.text(kernel))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Sparsifies every statement of `kernel`; all errors of all statements are
/// reported together.
pub fn sparsify(kernel: &Kernel) -> Result<Plan, Vec<SparsifyError>> {
    match copies::split_block_copies(kernel) {
        Some((rest, copies)) => copies::merge(kernel, sparsify_loops(&rest)?, copies),
        None => sparsify_loops(kernel),
    }
}

/// [`sparsify`] for a kernel whose statements all get loop nests (no copy
/// between a block operand and another encoding).
fn sparsify_loops(kernel: &Kernel) -> Result<Plan, Vec<SparsifyError>> {
    let level_space = match demap::demap(kernel) {
        Ok(level_space) => level_space,
        // Every problem is reported: the statements that read no block
        // operand are still planned for their own errors.
        Err(mut demap_errors) => {
            let mut errors = Vec::new();
            for (n, stmt) in kernel.stmts.iter().enumerate() {
                if demap::reads_block_operand(kernel, stmt) {
                    continue;
                }
                if let Err(e) = plan_stmt(kernel, n, stmt) {
                    if split_plans(kernel, n, stmt, &e).is_none() {
                        errors.extend(e);
                    }
                }
            }
            errors.append(&mut demap_errors);
            return Err(errors);
        }
    };
    let planned = level_space.as_ref().map_or(kernel, |(k, _)| k);
    let mut stmts = Vec::new();
    let mut errors = Vec::new();
    for (n, stmt) in planned.stmts.iter().enumerate() {
        match plan_stmt(planned, n, stmt) {
            Ok(p) => stmts.push(p),
            Err(e) => match split_plans(planned, n, stmt, &e) {
                Some(parts) => stmts.extend(parts),
                None => errors.extend(e),
            },
        }
    }
    if let Some((_, demap)) = &level_space {
        for e in &mut errors {
            block_order_advice(kernel, demap, e);
        }
    }
    if errors.is_empty() {
        Ok(Plan { stmts, level_space })
    } else {
        Err(errors)
    }
}

/// An order conflict found in level space names the fix in level space
/// (`map = (d0, d1, d2, d3) -> ...` for a 2-D BSR operand); when the
/// operand to change has a block map, say it in the user's terms instead.
fn block_order_advice(kernel: &Kernel, demap: &demap::Demap, e: &mut SparsifyError) {
    let SparsifyError::OrderConflict { tensors, fix, .. } = e else {
        return;
    };
    let [keep, change] = &tensors[..] else {
        return;
    };
    let Some(c) = kernel.tensors.iter().position(|t| t.name == *change) else {
        return;
    };
    if demap.parts(TensorId(c as u32)).is_some() {
        *fix = format!(
            "store `{change}` with its block levels in the order of `{keep}`'s (for a block \
             matrix next to BSR, BSR), {}",
            graph::COPY_ADVICE
        );
    }
}

/// The plan of statement `n`: its sums scoped, its loops ordered, its tree.
fn plan_stmt(kernel: &Kernel, n: usize, stmt: &Stmt) -> Result<StmtPlan, Vec<SparsifyError>> {
    let scoped = Stmt {
        rhs: scope::place_sums(kernel, stmt),
        ..stmt.clone()
    };
    if in_place::is_update(kernel, &scoped) {
        in_place::check(kernel, &scoped).map_err(|e| vec![e])?;
    }
    let view = check::check_stmt(kernel, n, &scoped)?;
    let nested = scope::sum_loops(&scoped.rhs);
    let main: Vec<LoopId> = view
        .loops
        .iter()
        .copied()
        .filter(|l| !nested.contains(l))
        .collect();
    let edges = scope::scope_edges(&main, &scoped.rhs);
    let order = match graph::loop_order(kernel, &view, &edges) {
        Ok(order) => order,
        Err(e) => return copies::copy_plan(kernel, n, stmt, true).ok_or_else(|| vec![e]),
    };
    loop_tree::build(kernel, &scoped, &view, &order).map_err(|e| vec![e])
}

/// A statement whose scoped sums no loop order can nest (a CSC `w` in
/// `y[i] = w[i, j] * x[j] + b[i]`, where the loop over `j` must enclose the
/// loop over `i`) is computed one term at a time when its output is dense
/// and not read: `y[i] = w[i, j] * x[j]; y[i] += b[i];` means the same, and
/// each term's reductions then cover the whole of it.
fn split_plans(
    kernel: &Kernel,
    n: usize,
    stmt: &Stmt,
    errors: &[SparsifyError],
) -> Option<Vec<StmtPlan>> {
    if !errors
        .iter()
        .all(|e| matches!(e, SparsifyError::SumOrder { .. }))
    {
        return None;
    }
    let parts = split_terms(kernel, stmt)?;
    let mut plans = Vec::new();
    for part in parts {
        let mut p = plan_stmt(kernel, n, &part).ok()?;
        p.part = Some(part);
        plans.push(p);
    }
    Some(plans)
}

/// `y op= t1 ± t2 ± ...` as `y op= t1; y += ±t2; ...` for a dense output
/// that the right-hand side does not read; `None` otherwise.
pub fn split_terms(kernel: &Kernel, stmt: &Stmt) -> Option<Vec<Stmt>> {
    fn terms(e: &Expr, negate: bool, out: &mut Vec<Expr>) {
        match e {
            Expr::Add(l, r) => {
                terms(l, negate, out);
                terms(r, negate, out);
            }
            Expr::Sub(l, r) => {
                terms(l, negate, out);
                terms(r, !negate, out);
            }
            Expr::Neg(x) => terms(x, !negate, out),
            other if negate => out.push(Expr::Neg(Box::new(other.clone()))),
            other => out.push(other.clone()),
        }
    }
    let out = kernel.tensors.get(stmt.lhs.tensor.index())?;
    if out.is_sparse() || stmt.reduce.is_some() || stmt.reads_output() {
        return None;
    }
    let mut found = Vec::new();
    terms(&stmt.rhs, false, &mut found);
    if found.len() < 2 {
        return None;
    }
    Some(
        found
            .into_iter()
            .enumerate()
            .map(|(k, rhs)| Stmt {
                lhs: stmt.lhs.clone(),
                op: if k == 0 { stmt.op } else { AssignOp::AddAssign },
                rhs,
                reduce: None,
            })
            .collect(),
    )
}
