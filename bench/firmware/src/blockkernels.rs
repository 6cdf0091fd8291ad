//! The block-format kernels under measurement (issue 11, item 7), each
//! behind an `#[inline(never)]`, `#[no_mangle]` function as in
//! [`crate::kernels`]:
//!
//! - `bench_bsr2_f32`, `bench_bsr4_f32`, `bench_nv24_f32`: the SpMV
//!   `sparse_kernel!` generates over BSR 2x2, BSR 4x4 (u16 positions, u8
//!   block columns) and 2:4 (u8 in-group coordinates), f32, dynamic sizes.
//! - `bench_gen_dense_f32`: the same statement over a dense matrix.
//! - `bench_dense_f32`: a hand-written dense matrix-vector loop.
//! - `bench_c_*`: the hand-written C loops of `src/blocks.c` (gcc -O2).
//!
//! The CSR kernels on the same weights are those of [`crate::kernels`].

use sparse_core::DenseView;
use sparse_core::KernelError;

sparse_core::sparse_kernel! {
    #BSR2 = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense),
        posWidth = 16,
        crdWidth = 8
    }>
    #BSR4 = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense),
        posWidth = 16,
        crdWidth = 8
    }>
    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 8
    }>

    /// y = A x over BSR 2x2.
    pub fn spmv_bsr2(a: &tensor<?x?xf32, #BSR2>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// y = A x over BSR 4x4.
    pub fn spmv_bsr4(a: &tensor<?x?xf32, #BSR4>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// y = A x over 2:4.
    pub fn spmv_nv24(a: &tensor<?x?xf32, #NV24>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// y = A x, A dense.
    pub fn spmv_dense(a: &tensor<?x?xf32>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

/// The generated BSR 2x2 kernel.
#[no_mangle]
#[inline(never)]
pub fn bench_bsr2_f32(a: &BSR2<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    spmv_bsr2(a, x, y)
}

/// The generated BSR 4x4 kernel.
#[no_mangle]
#[inline(never)]
pub fn bench_bsr4_f32(a: &BSR4<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    spmv_bsr4(a, x, y)
}

/// The generated 2:4 kernel.
#[no_mangle]
#[inline(never)]
pub fn bench_nv24_f32(a: &NV24<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    spmv_nv24(a, x, y)
}

/// The generated kernel over a dense matrix.
#[no_mangle]
#[inline(never)]
pub fn bench_gen_dense_f32(
    a: DenseView<'_, f32, 2>,
    x: &[f32],
    y: &mut [f32],
) -> Result<(), KernelError> {
    spmv_dense(a, x, y)
}

/// A hand-written dense matrix-vector loop (`a` row-major, `y.len()` rows
/// of `x.len()` entries; panics if `a` is shorter).
#[no_mangle]
#[inline(never)]
pub fn bench_dense_f32(a: &[f32], x: &[f32], y: &mut [f32]) {
    for (yi, row) in y.iter_mut().zip(a.chunks_exact(x.len())) {
        let mut acc = 0.0f32;
        for (&v, &xj) in row.iter().zip(x) {
            acc += v * xj;
        }
        *yi = acc;
    }
}

#[cfg(feature = "c-kernel")]
extern "C" {
    /// BSR 2x2 (`nbr` block rows), src/blocks.c; `_nofma`: -ffp-contract=off.
    pub fn bench_c_bsr2_f32(
        pos: *const u16,
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        nbr: u32,
    );
    pub fn bench_c_bsr2_nofma_f32(
        pos: *const u16,
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        nbr: u32,
    );
    /// BSR 4x4.
    pub fn bench_c_bsr4_f32(
        pos: *const u16,
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        nbr: u32,
    );
    pub fn bench_c_bsr4_nofma_f32(
        pos: *const u16,
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        nbr: u32,
    );
    /// 2:4 (`rows` rows of `groups` groups of four).
    pub fn bench_c_nv24_f32(
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        rows: u32,
        groups: u32,
    );
    pub fn bench_c_nv24_nofma_f32(
        crd: *const u8,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        rows: u32,
        groups: u32,
    );
    /// Dense, row-major.
    pub fn bench_c_dense_f32(a: *const f32, x: *const f32, y: *mut f32, rows: u32, cols: u32);
    pub fn bench_c_dense_nofma_f32(a: *const f32, x: *const f32, y: *mut f32, rows: u32, cols: u32);
}
