//! Loop-order conflicts resolved by reading an input in another level
//! order (MLIR's sparsifier inserts a `sparse_tensor.convert` there).
//!
//! Design note. When no loop order visits every sparse operand in storage
//! order (`c[i, j] = a[i, j]` with `a` CSR and `c` CSC, a transpose
//! `c[j, i] = a[i, j]` with DCSR in and out, `a[i, j] + b[j, i]`), the
//! statement is planned with some sparse inputs read from a copy stored
//! in the order the loops want: the copy has the input's level types,
//! level for level, over the dimensions permuted into loop order (CSR
//! becomes CSC-ordered, DCSR DCSC-ordered, COO the permuted COO). The
//! output is never the one reordered: a sparse output is built in its own
//! order, and a dense one constrains nothing.
//!
//! Which inputs: the fewest that make the statement plan, trying smaller
//! sets first and, among sets of one size, inputs written later first (so
//! `a[i, j] + b[j, i]` reorders `b`, as the conflict diagnostic would have
//! suggested). The loop order is the one the statement gets with those
//! inputs treated as dense (random access constrains nothing); the copies
//! are then stored in that order and the statement re-planned with them,
//! which must succeed for the set to be taken.
//!
//! The copy is a new tensor of the kernel (`a_reordered`), which the kernel
//! front end turns into an extra parameter: the caller provides its buffers
//! (a sparse output, `Fixed`, `Slices` or `Owned`), so no kernel allocates,
//! and the generated prologue fills it with `sparse_core::convert` (a
//! count-and-scatter into those buffers). A copy is shared by every
//! statement that wants the same order of the same input.
//!
//! Not reordered (the conflict error stays): outputs, inputs some statement
//! writes, inputs whose map is not a permutation (block maps), and kernels
//! with a block operand (planned in level space, where loop ids differ).
//!
//! ELL inputs (counting levels) are always read through such a copy, one
//! without the counting level (`read_counting_through_copies`). So are
//! sliced inputs (`#sparse_tensor<slice(..)>` dimensions), through a copy
//! with their own levels holding only the slice, except stride-1 slices
//! over ordered levels, which are walked in place through subscripts
//! `i + offset` (`read_slices_through_copies`, run by
//! [`resolve_with_slices`]).

use super::kernel::{Access, Expr, Kernel, Stmt, TensorDesc};
use super::{LoopId, SparsifyError, TensorId};
use crate::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType};

/// An input read through a copy in another level order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reordering {
    /// The input as passed.
    pub source: TensorId,
    /// The copy the statements read instead (a tensor appended to the
    /// kernel, with the source's dimensions and permuted levels).
    pub copy: TensorId,
}

/// Rewrites the statements of `kernel` that no loop order can plan so they
/// read reordered copies of some inputs, when that makes them plannable.
/// Returns the rewritten kernel (copies appended to its tensors) and the
/// copies made; a kernel without such conflicts comes back unchanged.
pub fn resolve(kernel: &Kernel) -> (Kernel, Vec<Reordering>) {
    let mut k = kernel.clone();
    let mut made: Vec<Reordering> = Vec::new();
    read_counting_through_copies(&mut k, &mut made);
    copy_into_structured_through_copies(&mut k, &mut made);
    let read = |t: usize| {
        k.stmts.iter().any(|s| {
            s.lhs.tensor.index() == t || s.rhs.accesses().iter().any(|a| a.tensor.index() == t)
        })
    };
    if k.tensors.iter().enumerate().any(|(t, desc)| {
        read(t)
            && desc
                .levels
                .iter()
                .any(|(_, e)| !matches!(e, LevelExpr::Dim(_)))
    }) {
        return (k, made);
    }
    for n in 0..k.stmts.len() {
        let stmt = k.stmts[n].clone();
        match plan_alone(&k, &stmt) {
            Ok(()) => continue,
            Err(errors) if errors.iter().all(resolvable) => {}
            Err(_) => continue,
        }
        if let Some(rewritten) = reorder_stmt(&mut k, &stmt, &mut made) {
            k.stmts[n] = rewritten;
        }
    }
    (k, made)
}

