//! What generated kernels call besides their loops: the out-of-line
//! builders of their [`KernelError`]s, conversions and reordered copies in
//! their prologues, and (submodules) the unchecked accessors, row cursors,
//! `#[parallel]` chunks and fused multiply-adds.
//!
//! A kernel checks all of its operands' sizes before it reads or writes
//! anything, so on `Err` every output is untouched.

use crate::error::KernelError;

/// Fills the workspace `copy` with `src` in `copy`'s level order and
/// returns it as a tensor for the kernel's loops: the prologue of a kernel
/// the sparsifier made read a reordered copy of an input. Conversion
/// errors name the workspace parameter `name`.
#[doc(hidden)]
pub fn reorder<'w, V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &crate::tensor::SparseTensor<'_, V, S, DIM, LS>,
    copy: &'w mut crate::output::SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
) -> Result<crate::tensor::SparseTensor<'w, V, E, DIM, LVL>, KernelError>
where
    V: Clone + Default,
    S: crate::encoding::Encoding,
    E: crate::encoding::Encoding,
    B: crate::output::OutputBuffers<E::Pos, E::Crd, V>,
{
    convert_named(src, copy, name, crate::convert::Merge::Refuse)?;
    Ok(copy.view())
}

/// A statement that copies the sparse input `src` into the sparse output
/// `out` in another dimension order (`c[j, i] = a[i, j]`, or CSR → CSC
/// written as `c[i, j] = a[i, j]`): `src` viewed in the output's dimension
/// order (dimension `d` of the view is dimension `perm[d]` of `src`, its
/// levels unchanged: the view's encoding `E2` must be `src`'s with the map
/// permuted, named by `_view`, checked here in `O(LVL)`), converted into
/// `out` with repeated
/// coordinates merged by `merge` (the sum the kernel means by repeats).
#[doc(hidden)]
pub fn convert_into<V, S, E2, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &crate::tensor::SparseTensor<'_, V, S, DIM, LS>,
    perm: [usize; DIM],
    _view: core::marker::PhantomData<E2>,
    out: &mut crate::output::SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
    merge: fn(V, V) -> V,
) -> Result<(), KernelError>
where
    V: Clone + Default,
    S: crate::encoding::Encoding,
    E2: crate::encoding::Encoding<Pos = S::Pos, Crd = S::Crd>,
    E: crate::encoding::Encoding,
    B: crate::output::OutputBuffers<E::Pos, E::Crd, V>,
{
    let Some(view) = src.permute_dims::<E2>(perm) else {
        return Err(convert_error(
            name,
            crate::convert::ConvertError::MapMismatch,
        ));
    };
    convert_same(&view, out, name, merge)
}

/// A statement that copies the sparse input `src` into the sparse output
/// `out` of another encoding in the same dimension order (CSR → BSR, BSR →
/// CSR, CSR → CSC): a conversion, repeats merged by `merge`.
#[doc(hidden)]
pub fn convert_same<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &crate::tensor::SparseTensor<'_, V, S, DIM, LS>,
    out: &mut crate::output::SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
    merge: fn(V, V) -> V,
) -> Result<(), KernelError>
where
    V: Clone + Default,
    S: crate::encoding::Encoding,
    E: crate::encoding::Encoding,
    B: crate::output::OutputBuffers<E::Pos, E::Crd, V>,
{
    convert_named(src, out, name, crate::convert::Merge::Total(merge))
}

/// `convert` (repeats merged by `merge`, or kept / refused without one)
/// with its error naming the parameter `name` converted into.
fn convert_named<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &crate::tensor::SparseTensor<'_, V, S, DIM, LS>,
    out: &mut crate::output::SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
    merge: crate::convert::Merge<V>,
) -> Result<(), KernelError>
where
    V: Clone + Default,
    S: crate::encoding::Encoding,
    E: crate::encoding::Encoding,
    B: crate::output::OutputBuffers<E::Pos, E::Crd, V>,
{
    crate::convert::engine::run(&crate::convert::source::TensorSource(src), out, merge)
        .map_err(|error| convert_error(name, error))
}

