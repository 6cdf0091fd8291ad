//! The AVX-512 path of the SELL slice: each step's 8 inputs by one
//! hardware gather (`vgatherdpd`/`vgatherdps`), or by one vector load in
//! a slice of a band, the sums of lanes whose
//! row has ended kept by the mask of live lanes (padding loads nothing
//! and adds nothing). `f64` in one 512-bit vector, `f32` in one 256-bit
//! vector (AVX-512 VL for the masks). Plain `#[inline(always)]` functions:
//! they inline into the SpMV's AVX-512 copy (`kernel/isa.rs`).

// Compiled only where the build script found the compiler builds AVX-512
// (`cfg(sk_avx512)`, Rust 1.89 on), whatever the crate's `rust-version`.
#![allow(clippy::incompatible_msrv)]

use core::arch::x86_64::*;

use super::C;

/// [`SellValue::slice`](super::SellValue::slice) for `f64`.
///
/// # Safety
///
/// AVX-512 F/VL; the columns below `x.len() <= 2^31`, the lengths at most
/// `i32::MAX`; `SellValue::slice`'s guarantees.
#[inline(always)]
pub(super) unsafe fn slice_f64(
    band: bool,
    min: usize,
    crd: &[u32],
    val: &[f64],
    lens: &[u32; C],
    x: &[f64],
    acc: &mut [f64; C],
) {
    let width = val.len() / C;
    // SAFETY (of the whole body): AVX-512 (the contract); `k < width`:
    // slots `k * C..k * C + 8` are in `val`, and in `crd` unless a band,
    // whose column `k` is in `crd` with `crd[k] + 8 <= x.len()` (a band's
    // lengths all equal `width`, so `min == width` and the masked loop
    // does not run); each column (0 in padding) below `x.len() <= 2^31`;
    // `lens` and `acc` hold 8 elements.
    unsafe {
        let mut a = _mm512_setzero_pd();
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        let (c, v) = (crd.as_ptr(), val.as_ptr());
        // Every lane is live below the shortest row's length. A band's
        // step reads 8 consecutive inputs from its one column, a load;
        // any other slice gathers.
        if band {
            for k in 0..min {
                let q = k * C;
                let g = _mm512_loadu_pd(x.as_ptr().add(*c.add(k) as usize));
                a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_loadu_pd(v.add(q)), g));
            }
        } else {
            for k in 0..min {
                let q = k * C;
                let o = _mm256_loadu_si256(c.add(q).cast());
                let g = _mm512_i32gather_pd::<8>(o, x.as_ptr().cast());
                a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_loadu_pd(v.add(q)), g));
            }
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
    band: bool,
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
        if band {
            for k in 0..min {
                let q = k * C;
                let g = _mm256_loadu_ps(x.as_ptr().add(*c.add(k) as usize));
                a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(v.add(q)), g));
            }
        } else {
            for k in 0..min {
                let q = k * C;
                let o = _mm256_loadu_si256(c.add(q).cast());
                let g = _mm256_i32gather_ps::<4>(x.as_ptr(), o);
                a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(v.add(q)), g));
            }
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
