//! The operands of a planned kernel as its loops read them: how each is
//! passed (a sparse tensor, a slice, an array, a dense view, a scalar), its
//! sizes, and its storage levels with their coordinate layout. Computed
//! once per kernel by the planner; codegen and the schedule read it.

use quote::format_ident;
use syn::Ident;

use crate::model::{ElemType, KernelDef, ParamKind};
use crate::sparsifier::demap::{Demap, DimPart};
use crate::sparsifier::{Kernel, TensorId};
use crate::vocab::LevelType;

/// How a tensor parameter is passed, which decides how its elements and
/// sizes are reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `SparseTensor` (the encoding alias).
    Sparse,
    /// Rank 0: `&T` / `&mut T`.
    Scalar,
    /// Rank 1, dynamic: `&[T]`.
    Slice,
    /// All sizes static: `&[T; N]`, `&[[T; N1]; N0]`, ...
    Array,
    /// Rank ≥ 2 with a dynamic size: `DenseView` / `DenseViewMut`.
    View,
}

/// One storage level of a tensor as the loops read it.
#[derive(Clone, Copy, Debug)]
pub struct Lvl {
    /// The level type.
    pub ty: LevelType,
    /// The dimension it stores (plain permutation levels only).
    pub dim: usize,
    /// Coordinates per entry in its buffer (AoS COO tuples).
    pub stride: usize,
    /// This level's slot in the tuple.
    pub offset: usize,
}

impl TensorInfo {
    /// Whether level `l` is walked by duplicate segments: a non-unique
    /// level that is the last (its duplicates' values add up) or is
    /// followed by a singleton level (which walks the segment). The
    /// sparsifier's `walks::splits_duplicates` mirrors this (plus
    /// `nonordered`, whose duplicates need not be adjacent) to reject the
    /// plans that would need any other nonunique level grouped.
    pub fn segmented(&self, l: usize) -> bool {
        self.levels.get(l).is_some_and(|x| {
            crate::vocab::groups_duplicates(x.ty, self.levels.get(l + 1).map(|y| y.ty))
        })
    }
}

impl Lvl {
    /// Whether the level has a coordinate buffer of its own (one
    /// coordinate per entry, not a slot of a shared COO tuple).
    pub fn own_coordinates(&self) -> bool {
        self.stride == 1 && self.offset == 0
    }
}

/// A tensor operand of the kernel, as its parameter passes it.
#[derive(Clone, Debug)]
pub struct TensorInfo {
    /// The parameter name as written.
    pub name: String,
    /// The identifier the generated code reads it through (the parameter,
    /// or for a reordered copy the view of its filled workspace).
    pub ident: Ident,
    /// The element type.
    pub elem: ElemType,
    /// How it is passed.
    pub kind: Kind,
    /// Dimension sizes as declared, `None` for `?`.
    pub shape: Vec<Option<u64>>,
    /// `&mut`: the kernel writes it.
    pub mutable: bool,
    /// Its storage levels, outermost first (none for dense operands).
    pub levels: Vec<Lvl>,
    /// The encoding alias, for sparse tensors.
    pub encoding: Option<Ident>,
    /// Where each dimension the kernel indexes comes from, when a block
    /// operand put the kernel in level space (see `sparsifier::demap`):
    /// `shape` stays the declared one.
    pub parts: Option<Vec<DimPart>>,
    /// For a reordered copy of an input (a workspace parameter), the
    /// input: its sizes are the copy's, checked before the copy is made.
    pub source: Option<TensorId>,
}

impl TensorInfo {
    /// A stand-in for a tensor the kernel lacks (an internal error already
    /// reported), so generation can go on and report everything at once.
    pub fn missing(name: String, ident: Ident) -> TensorInfo {
        TensorInfo {
            name,
            ident,
            elem: ElemType::F64,
            kind: Kind::Scalar,
            shape: Vec::new(),
            mutable: false,
            levels: Vec::new(),
            encoding: None,
            parts: None,
            source: None,
        }
    }
}

