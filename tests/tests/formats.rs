//! Encodings beyond the plain ones, and where they come from: the aliases
//! `sparse_kernel!` emits for the seed encodings, kernels over block,
//! structured and sliced operands, and compile-time constants.
//!
//! One test binary (a tier); each file below is a module of it.
//!
//! - `encodings`: the aliases are `sparse_core` storage types whose
//!   `Encoding` reads back the right level types, maps and widths; the same
//!   encoding written twice is the same type.
//! - `block`: kernels over block formats, written in dimension space
//!   (`y[i] = a[i, j] * x[j]`) exactly as for CSR while the sparsifier
//!   walks the operand in level space (MLIR's demapping): BSR, BSC, DCSR
//!   of blocks, non-square blocks (4x1, 1x8, 2x3), the floordiv/mod and
//!   the explicit inverse map forms; SpMV, SpMM, sums, index values, dense
//!   and scalar outputs; partial blocks refused with
//!   `KernelError::PartialBlock`, against a dense reference; the blocked
//!   layouts built independently by `block_layout`.
//! - `structured_in`: kernels reading n:m (2:4) operands with 8- and 2-bit
//!   in-group coordinates, and batch levels, against a dense reference.
//! - `structured_out`: kernels writing n:m (2:4) and block outputs
//!   (`KernelError::GroupOverflow` for a group past `n`), ELL operands.
//! - `structured_packed`: the same 2:4 kernels over 2-bit coordinates
//!   packed four per byte, seed 001's worked layout, capacity in bytes.
//! - `slices`: sliced operands (`#sparse_tensor<slice(..)>`, `SliceView`s
//!   of CSR, CSC, DCSR and COO tensors) in SpMV, a sparse add, SpGEMM and
//!   copies, static, dynamic and mixed parameters, against the dense
//!   slice; `SliceMismatch` and workspace capacity errors.
//! - `slices_in_place`: stride-1 slices walked in place (no workspace) in
//!   SpMV, SpMM, sparse adds (with a whole tensor too) and SpGEMM, over
//!   random, edge and empty slices, against the dense slice.
//! - `constants/`: compile-time constants (`static NAME: tensor<...> =
//!   dense<...>;`, `sparse<...>`, `file(...)`): every literal form × every
//!   storage family, each checked against a hand-computed MLIR layout
//!   (`sparse_tensor.print`) and used by a kernel against a dense
//!   computation.

mod formats {
    mod block;
    mod block_layout;
    mod encodings;
    mod slices;
    mod slices_in_place;
    mod structured_in;
    mod structured_out;
    mod structured_packed;

    mod constants {
        mod computed;
        mod files;
        mod formats;
        mod forms;
        mod props;
        mod pruning;
        mod shared;
    }
}
