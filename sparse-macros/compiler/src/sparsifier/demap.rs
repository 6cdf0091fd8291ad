//! Block maps in level space (MLIR's `SparseReinterpretMap`, "demapping").
//!
//! Design note. A BSR operand `(i, j) -> (i floordiv 2 : dense, j floordiv
//! 2 : compressed, i mod 2 : dense, j mod 2 : dense)` stores four levels
//! for two dimensions. The sparsifier works on loops that each walk one
//! level, so before planning, every index variable a block level splits is
//! replaced, in the whole kernel, by two: `i` becomes `i__blk` (the block,
//! `i floordiv 2`) and `i__in` (the offset in it, `i mod 2`), with `i = 2 *
//! i__blk + i__in`. Then:
//!
//! - the block tensor is read in level space, one index per level:
//!   `a[i, j]` becomes `a[i__blk, j__blk, i__in, j__in]` over the identity
//!   map, which the iteration graph, the merger and codegen already handle;
//! - a dense operand indexed by `i` is read as the row-major reshape that
//!   splits that dimension in two: `y[i]` becomes `y[i__blk, i__in]` over
//!   sizes `[n / 2, 2]`, whose row-major offset `i__blk * 2 + i__in` is
//!   `i` itself, so no data moves;
//! - `i` as a value becomes `i__blk * 2 + i__in`, and `sum(i, ..)` sums
//!   over both.
//!
//! The reshape is exact only where the dimension is a whole number of
//! blocks, which every kernel checks in its prologue (`PartialBlock`). The
//! inner loops run over the block size, a constant, so the optimizer
//! unrolls them. A sparse operand without block levels indexed by a split
//! variable would have to be co-iterated on `2 * i__blk + i__in`, which
//! the merger cannot express: that is an error naming both tensors.

use std::collections::BTreeMap;

use super::kernel::{Access, BinaryOp, Expr, Kernel, TensorDesc, UnaryOp};
use super::{LoopId, SparsifyError, TensorId};
use crate::vocab::LevelExpr;

/// Where one dimension of a demapped tensor comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimPart {
    /// Dimension `d` of the tensor as declared, unchanged.
    Whole(usize),
    /// The block number of dimension `dim`: `dim floordiv block`.
    Blocks {
        /// The dimension as declared.
        dim: usize,
        /// The block size.
        block: u32,
    },
    /// The offset inside a block of dimension `dim`: `dim mod block`.
    Within {
        /// The dimension as declared.
        dim: usize,
        /// The block size.
        block: u32,
    },
}

/// What demapping did to the tensors of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Demap {
    /// For each tensor (by [`TensorId`]), the origin of each of its new
    /// dimensions, or `None` if it is unchanged.
    pub tensors: Vec<Option<Vec<DimPart>>>,
}

impl Demap {
    /// The origins of tensor `t`'s dimensions, if demapping changed it.
    pub fn parts(&self, t: TensorId) -> Option<&[DimPart]> {
        self.tensors.get(t.index())?.as_deref()
    }
}

/// The loops an index variable is split into, and the block size.
#[derive(Clone, Copy, Debug)]
struct Split {
    blocks: LoopId,
    within: LoopId,
    block: u32,
}

