//! Conversions between encodings (`sparse_core::convert`) and files
//! (`sparse_core::io`), against independent references:
//!
//! - `pairs`: every 2-D source format (CSR, CSC, DCSR, DCSC, sorted COO
//!   AoS/SoA, COO with repeats, unordered COO, loose, all-dense) into every
//!   2-D target format (the same plus BSR, row-sparse `(compressed,
//!   dense)`, nonunique rows), random tensors (empty, full, explicit zeros,
//!   repeats), through `Owned`, `Fixed` and caller slices; results compared
//!   with the dense reference and re-assembled through the checked
//!   constructor; `convert` (repeats refused) against `convert_sum`.
//! - `tensor3`: 3-D permutations (CSF and friends, COO).
//! - `dense`: dense → every format → dense.
//! - `capacity`: caller slices grown from each reported `needed` until the
//!   conversion fits, and one less than a reported need always fails.
//! - `widths`: coordinates and positions at the maxima of their widths,
//!   and typed errors one past them.
//! - `sorting`: `sort_coo_aos`/`sort_coo_soa` against `slice::sort`,
//!   `concatenate` against the dense concatenation.
//! - `kernels`: kernels whose operands conflict in level order, reading
//!   an input through a reordered copy in a caller-provided workspace.
//! - `files`: Matrix Market and FROSTT round trips and malformed files.

mod conversions {
    mod capacity;
    pub mod common;
    mod dense;
    mod files;
    mod kernels;
    mod pairs;
    mod sorting;
    mod tensor3;
    mod widths;
}
