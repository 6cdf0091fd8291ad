//! The runtime operations of MLIR's `sparse_tensor` dialect that complete
//! the conversions: each against an independent dense reference over CSR,
//! CSC, DCSR, COO and a 3-D format, plus the upstream integration test it
//! comes from (`mlir/test/Integration/Dialect/SparseTensor/CPU/`), with
//! upstream's CHECK values as the expected ones.
//!
//! - `insert`: insertion in any order (`begin_unordered`,
//!   `insert_unordered`, `finish_unordered`: MLIR's `tensor.insert` +
//!   `load hasInserts`), repeats kept last, combined or refused, staging
//!   capacity in the workspace (`sparse_insert_2d.mlir`, out of order).
//! - `sort`: `convert::sort` with `perm_map`, `ny` and jointly sorted
//!   arrays, every algorithm, against `slice::sort_by`
//!   (`sparse_rewrite_sort_coo.mlir`).
//! - `concat`: `concatenate_mixed` over operands of different encodings
//!   and dense ones, into every format and into a dense array
//!   (`concatenate_dim_1.mlir`).
//! - `assemble`: `assemble_with_capacity` over buffers with room to spare,
//!   `disassemble_into` giving back the used lengths (`sparse_pack.mlir`'s
//!   BCOO).
//! - `reshape`: `collapse_shape`/`expand_shape` views where the storage
//!   allows them, `convert::reshape`/`collapse_shape`/`expand_shape`
//!   otherwise, against the row-major reshape of the dense array
//!   (`sparse_reshape.mlir`).

mod mlir_runtime {
    mod assemble;
    pub mod common;
    mod concat;
    mod insert;
    mod reshape;
    mod sort;
}
