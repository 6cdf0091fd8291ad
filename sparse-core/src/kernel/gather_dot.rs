//! The float dot product of one compressed row with a dense vector,
//! gathered and reassociated: `sum over p in lo..hi of val[p] * x[crd[p]]`
//! in [`LANES`] partial sums, the innermost walk of an SpMV-like kernel
//! written under `#[reassociate]`, which the schedule hands to this
//! routine whole (`schedule/gather_dot.rs` in the compiler).
//!
//! # The order of the sums (the same bits on every path)
//!
//! The entries of the row are taken [`LANES`] = 4 at a time: entry `lo +
//! 4m + k` of step `m` is multiplied (one rounding) and added (another:
//! no fused multiply-add, which would round once and differ) into partial
//! sum `s[k]`. The entries after the last whole step (at most 3) are
//! summed in order into `t`, from zero. The result is `t + ((s0 + s2) +
//! (s1 + s3))`: the halves added lane by lane, the order a vector of 4 or
//! 2 lanes folds in. The order depends on nothing but the row's length (not
//! on the CPU, the coordinate width or the path taken), so every path
//! agrees bit for bit, and a test can compare them with that definition
//! written out.
//!
//! Four sums, not eight (the compiler's dense partial sums,
//! `codegen/kernel/partial_sums.rs`, keep eight): sparse rows are short
//! (10–30 entries in the bench's matrices), and each row pays its partial
//! sums' fixed costs (the fold, the tail in order) once; with four the
//! fold is 3 additions and the tail at most 3 entries, while the
//! out-of-order core already overlaps the rows' chains with each other.
//! Measured in `BENCHMARKS.md` ("vectorized SpMV"): 8 sums cost 7.55
//! instructions per nonzero on rows of 20.
//!
//! # The paths
//!
//! - Rows of fewer than [`VECTOR_MIN`] entries, packed 2-bit coordinates,
//!   and machines without AVX2: a portable loop, two steps per turn, four
//!   sums in registers, inlined into the kernel (on x86-64 LLVM packs
//!   pairs of lanes into SSE2 vectors: 4 instructions per entry), `no_std`,
//!   which the tests also run under Miri.
//! - Longer rows on x86-64 with AVX2 (detected at run time with `std`,
//!   whose `is_x86_feature_detected!` caches the answer after the first
//!   call; without `std`, when the build enables `avx2`, e.g. `-C
//!   target-cpu=native`): the 4 inputs of a step loaded as scalars into
//!   one vector (the hardware gathers, `vgatherqpd`/`vgatherdps`, measured
//!   about 2x slower on AMD Zen 3), the products and sums in a vector of 4
//!   `f64` or 4 `f32` (3.5 instructions per entry). Being a call into code
//!   compiled for AVX2, it is not inlined: the call and the kernel's
//!   registers saved around it cost about 40 instructions, which rows of
//!   20 paid for (measured with the threshold at 16: 6.55 instructions per
//!   nonzero against 5.80 with the portable loop alone), hence the
//!   threshold.
//!
//! AVX-512 is not used: the order has 4 lanes, which AVX2 already holds,
//! and the machine the bench runs on (AMD Zen 3) has none to measure on.

use core::ops::{Add, Mul};

use crate::index::Index;

use super::unchecked::{load, load_index};

/// The number of partial sums.
pub const LANES: usize = 4;

/// The fewest entries a row needs to take the AVX2 path (a speed choice
/// only: every path gives the same bits).
// Read by the x86-64 dispatch only; other targets have the portable loop.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub const VECTOR_MIN: usize = 128;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The float types [`dot_gather`] sums: `f32` and `f64`.
pub trait GatherFloat: Copy + Add<Output = Self> + Mul<Output = Self> + sealed::Sealed {
    /// `+0.0`.
    const ZERO: Self;