/// A sparse input whose encoding slices dimensions
/// (`#sparse_tensor<slice(..)>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlicedInput {
    /// The input.
    pub tensor: TensorId,
    /// The sliced dimensions when every slice has stride 1 known at
    /// compile time (`slice(off, size, 1)`, `off` and `size` may be `?`):
    /// such an input may be walked in place; `None` reads it through a
    /// copy.
    pub unit_stride: Option<Vec<usize>>,
}

/// [`resolve`], then every statement that still reads a tensor of
/// `sliced` (inputs whose encoding slices dimensions) through the loops
/// walks it in place where it can, else reads a compact copy of the
/// slice (`read_slices_through_copies`). The copies reordering made
/// from a sliced input are made from the slice already (the prologue
/// converts the slice view), so they need nothing more.
pub fn resolve_with_slices(kernel: &Kernel, sliced: &[SlicedInput]) -> (Kernel, Vec<Reordering>) {
    let (mut k, mut made) = resolve(kernel);
    read_slices_through_copies(&mut k, &mut made, sliced);
    (k, made)
}

/// A sliced input is stored as its whole tensor: the kernel's loops
/// cannot walk it as a tensor of the slice's sizes without help.
///
/// *In place* (MLIR's lowering), for a slice whose strides are all 1 at
/// compile time, over ordered levels that are plain dimensions, with at
/// least one level storing coordinates: each access `a[i, j]` becomes
/// `a[i + a.offset0, j + a.offset1]` over its sliced dimensions, an
/// affine subscript whose constant is the view's offset, a run-time
/// value ([`super::Affine::slice`]). The affine machinery then does the
/// rest: dense levels are addressed at `offset + i` (over the whole
/// tensor's level sizes), compressed and singleton levels are walked over
/// the window of coordinates `offset .. offset + size` found by binary
/// search (the levels are ordered), coordinates read relative to
/// `offset`; the index variables keep the slice's sizes
/// ([`super::Access::is_plain`]). No copy, no workspace, no conversion.
/// A statement the rewrite does not plan (the sparsifier refuses it, or
/// it already has affine subscripts on the input) reads the copy below.
///
/// *Through a copy*, for every other slice (a stride other than 1 or `?`,
/// whose walk would need a divisibility filter; `nonordered` levels, which
/// have no window; all-dense encodings, read as dense tensors), and in
/// kernels with block operands (planned in level space): each statement
/// that reads the input through loops reads instead a copy with the same
/// level types (over plain dimensions; `nonordered` dropped, levels above
/// a singleton `nonunique`, as every copy) that the prologue fills with
/// the entries inside the slice, renumbered
/// (`sparse_core::__private::reorder_slice`): the copy `<name>_sliced`,
/// one per input, shared by the statements. A statement the sparsifier
/// plans as a conversion into a sparse output (a plain copy, `Convert`)
/// converts the slice directly and reads neither. Sliced inputs with
/// block or counting maps are refused at their parameter, so the levels
/// here are plain dimensions.
fn read_slices_through_copies(k: &mut Kernel, made: &mut Vec<Reordering>, sliced: &[SlicedInput]) {
    // Block operands plan the kernel in level space, where subscripts
    // cannot follow their split variables (`demap.rs`).
    let blocked = k.tensors.iter().any(|d| {
        d.levels
            .iter()
            .any(|(_, e)| !matches!(e, LevelExpr::Dim(_)))
    });
    for input in sliced {
        let source = input.tensor;
        let Some(desc) = k.tensors.get(source.index()) else {
            continue;
        };
        let plain = desc
            .levels
            .iter()
            .all(|(_, e)| matches!(e, LevelExpr::Dim(_)));
        let written = k.stmts.iter().any(|s| s.lhs.tensor == source);
        // An all-dense sliced encoding is copied too: its loops would
        // otherwise index the whole tensor's values.
        if !plain || written || desc.is_output {
            continue;
        }
        let walkable = desc.is_sparse()
            && desc.levels.iter().all(|(ty, _)| {
                ty.is_ordered()
                    && matches!(
                        ty.format,
                        LevelFormat::Dense | LevelFormat::Compressed | LevelFormat::Singleton
                    )
            });
        let in_place = input.unit_stride.as_ref().filter(|_| walkable && !blocked);
        let levels = copy_levels(desc.levels.iter().map(|&(ty, e)| (ty, e.dim())));
        let mut copy = None;
        for n in 0..k.stmts.len() {
            let stmt = &k.stmts[n];
            if !stmt.rhs.accesses().iter().any(|a| a.tensor == source) {
                continue;
            }
            let converted = super::sparsify(&k.with_only(stmt)).is_ok_and(|plan| {
                plan.stmts.iter().all(|p| {
                    matches!(p.output.strategy, super::OutputStrategy::Convert { source: s, .. } if s == source)
                })
            });
            if converted {
                continue;
            }
            if let Some(dims) = in_place {
                let mut walked = stmt.clone();
                if subscript_slices(&mut walked.rhs, source, dims)
                    && super::sparsify(&k.with_only(&walked)).is_ok()
                {
                    k.stmts[n] = walked;
                    continue;
                }
            }
            let to =
                *copy.get_or_insert_with(|| copy_named(k, made, source, levels.clone(), "sliced"));
            retarget(&mut k.stmts[n].rhs, source, to);
        }
    }
}

