//! The iteration graph: which loop must enclose which, and the loop order.
//!
//! Design note. A compressed level can only be walked from its parent's
//! position: the columns of CSR row `i` are found through `positions[i]`, so
//! the loop over `j` must run inside the loop over `i`. Every sparse operand
//! therefore orders the loops of its consecutive levels (after its dim→lvl
//! map: CSC stores `j` then `i`, so it asks for `j` outside `i`). Dense
//! operands are random access and ask for nothing.
//!
//! Worked example, `c[i, j] = a[i, k] * b[k, j]` with `a`, `b`, `c` CSR:
//! `a` gives i→k, `b` gives k→j, `c` gives i→j. The only order is i, k, j,
//! a reduction (`k`) outside a parallel loop (`j`); the output strategy has
//! to cope (a workspace over `j`). With a dense `c` and a dense `b`, only
//! i→k remains, and the sort's preferences pick i, j, k: parallel loops
//! outermost, so `k` becomes an inner reduction scalarised in a local.
//!
//! Among loops free to go next, the sort takes a parallel loop before a
//! reduction, then the one written first (left-hand side first, which is
//! also a dense output's natural order), so the order is deterministic and
//! predictable from the source. When the constraints form a cycle there is
//! no order at all: we name the two operands whose level orders disagree and
//! the encoding that would reconcile them (MLIR would insert a conversion;
//! on a microcontroller we would rather the user chose the format).

use super::check::{Operand, StmtView};
use super::kernel::Kernel;
use super::{LoopId, SparsifyError};
use crate::vocab::{LevelFormat, LevelType};

/// The second half of a pair conflict's fix, when the sparsifier does not
/// make the copy itself (see [`super::reorder`]).
pub(super) const COPY_ADVICE: &str =
    "or pass a copy in that order made with `sparse_core::convert::convert`";

/// The `before → after` pairs one operand imposes: consecutive levels,
/// and for a level with an affine subscript (`a[i + k]`), every other
/// variable of the subscript before the driving one, whose loop walks the
/// level at coordinates offset by the others.
fn edges(op: &Operand) -> Vec<(LoopId, LoopId)> {
    let mut out: Vec<(LoopId, LoopId)> = op.levels.windows(2).map(|w| (w[0].1, w[1].1)).collect();
    for (&(_, driving), sub) in op.levels.iter().zip(&op.subscripts) {
        for &(v, _) in sub.iter().flat_map(|s| &s.terms) {
            if v != driving {
                out.push((v, driving));
            }
        }
    }
    out
}

/// Topologically sorts `loops` under `edges`, preferring `key`-smallest among
/// the ready loops; `None` on a cycle.
fn sort(
    loops: &[LoopId],
    edges: &[(LoopId, LoopId)],
    key: impl Fn(LoopId) -> (bool, usize),
) -> Option<Vec<LoopId>> {
    let mut order: Vec<LoopId> = Vec::with_capacity(loops.len());
    while order.len() < loops.len() {
        let next = loops
            .iter()
            .copied()
            .filter(|l| !order.contains(l))
            .filter(|&l| edges.iter().all(|&(a, b)| b != l || order.contains(&a)))
            .min_by_key(|&l| key(l))?;
        order.push(next);
    }
    Some(order)
}

/// The loop order of a checked statement, or the conflict that prevents one.
/// `scoped` are the edges of sums scoped inside the statement
/// ([`super::scope::scope_edges`]): each loop around a sum encloses the
/// sum's loops.
pub fn loop_order(
    kernel: &Kernel,
    view: &StmtView,
    scoped: &[(LoopId, LoopId)],
) -> Result<Vec<LoopId>, SparsifyError> {
    // A sparse output written at an affine subscript is staged in any
    // order (`OutputStrategy::SparseUnordered`): it orders no loops.
    let staged = view.scatters();
    let sparse: Vec<&Operand> = std::iter::once(&view.output)
        .filter(|_| !staged)
        .chain(&view.inputs)
        .filter(|o| o.sparse)
        .collect();
    let mut all: Vec<(LoopId, LoopId)> = sparse.iter().flat_map(|o| edges(o)).collect();
    let storage_only = all.clone();
    all.extend_from_slice(scoped);
    let position = |l: LoopId| {
        view.loops
            .iter()
            .position(|&x| x == l)
            .unwrap_or(usize::MAX)
    };
    let key = |l: LoopId| (!view.is_parallel(l), position(l));
    if let Some(order) = sort(&view.loops, &all, key) {
        return Ok(order);
    }
    if sort(&view.loops, &storage_only, key).is_some() {
        return Err(scope_conflict(kernel, &sparse, scoped));
    }
    Err(conflict(kernel, view, &sparse))
}

