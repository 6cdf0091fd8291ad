//! Interoperability with `sprs` (feature `sprs`) and `nalgebra-sparse`
//! (feature `nalgebra-sparse`): their CSR and CSC matrices viewed as our
//! tensors without copying, and our tensors turned into theirs.
//!
//! Both libraries store positions and coordinates as `usize`, which is
//! what an encoding with `posWidth = 0, crdWidth = 0` stores: the views
//! have the types [`NativeCsr`] and [`NativeCsc`] (`(i, j) -> (i : dense,
//! j : compressed)` and `(i, j) -> (j : dense, i : compressed)` at native
//! width), which `sparse_kernel!` produces for the same encodings written
//! with widths 0. A view borrows the matrix's arrays and is checked by
//! [`SparseTensor::assemble`] (sorted, unique, in range), so kernels can
//! trust it. A `sprs` sub-view of a larger matrix (`slice_outer`) has row
//! pointers that do not start at 0, which no tensor stores: `*_from_sprs`
//! says so ([`InteropError::SubView`]) and `*_from_sprs_in` views it with
//! its pointers rebased into a buffer the caller gives (its indices and
//! values still borrowed).
//!
//! `sprs` matrices with narrower index types (`CsMatI<V, u32>`) view as
//! the encodings of the same width (`sprs::csr_view`, `sprs::csc_view`),
//! e.g. a `posWidth = 32, crdWidth = 32` CSR that `sparse_kernel!`
//! declared. Going back copies a [`SparseTensor`]'s arrays (`*_to_*`), or
//! moves those of an [`Owned`](crate::Owned) output (`into_*`).

#[cfg(feature = "nalgebra-sparse")]
pub mod nalgebra;
#[cfg(feature = "sprs")]
pub mod sprs;

use core::fmt;
use std::string::String;

use crate::encoding::Enc;
use crate::error::AssembleError;
use crate::levels::{compressed, d0, d1, dense};
use crate::tensor::SparseTensor;

/// `(i, j) -> (i : dense, j : compressed)` with `usize` positions and
/// coordinates (`posWidth = 0, crdWidth = 0`).
pub type NativeCsrEnc = Enc<usize, usize, (dense, compressed), (d0, d1)>;
/// `(i, j) -> (j : dense, i : compressed)` with `usize` positions and
/// coordinates.
pub type NativeCscEnc = Enc<usize, usize, (dense, compressed), (d1, d0)>;
/// A native-width CSR matrix.
pub type NativeCsr<'a, V> = SparseTensor<'a, V, NativeCsrEnc, 2, 2>;
/// A native-width CSC matrix.
pub type NativeCsc<'a, V> = SparseTensor<'a, V, NativeCscEnc, 2, 2>;

/// Why a matrix could not be viewed or built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InteropError {
    /// The matrix is stored the other way (a CSC matrix asked for as CSR,
    /// or the reverse).
    Storage {
        /// The storage asked for: `"CSR"` or `"CSC"`.
        expected: &'static str,
    },
    /// The requested tensor type does not store the matrix the way the
    /// library does (its encoding is not this CSR or CSC, or it is a
    /// pattern encoding).
    Encoding {
        /// The encoding the view needs.
        expected: &'static str,
    },
    /// Our checks refused the matrix's arrays.
    Assemble(AssembleError),
    /// A sub-view of a larger `sprs` matrix (made with `slice_outer`): its
    /// outer pointers start at `offset`, not 0. `csr_from_sprs_in` /
    /// `csc_from_sprs_in` view it, rebasing the pointers into a buffer.
    SubView {
        /// The first outer pointer.
        offset: usize,
    },
    /// The other library refused the arrays (its message).
    Rejected(String),
}

impl fmt::Display for InteropError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InteropError::Storage { expected } => {
                write!(f, "the matrix is not stored as {expected}")
            }
            InteropError::Encoding { expected } => {
                write!(f, "the tensor type must have the encoding {expected}")
            }
            InteropError::Assemble(e) => write!(f, "{e}"),
            InteropError::SubView { offset } => write!(
                f,
                "a sub-view of a larger matrix (its pointers start at {offset}, not 0); view \
                 it with csr_from_sprs_in or csc_from_sprs_in, which rebase the pointers into \
                 a buffer you give"
            ),
            InteropError::Rejected(m) => write!(f, "the arrays were refused: {m}"),
        }
    }
}

impl std::error::Error for InteropError {}

impl From<AssembleError> for InteropError {
    fn from(e: AssembleError) -> Self {
        InteropError::Assemble(e)
    }
}

/// The positions, coordinates and values of a native CSR or CSC matrix.
fn arrays<'a, V, E: crate::Encoding<Pos = usize, Crd = usize>>(
    t: &SparseTensor<'a, V, E, 2, 2>,
) -> (&'a [usize], &'a [usize], &'a [V]) {
    let level = t.level(1);
    (level.positions(), level.coordinates(), t.values())
}

#[cfg(test)]
mod tests;
