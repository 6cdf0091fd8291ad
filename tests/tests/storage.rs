//! The runtime without generated kernels: storage, sparse outputs driven
//! through their insertion protocol, conversions and files.
//!
//! One test binary (a tier); each file below is a module of it.
//!
//! - `roundtrip`, `edges`, `print`, `pattern`: assemble/disassemble round
//!   trips against the reference builder (`sparse_tests::reference`), named
//!   edge cases, `sparse_tensor.print` layouts, `explicitVal` storage.
//! - `errors`, `errors_encoding`, `fuzz`: every `AssembleError`, forged
//!   encodings, and `assemble` on random garbage (with the fuzz corpus
//!   replay, `fuzz_corpus_replays`).
//! - `hostile`: hostile files and extreme sizes (`tests/data/hostile/`):
//!   overflowing integer sums, headers claiming a billion rows, the
//!   readers' peak memory per entry (through a counting global allocator,
//!   this binary's), and the `memory_capped_*` tests `scripts/test-all.sh`
//!   runs under an address-space cap.
//! - `output_*`: `SparseTensorOut` built by hand through `begin`/`insert`/
//!   `finish` and the workspace: layouts, capacity, random protocol calls.
//! - `conversions/`: `sparse_core::convert` and `sparse_core::io`
//!   (described on the module below).

mod storage {
    mod edges;
    mod errors;
    mod errors_encoding;
    mod fuzz;
    mod hostile;
    mod output_capacity;
    mod output_fuzz;
    mod output_insert;
    mod output_workspace;
    mod pattern;
    mod print;
    mod roundtrip;

    /// The runtime operations of MLIR's `sparse_tensor` dialect that complete
    /// the conversions: each against an independent dense reference over CSR,
    /// CSC, DCSR, COO and a 3-D format, plus the upstream integration test it
    /// comes from (`mlir/test/Integration/Dialect/SparseTensor/CPU/`), with
    /// upstream's CHECK values as the expected ones.
    ///
    /// - `insert`: insertion in any order (`begin_unordered`,
    ///   `insert_unordered`, `finish_unordered`: MLIR's `tensor.insert` +
    ///   `load hasInserts`), repeats kept last, combined or refused, staging
    ///   capacity in the workspace (`sparse_insert_2d.mlir`, out of order).
    /// - `sort`: `convert::sort` with `perm_map`, `ny` and jointly sorted
    ///   arrays, every algorithm, against `slice::sort_by`
    ///   (`sparse_rewrite_sort_coo.mlir`).
    /// - `concat`: `concatenate_mixed` over operands of different encodings
    ///   and dense ones, into every format and into a dense array
    ///   (`concatenate_dim_1.mlir`).
    /// - `assemble`: `assemble_with_capacity` over buffers with room to spare,
    ///   `disassemble_into` giving back the used lengths (`sparse_pack.mlir`'s
    ///   BCOO).
    /// - `reshape`: `collapse_shape`/`expand_shape` views where the storage
    ///   allows them, `convert::reshape`/`collapse_shape`/`expand_shape`
    ///   otherwise, against the row-major reshape of the dense array
    ///   (`sparse_reshape.mlir`).
    mod mlir_runtime {
        mod assemble;
        pub mod common;
        mod concat;
        mod insert;
        mod reshape;
        mod sort;
    }

    /// Conversions between encodings (`sparse_core::convert`) and files
    /// (`sparse_core::io`), against independent references:
    ///
    /// - `pairs`: every 2-D source format (CSR, CSC, DCSR, DCSC, sorted COO
    ///   AoS/SoA, COO with repeats, unordered COO, loose, all-dense) into every
    ///   2-D target format (the same plus BSR, row-sparse `(compressed,
    ///   dense)`, nonunique rows), random tensors (empty, full, explicit zeros,
    ///   repeats), through `Owned`, `Fixed` and caller slices; results compared
    ///   with the dense reference and re-assembled through the checked
    ///   constructor; `convert` (repeats refused) against `convert_sum`.
    /// - `tensor3`: 3-D permutations (CSF and friends, COO).
    /// - `dense`: dense → every format → dense.
    /// - `capacity`: caller slices grown from each reported `needed` until the
    ///   conversion fits, and one less than a reported need always fails.
    /// - `widths`: coordinates and positions at the maxima of their widths,
    ///   and typed errors one past them.
    /// - `sorting`: `sort_coo_aos`/`sort_coo_soa` against `slice::sort`,
    ///   `concatenate` against the dense concatenation.
    /// - `kernels`: kernels whose operands conflict in level order, reading
    ///   an input through a reordered copy in a caller-provided workspace.
    /// - `files`: Matrix Market and FROSTT round trips and malformed files.
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
}
