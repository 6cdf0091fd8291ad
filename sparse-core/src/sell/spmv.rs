//! One slice of the SELL SpMV: 8 rows in 8 lanes, each adding its row's
//! products in order, padding masked. AVX2 (detected at run time with
//! `std`, cached by `is_x86_feature_detected!`; at build time without)
//! loads the inputs into vectors and blends the sums where a lane's row has ended; a
//! portable loop does the same operations one lane at a time elsewhere,
//! so both give the same bits.

use core::ops::{Add, Mul};

use super::C;
use crate::kernel::unchecked::load;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The value types of a [`Sell`](super::Sell) matrix: `f32` and `f64`.
pub trait SellValue:
    Copy
    + Default
    + PartialEq
    + core::fmt::Debug
    + Add<Output = Self>
    + Mul<Output = Self>
    + sealed::Sealed
{
    /// `+0.0`.
    const ZERO: Self;

    /// Sums one slice into `acc` (overwritten): lane `r` is `sum over k <
    /// lens[r] of val[k * C + r] * x[crd[k * C + r]]`, in order from zero.
    ///
    /// # Safety
    ///
    /// `crd.len() == val.len()`, a multiple of [`C`]; every `lens[r] <=
    /// crd.len() / C`; every column in `crd` below `x.len()`.
    #[doc(hidden)]
    unsafe fn slice(crd: &[u32], val: &[Self], lens: &[u32; C], x: &[Self], acc: &mut [Self; C]);
}

/// Whether the AVX2 path may run, and the slice fits its signed 32-bit
/// columns and lengths.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2(width: usize, cols: usize) -> bool {
    #[cfg(feature = "std")]
    let has = std::is_x86_feature_detected!("avx2");
    #[cfg(not(feature = "std"))]
    let has = cfg!(target_feature = "avx2");
    has && width <= i32::MAX as usize && cols <= 1 << 31
}

macro_rules! sell_value {
    ($t:ty, $simd:ident) => {
        impl SellValue for $t {
            const ZERO: Self = 0.0;

            #[inline]
            unsafe fn slice(crd: &[u32], val: &[$t], lens: &[u32; C], x: &[$t], acc: &mut [$t; C]) {
                #[cfg(target_arch = "x86_64")]
                if avx2(crd.len() / C, x.len()) {
                    // SAFETY: AVX2 is available and the columns and lengths
                    // fit `i32` (just checked); the caller's guarantees.
                    unsafe { avx2::$simd(crd, val, lens, x, acc) };
                    return;
                }
                // SAFETY: the caller's guarantees, passed on.
                unsafe { portable(crd, val, lens, x, acc) }
            }
        }
    };
}
sell_value!(f32, slice_f32);
sell_value!(f64, slice_f64);

