//! `sprs::CsMat` ↔ native-width CSR/CSC tensors.
//!
//! ```
//! use sparse_core::interop::sprs::{csr_from_sprs, csr_to_sprs};
//!
//! let m = sprs::CsMat::new((2, 3), vec![0, 2, 3], vec![0, 2, 1], vec![1.0, 2.0, 3.0]);
//! let a = csr_from_sprs(&m)?; // borrows m's arrays
//! assert_eq!(a.level(1).coordinates().as_ptr(), m.indices().as_ptr());
//! let mut dense = [0.0; 6];
//! sparse_core::convert::to_dense(&a, &mut dense)?;
//! assert_eq!(dense, [1.0, 0.0, 2.0, 0.0, 3.0, 0.0]);
//! assert_eq!(csr_to_sprs(&a)?, m);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::ops::Deref;
use std::string::ToString;

use sprs::{CsMat, CsMatBase, SpIndex};

use super::{arrays, InteropError, NativeCsc, NativeCscEnc, NativeCsr, NativeCsrEnc};
use crate::encoding::Encoding;
use crate::index::Index;
use crate::output::{Owned, SparseTensorOut};
use crate::tensor::{Level, SparseTensor};

/// A `sprs` CSR matrix (any storage: `CsMat`, `CsMatView`) as a CSR tensor
/// borrowing its arrays. A CSC matrix is [`InteropError::Storage`].
pub fn csr_from_sprs<'a, V, IP, IS, DS>(
    m: &'a CsMatBase<V, usize, IP, IS, DS, usize>,
) -> Result<NativeCsr<'a, V>, InteropError>
where
    IP: Deref<Target = [usize]>,
    IS: Deref<Target = [usize]>,
    DS: Deref<Target = [V]>,
{
    csr_view(m)
}

/// A `sprs` CSC matrix as a CSC tensor borrowing its arrays.
pub fn csc_from_sprs<'a, V, IP, IS, DS>(
    m: &'a CsMatBase<V, usize, IP, IS, DS, usize>,
) -> Result<NativeCsc<'a, V>, InteropError>
where
    IP: Deref<Target = [usize]>,
    IS: Deref<Target = [usize]>,
    DS: Deref<Target = [V]>,
{
    csc_view(m)
}

/// [`csr_from_sprs`] for any unsigned index type `I` of `sprs` (`u16`,
/// `u32`, `u64`, `usize`): the view's type is any encoding `E` of
/// `(i, j) -> (i : dense, j : compressed)` whose positions and coordinates
/// are `I` (`posWidth = crdWidth = 32` for `u32`), e.g. the alias
/// `sparse_kernel!` made for such an encoding, so kernels run on the
/// matrix in place. Another encoding is [`InteropError::Encoding`].
///
/// ```
/// use sparse_core::interop::sprs::csr_view;
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{Enc, SparseTensor};
///
/// type Csr32 = Enc<u32, u32, (dense, compressed), (d0, d1)>;
/// let m = sprs::CsMatI::<f32, u32>::new((2, 2), vec![0, 1, 2], vec![1, 0], vec![1.0, 2.0]);
/// let a: SparseTensor<'_, f32, Csr32, 2, 2> = csr_view(&m)?;
/// assert_eq!(a.level(1).coordinates(), &[1, 0]);
/// # Ok::<(), sparse_core::interop::InteropError>(())
/// ```
pub fn csr_view<'a, V, I, E, IP, IS, DS>(
    m: &'a CsMatBase<V, I, IP, IS, DS, I>,
) -> Result<SparseTensor<'a, V, E, 2, 2>, InteropError>
where
    I: SpIndex + Index,
    E: Encoding<Pos = I, Crd = I>,
    IP: Deref<Target = [I]>,
    IS: Deref<Target = [I]>,
    DS: Deref<Target = [V]>,
{
    if !m.is_csr() {
        return Err(InteropError::Storage { expected: "CSR" });
    }
    if E::LEVEL_TYPES != NativeCsrEnc::LEVEL_TYPES || E::MAP != NativeCsrEnc::MAP || E::is_pattern()
    {
        return Err(InteropError::Encoding {
            expected: "(i, j) -> (i : dense, j : compressed)",
        });
    }
    view(m)
}

