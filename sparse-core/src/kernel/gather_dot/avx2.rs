//! The AVX2 path of [`dot_gather`](super::dot_gather): the 8 inputs of a
//! step loaded as scalars into vectors (4 scalar loads and inserts per
//! vector beat `vgatherqpd`/`vgatherdps` by about 2x on AMD Zen 3, bench
//! `spmv-simd`), the products and sums in two vectors of 4 `f64` or one
//! of 8 `f32`. The last step's missing lanes hold a zero value and a zero
//! input, so they add `+0.0`, which changes no partial sum: a sum that
//! starts at `+0.0` is never `-0.0` (round to nearest gives `-0.0` only
//! for `-0.0 + -0.0`), and `s + 0.0 == s` for every other `s`, NaN
//! payloads included.
//!
//! Plain `#[inline(always)]` functions: they inline into the kernel's
//! AVX2 copy (`kernel/isa.rs`), compiled with the features.

use core::arch::x86_64::*;

use super::{load, load_index, GatherFloat, Index, LANES};

/// Step `p`'s values and inputs, lanes `k < n` from the row and the rest
/// zero.
///
/// # Safety
///
/// `p + n <= hi` of [`dot_gather`](super::dot_gather)'s guarantees.
#[inline(always)]
unsafe fn step<T: GatherFloat, I: Index>(
    crd: &[I],
    val: &[T],
    p: usize,
    n: usize,
    x: &[T],
) -> ([T; LANES], [T; LANES]) {
    // SAFETY (both): `p + k < p + n <= hi`, within `val` and the
    // coordinates; `crd[p + k] < x.len()` by the caller's guarantee.
    let v = core::array::from_fn(|k| {
        if k < n {
            unsafe { load(val, p + k) }
        } else {
            T::ZERO
        }
    });
    let g = core::array::from_fn(|k| {
        if k < n {
            unsafe { load(x, load_index(crd, p + k)) }
        } else {
            T::ZERO
        }
    });
    (v, g)
}

/// [`dot_gather`](super::dot_gather) for `f64`: lanes 0–3 in `a`, 4–7 in
/// `b`.
///
/// # Safety
///
/// AVX2 and FMA, unpacked coordinates, and `dot_gather`'s guarantees.
#[inline(always)]
pub(super) unsafe fn dot_f64<I: Index>(
    crd: &[I],
    val: &[f64],
    lo: usize,
    hi: usize,
    x: &[f64],
) -> f64 {
    let mut ab = (_mm256_setzero_pd(), _mm256_setzero_pd());
    // Whole steps (the lane test folds away), then the partial one.
    let mut p = lo;
    while hi - p >= LANES {
        // SAFETY: `p + 8 <= hi`; the caller's guarantees.
        ab = unsafe { add_f64(ab, crd, val, p, LANES, x) };
        p += LANES;
    }
    if p < hi {
        // SAFETY: `p + (hi - p) <= hi`; the caller's guarantees.
        ab = unsafe { add_f64(ab, crd, val, p, hi - p, x) };
    }
    // SAFETY: AVX2 (this function's contract). 8 lanes into 4:
    // `s[k] + s[k + 4]`.
    unsafe { fold_f64x4(_mm256_add_pd(ab.0, ab.1)) }
}

/// `(a, b)` plus step `p`'s `n` lanes.
///
/// # Safety
///
/// As [`dot_f64`], with `p + n <= hi`.
#[inline(always)]
unsafe fn add_f64<I: Index>(
    (a, b): (__m256d, __m256d),
    crd: &[I],
    val: &[f64],
    p: usize,
    n: usize,
    x: &[f64],
) -> (__m256d, __m256d) {
    // SAFETY: the caller's guarantees.
    let (v, g) = unsafe { step(crd, val, p, n, x) };
    // SAFETY: AVX2; `v` and `g` hold 8 `f64`, four per load.
    unsafe {
        let pa = _mm256_mul_pd(_mm256_loadu_pd(v.as_ptr()), _mm256_loadu_pd(g.as_ptr()));
        let pb = _mm256_mul_pd(
            _mm256_loadu_pd(v.as_ptr().add(4)),
            _mm256_loadu_pd(g.as_ptr().add(4)),
        );
        (_mm256_add_pd(a, pa), _mm256_add_pd(b, pb))
    }
}

/// [`dot_gather`](super::dot_gather) for `f32`: one vector of 8 lanes.
///
/// # Safety
///
/// As [`dot_f64`].
#[inline(always)]
pub(super) unsafe fn dot_f32<I: Index>(
    crd: &[I],
    val: &[f32],
    lo: usize,
    hi: usize,
    x: &[f32],
) -> f32 {
    let mut a = _mm256_setzero_ps();
    let mut p = lo;
    while hi - p >= LANES {
        // SAFETY: `p + 8 <= hi`; the caller's guarantees.
        a = unsafe { add_f32(a, crd, val, p, LANES, x) };
        p += LANES;
    }
    if p < hi {
        // SAFETY: `p + (hi - p) <= hi`; the caller's guarantees.
        a = unsafe { add_f32(a, crd, val, p, hi - p, x) };
    }
    // SAFETY: AVX2 (this function's contract).
    unsafe { fold_f32(a) }
}

/// `a` plus step `p`'s `n` lanes.
///
/// # Safety
///
/// As [`dot_f64`], with `p + n <= hi`.
#[inline(always)]
unsafe fn add_f32<I: Index>(
    a: __m256,
    crd: &[I],
    val: &[f32],
    p: usize,
    n: usize,
    x: &[f32],
) -> __m256 {
    // SAFETY: the caller's guarantees.
    let (v, g) = unsafe { step(crd, val, p, n, x) };
    // SAFETY: AVX2; `v` and `g` hold 8 `f32`.
    unsafe {
        let pr = _mm256_mul_ps(_mm256_loadu_ps(v.as_ptr()), _mm256_loadu_ps(g.as_ptr()));
        _mm256_add_ps(a, pr)
    }
}

/// 8 `f32` lanes into 4 (`s[k] + s[k + 4]`), 4 into 2, 2 into 1.
///
/// # Safety
///
/// AVX2.
#[inline(always)]
pub(super) unsafe fn fold_f32(a: __m256) -> f32 {
    let t = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps::<1>(a));
    let u = _mm_add_ps(t, _mm_movehl_ps(t, t));
    _mm_cvtss_f32(_mm_add_ss(u, _mm_movehdup_ps(u)))
}

/// 4 `f64` lanes (`s[k] + s[k + 4]` already) into 2, 2 into 1.
///
/// # Safety
///
/// AVX2.
#[inline(always)]
pub(super) unsafe fn fold_f64x4(t: __m256d) -> f64 {
    let u = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd::<1>(t));
    _mm_cvtsd_f64(_mm_add_sd(u, _mm_unpackhi_pd(u, u)))
}