/// One lane at a time.
///
/// # Safety
///
/// As [`SellValue::slice`].
#[inline(always)]
unsafe fn portable<T: SellValue>(
    crd: &[u32],
    val: &[T],
    lens: &[u32; C],
    x: &[T],
    acc: &mut [T; C],
) {
    for (r, (sum, &len)) in acc.iter_mut().zip(lens).enumerate() {
        let mut s = T::ZERO;
        for k in 0..len as usize {
            let q = k * C + r;
            // SAFETY: `k < lens[r] <= crd.len() / C`, so `q < crd.len() =
            // val.len()`; the column is below `x.len()`.
            s = s + unsafe { load(val, q) * load(x, load(crd, q) as usize) };
        }
        *sum = s;
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{load, C};

    /// `x[crd[q + k]]` for the 8 lanes, as loaded scalars (8 scalar loads
    /// and inserts beat `vgatherdpd`/`vgatherdps` on AMD Zen 3, bench/desktop
    /// `spmv-simd`).
    ///
    /// # Safety
    ///
    /// `q + 8 <= crd.len()`, each of those columns below `x.len()`.
    #[inline(always)]
    unsafe fn inputs<T: Copy, const N: usize>(crd: &[u32], q: usize, x: &[T]) -> [T; N] {
        // SAFETY: the caller's guarantees.
        core::array::from_fn(|k| unsafe { load(x, load(crd, q + k) as usize) })
    }

    /// The lanes' lengths, their minimum, and the slice's width.
    #[inline(always)]
    fn shape(crd: &[u32], lens: &[u32; C]) -> (usize, usize) {
        let min = lens.iter().copied().min().unwrap_or(0) as usize;
        (min, crd.len() / C)
    }

    /// [`super::SellValue::slice`] for `f64`: two vectors of 4 lanes.
    ///
    /// # Safety
    ///
    /// AVX2; the columns below `x.len() <= 2^31`, the lengths at most
    /// `i32::MAX`; [`super::SellValue::slice`]'s guarantees.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn slice_f64(
        crd: &[u32],
        val: &[f64],
        lens: &[u32; C],
        x: &[f64],
        acc: &mut [f64; C],
    ) {
        let (min, width) = shape(crd, lens);
        let (mut a, mut b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        // SAFETY: `lens` holds 8 `u32`, each at most `i32::MAX`.
        let lv = unsafe { _mm256_loadu_si256(lens.as_ptr().cast()) };
        // The products of step `k`, both halves.
        let step = |k: usize| {
            // SAFETY: `k < width`: slots `k * C..k * C + 8` are in `crd`
            // and `val`; each column (0 in padding) below `x.len()`,
            // one load each.
            unsafe {
                let q = k * C;
                let g: [f64; C] = inputs(crd, q, x);
                let xa = _mm256_loadu_pd(g.as_ptr());
                let xb = _mm256_loadu_pd(g.as_ptr().add(4));
                (
                    _mm256_mul_pd(_mm256_loadu_pd(val.as_ptr().add(q)), xa),
                    _mm256_mul_pd(_mm256_loadu_pd(val.as_ptr().add(q + 4)), xb),
                )
            }
        };
        // Two loops rather than a test per step: every lane is live
        // below the shortest row's length, so those steps need no mask.
        for k in 0..min.min(width) {
            let (pa, pb) = step(k);
            (a, b) = (_mm256_add_pd(a, pa), _mm256_add_pd(b, pb));
        }
        for k in min.min(width)..width {
            let (pa, pb) = step(k);
            let (sa, sb) = (_mm256_add_pd(a, pa), _mm256_add_pd(b, pb));
            // Lanes whose row is longer than `k` take the sum; the
            // others keep theirs (a padded slot adds nothing).
            let live = _mm256_cmpgt_epi32(lv, _mm256_set1_epi32(k as i32));
            let ma = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(live)));
            let mb =
                _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(live)));
            a = _mm256_blendv_pd(a, sa, ma);
            b = _mm256_blendv_pd(b, sb, mb);
        }
        // SAFETY: `acc` holds 8 `f64`, four per store.
        unsafe {
            _mm256_storeu_pd(acc.as_mut_ptr(), a);
            _mm256_storeu_pd(acc.as_mut_ptr().add(4), b);
        }
    }

    /// [`super::SellValue::slice`] for `f32`: one vector of 8 lanes.
    ///
    /// # Safety
    ///
    /// As [`slice_f64`].
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn slice_f32(
        crd: &[u32],
        val: &[f32],
        lens: &[u32; C],
        x: &[f32],
        acc: &mut [f32; C],
    ) {
        let (min, width) = shape(crd, lens);
        let mut a = _mm256_setzero_ps();
        // SAFETY: `lens` holds 8 `u32`, each at most `i32::MAX`.
        let lv = unsafe { _mm256_loadu_si256(lens.as_ptr().cast()) };
        let step = |k: usize| {
            // SAFETY: as in `slice_f64`.
            unsafe {
                let q = k * C;
                let g: [f32; C] = inputs(crd, q, x);
                _mm256_mul_ps(
                    _mm256_loadu_ps(val.as_ptr().add(q)),
                    _mm256_loadu_ps(g.as_ptr()),
                )
            }
        };
        // As in `slice_f64`: no mask below the shortest row's length.
        for k in 0..min.min(width) {
            a = _mm256_add_ps(a, step(k));
        }
        for k in min.min(width)..width {
            let s = _mm256_add_ps(a, step(k));
            let live = _mm256_cmpgt_epi32(lv, _mm256_set1_epi32(k as i32));
            a = _mm256_blendv_ps(a, s, _mm256_castsi256_ps(live));
        }
        // SAFETY: `acc` holds 8 `f32`.
        unsafe { _mm256_storeu_ps(acc.as_mut_ptr(), a) };
    }
}

/// The portable path, for the tests to compare with the dispatched one.
///
/// # Safety
///
/// As [`SellValue::slice`].
#[cfg(test)]
pub(super) unsafe fn portable_for_tests<T: SellValue>(
    crd: &[u32],
    val: &[T],
    lens: &[u32; C],
    x: &[T],
    acc: &mut [T; C],
) {
    // SAFETY: the caller's guarantees, passed on.
    unsafe { portable(crd, val, lens, x, acc) }
}