/// The [`KernelError`] of a failed conversion into `tensor`, built out of
/// line.
#[cold]
#[inline(never)]
fn convert_error(tensor: &'static str, error: crate::convert::ConvertError) -> KernelError {
    use crate::convert::ConvertError;
    match error {
        ConvertError::Capacity {
            level,
            buffer,
            needed,
            capacity,
        } => KernelError::Capacity {
            tensor,
            level,
            buffer,
            needed,
            capacity,
        },
        ConvertError::PositionOverflow {
            level,
            entries,
            max,
        } => KernelError::PositionOverflow {
            tensor,
            level,
            entries,
            max,
        },
        error => KernelError::Convert { tensor, error },
    }
}

#[cfg(sk_dsp)]
mod dsp;
/// The unchecked reads and writes generated kernels use in their loops.
pub mod dual_mac;
pub mod dual_mac_2_4;
pub mod fma;
pub mod gather_dot;
pub mod isa;
pub mod packed_s8;
pub mod par;
pub mod rows;
mod slice;
pub mod unchecked;

#[doc(hidden)]
pub use slice::{convert_slice_into, reorder_slice, slice_mismatch, SliceSite};

/// Where a kernel's size check failed: the fixed part of a
/// [`KernelError::DimensionMismatch`], a constant the generated check
/// passes by reference.
#[doc(hidden)]
#[derive(Debug)]
pub struct DimensionSite {
    /// The parameter whose size disagrees.
    pub tensor: &'static str,
    /// Its dimension.
    pub dim: usize,
    /// The index variable indexing it.
    pub index: &'static str,
    /// The parameter that bound the index variable first.
    pub bound_by: &'static str,
    /// The dimension of `bound_by` that bound it.
    pub bound_dim: usize,
}

/// The fixed part of a [`KernelError::PartialBlock`].
#[doc(hidden)]
#[derive(Debug)]
pub struct BlockSite {
    /// The parameter.
    pub tensor: &'static str,
    /// Its dimension.
    pub dim: usize,
    /// The block size.
    pub block: usize,
}

/// Builds a kernel's [`KernelError::PartialBlock`] out of line (see
/// [`dimension_mismatch`]).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn partial_block(site: &'static BlockSite, size: usize) -> KernelError {
    KernelError::PartialBlock {
        tensor: site.tensor,
        dim: site.dim,
        size,
        block: site.block,
    }
}

/// The fixed part of a [`KernelError::ShapeMismatch`].
#[doc(hidden)]
#[derive(Debug)]
pub struct ShapeSite {
    /// The parameter.
    pub tensor: &'static str,
    /// Its dimension.
    pub dim: usize,
}

/// Builds a kernel's [`KernelError::DimensionMismatch`] out of line: one
/// copy per program instead of the error's fields stored inline in every
/// check of every kernel (on Cortex-M, about 50 bytes per check).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn dimension_mismatch(
    site: &'static DimensionSite,
    size: usize,
    expected: usize,
) -> KernelError {
    KernelError::DimensionMismatch {
        tensor: site.tensor,
        dim: site.dim,
        size,
        index: site.index,
        expected,
        bound_by: site.bound_by,
        bound_dim: site.bound_dim,
    }
}

/// Builds a kernel's [`KernelError::ShapeMismatch`] out of line (see
/// [`dimension_mismatch`]).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn shape_mismatch(site: &'static ShapeSite, size: usize, expected: usize) -> KernelError {
    KernelError::ShapeMismatch {
        tensor: site.tensor,
        dim: site.dim,
        size,
        expected,
    }
}

/// Where an affine subscript is checked: the parameter, its dimension,
/// the subscript as written, its coefficients (in the order of the sizes
/// the check gets) and its constant.
#[doc(hidden)]
#[derive(Debug)]
pub struct SubscriptSite {
    /// The parameter.
    pub tensor: &'static str,
    /// Its dimension.
    pub dim: usize,
    /// The subscript, as written.
    pub subscript: &'static str,
    /// The coefficient of each index variable.
    pub coefficients: &'static [i64],
    /// The constant term.
    pub constant: i64,
}

