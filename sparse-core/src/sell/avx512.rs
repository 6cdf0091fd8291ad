//! The AVX-512 path of the SELL slice: each step's 8 inputs by one
//! hardware gather (`vgatherdpd`/`vgatherdps`), the sums of lanes whose
//! row has ended kept by the mask of live lanes (padding loads nothing
//! and adds nothing). `f64` in one 512-bit vector, `f32` in one 256-bit
//! vector (AVX-512 VL for the masks). Plain `#[inline(always)]` functions:
//! they inline into the SpMV's AVX-512 copy (`kernel/isa.rs`).

// Compiled only where the build script found the compiler builds AVX-512
// (`cfg(sk_avx512)`, Rust 1.89 on), whatever the crate's `rust-version`.
#![allow(clippy::incompatible_msrv)]

use core::arch::x86_64::*;

use super::spmv::shape;
use super::C;

/// `Some(c)` when the 8 columns `o` are `c..c + 8` (rows of a band at
/// one step), whose inputs one vector load reads (the same inputs as the
/// gather, so the same bits).
///
/// # Safety
///
/// AVX-512 F/VL.
#[inline(always)]
unsafe fn run_start(o: __m256i) -> Option<usize> {
    // SAFETY: AVX-512 F/VL (the contract).
    unsafe {
        let c0 = _mm256_cvtsi256_si32(o);
        let want = _mm256_add_epi32(
            _mm256_set1_epi32(c0),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        (_mm256_cmpeq_epi32_mask(o, want) == 0xff).then_some(c0 as u32 as usize)
    }
}

/// The products of one step whose 8 lanes are all live: the columns at
/// `c`, the values at `v`. (A function, not a closure: a closure is not
/// compiled with the copy's features unless inlined, and its intrinsics
/// would then be calls.)
///
/// # Safety
///
/// AVX-512 F/VL; 8 columns at `c` and values at `v`, each column below
/// `x.len() <= 2^31`.
#[inline(always)]
unsafe fn step_f64(c: *const u32, v: *const f64, x: &[f64]) -> __m512d {
    // SAFETY: the caller's guarantees.
    unsafe {
        let o = _mm256_loadu_si256(c.cast());
        let g = match run_start(o) {
            // Eight consecutive columns (a band): one load.
            Some(c0) => _mm512_loadu_pd(x.as_ptr().add(c0)),
            None => _mm512_i32gather_pd::<8>(o, x.as_ptr().cast()),
        };
        _mm512_mul_pd(_mm512_loadu_pd(v), g)
    }
}

/// [`step_f64`] for `f32`.
///
/// # Safety
///
/// As [`step_f64`].
#[inline(always)]
unsafe fn step_f32(c: *const u32, v: *const f32, x: &[f32]) -> __m256 {
    // SAFETY: the caller's guarantees.
    unsafe {
        let o = _mm256_loadu_si256(c.cast());
        let g = match run_start(o) {
            Some(c0) => _mm256_loadu_ps(x.as_ptr().add(c0)),
            None => _mm256_i32gather_ps::<4>(x.as_ptr(), o),
        };
        _mm256_mul_ps(_mm256_loadu_ps(v), g)
    }
}

/// [`SellValue::slice`](super::SellValue::slice) for `f64`.
///
/// # Safety
///
/// AVX-512 F/VL; the columns below `x.len() <= 2^31`, the lengths at most
/// `i32::MAX`; `SellValue::slice`'s guarantees.
#[inline(always)]
pub(super) unsafe fn slice_f64(
    crd: &[u32],
    val: &[f64],
    lens: &[u32; C],
    x: &[f64],
    acc: &mut [f64; C],
) {
    let (min, width) = shape(crd, lens);
    // SAFETY (of the whole body): AVX-512 (the contract); `k < width`:
    // slots `k * C..k * C + 8` are in `crd` and `val`; each column (0 in
    // padding) below `x.len() <= 2^31`; `lens` and `acc` hold 8 elements.
    unsafe {
        let mut a = _mm512_setzero_pd();
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        let (c, v) = (crd.as_ptr(), val.as_ptr());
        // Every lane is live below the shortest row's length.
        for k in 0..min {
            let q = k * C;
            a = _mm512_add_pd(a, step_f64(c.add(q), v.add(q), x));
        }
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
pub(super) unsafe fn slice_f32(
    crd: &[u32],
    val: &[f32],
    lens: &[u32; C],
    x: &[f32],
    acc: &mut [f32; C],
) {
    let (min, width) = shape(crd, lens);
    // SAFETY: as in `slice_f64`.
    unsafe {
        let mut a = _mm256_setzero_ps();
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        let (c, v) = (crd.as_ptr(), val.as_ptr());
        for k in 0..min {
            let q = k * C;
            a = _mm256_add_ps(a, step_f32(c.add(q), v.add(q), x));
        }
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