/// The storage order of a sparse operand asks a summed loop to enclose a
/// loop the sum lies inside of: name the operand and say how to rewrite.
fn scope_conflict(
    kernel: &Kernel,
    sparse: &[&Operand],
    scoped: &[(LoopId, LoopId)],
) -> SparsifyError {
    for op in sparse {
        for (n, &(_, inner)) in op.levels.iter().enumerate() {
            for &(_, outer) in &op.levels[n + 1..] {
                if scoped.contains(&(outer, inner)) {
                    let (o, i) = (kernel.loop_name(outer), kernel.loop_name(inner));
                    return SparsifyError::SumOrder {
                        tensor: kernel.tensor_name(op.tensor).to_string(),
                        message: format!(
                            "{}, so the loop over `{i}` must enclose the loop over `{o}`; but \
                             `{i}` is summed inside an expression evaluated once per `{o}` (a \
                             sum covers the smallest subexpression holding every use of its \
                             index), and the statement cannot be split into one statement per \
                             term (its output is sparse or read, or the sum is inside a \
                             product or call); compute that sum into a separate output first, \
                             or store `{}` with `{o}` before `{i}`",
                            describe(kernel, op),
                            kernel.tensor_name(op.tensor)
                        ),
                    };
                }
            }
        }
    }
    SparsifyError::SumOrder {
        tensor: sparse
            .first()
            .map_or(String::new(), |o| kernel.tensor_name(o.tensor).to_string()),
        message: "no loop order evaluates every sum inside the loops around it while visiting \
                  every sparse operand in storage order; compute the sums into outputs of \
                  their own first"
            .to_string(),
    }
}

/// Names the first pair of sparse operands whose level orders cannot both
/// be respected, or every sparse operand when only all of them together
/// conflict.
fn conflict(kernel: &Kernel, view: &StmtView, sparse: &[&Operand]) -> SparsifyError {
    for (n, p) in sparse.iter().enumerate() {
        for q in &sparse[n + 1..] {
            let pair: Vec<_> = edges(p).into_iter().chain(edges(q)).collect();
            if sort(&view.loops, &pair, |l| (false, l.index())).is_some() {
                continue;
            }
            // The output comes first in `sparse`, so this changes an input
            // rather than the output, and otherwise the operand written
            // later, to agree with the other.
            let (keep, change) = (p, q);
            let message = format!(
                "no loop order visits both `{}` and `{}` in storage order: {} but {}",
                kernel.tensor_name(keep.tensor),
                kernel.tensor_name(change.tensor),
                describe(kernel, keep),
                describe(kernel, change),
            );
            return SparsifyError::OrderConflict {
                tensors: vec![
                    kernel.tensor_name(keep.tensor).to_string(),
                    kernel.tensor_name(change.tensor).to_string(),
                ],
                message,
                fix: format!("{}, {COPY_ADVICE}", reordered(kernel, keep, change)),
            };
        }
    }
    let names: Vec<String> = sparse
        .iter()
        .map(|o| kernel.tensor_name(o.tensor).to_string())
        .collect();
    let described: Vec<String> = sparse.iter().map(|o| describe(kernel, o)).collect();
    SparsifyError::OrderConflict {
        message: format!(
            "no loop order visits every sparse operand in storage order: {}",
            described.join(", ")
        ),
        fix: "choose encodings whose level orders agree".to_string(),
        tensors: names,
    }
}