/// [`csc_from_sprs`] for any unsigned index type: the view's type is any
/// encoding of `(i, j) -> (j : dense, i : compressed)` whose positions and
/// coordinates are `I`.
pub fn csc_view<'a, V, I, E, IP, IS, DS>(
    m: &'a CsMatBase<V, I, IP, IS, DS, I>,
) -> Result<SparseTensor<'a, V, E, 2, 2>, InteropError>
where
    I: SpIndex + Index,
    E: Encoding<Pos = I, Crd = I>,
    IP: Deref<Target = [I]>,
    IS: Deref<Target = [I]>,
    DS: Deref<Target = [V]>,
{
    if !m.is_csc() {
        return Err(InteropError::Storage { expected: "CSC" });
    }
    if E::LEVEL_TYPES != NativeCscEnc::LEVEL_TYPES || E::MAP != NativeCscEnc::MAP || E::is_pattern()
    {
        return Err(InteropError::Encoding {
            expected: "(i, j) -> (j : dense, i : compressed)",
        });
    }
    view(m)
}

/// The checked tensor over `m`'s arrays (the caller matched the storage);
/// a sub-view is [`InteropError::SubView`].
fn view<'a, V, I, E, IP, IS, DS>(
    m: &'a CsMatBase<V, I, IP, IS, DS, I>,
) -> Result<SparseTensor<'a, V, E, 2, 2>, InteropError>
where
    I: SpIndex + Index,
    E: Encoding<Pos = I, Crd = I>,
    IP: Deref<Target = [I]>,
    IS: Deref<Target = [I]>,
    DS: Deref<Target = [V]>,
{
    let pos = m.indptr().into_raw_storage();
    if let Some(offset) = pos.first().map(|&p| Index::as_usize(p)).filter(|&o| o != 0) {
        return Err(InteropError::SubView { offset });
    }
    tensor(m, pos)
}

/// The checked tensor over `m`'s indices and values and the positions
/// `pos`.
fn tensor<'a, V, I, E, IP, IS, DS>(
    m: &'a CsMatBase<V, I, IP, IS, DS, I>,
    pos: &'a [I],
) -> Result<SparseTensor<'a, V, E, 2, 2>, InteropError>
where
    I: SpIndex + Index,
    E: Encoding<Pos = I, Crd = I>,
    IP: Deref<Target = [I]>,
    IS: Deref<Target = [I]>,
    DS: Deref<Target = [V]>,
{
    Ok(SparseTensor::assemble(
        [m.rows(), m.cols()],
        [Level::dense(), Level::compressed(pos, m.indices())],
        m.data(),
    )?)
}

/// [`view`] for any `sprs` matrix, a sub-view included: pointers that do
/// not start at 0 are rebased into `positions` (`outer + 1` words; `sprs`
/// keeps the sub-view's indices and values starting at its first entry).
fn view_in<'a, V, I, E, IP, IS, DS>(
    m: &'a CsMatBase<V, I, IP, IS, DS, I>,
    positions: &'a mut std::vec::Vec<I>,
) -> Result<SparseTensor<'a, V, E, 2, 2>, InteropError>
where
    I: SpIndex + Index,
    E: Encoding<Pos = I, Crd = I>,
    IP: Deref<Target = [I]>,
    IS: Deref<Target = [I]>,
    DS: Deref<Target = [V]>,
{
    let raw = m.indptr().into_raw_storage();
    let Some(offset) = raw.first().map(|&p| Index::as_usize(p)).filter(|&o| o != 0) else {
        return tensor(m, raw);
    };
    positions.clear();
    positions
        .try_reserve(raw.len())
        .map_err(|_| InteropError::Rejected("out of memory for the rebased pointers".into()))?;
    for &p in raw {
        // `sprs` keeps a sub-view's pointers non-decreasing from `offset`.
        let rebased = Index::as_usize(p)
            .checked_sub(offset)
            .and_then(<I as Index>::from_usize)
            .ok_or_else(|| InteropError::Rejected("an outer pointer below the first".into()))?;
        positions.push(rebased);
    }
    let positions: &'a std::vec::Vec<I> = positions;
    tensor(m, positions)
}

