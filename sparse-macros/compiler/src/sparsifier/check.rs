//! Checks a statement against the sparsifier's preconditions and resolves
//! every operand's levels to the index variables they iterate.
//!
//! The kernel model stage already rejects most malformed kernels with spans;
//! this check exists so the sparsifier never panics on a [`Kernel`] built
//! some other way (tests, fuzzing), and it is where the limits of the
//! sparsifier itself (plain permutation maps only, for now) are enforced.

use super::kernel::{Affine, AssignOp, Expr, Kernel, Stmt};
use super::{Level, LoopId, SparsifyError, TensorId};
use crate::vocab::{LevelExpr, LevelType};

/// The most sparse inputs one statement may merge: a lattice can have a
/// point per subset of them, so this bounds it at 2^8 points.
pub const MAX_SPARSE_INPUTS: usize = 8;

/// One operand of a statement, resolved to level space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The tensor.
    pub tensor: TensorId,
    /// For each storage level, its type and the index variable it iterates.
    pub levels: Vec<(LevelType, LoopId)>,
    /// Whether any level stores coordinates.
    pub sparse: bool,
    /// For each storage level, the affine subscript of the dimension it
    /// stores (`a[i + k]`), `None` where the subscript is the level's index
    /// variable itself.
    pub subscripts: Vec<Option<Affine>>,
}

impl Operand {
    /// The level this operand iterates with `l`, if it uses `l`.
    pub fn level_of(&self, l: LoopId) -> Option<(Level, LevelType)> {
        self.levels
            .iter()
            .position(|&(_, lp)| lp == l)
            .map(|p| (Level(p as u32), self.levels[p].0))
    }
}

/// A checked statement: its operands and its index variables.
#[derive(Clone, Debug, PartialEq)]
pub struct StmtView {
    /// Position of the statement in the kernel.
    pub index: usize,
    /// The output operand.
    pub output: Operand,
    /// The input operands, each tensor once, in order of first appearance.
    pub inputs: Vec<Operand>,
    /// Every index variable of the statement, in order of first appearance
    /// (left-hand side first).
    pub loops: Vec<LoopId>,
}

impl StmtView {
    /// Whether `l` indexes the output (a parallel loop) rather than being
    /// summed over (a reduction).
    /// Every variable of an output's affine subscript (`x[4 * i + j]`) is
    /// one.
    pub fn is_parallel(&self, l: LoopId) -> bool {
        self.output.levels.iter().any(|&(_, lp)| lp == l)
            || self
                .output
                .subscripts
                .iter()
                .flatten()
                .any(|s| s.coefficient(l) != 0)
    }
    /// Whether the output is written at an affine subscript, so that
    /// several points may reach one element (`linear_out.rs` in the model).
    pub fn scatters(&self) -> bool {
        self.output.subscripts.iter().any(Option::is_some)
    }
    /// The operand of tensor `t` (output first).
    pub fn operand(&self, t: TensorId) -> Option<&Operand> {
        std::iter::once(&self.output)
            .chain(&self.inputs)
            .find(|o| o.tensor == t)
    }
}