/// Gives every access of `source` in `e` the subscript `i + offset_d` on
/// each sliced dimension `d` of `dims` (see [`read_slices_through_copies`]);
/// `false`, with `e` partly rewritten, if an access already has an affine
/// subscript there, or uses one variable in two dimensions (one driving
/// variable for two windows; the model reads `a[i, i]` as `a[i, j]`
/// filtered by `j == i`, so only kernels built otherwise get here): the
/// copy path serves those.
fn subscript_slices(e: &mut Expr, source: TensorId, dims: &[usize]) -> bool {
    let mut ok = true;
    accesses_mut(e, &mut |a| {
        if a.tensor != source {
            return;
        }
        let repeated = (1..a.indices.len()).any(|d| a.indices[..d].contains(&a.indices[d]));
        if repeated {
            ok = false;
            return;
        }
        for &d in dims {
            let Some(&driving) = a.indices.get(d) else {
                ok = false;
                continue;
            };
            if a.affine_dim(d).is_some() {
                ok = false;
                continue;
            }
            let sub = super::Affine {
                terms: vec![(driving, 1)],
                constant: 0,
                slice: Some((source, d)),
            };
            let at = a.affine.partition_point(|(x, _)| *x < d);
            a.affine.insert(at, (d, sub));
        }
    });
    ok
}

/// ELL inputs (a counting level, `c * K * i`) read through a copy without
/// the counting level: the statements read `(i : dense, j : compressed)`
/// for `[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)`, a
/// CSR the prologue converts the ELL into. Walking the slices instead
/// would visit each row once per slice, which is right only for kernels
/// linear in the ELL operand; the copy is right for every kernel (MLIR
/// has no walk of counting levels either). A statement that only copies
/// the ELL into a sparse output is a conversion already and reads it
/// directly.
fn read_counting_through_copies(k: &mut Kernel, made: &mut Vec<Reordering>) {
    for t in 0..k.tensors.len() {
        let desc = &k.tensors[t];
        let counting = desc
            .levels
            .iter()
            .any(|(_, e)| matches!(e, LevelExpr::Counting { .. }));
        let written = k.stmts.iter().any(|s| s.lhs.tensor.index() == t);
        if !counting || written || !desc.is_sparse() || desc.is_output {
            continue;
        }
        let kept: Vec<(LevelType, LevelExpr)> = desc
            .levels
            .iter()
            .copied()
            .filter(|(_, e)| !matches!(e, LevelExpr::Counting { .. }))
            .collect();
        // Every dimension once, each level storing one whole dimension.
        let mut dims: Vec<usize> = kept.iter().map(|(_, e)| e.dim()).collect();
        dims.sort_unstable();
        let whole = kept.iter().all(|(_, e)| matches!(e, LevelExpr::Dim(_)));
        if !whole || dims != (0..desc.dim_count).collect::<Vec<_>>() {
            continue;
        }
        let levels = copy_levels(kept.into_iter().map(|(ty, e)| (ty, e.dim())));
        let source = TensorId(t as u32);
        let mut copy = None;
        for n in 0..k.stmts.len() {
            let stmt = &k.stmts[n];
            let plain_copy = matches!(&stmt.rhs, Expr::Access(a) if a.tensor == source)
                && k.tensors
                    .get(stmt.lhs.tensor.index())
                    .is_some_and(|o| o.is_sparse());
            let reads = stmt.rhs.accesses().iter().any(|a| a.tensor == source);
            if plain_copy || !reads {
                continue;
            }
            let to = *copy.get_or_insert_with(|| copy_of(k, made, source, levels.clone()));
            retarget(&mut k.stmts[n].rhs, source, to);
        }
    }
}

