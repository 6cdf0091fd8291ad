//! Generated kernels behind `#[inline(never)]`, `#[no_mangle]` wrappers, so
//! their optimised machine code can be read on the host and on thumb
//! targets. See `docs/ARCHITECTURE.md`, "Checking the generated code".
//!
//! The kernels are the codegen snapshots of `sparse-compiler` (exactly what
//! `sparse_kernel!` emits for them), included next to the encoding aliases
//! they name.
#![no_std]

use sparse_core::KernelError;

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton), crdWidth = 32 }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
}

mod kernels {
    use super::*;
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/spmv_csr.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/spmv_csr_f32.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/spmv_coo.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/vector_add.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/binary_triangles.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/select_lower.rs");
    include!("../../../sparse-macros/compiler/src/codegen/kernel/snapshots/reduce_row_product.rs");
}

/// SpMV, CSR with 16-bit positions and 8-bit coordinates, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr(a: &CSR<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), KernelError> {
    kernels::spmv_csr(a, x, y)
}

/// SpMV, CSR with 16-bit positions and 8-bit coordinates, f32.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr_f32(a: &CSR<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    kernels::spmv_csr_f32(a, x, y)
}

/// SpMV, sorted AoS COO with duplicate row segments, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_coo(a: &COO<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), KernelError> {
    kernels::spmv_coo(a, x, y)
}

/// Sparse vector union into a dense vector, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_vector_add(c: &mut [f64], a: &SV<'_, f64>, b: &SV<'_, f64>) -> Result<(), KernelError> {
    kernels::vadd(c, a, b)
}

/// `binary` with index-dependent overlap and right regions (seed 000's
/// upper/lower triangle example), into a dense view.
#[no_mangle]
#[inline(never)]
pub fn sk_binary_triangles(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: sparse_core::DenseViewMut<'_, f64, 2>,
) -> Result<(), KernelError> {
    kernels::triangles(a, b, c)
}

/// `select` with an index predicate (the lower triangle).
#[no_mangle]
#[inline(never)]
pub fn sk_select_lower(
    a: &CSR<'_, f64>,
    c: sparse_core::DenseViewMut<'_, f64, 2>,
) -> Result<(), KernelError> {
    kernels::select_lower(a, c)
}

/// A custom `reduce` (row products capped at 100, implicit zeros folded).
#[no_mangle]
#[inline(never)]
pub fn sk_reduce_row_product(a: &DCSR<'_, f64>, x: &mut [f64]) -> Result<(), KernelError> {
    kernels::row_product(a, x)
}