/// The kernel in level space, or `None` when no operand has a block level
/// (the common case: the kernel is planned as written).
pub fn demap(kernel: &Kernel) -> Result<Option<(Kernel, Demap)>, Vec<SparsifyError>> {
    let blocked: Vec<TensorId> = (0..kernel.tensors.len())
        .map(|t| TensorId(t as u32))
        .filter(|&t| is_blocked(kernel.desc(t)))
        .collect();
    if blocked.is_empty() {
        return Ok(None);
    }
    let mut errors = Vec::new();
    // The block size of each dimension of each block tensor.
    let mut dim_blocks: BTreeMap<TensorId, Vec<Option<u32>>> = BTreeMap::new();
    for &t in &blocked {
        match block_sizes(kernel.desc(t)) {
            Ok(sizes) => {
                dim_blocks.insert(t, sizes);
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut out = kernel.clone();
    let splits = choose_splits(kernel, &dim_blocks, &mut out, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    // How each tensor's dimensions split, from the accesses.
    let mut parts: Vec<Option<Vec<DimPart>>> = vec![None; kernel.tensors.len()];
    for (t, desc) in kernel.tensors.iter().enumerate() {
        let t = TensorId(t as u32);
        if dim_blocks.contains_key(&t) {
            let level_parts = desc
                .levels
                .iter()
                .map(|&(_, e)| match e {
                    LevelExpr::FloorDiv { dim, divisor } => DimPart::Blocks {
                        dim: dim as usize,
                        block: divisor,
                    },
                    LevelExpr::Mod { dim, modulus } => DimPart::Within {
                        dim: dim as usize,
                        block: modulus,
                    },
                    other => DimPart::Whole(other.dim()),
                })
                .collect();
            parts[t.index()] = Some(level_parts);
            continue;
        }
        let mut split_dims: Option<Vec<Option<u32>>> = None;
        for stmt in &kernel.stmts {
            let mut accesses = vec![&stmt.lhs];
            accesses.extend(stmt.rhs.accesses());
            for a in accesses.into_iter().filter(|a| a.tensor == t) {
                let dims: Vec<Option<u32>> = a
                    .indices
                    .iter()
                    .map(|l| splits.get(l).map(|s| s.block))
                    .collect();
                match &split_dims {
                    None => split_dims = Some(dims),
                    Some(prev) if *prev != dims => {
                        errors.push(SparsifyError::BlockIndex {
                            tensor: desc.name.clone(),
                            message: format!(
                                "`{}` is indexed both by variables a block operand splits into \
                                 blocks and by variables it does not, in the same dimension; \
                                 index it the same way everywhere",
                                desc.name
                            ),
                        });
                    }
                    Some(_) => {}
                }
            }
        }
        let Some(dims) = split_dims else { continue };
        if dims.iter().all(Option::is_none) {
            continue;
        }
        if desc.is_sparse() {
            let blockers: Vec<&str> = blocked.iter().map(|&b| kernel.tensor_name(b)).collect();
            errors.push(SparsifyError::BlockIndex {
                tensor: desc.name.clone(),
                message: format!(
                    "sparse tensor `{}` shares an index variable with block operand `{}`, which \
                     walks it block by block; co-iterating a block and a non-block sparse \
                     operand is not supported: store `{}` with the same block map",
                    desc.name,
                    blockers.join("`, `"),
                    desc.name
                ),
            });
            continue;
        }
        let mut new_parts = Vec::new();
        for (d, b) in dims.iter().enumerate() {
            match b {
                Some(block) => {
                    new_parts.push(DimPart::Blocks {
                        dim: d,
                        block: *block,
                    });
                    new_parts.push(DimPart::Within {
                        dim: d,
                        block: *block,
                    });
                }
                None => new_parts.push(DimPart::Whole(d)),
            }
        }
        parts[t.index()] = Some(new_parts);
    }
    for f in &kernel.funcs {
        if let Some(l) = f.indices.iter().find(|l| splits.contains_key(l)) {
            errors.push(SparsifyError::BlockIndex {
                tensor: kernel.loop_name(*l).to_string(),
                message: format!(
                    "the closure `{}` reads index `{}`, which a block operand splits into \
                     blocks; closures over block operands cannot read split indices yet",
                    f.text,
                    kernel.loop_name(*l)
                ),
            });
        }
    }
    for stmt in &kernel.stmts {
        for a in std::iter::once(&stmt.lhs).chain(stmt.rhs.accesses()) {
            if a.affine.is_empty() {
                continue;
            }
            let blocked = dim_blocks.contains_key(&a.tensor);
            let split = a.loops().into_iter().find(|l| splits.contains_key(l));
            if blocked || split.is_some() {
                let name = kernel.tensor_name(a.tensor).to_string();
                errors.push(SparsifyError::BlockIndex {
                    message: format!(
                        "`{}` has an affine subscript in a kernel whose block operands split \
                         its index variables into blocks, which affine subscripts cannot follow \
                         yet; convert the block operand to CSR (or dense) for this kernel",
                        kernel.show_access(a)
                    ),
                    tensor: name,
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Rewrite the descriptions and every statement.
    for (t, p) in parts.iter().enumerate() {
        let Some(p) = p else { continue };
        let old = &kernel.tensors[t];
        out.tensors[t] = if dim_blocks.contains_key(&TensorId(t as u32)) {
            let levels: Vec<_> = old
                .levels
                .iter()
                .enumerate()
                .map(|(l, &(lt, _))| (lt, LevelExpr::Dim(l as u8)))
                .collect();
            TensorDesc {
                dim_count: levels.len(),
                levels,
                ..old.clone()
            }
        } else {
            TensorDesc {
                is_output: old.is_output,
                ..TensorDesc::dense(&old.name, p.len())
            }
        };
    }
    let demap = Demap { tensors: parts };
    for stmt in &mut out.stmts {
        stmt.lhs = access(&stmt.lhs, &demap, &splits);
        stmt.rhs = expr(&stmt.rhs, &demap, &splits);
    }
    Ok(Some((out, demap)))
}

/// Whether `stmt` reads or writes an operand with block levels.
pub fn reads_block_operand(kernel: &Kernel, stmt: &super::kernel::Stmt) -> bool {
    std::iter::once(&stmt.lhs)
        .chain(stmt.rhs.accesses())
        .any(|a| kernel.tensors.get(a.tensor.index()).is_some_and(is_blocked))
}

/// Whether a tensor has a block level.
fn is_blocked(desc: &TensorDesc) -> bool {
    desc.levels
        .iter()
        .any(|(_, e)| matches!(e, LevelExpr::FloorDiv { .. } | LevelExpr::Mod { .. }))
}

/// The block size of each dimension of a block tensor, after checking the
/// map is one the demapping handles: each dimension stored either whole,
/// or as `d floordiv b` followed (at any later level) by `d mod b`.
fn block_sizes(desc: &TensorDesc) -> Result<Vec<Option<u32>>, SparsifyError> {
    let unsupported = |level: usize| SparsifyError::UnsupportedLevel {
        tensor: desc.name.clone(),
        level,
    };
    let mut sizes = vec![None; desc.dim_count];
    for (d, size) in sizes.iter_mut().enumerate() {
        let uses: Vec<(usize, LevelExpr)> = desc
            .levels
            .iter()
            .enumerate()
            .filter(|(_, (_, e))| e.dim() == d)
            .map(|(l, &(_, e))| (l, e))
            .collect();
        match uses.as_slice() {
            [(_, LevelExpr::Dim(_))] => {}
            [(_, LevelExpr::FloorDiv { divisor, .. }), (_, LevelExpr::Mod { modulus, .. })]
                if divisor == modulus =>
            {
                *size = Some(*divisor)
            }
            [(l, _), ..] => return Err(unsupported(*l)),
            [] => {
                return Err(SparsifyError::NotAPermutation {
                    tensor: desc.name.clone(),
                })
            }
        }
    }
    if let Some(l) = desc
        .levels
        .iter()
        .position(|(_, e)| matches!(e, LevelExpr::Counting { .. }))
    {
        return Err(unsupported(l));
    }
    Ok(sizes)
}

/// Picks the block size of every index variable a block tensor splits, and
/// adds the two loops of each to `out`.
fn choose_splits(
    kernel: &Kernel,
    dim_blocks: &BTreeMap<TensorId, Vec<Option<u32>>>,
    out: &mut Kernel,
    errors: &mut Vec<SparsifyError>,
) -> BTreeMap<LoopId, Split> {
    let mut blocks: BTreeMap<LoopId, (u32, TensorId)> = BTreeMap::new();
    for stmt in &kernel.stmts {
        let mut accesses = vec![&stmt.lhs];
        accesses.extend(stmt.rhs.accesses());
        for a in accesses {
            let Some(sizes) = dim_blocks.get(&a.tensor) else {
                continue;
            };
            for (d, &l) in a.indices.iter().enumerate() {
                let Some(b) = sizes.get(d).copied().flatten() else {
                    continue;
                };
                match blocks.get(&l) {
                    Some(&(prev, by)) if prev != b => errors.push(SparsifyError::BlockIndex {
                        tensor: kernel.tensor_name(a.tensor).to_string(),
                        message: format!(
                            "index `{}` is split into blocks of {prev} by `{}` and of {b} by \
                             `{}`; operands sharing an index need the same block size",
                            kernel.loop_name(l),
                            kernel.tensor_name(by),
                            kernel.tensor_name(a.tensor)
                        ),
                    }),
                    Some(_) => {}
                    None => {
                        blocks.insert(l, (b, a.tensor));
                    }
                }
            }
        }
    }
    // A block tensor's whole dimension indexed by a split variable.
    for stmt in &kernel.stmts {
        let mut accesses = vec![&stmt.lhs];
        accesses.extend(stmt.rhs.accesses());
        for a in accesses {
            let Some(sizes) = dim_blocks.get(&a.tensor) else {
                continue;
            };
            for (d, l) in a.indices.iter().enumerate() {
                if sizes.get(d).copied().flatten().is_none() && blocks.contains_key(l) {
                    errors.push(SparsifyError::BlockIndex {
                        tensor: kernel.tensor_name(a.tensor).to_string(),
                        message: format!(
                            "`{}` stores dimension {d} whole, but its index `{}` is split into \
                             blocks by another operand; give both the same block map",
                            kernel.tensor_name(a.tensor),
                            kernel.loop_name(*l)
                        ),
                    });
                }
            }
        }
    }
    blocks
        .into_iter()
        .map(|(l, (block, _))| {
            let name = kernel.loop_name(l).to_string();
            let split = Split {
                blocks: out.index(&format!("{name}__blk")),
                within: out.index(&format!("{name}__in")),
                block,
            };
            (l, split)
        })
        .collect()
}

/// An access in level space: block tensors by level, split dimensions of
/// dense tensors as two.
fn access(a: &Access, demap: &Demap, splits: &BTreeMap<LoopId, Split>) -> Access {
    let Some(parts) = demap.parts(a.tensor) else {
        return a.clone();
    };
    let indices = parts
        .iter()
        .map(|p| match *p {
            DimPart::Whole(d) => a.indices[d],
            DimPart::Blocks { dim, .. } => splits
                .get(&a.indices[dim])
                .map_or(a.indices[dim], |s| s.blocks),
            DimPart::Within { dim, .. } => splits
                .get(&a.indices[dim])
                .map_or(a.indices[dim], |s| s.within),
        })
        .collect();
    Access {
        tensor: a.tensor,
        indices,
        affine: a.affine.clone(),
    }
}

/// An expression in level space.
fn expr(e: &Expr, demap: &Demap, splits: &BTreeMap<LoopId, Split>) -> Expr {
    let x = |e: &Expr| Box::new(expr(e, demap, splits));
    match e {
        Expr::Access(a) => Expr::Access(access(a, demap, splits)),
        Expr::Index(l) => match splits.get(l) {
            Some(s) => Expr::Add(
                Box::new(Expr::Mul(
                    Box::new(Expr::Index(s.blocks)),
                    Box::new(Expr::Literal(s.block.to_string())),
                )),
                Box::new(Expr::Index(s.within)),
            ),
            None => e.clone(),
        },
        Expr::Literal(_) | Expr::Zero | Expr::Absent | Expr::Local(_) => e.clone(),
        Expr::Neg(a) => Expr::Neg(x(a)),
        Expr::Add(a, b) => Expr::Add(x(a), x(b)),
        Expr::Sub(a, b) => Expr::Sub(x(a), x(b)),
        Expr::Mul(a, b) => Expr::Mul(x(a), x(b)),
        Expr::Div(a, b) => Expr::Div(x(a), x(b)),
        Expr::Cast(a, ty) => Expr::Cast(x(a), ty.clone()),
        Expr::Call(name, args) => Expr::Call(
            name.clone(),
            args.iter().map(|a| expr(a, demap, splits)).collect(),
        ),
        Expr::Binary(b) => Expr::Binary(Box::new(BinaryOp {
            x: expr(&b.x, demap, splits),
            y: expr(&b.y, demap, splits),
            ..(**b).clone()
        })),
        Expr::Unary(u) => Expr::Unary(Box::new(UnaryOp {
            x: expr(&u.x, demap, splits),
            ..(**u).clone()
        })),
        Expr::Select(f, a) => Expr::Select(*f, x(a)),
        Expr::Apply(f, args) => {
            Expr::Apply(*f, args.iter().map(|a| expr(a, demap, splits)).collect())
        }
        Expr::Sum(loops, a) => Expr::Sum(
            loops
                .iter()
                .flat_map(|l| match splits.get(l) {
                    Some(s) => vec![s.blocks, s.within],
                    None => vec![*l],
                })
                .collect(),
            x(a),
        ),
    }
}
