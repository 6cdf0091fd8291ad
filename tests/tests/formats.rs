//! Kernels over block and structured formats: the kernel is written in
//! dimension space (`y[i] = a[i, j] * x[j]`) exactly as for CSR, and the
//! sparsifier walks the operand in level space (MLIR's demapping).
//!
//! - `block`: BSR, BSC, DCSR of blocks, non-square blocks (4x1, 1x8, 2x3),
//!   the floordiv/mod and the explicit inverse map forms; SpMV, SpMM,
//!   sums, index values, dense and scalar outputs; partial blocks refused
//!   with `KernelError::PartialBlock`, against a dense reference.
//! - `slices`: sliced operands (`#sparse_tensor<slice(..)>`, `SliceView`s
//!   of CSR, CSC, DCSR and COO tensors) in SpMV, a sparse add, SpGEMM and
//!   copies, static, dynamic and mixed parameters, against the dense
//!   slice; `SliceMismatch` and workspace capacity errors.
//! - `slices_in_place`: stride-1 slices walked in place (no workspace) in
//!   SpMV, SpMM, sparse adds (with a whole tensor too) and SpGEMM, over
//!   random, edge and empty slices, against the dense slice.

mod formats {
    mod block;
    mod slices;
    mod slices_in_place;
    mod structured_out;
}
