//! The float dot product of one compressed row with a dense vector,
//! gathered and reassociated: `sum over p in lo..hi of val[p] * x[crd[p]]`
//! in [`LANES`] partial sums, the innermost walk of an SpMV-like kernel
//! written under `#[reassociate]`, which the schedule hands to this
//! routine whole (`schedule/gather_dot.rs` in the compiler).
//!
//! # The order of the sums (the same bits on every path)
//!
//! The entries of the row are taken [`LANES`] at a time: entry `lo + 8m +
//! k` of step `m` is multiplied (one rounding) and added (another: no
//! fused multiply-add, which would round once and differ) into partial
//! sum `s[k]`. The entries after the last whole step are summed in order
//! into `t`, from zero. The result is
//! `t + (((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)))`: the halves
//! added lane by lane, the order a vector of 8, 4 or 2 lanes folds in, and the order the compiler's dense partial
//! sums use (`codegen/kernel/partial_sums.rs`: the rest in order into the
//! local, then the tree). Every path computes exactly these operations,
//! so they agree bit for bit, and a test can compare them with that
//! definition written out.
//!
//! # The paths
//!
//! - x86-64 with AVX2 (detected at run time with `std`, whose
//!   `is_x86_feature_detected!` caches the answer after the first call;
//!   without `std`, when the build enables `avx2`, e.g. `-C
//!   target-cpu=native`): the 8 inputs of a step loaded as scalars into
//!   vectors (the hardware gathers, `vgatherqpd`/`vgatherdps`, measured
//!   about 2x slower on AMD Zen 3), the products and sums in two vectors of
//!   4 `f64` or one of 8 `f32`.
//! - Everywhere else (and packed 2-bit coordinates): a portable loop over
//!   an array of 8 partial sums, `no_std`, which the tests also run under
//!   Miri.
//!
//! AVX-512 is not used: `f32` would need 16 partial sums (another
//! rounding), and for `f64` the machine the bench runs on (AMD Zen 3) has
//! none to measure it on.

use core::ops::{Add, Mul};

use crate::index::Index;

use super::unchecked::{load, load_index};

/// The number of partial sums.
pub const LANES: usize = 8;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The float types [`dot_gather`] sums: `f32` and `f64`.
pub trait GatherFloat: Copy + Add<Output = Self> + Mul<Output = Self> + sealed::Sealed {
    /// `+0.0`.
    const ZERO: Self;

    /// Adds the products of the whole steps of entries `lo..end` into the
    /// partial sums `s`, lane `k` taking entry `lo + 8m + k` of step `m`.
    ///
    /// # Safety
    ///
    /// As [`dot_gather`], with `lo <= end <= hi` and `end - lo` a multiple
    /// of [`LANES`].
    #[doc(hidden)]
    unsafe fn steps<I: Index>(
        crd: &[I],
        val: &[Self],
        lo: usize,
        end: usize,
        x: &[Self],
        s: &mut [Self; LANES],
    );
}

/// Whether the AVX2 path may run: detected once by `std` and cached
/// there, or enabled at build time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

impl GatherFloat for f64 {
    const ZERO: Self = 0.0;

    #[inline(always)]
    unsafe fn steps<I: Index>(
        crd: &[I],
        val: &[f64],
        lo: usize,
        end: usize,
        x: &[f64],
        s: &mut [f64; LANES],
    ) {
        #[cfg(target_arch = "x86_64")]
        if I::PER_ELEMENT == 1 && avx2() {
            // SAFETY: AVX2 is available (just checked); the caller's
            // guarantees, passed on.
            unsafe { avx2::steps_f64(crd, val, lo, end, x, s) };
            return;
        }
        // SAFETY: the caller's guarantees, passed on.
        unsafe { portable(crd, val, lo, end, x, s) }
    }
}

impl GatherFloat for f32 {
    const ZERO: Self = 0.0;

    #[inline(always)]
    unsafe fn steps<I: Index>(
        crd: &[I],
        val: &[f32],
        lo: usize,
        end: usize,
        x: &[f32],
        s: &mut [f32; LANES],
    ) {
        #[cfg(target_arch = "x86_64")]
        if I::PER_ELEMENT == 1 && avx2() {
            // SAFETY: AVX2 is available (just checked); the caller's
            // guarantees, passed on.
            unsafe { avx2::steps_f32(crd, val, lo, end, x, s) };
            return;
        }
        // SAFETY: the caller's guarantees, passed on.
        unsafe { portable(crd, val, lo, end, x, s) }
    }
}