/// Checks statement `index` of `kernel`; all problems are reported.
pub fn check_stmt(
    kernel: &Kernel,
    index: usize,
    stmt: &Stmt,
) -> Result<StmtView, Vec<SparsifyError>> {
    let mut errors = Vec::new();
    let mut operands: Vec<Operand> = Vec::new();
    let mut accesses = vec![&stmt.lhs];
    accesses.extend(stmt.rhs.accesses());
    let update = super::in_place::is_update(kernel, stmt);
    let mut loops = Vec::new();
    for access in &accesses {
        for l in access.loops() {
            if !loops.contains(&l) {
                loops.push(l);
            }
        }
    }
    stmt.rhs.visit(&mut |e| {
        if let Expr::Index(l) = e {
            if !loops.contains(l) {
                loops.push(*l);
            }
        }
    });
    for &l in &loops {
        if l.index() >= kernel.loops.len() {
            errors.push(SparsifyError::UnknownIndex {
                stmt: index,
                id: l.0,
            });
        }
    }
    for (n, access) in accesses.iter().enumerate() {
        let Some(desc) = kernel.tensors.get(access.tensor.index()) else {
            errors.push(SparsifyError::UnknownTensor {
                stmt: index,
                id: access.tensor.0,
            });
            continue;
        };
        let shown = kernel.show_access(access);
        if access.indices.len() != desc.dim_count {
            errors.push(SparsifyError::WrongRank {
                access: shown,
                dims: desc.dim_count,
            });
            continue;
        }
        if let Some(dup) = access
            .indices
            .iter()
            .enumerate()
            .find(|(p, l)| access.indices[..*p].contains(l))
        {
            errors.push(SparsifyError::RepeatedIndex {
                access: shown,
                index: kernel.loop_name(*dup.1).to_string(),
            });
            continue;
        }
        if n == 0 && !desc.is_output {
            errors.push(SparsifyError::NotAnOutput {
                tensor: desc.name.clone(),
            });
        }
        let Some(levels) = resolve_levels(kernel, access.tensor, &access.indices, &mut errors)
        else {
            continue;
        };
        let sparse = desc.is_sparse();
        let subscripts: Vec<Option<Affine>> = desc
            .levels
            .iter()
            .map(|(_, e)| access.affine_dim(e.dim()).cloned())
            .collect();
        // The output is written at its subscripts, never walked by them.
        let walked = if n == 0 {
            Ok(())
        } else {
            check_affine(desc, &levels, &subscripts)
        };
        if let Err(message) = walked {
            errors.push(SparsifyError::AffineSubscript {
                tensor: desc.name.clone(),
                message,
            });
            continue;
        }
        match operands.iter().find(|o| o.tensor == access.tensor) {
            Some(prev) if (prev.levels != levels || prev.subscripts != subscripts) && sparse => {
                errors.push(SparsifyError::InconsistentAccess {
                    tensor: desc.name.clone(),
                })
            }
            // An in-place update reads its output where it writes it
            // (checked by `in_place::check`).
            Some(_) if n > 0 && operands[0].tensor == access.tensor && sparse && !update => errors
                .push(SparsifyError::SparseOutputRead {
                    tensor: desc.name.clone(),
                }),
            Some(_) => {}
            None => operands.push(Operand {
                tensor: access.tensor,
                levels,
                sparse,
                subscripts,
            }),
        }
    }
    if operands.first().is_some_and(|o| o.sparse) && stmt.op == AssignOp::AddAssign {
        errors.push(SparsifyError::SparseOutputAccumulate {
            tensor: kernel.tensor_name(stmt.lhs.tensor).to_string(),
        });
    }
    check_divisions(kernel, &stmt.rhs, &mut errors);
    let sparse_inputs = operands
        .iter()
        .filter(|o| o.sparse && o.tensor != stmt.lhs.tensor)
        .count();
    if sparse_inputs > MAX_SPARSE_INPUTS {
        errors.push(SparsifyError::TooComplex {
            message: format!(
                "this statement reads {sparse_inputs} sparse tensors; at most {MAX_SPARSE_INPUTS} can be co-iterated in one statement: split it into several (into a dense output, the later ones can add their terms with `+=`)"
            ),
        });
    }
    if !errors.is_empty() || operands.is_empty() {
        return Err(errors);
    }
    for &l in &loops {
        if !operands.iter().any(|o| o.level_of(l).is_some()) {
            errors.push(SparsifyError::UnboundedIndex {
                index: kernel.loop_name(l).to_string(),
            });
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let output = operands.remove(0);
    let inputs = operands;
    Ok(StmtView {
        index,
        output,
        inputs,
        loops,
    })
}

/// Maps each storage level of `tensor` to the index variable of the
/// dimension it stores. Only permutations are supported here: block and
/// counting levels need new loop variables in level space (MLIR's
/// `SparseReinterpretMap`), which this stage does not introduce yet.
fn resolve_levels(
    kernel: &Kernel,
    tensor: crate::sparsifier::TensorId,
    indices: &[LoopId],
    errors: &mut Vec<SparsifyError>,
) -> Option<Vec<(LevelType, LoopId)>> {
    let desc = kernel.desc(tensor);
    let mut seen = vec![false; desc.dim_count];
    let mut levels = Vec::new();
    for (l, &(lt, expr)) in desc.levels.iter().enumerate() {
        let LevelExpr::Dim(d) = expr else {
            errors.push(SparsifyError::UnsupportedLevel {
                tensor: desc.name.clone(),
                level: l,
            });
            return None;
        };
        let d = d as usize;
        if d >= desc.dim_count || seen[d] {
            errors.push(SparsifyError::NotAPermutation {
                tensor: desc.name.clone(),
            });
            return None;
        }
        seen[d] = true;
        levels.push((lt, indices[d]));
    }
    if seen.iter().any(|s| !s) {
        errors.push(SparsifyError::NotAPermutation {
            tensor: desc.name.clone(),
        });
        return None;
    }
    Some(levels)
}

/// Rule: an affine subscript on a level that stores coordinates is walked
/// by its driving variable (coefficient 1) over a window of coordinates,
/// which needs the level's coordinates sorted under each parent entry;
/// n:m levels are refused (their coordinates are group-relative).
fn check_affine(
    desc: &super::TensorDesc,
    levels: &[(LevelType, LoopId)],
    subscripts: &[Option<Affine>],
) -> Result<(), String> {
    for (l, ((lt, driving), sub)) in levels.iter().zip(subscripts).enumerate() {
        let Some(sub) = sub else { continue };
        if lt.is_dense() {
            continue;
        }
        if matches!(lt.format, crate::vocab::LevelFormat::Structured { .. }) {
            return Err(format!(
                "level {l} is an n:m level, whose coordinates count within each group; affine \
                 subscripts walk only dense, compressed and singleton levels: convert `{}` to \
                 CSR for this kernel",
                desc.name
            ));
        }
        if !lt.is_ordered() {
            return Err(format!(
                "level {l} is `nonordered`, and a subscript walks a window of sorted \
                 coordinates; drop `nonordered` from the encoding of `{}`",
                desc.name
            ));
        }
        if sub.coefficient(*driving) != 1 {
            return Err(format!(
                "the subscript of level {l} needs an index variable with coefficient 1 for its \
                 loop to walk the stored coordinates (`i + k`, `2 * i + k`); convert `{}` to a \
                 dense tensor for a strided or reversed walk",
                desc.name
            ));
        }
    }
    Ok(())
}

/// A sparse divisor would divide by its implicit zeros at every coordinate
/// it does not store, which co-iteration cannot express (MLIR only admits
/// divisors that cannot be zero).
fn check_divisions(kernel: &Kernel, rhs: &Expr, errors: &mut Vec<SparsifyError>) {
    rhs.visit(&mut |e| {
        if let Expr::Div(_, divisor) = e {
            for a in divisor.accesses() {
                if kernel
                    .tensors
                    .get(a.tensor.index())
                    .is_some_and(|d| d.is_sparse())
                {
                    errors.push(SparsifyError::SparseDivisor {
                        tensor: kernel.tensor_name(a.tensor).to_string(),
                    });
                }
            }
        }
    });
}
