//! Parallel chunks (`#[parallel]`): the outermost loop of a statement
//! runs in chunks of rows on rayon's threads when iteration `i` writes only
//! row `i` of the output.
//!
//! A statement qualifies when its output is a dense tensor of rank ≥ 1
//! written directly, or a CSR/DCSR matrix built by insertion; its loop
//! tree is a `Zero` of the output (if any) followed by one loop; and that
//! loop is parallel, indexes the output's first dimension and no other,
//! and is a dense `For`, an `Iterate` over an ordered compressed level 0,
//! or a `CoIterate` merging such levels (with or without the whole range).
//! Codegen then hands each chunk the disjoint run of its rows
//! (`codegen/kernel/parallel.rs`): a dense loop runs over the chunk's rows,
//! a plain walk over the chunk's entries (cut where the coordinate grows),
//! and a merge or a walk through a window (a slice walked in place, an
//! affine subscript) over the entries whose coordinates are the chunk's
//! rows. Block operands (BSR) split their block rows: the output's rows of
//! one block row are contiguous in its row-major order.

use crate::plan::{KernelPlan, Kind, Lvl, TensorInfo};
use crate::sparsifier::{LoopId, Node, OutputStrategy, Role, Space, Stmt, StmtPlan, TensorId};
use crate::vocab::LevelFormat;

/// The loop of one statement that runs in chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// The loop split.
    pub loop_id: LoopId,
    /// The output whose rows the chunks own.
    pub output: TensorId,
    /// Whether that output is sparse (CSR or DCSR written per row): each
    /// chunk inserts into a chunk output of its own, joined in row order.
    pub sparse: bool,
}

/// The loop of `sp` to run in chunks, or why the statement stays
/// sequential (for the doc comment).
pub fn chunks(kp: &KernelPlan, sp: &StmtPlan, stmt: &Stmt) -> Result<Chunks, String> {
    let out = stmt.lhs.tensor;
    let Some(info) = operand(kp, out) else {
        return Err("its output has no parameter".to_string());
    };
    let level_space = kp.loops.level_space.is_some();
    let sparse = match sp.output.strategy {
        OutputStrategy::DenseStore { .. } => false,
        OutputStrategy::SparseInsert => true,
        OutputStrategy::SparseExpand { level } if level.index() == 1 => true,
        _ => {
            return Err(format!(
                "its output `{}` is neither a dense tensor written directly nor a sparse \
                     one built by insertion (scalar outputs and in-place updates run on one \
                     thread)",
                info.name
            ))
        }
    };
    if sparse {
        sparse_rows_output(info, level_space)?;
    } else if !matches!(info.kind, Kind::Slice | Kind::Array | Kind::View) {
        return Err(format!(
            "its output `{}` is not a plain row-major dense tensor",
            info.name
        ));
    }
    let mut loops = sp
        .tree
        .iter()
        .filter(|n| !matches!(n, Node::Zero { tensor } if *tensor == out));
    let (Some(node), None) = (loops.next(), loops.next()) else {
        return Err("its loop nest does not start with a single loop".to_string());
    };
    let (loop_id, role) = match node {
        Node::For { loop_id, role, .. } => (*loop_id, *role),
        Node::Iterate {
            loop_id,
            role,
            space,
            ..
        } => {
            if !ordered_level_0(space) {
                return Err(format!(
                    "its outer loop walks `{}` level {}, which is not an ordered compressed \
                         level 0",
                    name_of(kp, space.tensor),
                    space.level.index()
                ));
            }
            (*loop_id, *role)
        }
        // Chunks of rows, each merging the entries whose coordinates are
        // its rows (found by binary search: the levels must be sorted).
        Node::CoIterate {
            loop_id,
            role,
            spaces,
            ..
        } => {
            if let Some(s) = spaces.iter().find(|s| !ordered_level_0(s)) {
                return Err(format!(
                    "its outer loop merges `{}` level {}, which is not an ordered compressed \
                     level 0",
                    name_of(kp, s.tensor),
                    s.level.index()
                ));
            }
            (*loop_id, *role)
        }
        _ => return Err("its loop nest does not start with a loop".to_string()),
    };
    let name = kp.kernel().loop_name(loop_id);
    if role != Role::Parallel {
        return Err(format!("its outer loop `{name}` is a reduction"));
    }
    // A chunk owns the output elements of its rows; a subscript such as
    // `i + j` reaches elements of other chunks.
    if let Some((d, sub)) = stmt.lhs.affine.first() {
        return Err(format!(
            "it writes dimension {d} of `{}` at the subscript `{}`, which may reach elements \
             of other chunks",
            info.name,
            sub.show(kp.kernel())
        ));
    }
    let first = stmt.lhs.indices.first() == Some(&loop_id);
    let once = stmt.lhs.indices.iter().filter(|&&l| l == loop_id).count() == 1;
    if !first || !once {
        return Err(format!(
            "its outer loop `{name}` does not index the first dimension of `{}` alone",
            info.name
        ));
    }
    Ok(Chunks {
        loop_id,
        output: out,
        sparse,
    })
}

/// Whether `space` is an ordered compressed level 0, whose entries a
/// chunk of rows finds by their coordinates.
fn ordered_level_0(space: &Space) -> bool {
    space.level.index() == 0
        && space.level_type.format == LevelFormat::Compressed
        && space.level_type.is_ordered()
}

/// Whether sparse output `out` can be written per row by chunks: a
/// matrix whose level 0 is its rows, dense or compressed (CSR, DCSR),
/// and whose level 1 is its columns, compressed, both unique, with
/// coordinates of their own (what `par::sparse_dense` and
/// `par::sparse_compressed` join directly); else why not.
fn sparse_rows_output(info: &TensorInfo, level_space: bool) -> Result<(), String> {
    let rows = |l: &Lvl, dim: usize| {
        l.dim == dim && l.ty.is_unique() && l.own_coordinates() && l.ty.is_ordered()
    };
    let ok = match (info.levels.as_slice(), info.shape.len()) {
        ([l0, l1], 2) => {
            let first =
                l0.ty.format == LevelFormat::Dense || l0.ty.format == LevelFormat::Compressed;
            first
                && rows(l0, 0)
                && rows(l1, 1)
                && l1.ty.format == LevelFormat::Compressed
                && !level_space
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "its sparse output `{}` is not a matrix stored by rows with a compressed, \
                 unique and ordered column level (CSR or DCSR), which chunks of rows can write",
            info.name
        ))
    }
}

/// The operand `t` of the plan, if it has a parameter.
fn operand(kp: &KernelPlan, t: TensorId) -> Option<&TensorInfo> {
    kp.tensors.get(t.index())?.as_ref()
}

/// The name of tensor `t`, for messages.
fn name_of(kp: &KernelPlan, t: TensorId) -> String {
    operand(kp, t).map_or_else(
        || kp.kernel().tensor_name(t).to_string(),
        |i| i.name.clone(),
    )
}

/// Whether `stmt` reads level `l` of sparse `t` through a window (an
/// affine subscript, or the offset of a slice walked in place): its
/// stored coordinates are then shifted from the loop's.
pub(crate) fn windowed(kp: &KernelPlan, stmt: &Stmt, t: TensorId, l: usize) -> bool {
    let Some(level) = operand(kp, t).and_then(|i| i.levels.get(l)) else {
        return false;
    };
    if level.ty.is_dense() {
        return false;
    }
    let mut all = vec![&stmt.lhs];
    all.extend(stmt.rhs.accesses());
    all.into_iter()
        .find(|a| a.tensor == t)
        .is_some_and(|a| a.affine_dim(level.dim).is_some())
}
