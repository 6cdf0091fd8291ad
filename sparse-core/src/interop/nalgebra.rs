//! `nalgebra_sparse::CsrMatrix` / `CscMatrix` ↔ native-width CSR/CSC
//! tensors.
//!
//! ```
//! use nalgebra_sparse::CsrMatrix;
//! use sparse_core::interop::nalgebra::{csr_from_nalgebra, into_nalgebra_csr};
//! use sparse_core::interop::NativeCsrEnc;
//! use sparse_core::{Owned, SparseTensorOut};
//!
//! let m = CsrMatrix::try_from_csr_data(2, 2, vec![0, 1, 2], vec![1, 0], vec![5i64, 6])?;
//! let a = csr_from_nalgebra(&m)?; // borrows m's arrays
//! assert_eq!(a.values().as_ptr(), m.values().as_ptr());
//! // A conversion into an owned output, then back without a copy.
//! let mut b = SparseTensorOut::<i64, NativeCsrEnc, Owned, 2, 2>::with_dims([2, 2])?;
//! sparse_core::convert::convert(&a, &mut b)?;
//! assert_eq!(into_nalgebra_csr(b)?, m);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::string::ToString;

use nalgebra_sparse::{CscMatrix, CsrMatrix};

use super::{arrays, InteropError, NativeCsc, NativeCscEnc, NativeCsr, NativeCsrEnc};
use crate::output::{Owned, SparseTensorOut};
use crate::tensor::{Level, SparseTensor};

/// A `CsrMatrix` as a CSR tensor borrowing its arrays.
pub fn csr_from_nalgebra<V>(m: &CsrMatrix<V>) -> Result<NativeCsr<'_, V>, InteropError> {
    let (pos, crd, val) = m.csr_data();
    Ok(SparseTensor::assemble(
        [m.nrows(), m.ncols()],
        [Level::dense(), Level::compressed(pos, crd)],
        val,
    )?)
}

/// A `CscMatrix` as a CSC tensor borrowing its arrays.
pub fn csc_from_nalgebra<V>(m: &CscMatrix<V>) -> Result<NativeCsc<'_, V>, InteropError> {
    let (pos, crd, val) = m.csc_data();
    Ok(SparseTensor::assemble(
        [m.nrows(), m.ncols()],
        [Level::dense(), Level::compressed(pos, crd)],
        val,
    )?)
}

fn rejected(e: nalgebra_sparse::SparseFormatError) -> InteropError {
    InteropError::Rejected(e.to_string())
}

/// A CSR tensor copied into a `CsrMatrix`.
pub fn csr_to_nalgebra<V: Clone>(t: &NativeCsr<'_, V>) -> Result<CsrMatrix<V>, InteropError> {
    let (pos, crd, val) = arrays(t);
    let [m, n] = t.dim_sizes();
    CsrMatrix::try_from_csr_data(m, n, pos.to_vec(), crd.to_vec(), val.to_vec()).map_err(rejected)
}

/// A CSC tensor copied into a `CscMatrix`.
pub fn csc_to_nalgebra<V: Clone>(t: &NativeCsc<'_, V>) -> Result<CscMatrix<V>, InteropError> {
    let (pos, crd, val) = arrays(t);
    let [m, n] = t.dim_sizes();
    CscMatrix::try_from_csc_data(m, n, pos.to_vec(), crd.to_vec(), val.to_vec()).map_err(rejected)
}

/// An owned CSR output turned into a `CsrMatrix`, moving its arrays.
pub fn into_nalgebra_csr<V: Default>(
    out: SparseTensorOut<V, NativeCsrEnc, Owned, 2, 2>,
) -> Result<CsrMatrix<V>, InteropError> {
    let p = out.into_parts();
    let [_, pos] = p.positions;
    let [_, crd] = p.coordinates;
    CsrMatrix::try_from_csr_data(p.dim_sizes[0], p.dim_sizes[1], pos, crd, p.values)
        .map_err(rejected)
}

/// An owned CSC output turned into a `CscMatrix`, moving its arrays.
pub fn into_nalgebra_csc<V: Default>(
    out: SparseTensorOut<V, NativeCscEnc, Owned, 2, 2>,
) -> Result<CscMatrix<V>, InteropError> {
    let p = out.into_parts();
    let [_, pos] = p.positions;
    let [_, crd] = p.coordinates;
    CscMatrix::try_from_csc_data(p.dim_sizes[0], p.dim_sizes[1], pos, crd, p.values)
        .map_err(rejected)
}