/// [`dimension_mismatch`] as the kernel's whole `Err` result: the
/// generated check ends in `return dimension_error(..)`, a tail call (no
/// code after the call, and no move of the error into the result).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn dimension_error(
    site: &'static DimensionSite,
    size: usize,
    expected: usize,
) -> Result<(), KernelError> {
    Err(dimension_mismatch(site, size, expected))
}

/// A sparse parameter's dimension sizes, for [`shapes_error`].
#[doc(hidden)]
pub trait DimSizes {
    /// The dimension sizes.
    fn dim_size_list(&self) -> &[usize];
}

impl<V, E: crate::Encoding, const DIM: usize, const LVL: usize> DimSizes
    for crate::SparseTensor<'_, V, E, DIM, LVL>
{
    fn dim_size_list(&self) -> &[usize] {
        &self.dim_sizes
    }
}

/// A slice's sizes are the sizes a kernel indexes (its declared shape).
impl<V, E: crate::Encoding, const DIM: usize, const LVL: usize> DimSizes
    for crate::slice::SliceView<'_, V, E, DIM, LVL>
{
    fn dim_size_list(&self) -> &[usize] {
        self.size_list()
    }
}

/// A sparse output's sizes are fixed when it is made (`new`).
impl<V, E, B, const DIM: usize, const LVL: usize> DimSizes
    for crate::output::SparseTensorOut<V, E, B, DIM, LVL>
where
    E: crate::Encoding,
    B: crate::output::OutputBuffers<E::Pos, E::Crd, V>,
{
    fn dim_size_list(&self) -> &[usize] {
        &self.dim_sizes
    }
}

/// The static sizes of one sparse parameter, for [`shapes_error`]:
/// `expected[d]` is `Some(n)` for a dimension declared `n`.
#[doc(hidden)]
#[derive(Debug)]
pub struct ShapesSite {
    /// The parameter.
    pub tensor: &'static str,
    /// Its declared sizes (`None`: dynamic).
    pub expected: &'static [Option<usize>],
}

/// The `Err` of a sparse parameter whose sizes disagree with its declared
/// static ones: one check of all of them in the kernel (`a.dim_sizes()[0]
/// != 64 || ...`) and one call, which finds the first that differs. `Ok`
/// if none does (the kernel never calls it then).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn shapes_error<T: DimSizes + ?Sized>(
    site: &'static ShapesSite,
    a: &T,
) -> Result<(), KernelError> {
    for (dim, (&size, want)) in a.dim_size_list().iter().zip(site.expected).enumerate() {
        if let Some(expected) = *want {
            if size != expected {
                return Err(KernelError::ShapeMismatch {
                    tensor: site.tensor,
                    dim,
                    size,
                    expected,
                });
            }
        }
    }
    Ok(())
}

/// Checks that the affine subscript of `site`, over index variables of the
/// sizes `ranges` (one per coefficient), stays in `0..size`: the kernel's
/// loops then read only elements that exist. A variable of size 0 means no
/// iteration reads the subscript at all.
#[doc(hidden)]
#[inline(never)]
pub fn subscript_range(
    site: &'static SubscriptSite,
    ranges: &[usize],
    size: usize,
) -> Result<(), KernelError> {
    let terms = site
        .coefficients
        .iter()
        .zip(ranges)
        .map(|(&c, &n)| (c, n as u64));
    let Some((min, max)) = sparse_vocab::affine_range(terms, site.constant) else {
        return Ok(());
    };
    if min >= 0 && max < size as i128 {
        return Ok(());
    }
    Err(KernelError::SubscriptRange {
        tensor: site.tensor,
        dim: site.dim,
        subscript: site.subscript,
        min,
        max,
        size,
    })
}

#[cfg(test)]
mod tests;