/// `sum(val[p] * x[crd[p]])` over `p` in `lo..hi`, in the partial-sum
/// order of the module's documentation (the same bits on every path).
///
/// # Safety
///
/// `lo <= hi <= crd.len()` (for packed coordinates, `hi <= 4 *
/// crd.len()`), `hi <= val.len()`, and `crd[p] < x.len()` for every `p`
/// in `lo..hi`: the entries of a validated tensor's last compressed level
/// under one parent entry, whose coordinates are below the dimension size
/// the kernel's prologue checked `x` against.
#[inline(always)]
pub unsafe fn dot_gather<T: GatherFloat, I: Index>(
    crd: &[I],
    val: &[T],
    lo: usize,
    hi: usize,
    x: &[T],
) -> T {
    debug_assert!(lo <= hi && hi <= val.len());
    let end = lo + (hi - lo) / LANES * LANES;
    let mut s = [T::ZERO; LANES];
    if end > lo {
        // SAFETY: `lo <= end <= hi` and `end - lo` is a multiple of
        // `LANES`; the caller's guarantees, passed on.
        unsafe { T::steps(crd, val, lo, end, x, &mut s) };
    }
    let mut t = T::ZERO;
    for p in end..hi {
        // SAFETY: `p < hi`, within `val` and the coordinates; `crd[p] <
        // x.len()` by the caller's guarantee.
        let (v, c) = unsafe { (load(val, p), load_index(crd, p)) };
        // SAFETY: as above.
        t = t + v * unsafe { load(x, c) };
    }
    t + (((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7])))
}

/// The whole steps one entry at a time, into an array of partial sums.
///
/// # Safety
///
/// As [`GatherFloat::steps`].
#[inline(always)]
unsafe fn portable<T: GatherFloat, I: Index>(
    crd: &[I],
    val: &[T],
    lo: usize,
    end: usize,
    x: &[T],
    s: &mut [T; LANES],
) {
    let mut p = lo;
    while p < end {
        for (k, sum) in s.iter_mut().enumerate() {
            // SAFETY: `p + k < end <= hi`, within `val` and the
            // coordinates; `crd[p + k] < x.len()` by the caller's guarantee.
            let (v, c) = unsafe { (load(val, p + k), load_index(crd, p + k)) };
            // SAFETY: as above.
            *sum = *sum + v * unsafe { load(x, c) };
        }
        p += LANES;
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{load, load_index, Index, LANES};

    /// `x[c]` for the coordinates of entries `p..p + N`, as loaded
    /// scalars (8 scalar loads and inserts beat `vgatherqpd`/`vgatherdps`
    /// by about 2x on AMD Zen 3, bench/desktop `spmv-simd`).
    ///
    /// # Safety
    ///
    /// `p + N <= crd.len()` (unpacked coordinates), each coordinate below
    /// `x.len()`.
    #[inline(always)]
    unsafe fn inputs<T: Copy, I: Index, const N: usize>(crd: &[I], p: usize, x: &[T]) -> [T; N] {
        // SAFETY: the caller's guarantees.
        core::array::from_fn(|k| unsafe { load(x, load_index(crd, p + k)) })
    }

    /// [`super::GatherFloat::steps`] for `f64`: two vectors of four lanes.
    ///
    /// # Safety
    ///
    /// AVX2, and [`super::GatherFloat::steps`]'s guarantees.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn steps_f64<I: Index>(
        crd: &[I],
        val: &[f64],
        lo: usize,
        end: usize,
        x: &[f64],
        s: &mut [f64; LANES],
    ) {
        let (mut a, mut b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        let mut p = lo;
        while p < end {
            // SAFETY: `p + 8 <= end`: eight coordinates and values are in
            // range; every coordinate is below `x.len()`.
            unsafe {
                let g: [f64; 8] = inputs(crd, p, x);
                let v = val.as_ptr().add(p);
                let xa = _mm256_loadu_pd(g.as_ptr());
                let xb = _mm256_loadu_pd(g.as_ptr().add(4));
                a = _mm256_add_pd(a, _mm256_mul_pd(_mm256_loadu_pd(v), xa));
                b = _mm256_add_pd(b, _mm256_mul_pd(_mm256_loadu_pd(v.add(4)), xb));
            }
            p += LANES;
        }
        // SAFETY: `s` holds eight `f64`, four per store.
        unsafe {
            _mm256_storeu_pd(s.as_mut_ptr(), a);
            _mm256_storeu_pd(s.as_mut_ptr().add(4), b);
        }
    }

    /// [`super::GatherFloat::steps`] for `f32`: one vector of eight lanes.
    ///
    /// # Safety
    ///
    /// AVX2, and [`super::GatherFloat::steps`]'s guarantees.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn steps_f32<I: Index>(
        crd: &[I],
        val: &[f32],
        lo: usize,
        end: usize,
        x: &[f32],
        s: &mut [f32; LANES],
    ) {
        let mut a = _mm256_setzero_ps();
        let mut p = lo;
        while p < end {
            // SAFETY: `p + 8 <= end`: eight coordinates and values are in
            // range; every coordinate is below `x.len()`.
            unsafe {
                let g: [f32; 8] = inputs(crd, p, x);
                let xs = _mm256_loadu_ps(g.as_ptr());
                a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(val.as_ptr().add(p)), xs));
            }
            p += LANES;
        }
        // SAFETY: `s` holds eight `f32`.
        unsafe { _mm256_storeu_ps(s.as_mut_ptr(), a) };
    }
}

#[cfg(test)]
mod tests;
