//! The AVX-512 path of the SELL slice: each step's 8 inputs by one
//! hardware gather (`vgatherdpd`/`vgatherdps`), or by one vector load in
//! a slice of a band or of diagonals, the sums of lanes whose
//! row has ended kept by the mask of live lanes (padding loads nothing
//! and adds nothing). `f64` in one 512-bit vector, `f32` in one 256-bit
//! vector (AVX-512 VL for the masks). In a matrix that streams from
//! beyond the L2 cache, the values and columns are prefetched [`AHEAD`]
//! steps on. Plain `#[inline(always)]` functions:
//! they inline into the SpMV's AVX-512 copy (`kernel/isa.rs`).

// Compiled only where the build script found the compiler builds AVX-512
// (`cfg(sk_avx512)`, Rust 1.89 on), whatever the crate's `rust-version`.
#![allow(clippy::incompatible_msrv)]

use core::arch::x86_64::*;

use super::spmv::SliceKind;
use super::C;

/// How many steps ahead the loops prefetch the values (and a gathered
/// slice its columns): 4 KiB of `f64` values. The slices' buffers form one
/// stream across slices, yet the hardware prefetchers alone left the band
/// and the power-law matrices 5-15% slower (bench/desktop `spmv-simd`, the
/// Xeon's warm runs; 16 and 32 steps ahead measured slower, 128 no
/// faster).
const AHEAD: usize = 64;

/// Prefetches slot `q + AHEAD * C` of the buffer at `p`: the same step
/// `AHEAD` steps on, in this slice or a later one.
///
/// # Safety
///
/// SSE (every x86-64). Any `p` and `q`: a prefetch is a hint that reads
/// nothing the program sees and faults on no address, and `wrapping_add`
/// makes the address without claiming it in bounds (past the buffer's
/// end the hint loads nothing useful, harmlessly).
#[inline(always)]
unsafe fn ahead<T>(p: *const T, q: usize) {
    // SAFETY: as above.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(q + AHEAD * C).cast()) }
}

/// [`SellValue::slice`](super::SellValue::slice) for `f64`.
///
/// # Safety
///
/// AVX-512 F/VL; the columns below `x.len() <= 2^31`, the lengths at most
/// `i32::MAX`; `SellValue::slice`'s guarantees.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn slice_f64(
    kind: SliceKind,
    stream: bool,
    min: usize,
    crd: &[u32],
    val: &[f64],
    lens: &[u32; C],
    x: &[f64],
    acc: &mut [f64; C],
) {
    let width = val.len() / C;
    // SAFETY (of the whole body): AVX-512 (the contract); `k < width`:
    // slots `k * C..k * C + 8` are in `val`, and in `crd` when gathered;
    // a band's column `k` is in `crd` with `crd[k] + 8 <= x.len()`,
    // diagonals' one column `crd[0]` with `crd[0] + k + 8 <= x.len()`
    // (the lengths of both all equal `width`, so `min == width` and the
    // masked loop does not run); each column (0 in padding) below
    // `x.len() <= 2^31`; `lens` and `acc` hold 8 elements.
    unsafe {
        let mut a = _mm512_setzero_pd();
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        let (c, v) = (crd.as_ptr(), val.as_ptr());
        // Every lane is live below the shortest row's length. A band's
        // step reads 8 consecutive inputs from its column, a load, and
        // diagonals' step `k` those from their one column plus `k`
        // (`SliceKind::column`); a gathered slice gathers. One loop per
        // kind (`SliceKind::dispatch`).
        a = kind.dispatch(
            #[inline(always)]
            |kind| {
                for k in 0..min {
                    let q = k * C;
                    if stream {
                        ahead(v, q);
                        if kind == SliceKind::Gather {
                            ahead(c, q);
                        }
                    }
                    let g = if kind == SliceKind::Gather {
                        let o = _mm256_loadu_si256(c.add(q).cast());
                        _mm512_i32gather_pd::<8>(o, x.as_ptr().cast())
                    } else {
                        _mm512_loadu_pd(x.as_ptr().add(kind.column(crd, k, 0)))
                    };
                    a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_loadu_pd(v.add(q)), g));
                }
                a
            },
        );
        for k in min..width {
            let q = k * C;
            let m = _mm256_cmpgt_epi32_mask(lv, _mm256_set1_epi32(k as i32));
            let o = _mm256_maskz_loadu_epi32(m, c.add(q).cast());
            let g = _mm512_mask_i32gather_pd::<8>(_mm512_setzero_pd(), m, o, x.as_ptr().cast());
            let p = _mm512_mul_pd(_mm512_maskz_loadu_pd(m, v.add(q)), g);
            a = _mm512_mask_add_pd(a, m, a, p);
        }
        _mm512_storeu_pd(acc.as_mut_ptr(), a);
    }
}

/// [`SellValue::slice`](super::SellValue::slice) for `f32`.
///
/// # Safety
///
/// As [`slice_f64`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn slice_f32(
    kind: SliceKind,
    stream: bool,
    min: usize,
    crd: &[u32],
    val: &[f32],
    lens: &[u32; C],
    x: &[f32],
    acc: &mut [f32; C],
) {
    let width = val.len() / C;
    // SAFETY: as in `slice_f64`.
    unsafe {
        let mut a = _mm256_setzero_ps();
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        let (c, v) = (crd.as_ptr(), val.as_ptr());
        // As in `slice_f64`.
        a = kind.dispatch(
            #[inline(always)]
            |kind| {
                for k in 0..min {
                    let q = k * C;
                    if stream {
                        if kind == SliceKind::Gather {
                            // A step is half a line of values and of
                            // columns: one prefetch per step, the values'
                            // and the columns' by turns (two per step
                            // measured 3% slower).
                            ahead::<u32>(if k & 1 == 0 { v.cast() } else { c }, q);
                        } else {
                            ahead(v, q);
                        }
                    }
                    let g = if kind == SliceKind::Gather {
                        let o = _mm256_loadu_si256(c.add(q).cast());
                        _mm256_i32gather_ps::<4>(x.as_ptr(), o)
                    } else {
                        _mm256_loadu_ps(x.as_ptr().add(kind.column(crd, k, 0)))
                    };
                    a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(v.add(q)), g));
                }
                a
            },
        );
        for k in min..width {
            let q = k * C;
            let m = _mm256_cmpgt_epi32_mask(lv, _mm256_set1_epi32(k as i32));
            let o = _mm256_maskz_loadu_epi32(m, c.add(q).cast());
            let g = _mm256_mmask_i32gather_ps::<4>(_mm256_setzero_ps(), m, o, x.as_ptr().cast());
            let p = _mm256_mul_ps(_mm256_maskz_loadu_ps(m, v.add(q)), g);
            a = _mm256_mask_add_ps(a, m, a, p);
        }
        _mm256_storeu_ps(acc.as_mut_ptr(), a);
    }
}