/// A copy `c[i, j] = a[i, j]` into an output with an n:m level is a
/// conversion that sparse-core writes in one pass in `c`'s level order, so
/// it streams only from a source stored in that order: one with `c`'s
/// map, or one stored in dimension order when `c` only splits dimensions
/// in order (CSR → 2:4). Any other source (CSC, unordered COO) is read
/// through a copy stored in dimension order (its level types over the
/// dimensions in order: CSC becomes CSR), as MLIR sorts a COO before it
/// builds a format in one pass.
fn copy_into_structured_through_copies(k: &mut Kernel, made: &mut Vec<Reordering>) {
    for n in 0..k.stmts.len() {
        let stmt = &k.stmts[n];
        let Expr::Access(a) = &stmt.rhs else {
            continue;
        };
        let (Some(out), Some(src)) = (
            k.tensors.get(stmt.lhs.tensor.index()),
            k.tensors.get(a.tensor.index()),
        ) else {
            continue;
        };
        let structured = out
            .levels
            .iter()
            .any(|(t, _)| matches!(t.format, LevelFormat::Structured { .. }));
        let written = k.stmts.iter().any(|s| s.lhs.tensor == a.tensor);
        if !structured
            || !out.is_output
            || !src.is_sparse()
            || src.is_output
            || written
            || a.indices != stmt.lhs.indices
            || !a.affine.is_empty()
            || streams_into(src, out)
        {
            continue;
        }
        let plain = src
            .levels
            .iter()
            .all(|(_, e)| matches!(e, LevelExpr::Dim(_)));
        if !plain || src.levels.len() != src.dim_count {
            continue;
        }
        let levels = copy_levels(src.levels.iter().enumerate().map(|(l, &(ty, _))| (ty, l)));
        let source = a.tensor;
        let to = copy_of(k, made, source, levels);
        retarget(&mut k.stmts[n].rhs, source, to);
    }
}

/// Whether sparse-core's conversion streams `src` into `out` (its
/// `TensorSource::streams`): the same levels, every one ordered; or `src`
/// stored in dimension order, ordered, and `out` splitting the dimensions
/// in order (each as itself, or as `d floordiv b` then `d mod b`).
fn streams_into(src: &TensorDesc, out: &TensorDesc) -> bool {
    let ordered = src.levels.iter().all(|(t, _)| t.is_ordered());
    if !ordered {
        return false;
    }
    let same_map = src.levels.len() == out.levels.len()
        && src.levels.iter().zip(&out.levels).all(|(a, b)| a.1 == b.1);
    if same_map {
        return true;
    }
    let identity = src.levels.len() == src.dim_count
        && src
            .levels
            .iter()
            .enumerate()
            .all(|(l, (_, e))| *e == LevelExpr::Dim(l as u8));
    if !identity {
        return false;
    }
    let exprs: Vec<LevelExpr> = out.levels.iter().map(|&(_, e)| e).collect();
    crate::vocab::splits_dims_in_order(&exprs, out.dim_count)
}

/// Conflicts a different level order of some input may remove.
fn resolvable(e: &SparsifyError) -> bool {
    matches!(
        e,
        SparsifyError::OrderConflict { .. }
            | SparsifyError::SumOrder { .. }
            | SparsifyError::SparseOutputOrder { .. }
    )
}