/// Every tensor of `k` (the kernel as planned, in level space when it has
/// block operands) as its parameter in `def` passes it; `None` for a
/// tensor without a parameter (an inconsistent input codegen reports).
pub(crate) fn operands(
    def: &KernelDef,
    k: &Kernel,
    demap: Option<&Demap>,
) -> Vec<Option<TensorInfo>> {
    let mut tensors: Vec<Option<TensorInfo>> = vec![None; k.tensors.len()];
    for p in &def.params {
        let (tensor, elem, shape, mutable, encoding) = match &p.kind {
            ParamKind::Sparse {
                tensor,
                encoding,
                elem,
                shape,
                mutable,
            } => (*tensor, *elem, shape, *mutable, Some(encoding.clone())),
            ParamKind::Dense {
                tensor,
                elem,
                shape,
                mutable,
            } => (*tensor, *elem, shape, *mutable, None),
            ParamKind::Unresolved { tensor, .. } => {
                // Only stubs have one, and their bodies read no tensor.
                let name = p.name.to_string();
                let ident = format_ident!("__sk_unresolved_{}", tensor.index());
                if let Some(slot) = tensors.get_mut(tensor.index()) {
                    *slot = Some(TensorInfo::missing(name, ident));
                }
                continue;
            }
            ParamKind::Reordered {
                tensor,
                source,
                elem,
                ..
            } => {
                // Read through the view the prologue makes of the
                // filled workspace; sized like its source.
                let name = p.name.to_string();
                let ident = format_ident!("__sk_{}_view", name.trim_start_matches("r#"));
                let shape = def
                    .params
                    .iter()
                    .find_map(|q| match &q.kind {
                        ParamKind::Sparse { tensor, shape, .. } if tensor == source => {
                            Some(shape.clone())
                        }
                        _ => None,
                    })
                    .unwrap_or_default();
                let levels = k
                    .tensors
                    .get(tensor.index())
                    .map_or_else(Vec::new, |d| storage_levels(&d.levels));
                if let Some(slot) = tensors.get_mut(tensor.index()) {
                    *slot = Some(TensorInfo {
                        name,
                        ident,
                        elem: *elem,
                        kind: Kind::Sparse,
                        shape,
                        mutable: false,
                        levels,
                        encoding: None,
                        parts: None,
                        source: Some(*source),
                    });
                }
                continue;
            }
            ParamKind::Scalar { .. } => continue,
        };
        let kind = if encoding.is_some() {
            Kind::Sparse
        } else if shape.is_empty() {
            Kind::Scalar
        } else if shape.iter().all(Option::is_some) {
            Kind::Array
        } else if shape.len() == 1 {
            Kind::Slice
        } else {
            Kind::View
        };
        let levels = k
            .tensors
            .get(tensor.index())
            .map_or_else(Vec::new, |d| storage_levels(&d.levels));
        if let Some(slot) = tensors.get_mut(tensor.index()) {
            *slot = Some(TensorInfo {
                name: p.name.to_string(),
                ident: p.name.clone(),
                elem,
                kind,
                shape: shape.clone(),
                mutable,
                levels,
                encoding,
                parts: demap.and_then(|d| d.parts(tensor)).map(<[DimPart]>::to_vec),
                source: None,
            });
        }
    }
    tensors
}

/// Strides and offsets of the levels as sparse-core's storage lays them
/// out: a compressed or loose compressed level followed by a run of
/// singleton levels without `soa` shares one buffer of coordinate tuples
/// (the one storage rule, `sparse_vocab::coordinate_slot`).
pub(crate) fn storage_levels(levels: &[(LevelType, crate::vocab::LevelExpr)]) -> Vec<Lvl> {
    let types: Vec<LevelType> = levels.iter().map(|&(ty, _)| ty).collect();
    levels
        .iter()
        .enumerate()
        .map(|(l, &(ty, e))| {
            let slot = crate::vocab::coordinate_slot(&types, l);
            Lvl {
                ty,
                dim: e.dim(),
                stride: slot.stride,
                offset: slot.offset,
            }
        })
        .collect()
}
