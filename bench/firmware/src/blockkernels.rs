//! The block-format kernels under measurement (issue 11, item 7), each
//! behind an `#[inline(never)]`, `#[no_mangle]` function as in
//! [`crate::kernels`]:
//!
//! - `bench_bsr2_f32`, `bench_bsr4_f32`, `bench_nv24_f32`: the SpMV
//!   `sparse_kernel!` generates over BSR 2x2, BSR 4x4 (u16 positions, u8
//!   block columns) and 2:4 (u8 in-group coordinates), f32, dynamic sizes;
//!   `bench_nv24p_f32`: 2:4 with `crdWidth = 2` (four coordinates a byte).
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
    #NV24P = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>

    /// y = A x over 2:4 with 2-bit coordinates, four per byte.
    pub fn spmv_nv24p(a: &tensor<?x?xf32, #NV24P>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

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

/// The generated 2:4 kernel over packed 2-bit coordinates.
#[no_mangle]
#[inline(never)]
pub fn bench_nv24p_f32(a: &NV24P<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    spmv_nv24p(a, x, y)
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

/// `acc[r] += v[r * b + k] * x[k]` for one block row `r`, `k` in `0..b`,
/// written out (what the code generator could emit for a constant block).
macro_rules! block_row {
    ($acc:ident[$r:literal], $v:ident, $x:ident, $b:literal; $($k:literal),*) => {
        $( $acc[$r] += $v[$r * $b + $k] * $x[$k]; )*
    };
}

/// The signature of the proposed BSR shapes: `pos`, `crd`, `val`, `x`, `y`.
pub type BsrSlices = unsafe fn(&[u16], &[u8], &[f32], &[f32], &mut [f32]);

/// The loop shape proposed for the generated BSR kernels (RESULTS.md), by
/// hand: the block loops written out, each block's values and `x` block
/// read at constant offsets from one pointer, the output block row kept in
/// `B` accumulators across the block walk (no `fill`, no load/store of `y`
/// per block), and the walk ended by pointer equality. `B` = 4.
///
/// # Safety
///
/// `pos.len() == y.len() / 4 + 1`, `y.len() % 4 == 0`, `pos` nondecreasing
/// with its last entry at most `crd.len()` and `val.len() / 16`, and every
/// `4 * crd[p] + 4 <= x.len()` (what `assemble` and the kernel's size checks
/// establish).
#[no_mangle]
#[inline(never)]
pub unsafe fn bench_bsr4_prop_f32(pos: &[u16], crd: &[u8], val: &[f32], x: &[f32], y: &mut [f32]) {
    // SAFETY: the caller guarantees the invariants above, so every pointer
    // stays inside its buffer.
    unsafe {
        let mut pp = pos.as_ptr();
        let mut c = crd.as_ptr().add(*pp as usize);
        let mut v = val.as_ptr().add(16 * *pp as usize) as *const [f32; 16];
        for yb in y.chunks_exact_mut(4) {
            pp = pp.add(1);
            let end = crd.as_ptr().add(*pp as usize);
            let mut acc = [0f32; 4];
            while c != end {
                let xb = &*(x.as_ptr().add(4 * *c as usize) as *const [f32; 4]);
                let vb = &*v;
                block_row!(acc[0], vb, xb, 4; 0, 1, 2, 3);
                block_row!(acc[1], vb, xb, 4; 0, 1, 2, 3);
                block_row!(acc[2], vb, xb, 4; 0, 1, 2, 3);
                block_row!(acc[3], vb, xb, 4; 0, 1, 2, 3);
                c = c.add(1);
                v = v.add(1);
            }
            yb.copy_from_slice(&acc);
        }
    }
}

/// [`bench_bsr4_prop_f32`] for 2x2 blocks.
///
/// # Safety
///
/// As [`bench_bsr4_prop_f32`] with 2 for 4 (and 4 values per block).
#[no_mangle]
#[inline(never)]
pub unsafe fn bench_bsr2_prop_f32(pos: &[u16], crd: &[u8], val: &[f32], x: &[f32], y: &mut [f32]) {
    // SAFETY: as in `bench_bsr4_prop_f32`.
    unsafe {
        let mut pp = pos.as_ptr();
        let mut c = crd.as_ptr().add(*pp as usize);
        let mut v = val.as_ptr().add(4 * *pp as usize) as *const [f32; 4];
        for yb in y.chunks_exact_mut(2) {
            pp = pp.add(1);
            let end = crd.as_ptr().add(*pp as usize);
            let mut acc = [0f32; 2];
            while c != end {
                let xb = &*(x.as_ptr().add(2 * *c as usize) as *const [f32; 2]);
                let vb = &*v;
                block_row!(acc[0], vb, xb, 2; 0, 1);
                block_row!(acc[1], vb, xb, 2; 0, 1);
                c = c.add(1);
                v = v.add(1);
            }
            yb.copy_from_slice(&acc);
        }
    }
}

/// The loop shape proposed for the generated 2:4 kernel, by hand: the two
/// entries of a group written out, coordinates and values walked by pointer
/// across the whole matrix (a structured level under dense parents stores
/// its entries contiguously), and `x` addressed from the group's base
/// pointer.
///
/// # Safety
///
/// `crd.len() == val.len() == y.len() * x.len() / 2`, `x.len() % 4 == 0`
/// and every coordinate below 4 (what `assemble` and the size checks
/// establish).
#[no_mangle]
#[inline(never)]
pub unsafe fn bench_nv24_prop_f32(crd: &[u8], val: &[f32], x: &[f32], y: &mut [f32]) {
    // SAFETY: the caller guarantees the invariants above.
    unsafe {
        let mut c = crd.as_ptr();
        let mut v = val.as_ptr();
        let xend = x.as_ptr().add(x.len());
        for yi in y.iter_mut() {
            let mut acc = 0f32;
            let mut xg = x.as_ptr();
            while xg != xend {
                acc += *v * *xg.add(*c as usize);
                acc += *v.add(1) * *xg.add(*c.add(1) as usize);
                c = c.add(2);
                v = v.add(2);
                xg = xg.add(4);
            }
            *yi = acc;
        }
    }
}