    /// The partial sums of the whole steps of entries `lo..end`, from
    /// zero, lane `k` taking entry `lo + 4m + k` of step `m` (returned by
    /// value, so that the inlined portable loop keeps them in registers).
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
    ) -> [Self; LANES];
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
    ) -> [f64; LANES] {
        #[cfg(target_arch = "x86_64")]
        if I::PER_ELEMENT == 1 && end - lo >= VECTOR_MIN && avx2() {
            // SAFETY: AVX2 is available (just checked); the caller's
            // guarantees, passed on.
            return unsafe { avx2::steps_f64(crd, val, lo, end, x) };
        }
        // SAFETY: the caller's guarantees, passed on.
        unsafe { portable(crd, val, lo, end, x) }
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
    ) -> [f32; LANES] {
        #[cfg(target_arch = "x86_64")]
        if I::PER_ELEMENT == 1 && end - lo >= VECTOR_MIN && avx2() {
            // SAFETY: AVX2 is available (just checked); the caller's
            // guarantees, passed on.
            return unsafe { avx2::steps_f32(crd, val, lo, end, x) };
        }
        // SAFETY: the caller's guarantees, passed on.
        unsafe { portable(crd, val, lo, end, x) }
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
    let s = if end > lo {
        // SAFETY: `lo <= end <= hi` and `end - lo` is a multiple of
        // `LANES`; the caller's guarantees, passed on.
        unsafe { T::steps(crd, val, lo, end, x) }
    } else {
        [T::ZERO; LANES]
    };
    let mut t = T::ZERO;
    for p in end..hi {
        // SAFETY: `p < hi`, within `val` and the coordinates; `crd[p] <
        // x.len()` by the caller's guarantee.
        let (v, c) = unsafe { (load(val, p), load_index(crd, p)) };
        // SAFETY: as above.
        t = t + v * unsafe { load(x, c) };
    }
    t + ((s[0] + s[2]) + (s[1] + s[3]))
}

/// The whole steps one entry at a time, two steps per turn of the loop
/// (half the loop's own instructions per entry on rows of 8 or more),
/// into four partial sums kept in registers.
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
) -> [T; LANES] {
    let z = T::ZERO;
    let (mut s0, mut s1, mut s2, mut s3) = (z, z, z, z);
    // `val[p] * x[crd[p]]`.
    // SAFETY (of every call below): `p < end <= hi`, within `val` and the
    // coordinates; `crd[p] < x.len()` by the caller's guarantee.
    let term = |p: usize| unsafe { load(val, p) * load(x, load_index(crd, p)) };
    let mut p = lo;
    while end - p >= 2 * LANES {
        s0 = s0 + term(p);
        s1 = s1 + term(p + 1);
        s2 = s2 + term(p + 2);
        s3 = s3 + term(p + 3);
        s0 = s0 + term(p + 4);
        s1 = s1 + term(p + 5);
        s2 = s2 + term(p + 6);
        s3 = s3 + term(p + 7);
        p += 2 * LANES;
    }
    if p < end {
        s0 = s0 + term(p);
        s1 = s1 + term(p + 1);
        s2 = s2 + term(p + 2);
        s3 = s3 + term(p + 3);
    }
    [s0, s1, s2, s3]
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{load, load_index, Index, LANES};

    /// `x[c]` for the coordinates of entries `p..p + N`, as loaded
    /// scalars (4 scalar loads and inserts beat `vgatherqpd`/`vgatherdps`
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

    /// [`super::GatherFloat::steps`] for `f64`: one vector of four lanes.
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
    ) -> [f64; LANES] {
        let mut a = _mm256_setzero_pd();
        let mut p = lo;
        while p < end {
            // SAFETY: `p + 4 <= end`: four coordinates and values are in
            // range; every coordinate is below `x.len()`.
            unsafe {
                let g: [f64; LANES] = inputs(crd, p, x);
                let v = _mm256_loadu_pd(val.as_ptr().add(p));
                a = _mm256_add_pd(a, _mm256_mul_pd(v, _mm256_loadu_pd(g.as_ptr())));
            }
            p += LANES;
        }
        let mut s = [0.0; LANES];
        // SAFETY: `s` holds four `f64`.
        unsafe { _mm256_storeu_pd(s.as_mut_ptr(), a) };
        s
    }

    /// [`super::GatherFloat::steps`] for `f32`: one vector of four lanes
    /// (SSE width, AVX encoding).
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
    ) -> [f32; LANES] {
        let mut a = _mm_setzero_ps();
        let mut p = lo;
        while p < end {
            // SAFETY: `p + 4 <= end`: four coordinates and values are in
            // range; every coordinate is below `x.len()`.
            unsafe {
                let g: [f32; LANES] = inputs(crd, p, x);
                let v = _mm_loadu_ps(val.as_ptr().add(p));
                a = _mm_add_ps(a, _mm_mul_ps(v, _mm_loadu_ps(g.as_ptr())));
            }
            p += LANES;
        }
        let mut s = [0.0; LANES];
        // SAFETY: `s` holds four `f32`.
        unsafe { _mm_storeu_ps(s.as_mut_ptr(), a) };
        s
    }
}

#[cfg(test)]
mod tests;