/// Plans `stmt` as the only statement of `k`.
fn plan_alone(k: &Kernel, stmt: &Stmt) -> Result<(), Vec<SparsifyError>> {
    super::sparsify(&k.with_only(stmt)).map(|_| ())
}

/// The inputs of `stmt` that may be read through a copy: sparse, read
/// only (no statement of `k` writes them), in order of first use.
fn candidates(k: &Kernel, stmt: &Stmt) -> Vec<TensorId> {
    let mut out: Vec<TensorId> = Vec::new();
    for a in stmt.rhs.accesses() {
        let Some(desc) = k.tensors.get(a.tensor.index()) else {
            continue;
        };
        let written = k.stmts.iter().any(|s| s.lhs.tensor == a.tensor);
        if desc.is_sparse() && !desc.is_output && !written && !out.contains(&a.tensor) {
            out.push(a.tensor);
        }
    }
    out
}

/// Subsets of `items` by increasing size; within a size, the later items
/// first (by the largest index, then the next).
fn subsets(items: &[TensorId]) -> Vec<Vec<TensorId>> {
    let n = items.len();
    let mut masks: Vec<u32> = (1..(1u32 << n)).collect();
    let key = |m: &u32| {
        let mut picked: Vec<usize> = (0..n).filter(|b| m & (1 << b) != 0).rev().collect();
        picked.iter_mut().for_each(|b| *b = n - *b);
        (m.count_ones(), picked)
    };
    masks.sort_by_key(key);
    masks
        .into_iter()
        .map(|m| {
            (0..n)
                .filter(|b| m & (1 << b) != 0)
                .map(|b| items[b])
                .collect()
        })
        .collect()
}

/// Finds the fewest inputs of `stmt` whose reordered copies make it plan;
/// adds the copies to `k` (reusing one made earlier for the same order)
/// and returns the statement reading them.
fn reorder_stmt(k: &mut Kernel, stmt: &Stmt, made: &mut Vec<Reordering>) -> Option<Stmt> {
    let inputs = candidates(k, stmt);
    // Each subset costs a planning; a statement merges at most a few
    // sparse inputs, so this stays small (2^MAX_SPARSE_INPUTS at worst).
    if inputs.is_empty() || inputs.len() > super::check::MAX_SPARSE_INPUTS {
        return None;
    }
    for set in subsets(&inputs) {
        let mut relaxed = k.clone();
        for &t in &set {
            let desc = &mut relaxed.tensors[t.index()];
            *desc = TensorDesc::dense(&desc.name, desc.dim_count);
        }
        let Ok(plan) = super::sparsify(&relaxed.with_only(stmt)) else {
            continue;
        };
        let Some(first) = plan.stmts.first() else {
            continue;
        };
        let mut order: Vec<LoopId> = first.order.iter().map(|&(l, _)| l).collect();
        order.extend(plan.stmts.iter().flat_map(|p| p.summed.iter().copied()));
        let mut trial = k.clone();
        let mut trial_made = made.clone();
        let mut rewritten = stmt.clone();
        for &t in &set {
            let Some(levels) = permuted_levels(&trial, stmt, t, &order) else {
                continue;
            };
            let copy = copy_of(&mut trial, &mut trial_made, t, levels);
            retarget(&mut rewritten.rhs, t, copy);
        }
        if plan_alone(&trial, &rewritten).is_ok() {
            *k = trial;
            *made = trial_made;
            return Some(rewritten);
        }
    }
    None
}

/// The levels of `t`'s copy: its level types, level for level (without
/// `nonordered`: the conversion sorts), over its dimensions sorted by where
/// their index variable comes in `order`. `None` when that is `t`'s own
/// order.
fn permuted_levels(
    k: &Kernel,
    stmt: &Stmt,
    t: TensorId,
    order: &[LoopId],
) -> Option<Vec<(LevelType, LevelExpr)>> {
    let desc = k.tensors.get(t.index())?;
    let access = stmt.rhs.accesses().into_iter().find(|a| a.tensor == t)?;
    let rank = |d: usize| {
        access
            .indices
            .get(d)
            .and_then(|l| order.iter().position(|o| o == l))
            .unwrap_or(usize::MAX)
    };
    let mut dims: Vec<usize> = desc.levels.iter().map(|(_, e)| e.dim()).collect();
    let before = dims.clone();
    dims.sort_by_key(|&d| rank(d));
    if dims == before {
        return None;
    }
    Some(copy_levels(
        desc.levels.iter().zip(dims).map(|(&(ty, _), d)| (ty, d)),
    ))
}

