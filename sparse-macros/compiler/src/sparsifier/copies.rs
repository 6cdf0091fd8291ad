//! Statements that are conversions: `c[..] = a[..]` copying one sparse
//! input into a sparse output stored another way, planned as sparse-core's
//! `convert` into the output's own buffers instead of a loop nest.
//!
//! Two cases reach here. A copy whose operands no loop order visits in
//! both storage orders (`c[j, i] = a[i, j]` with DCSR in and out, CSR →
//! CSC written `c[i, j] = a[i, j]`) is found when ordering its loops fails
//! ([`copy_plan`] from `plan_stmt`). A copy between a block encoding and
//! another one (CSR → BSR, BSR → CSR, BSR → BSC) could not be walked at all
//! (a block and a non-block sparse operand never share an index), so it is
//! taken out before the kernel is demapped ([`split_block_copies`]) and
//! put back in statement order after ([`merge`]). MLIR lowers both the
//! same way: `sparse_tensor.convert`.

use super::kernel::{AssignOp, Expr, Kernel, Stmt, TensorDesc};
use super::{OutputPlan, OutputStrategy, Plan, SparsifyError, StmtPlan};
use crate::vocab::LevelExpr;

/// Whether a tensor's levels store plain dimensions (no block map).
fn plain(t: &TensorDesc) -> bool {
    t.levels.iter().all(|(_, e)| matches!(e, LevelExpr::Dim(_)))
}

/// The plan of statement `n` if it only copies one sparse input into a
/// sparse output, as a conversion; `None` for any other statement.
/// `plain_only` limits it to operands without block maps. A copy that
/// permutes dimensions needs a source without a block map (the source is
/// viewed in the output's dimension order by renaming its levels).
pub(super) fn copy_plan(
    kernel: &Kernel,
    n: usize,
    stmt: &Stmt,
    plain_only: bool,
) -> Option<StmtPlan> {
    let Expr::Access(a) = &stmt.rhs else {
        return None;
    };
    let out = kernel.tensors.get(stmt.lhs.tensor.index())?;
    let src = kernel.tensors.get(a.tensor.index())?;
    if stmt.op != AssignOp::Assign
        || stmt.reduce.is_some()
        || a.tensor == stmt.lhs.tensor
        || !out.is_output
        || src.is_output
        || !out.is_sparse()
        || !src.is_sparse()
        || (plain_only && !(plain(out) && plain(src)))
        || out.dim_count != src.dim_count
        || a.indices.len() != src.dim_count
        || stmt.lhs.indices.len() != out.dim_count
        || a.indices.len() > 8
        || !a.affine.is_empty()
    {
        return None;
    }
    let mut perm = [0u8; 8];
    for (d, l) in stmt.lhs.indices.iter().enumerate() {
        if a.indices.iter().filter(|x| *x == l).count() != 1 {
            return None;
        }
        perm[d] = a.indices.iter().position(|x| x == l)? as u8;
    }
    let identity = (0..out.dim_count).all(|d| usize::from(perm[d]) == d);
    if !identity && !plain(src) {
        return None;
    }
    Some(StmtPlan {
        stmt: n,
        order: Vec::new(),
        summed: Vec::new(),
        scoped: None,
        part: None,
        output: OutputPlan {
            strategy: OutputStrategy::Convert {
                source: a.tensor,
                perm,
            },
            reason: format!(
                "sparse, converted from `{}` (count, then scatter into the output's buffers): \
                 no loop nest walks both in storage order, and the statement only copies `{}`",
                src.name, src.name
            ),
        },
        lattices: Vec::new(),
        tree: Vec::new(),
    })
}

/// Statements copying between a block encoding and another encoding,
/// each with its conversion plan, and the kernel without them; `None`
/// when there are none.
pub(super) fn split_block_copies(kernel: &Kernel) -> Option<(Kernel, Vec<(usize, StmtPlan)>)> {
    let mut copies = Vec::new();
    for (n, stmt) in kernel.stmts.iter().enumerate() {
        let Expr::Access(a) = &stmt.rhs else {
            continue;
        };
        let (Some(out), Some(src)) = (
            kernel.tensors.get(stmt.lhs.tensor.index()),
            kernel.tensors.get(a.tensor.index()),
        ) else {
            continue;
        };
        // Copies within one block map are walked block by block.
        if (plain(out) && plain(src)) || (out.levels == src.levels && stmt.lhs.indices == a.indices)
        {
            continue;
        }
        if let Some(plan) = copy_plan(kernel, n, stmt, false) {
            copies.push((n, plan));
        }
    }
    if copies.is_empty() {
        return None;
    }
    let rest = Kernel {
        stmts: kernel
            .stmts
            .iter()
            .enumerate()
            .filter(|(n, _)| !copies.iter().any(|(c, _)| c == n))
            .map(|(_, s)| s.clone())
            .collect(),
        ..kernel.clone()
    };
    Some((rest, copies))
}

/// Puts the conversion plans back among the plans of the other
/// statements, in statement order. In level space the copies are appended
/// to the level-space kernel as written (their operands keep their ids);
/// otherwise the other plans' statement numbers go back to `kernel`'s.
pub(super) fn merge(
    kernel: &Kernel,
    mut rest: Plan,
    copies: Vec<(usize, StmtPlan)>,
) -> Result<Plan, Vec<SparsifyError>> {
    let kept: Vec<usize> = (0..kernel.stmts.len())
        .filter(|n| !copies.iter().any(|(c, _)| c == n))
        .collect();
    // Each plan with the original statement it computes.
    let mut all: Vec<(usize, StmtPlan)> = rest
        .stmts
        .drain(..)
        .map(|p| (kept.get(p.stmt).copied().unwrap_or(usize::MAX), p))
        .collect();
    for (n, mut plan) in copies {
        match &mut rest.level_space {
            Some((k, _)) => {
                plan.stmt = k.stmts.len();
                k.stmts.push(kernel.stmts[n].clone());
            }
            None => plan.stmt = n,
        }
        all.push((n, plan));
    }
    if rest.level_space.is_none() {
        for (n, p) in &mut all {
            p.stmt = *n;
        }
    }
    // Stable: the parts of a split statement keep their order.
    all.sort_by_key(|(n, _)| *n);
    rest.stmts = all.into_iter().map(|(_, p)| p).collect();
    Ok(rest)
}
