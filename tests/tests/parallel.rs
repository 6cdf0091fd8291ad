//! `#[parallel]` kernels (issue 16 item 3; feature `rayon`:
//! `cargo test -p sparse-tests --features rayon --test parallel`).
//!
//! Every parallel kernel is checked against the same kernel without the
//! attribute, **bit for bit** (arbitrary float values, so a changed order of
//! additions would show), and against a dense evaluation (small values,
//! exact in any order), on every test-matrix shape: empty (0 rows, 0
//! columns, no entries), all-zero rows, one row, skewed rows (one row
//! holding most entries), random shapes, and a larger skewed matrix. The
//! work limits are lowered to cut even the smallest input into chunks
//! (`set_work_limits(0, 1)`), and the kernels run on a 4-thread pool, so
//! chunks really run on other threads whatever the machine.
//!
//! - `spmv`: SpMV with `a` in CSR, DCSR, sorted COO (AoS, SoA, nonunique),
//!   loose compressed (in chunks) and CSC (stays sequential: its outer
//!   loop is a reduction); `=` and `+=`; stride-1 slices walked in place
//!   (CSR in chunks of rows with row cursors, DCSR in chunks of rows
//!   narrowing the window).
//! - `dense_out`: kernels with rows of several elements — SpMM
//!   (`c = a b`, CSR and DCSR), SDDMM into a dense matrix, sparse + dense
//!   into dense, a two-statement kernel.
//! - `forms`: static shapes (arrays) with a scalar parameter and an index
//!   as a value, a `reduce` over `unary` closures, wrapping `i64` with
//!   `-=`, a CSF tensor-times-vector (compressed outer level, rows of
//!   several elements).
//! - `sparse_out`: sparse outputs written per row (CSR, DCSR): scaling,
//!   sparse + sparse, SpGEMM (a workspace per chunk), SDDMM, over CSR and
//!   DCSR inputs, into `Owned`, `Fixed` and `Slices` outputs, with the sequential
//!   kernels' capacity and `posWidth` errors.
//! - `composed`: strategies composed with the chunks — an outer loop
//!   merging two DCSR operands into a dense matrix, BSR SpMV and SpMM split
//!   by block rows, a 4x4 BSR with its inner loops written out.
//! - `snapshots`: the compiler's parallel codegen snapshots, compiled as
//!   they are and run against the sequential kernels.
#![cfg(feature = "rayon")]

mod parallel {
    mod common;
    mod composed;
    mod dense_out;
    mod forms;
    mod snapshots;
    mod sparse_out;
    mod spmv;
}