/// `` `a` is CSC (levels j, i) ``, or `` `b` has levels (i, l, j) ``.
fn describe(kernel: &Kernel, op: &Operand) -> String {
    let desc = kernel.desc(op.tensor);
    let loops: Vec<&str> = op
        .levels
        .iter()
        .map(|&(_, l)| kernel.loop_name(l))
        .collect();
    let perm: Vec<usize> = desc.levels.iter().map(|(_, e)| e.dim()).collect();
    let types: Vec<LevelType> = desc.levels.iter().map(|&(t, _)| t).collect();
    match format_name(&types, &perm) {
        Some(kind) => format!("`{}` is {kind} (levels {})", desc.name, loops.join(", ")),
        None => format!("`{}` has levels ({})", desc.name, loops.join(", ")),
    }
}

/// The advice for `change`: its level types, stored in the order `keep`
/// visits the shared loops.
fn reordered(kernel: &Kernel, keep: &Operand, change: &Operand) -> String {
    let desc = kernel.desc(change.tensor);
    let rank_in_keep = |l: LoopId| {
        keep.levels
            .iter()
            .position(|&(_, k)| k == l)
            .unwrap_or(usize::MAX)
    };
    // Dimensions of `change` in the new storage order (stable sort keeps the
    // loops `keep` does not use where they were).
    let mut dims: Vec<usize> = desc.levels.iter().map(|(_, e)| e.dim()).collect();
    let loop_of_dim = |d: usize| {
        change
            .levels
            .iter()
            .zip(&desc.levels)
            .find(|(_, (_, e))| e.dim() == d)
            .map(|((_, l), _)| *l)
    };
    dims.sort_by_key(|&d| loop_of_dim(d).map_or(usize::MAX, rank_in_keep));
    let types: Vec<LevelType> = desc.levels.iter().map(|&(t, _)| t).collect();
    match format_name(&types, &dims) {
        Some(name) => format!("use a {name} encoding for `{}`", desc.name),
        None => format!(
            "store `{}` with `map = {}`",
            desc.name,
            map_text(desc.dim_count, &dims, &types)
        ),
    }
}

/// A permutation map as written in an encoding: `(d0, d1) -> (d1 : dense,
/// d0 : compressed)` for level types `types` over dimensions `dims`.
pub fn map_text(dim_count: usize, dims: &[usize], types: &[LevelType]) -> String {
    let args: Vec<String> = (0..dim_count).map(|d| format!("d{d}")).collect();
    let lvls: Vec<String> = dims
        .iter()
        .zip(types)
        .map(|(d, t)| format!("d{d} : {}", level_type_text(*t)))
        .collect();
    format!("({}) -> ({})", args.join(", "), lvls.join(", "))
}

/// The common name of a level-type list stored in dimension order `perm`.
pub fn format_name(types: &[LevelType], perm: &[usize]) -> Option<&'static str> {
    use LevelFormat::*;
    let plain = |t: &LevelType, f: LevelFormat| t.format == f && t.is_unique() && t.is_ordered();
    let identity = perm.iter().enumerate().all(|(l, &d)| l == d);
    match (types, identity) {
        ([a, b], id) if plain(a, Dense) && plain(b, Compressed) => {
            Some(if id { "CSR" } else { "CSC" })
        }
        ([a, b], id) if plain(a, Compressed) && plain(b, Compressed) => {
            Some(if id { "DCSR" } else { "DCSC" })
        }
        ([a, b], true) if a.format == Compressed && !a.is_unique() && b.format == Singleton => {
            Some("COO")
        }
        _ => None,
    }
}

/// A level type as written in an encoding: `compressed(nonunique)`.
pub fn level_type_text(t: LevelType) -> String {
    let base = match t.format {
        LevelFormat::Structured { n, m } => format!("structured[{n}, {m}]"),
        f => f.name().to_string(),
    };
    let props: Vec<&str> = t.props.names().collect();
    if props.is_empty() {
        base
    } else {
        format!("{base}({})", props.join(", "))
    }
}
