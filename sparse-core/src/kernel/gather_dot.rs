//! The float dot product of one compressed row with a dense vector,
//! gathered and reassociated: `sum over p in lo..hi of val[p] * x[crd[p]]`
//! in [`LANES`] partial sums, the innermost walk of an SpMV-like kernel
//! written under `#[reassociate]`, which the schedule hands to this
//! routine whole (`schedule/gather_dot.rs` in the compiler).
//!
//! # The order of the sums (the same bits on every path)
//!
//! Entry `lo + 8m + k` of the row is multiplied (one rounding) and added
//! (another: no fused multiply-add, which would round once and differ)
//! into partial sum `s[k]`, for `k` in `0..8`, in increasing `m`; every
//! `s[k]` starts at `+0.0`, and the last step may be partial (its missing
//! lanes add nothing). The result is
//! `((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7))`: the halves added
//! lane by lane, the order a vector of 8 lanes folds in (8 lanes into 4,
//! 4 into 2, 2 into 1). The order depends
//! on nothing but the row's length (not on the CPU, the coordinate width
//! or the path taken), so every path agrees bit for bit, and a test can
//! compare them with that definition written out.
//!
//! Eight lanes: one AVX-512 vector of `f64` (or an AVX2 vector of `f32`),
//! so a row of up to 8 entries is one masked step with no branch on its
//! length, and the 8 independent chains hide the additions' latency on
//! long rows. (An earlier order, 4 lanes and the rest of the row summed in
//! order apart, cost a scalar loop per row.)
//!
//! # The paths
//!
//! Chosen by the [`VectorIsa`] of the running copy of the kernel (the
//! kernel is compiled once per extension: `kernel/isa.rs`), so each path
//! inlines into its copy and costs no call:
//!
//! - AVX-512 (`f32` and `f64`, unpacked coordinates, `x` of at most 2^31
//!   elements for 32-bit and narrower coordinates): hardware gathers of 8
//!   inputs (`vgatherdpd`/`vgatherqpd`/`vgatherdps`/`vgatherqps`), the last
//!   step masked (`gather_dot/avx512.rs`); 8 consecutive columns are one
//!   vector load, found per step, or, for a row whose coordinates strictly
//!   increase ([`dot_gather_increasing`]), once per row.
//! - AVX2: the 8 inputs of a step loaded as scalars into vectors (the
//!   hardware gathers measured about 2x slower on AMD Zen 3), the products
//!   and sums in two vectors of 4 `f64` or one of 8 `f32`, the last step
//!   with its missing lanes zero (`gather_dot/avx2.rs`).
//! - Otherwise (other architectures, packed 2-bit coordinates, machines
//!   without AVX2, `no_std` builds that enable none): a portable loop, 8
//!   sums in registers, which the tests also run under Miri.

use core::ops::{Add, Mul};

use crate::index::Index;

use super::isa::VectorIsa;
use super::unchecked::{load, load_index};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", sk_avx512))]
mod avx512;

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

    /// [`dot_gather`] for this type.
    ///
    /// # Safety
    ///
    /// As [`dot_gather`].
    #[doc(hidden)]
    unsafe fn dot<I: Index>(
        isa: VectorIsa,
        increasing: bool,
        crd: &[I],
        val: &[Self],
        lo: usize,
        hi: usize,
        x: &[Self],
    ) -> Self;
}

macro_rules! gather_float {
    ($t:ty, $dot:ident) => {
        impl GatherFloat for $t {
            const ZERO: Self = 0.0;

            #[inline(always)]
            unsafe fn dot<I: Index>(
                isa: VectorIsa,
                increasing: bool,
                crd: &[I],
                val: &[$t],
                lo: usize,
                hi: usize,
                x: &[$t],
            ) -> $t {
                #[cfg(target_arch = "x86_64")]
                if I::PER_ELEMENT == 1 {
                    #[cfg(sk_avx512)]
                    if isa.avx512() && avx512::fits(core::mem::size_of::<I>(), x.len()) {
                        // SAFETY: the machine has AVX-512 (only
                        // `with_vector_isa` makes a token that says so, after
                        // detecting it; in the copy compiled for it the
                        // intrinsics inline), the coordinates fit the
                        // gathers' offsets (just checked); the caller's
                        // guarantees, passed on.
                        return unsafe { avx512::$dot(increasing, crd, val, lo, hi, x) };
                    }
                    if isa.avx2() {
                        // SAFETY: the machine has AVX2 (the token says so);
                        // the caller's guarantees, passed on.
                        return unsafe { avx2::$dot(crd, val, lo, hi, x) };
                    }
                }
                let _ = (isa, increasing);
                // SAFETY: the caller's guarantees, passed on.
                unsafe { portable(crd, val, lo, hi, x) }
            }
        }
    };
}
gather_float!(f64, dot_f64);
gather_float!(f32, dot_f32);

/// `sum(val[p] * x[crd[p]])` over `p` in `lo..hi`, in the partial-sum
/// order of the module's documentation (the same bits on every path),
/// on the path `isa` allows.
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
    isa: VectorIsa,
    crd: &[I],
    val: &[T],
    lo: usize,
    hi: usize,
    x: &[T],
) -> T {
    debug_assert!(lo <= hi && hi <= val.len());
    // SAFETY: the caller's guarantees, passed on.
    unsafe { T::dot(isa, false, crd, val, lo, hi, x) }
}

/// [`dot_gather`] of a row whose coordinates strictly increase (an
/// ordered, unique level), the same bits: the AVX-512 path tests once per
/// row whether its columns are one run `c..c + n` (its last column is
/// its first plus `n - 1`), which it then reads with vector loads, and
/// otherwise gathers every step with no test per step.
///
/// # Safety
///
/// As [`dot_gather`], and `crd[lo..hi]` strictly increases.
#[inline(always)]
pub unsafe fn dot_gather_increasing<T: GatherFloat, I: Index>(
    isa: VectorIsa,
    crd: &[I],
    val: &[T],
    lo: usize,
    hi: usize,
    x: &[T],
) -> T {
    debug_assert!(lo <= hi && hi <= val.len());
    // SAFETY: the caller's guarantees, passed on.
    unsafe { T::dot(isa, true, crd, val, lo, hi, x) }
}

/// The fold of the module's documentation: 8 lanes into 4, 4 into 2, 2
/// into 1.
#[inline(always)]
fn fold<T: GatherFloat>(s: [T; LANES]) -> T {
    ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
}

/// One entry at a time into 8 partial sums kept in registers (the lanes
/// indexed by constants only, after unrolling).
///
/// # Safety
///
/// As [`dot_gather`].
#[inline(always)]
unsafe fn portable<T: GatherFloat, I: Index>(
    crd: &[I],
    val: &[T],
    lo: usize,
    hi: usize,
    x: &[T],
) -> T {
    let mut s = [T::ZERO; LANES];
    // `val[p] * x[crd[p]]`.
    // SAFETY (of every call below): `p < hi`, within `val` and the
    // coordinates; `crd[p] < x.len()` by the caller's guarantee.
    let term = |p: usize| unsafe { load(val, p) * load(x, load_index(crd, p)) };
    let mut p = lo;
    while hi - p >= LANES {
        for (k, sk) in s.iter_mut().enumerate() {
            *sk = *sk + term(p + k);
        }
        p += LANES;
    }
    let rest = hi - p;
    for (k, sk) in s.iter_mut().enumerate() {
        if k < rest {
            *sk = *sk + term(p + k);
        }
    }
    fold(s)
}

#[cfg(test)]
mod tests;