/// The levels of a copy: each given level type over the given dimension,
/// stored whole, without `nonordered` (the conversion sorts). A COO
/// region's leading coordinates repeat once its entries are sorted another
/// way (one row holding two entries becomes two columns sharing a row), so
/// every level above a singleton admits repeats, as MLIR's COO
/// (`compressed(nonunique), singleton`) does.
fn copy_levels(levels: impl Iterator<Item = (LevelType, usize)>) -> Vec<(LevelType, LevelExpr)> {
    let mut levels: Vec<(LevelType, LevelExpr)> = levels
        .map(|(mut ty, d)| {
            ty.props = LevelProps::from_bits(ty.props.bits() & !LevelProps::NONORDERED.bits());
            (ty, LevelExpr::Dim(d as u8))
        })
        .collect();
    for l in 1..levels.len() {
        if levels[l].0.format == LevelFormat::Singleton {
            levels[l - 1].0 = levels[l - 1].0.with(LevelProps::NONUNIQUE);
        }
    }
    levels
}

/// The copy of `source` stored with `levels`: one made before, or a new
/// tensor named `<source>_reordered` (numbered if that name is taken).
fn copy_of(
    k: &mut Kernel,
    made: &mut Vec<Reordering>,
    source: TensorId,
    levels: Vec<(LevelType, LevelExpr)>,
) -> TensorId {
    copy_named(k, made, source, levels, "reordered")
}

/// [`copy_of`], a new copy named `<source>_<suffix>`.
fn copy_named(
    k: &mut Kernel,
    made: &mut Vec<Reordering>,
    source: TensorId,
    levels: Vec<(LevelType, LevelExpr)>,
    suffix: &str,
) -> TensorId {
    if let Some(r) = made
        .iter()
        .find(|r| r.source == source && k.tensors[r.copy.index()].levels == levels)
    {
        return r.copy;
    }
    let base = format!(
        "{}_{suffix}",
        k.tensor_name(source).trim_start_matches("r#")
    );
    let mut name = base.clone();
    let mut n = 2;
    while k.tensors.iter().any(|t| t.name == name) {
        name = format!("{base}{n}");
        n += 1;
    }
    let dim_count = k.tensors[source.index()].dim_count;
    let copy = k.tensor(TensorDesc::sparse(&name, dim_count, &levels));
    made.push(Reordering { source, copy });
    copy
}

/// Points every access of `from` in `e` at `to`.
fn retarget(e: &mut Expr, from: TensorId, to: TensorId) {
    accesses_mut(e, &mut |a| {
        if a.tensor == from {
            a.tensor = to;
        }
    });
}

/// Calls `f` on every access of `e`.
fn accesses_mut(e: &mut Expr, f: &mut impl FnMut(&mut Access)) {
    match e {
        Expr::Access(a) => f(a),
        Expr::Literal(_) | Expr::Index(_) | Expr::Zero | Expr::Absent | Expr::Local(_) => {}
        Expr::Neg(x) | Expr::Cast(x, _) | Expr::Select(_, x) | Expr::Sum(_, x) => {
            accesses_mut(x, f)
        }
        Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
            accesses_mut(l, f);
            accesses_mut(r, f);
        }
        Expr::Call(_, args) | Expr::Apply(_, args) => {
            for x in args {
                accesses_mut(x, f);
            }
        }
        Expr::Binary(b) => {
            accesses_mut(&mut b.x, f);
            accesses_mut(&mut b.y, f);
        }
        Expr::Unary(u) => accesses_mut(&mut u.x, f),
    }
}