/// [`csr_from_sprs`] for any CSR matrix, sub-views of a larger matrix
/// (`slice_outer`) included: their row pointers, which start at the
/// view's first entry, are rebased into `positions` (cleared first; a
/// view whose pointers start at 0 borrows them as `csr_from_sprs` does and
/// leaves `positions` alone). Indices and values are borrowed.
///
/// ```
/// use sparse_core::interop::sprs::{csr_from_sprs, csr_from_sprs_in};
/// use sparse_core::interop::InteropError;
///
/// let m = sprs::CsMat::new((3, 3), vec![0, 1, 3, 4], vec![0, 0, 2, 1], vec![1.0, 2.0, 3.0, 4.0]);
/// let rows = m.slice_outer(1..3); // rows 1 and 2
/// assert!(matches!(csr_from_sprs(&rows), Err(InteropError::SubView { offset: 1 })));
/// let mut positions = Vec::new();
/// let a = csr_from_sprs_in(&rows, &mut positions)?;
/// assert_eq!(a.dim_sizes(), [2, 3]);
/// assert_eq!(a.level(1).positions(), &[0, 2, 3]);
/// assert_eq!(a.values(), &[2.0, 3.0, 4.0]);
/// # Ok::<(), InteropError>(())
/// ```
pub fn csr_from_sprs_in<'a, V, IP, IS, DS>(
    m: &'a CsMatBase<V, usize, IP, IS, DS, usize>,
    positions: &'a mut std::vec::Vec<usize>,
) -> Result<NativeCsr<'a, V>, InteropError>
where
    IP: Deref<Target = [usize]>,
    IS: Deref<Target = [usize]>,
    DS: Deref<Target = [V]>,
{
    if !m.is_csr() {
        return Err(InteropError::Storage { expected: "CSR" });
    }
    view_in(m, positions)
}

/// [`csc_from_sprs`] for any CSC matrix, sub-views included (see
/// [`csr_from_sprs_in`]).
pub fn csc_from_sprs_in<'a, V, IP, IS, DS>(
    m: &'a CsMatBase<V, usize, IP, IS, DS, usize>,
    positions: &'a mut std::vec::Vec<usize>,
) -> Result<NativeCsc<'a, V>, InteropError>
where
    IP: Deref<Target = [usize]>,
    IS: Deref<Target = [usize]>,
    DS: Deref<Target = [V]>,
{
    if !m.is_csc() {
        return Err(InteropError::Storage { expected: "CSC" });
    }
    view_in(m, positions)
}

fn rejected(e: sprs::errors::StructureError) -> InteropError {
    InteropError::Rejected(e.to_string())
}

/// A CSR tensor copied into a `sprs::CsMat`.
pub fn csr_to_sprs<V: Clone>(t: &NativeCsr<'_, V>) -> Result<CsMat<V>, InteropError> {
    let (pos, crd, val) = arrays(t);
    let [m, n] = t.dim_sizes();
    CsMat::try_new((m, n), pos.to_vec(), crd.to_vec(), val.to_vec()).map_err(|(.., e)| rejected(e))
}

/// A CSC tensor copied into a `sprs::CsMat` (CSC storage).
pub fn csc_to_sprs<V: Clone>(t: &NativeCsc<'_, V>) -> Result<CsMat<V>, InteropError> {
    let (pos, crd, val) = arrays(t);
    let [m, n] = t.dim_sizes();
    CsMat::try_new_csc((m, n), pos.to_vec(), crd.to_vec(), val.to_vec())
        .map_err(|(.., e)| rejected(e))
}

/// An owned CSR output turned into a `sprs::CsMat`, moving its arrays.
pub fn into_sprs_csr<V: Default>(
    out: SparseTensorOut<V, NativeCsrEnc, Owned, 2, 2>,
) -> Result<CsMat<V>, InteropError> {
    let p = out.into_parts();
    let [_, pos] = p.positions;
    let [_, crd] = p.coordinates;
    CsMat::try_new((p.dim_sizes[0], p.dim_sizes[1]), pos, crd, p.values)
        .map_err(|(.., e)| rejected(e))
}

/// An owned CSC output turned into a `sprs::CsMat` (CSC storage), moving
/// its arrays.
pub fn into_sprs_csc<V: Default>(
    out: SparseTensorOut<V, NativeCscEnc, Owned, 2, 2>,
) -> Result<CsMat<V>, InteropError> {
    let p = out.into_parts();
    let [_, pos] = p.positions;
    let [_, crd] = p.coordinates;
    CsMat::try_new_csc((p.dim_sizes[0], p.dim_sizes[1]), pos, crd, p.values)
        .map_err(|(.., e)| rejected(e))
}
