//! The AVX2 path of the SELL slice: the 8 inputs of a step loaded as
//! scalars into vectors (8 scalar loads and inserts beat
//! `vgatherdpd`/`vgatherdps` on AMD Zen 3, bench/desktop `spmv-simd`), the
//! sums blended where a lane's row has ended. Plain `#[inline(always)]`
//! functions: they inline into the SpMV's AVX2 copy (`kernel/isa.rs`),
//! compiled with the features.

use core::arch::x86_64::*;

use super::spmv::SliceKind;
use super::C;
use crate::kernel::unchecked::load;

/// `x[crd[q + k]]` for the 8 lanes, as loaded scalars.
///
/// # Safety
///
/// `q + 8 <= crd.len()`, each of those columns below `x.len()`.
#[inline(always)]
unsafe fn inputs<T: Copy, const N: usize>(crd: &[u32], q: usize, x: &[T]) -> [T; N] {
    // SAFETY: the caller's guarantees.
    core::array::from_fn(|k| unsafe { load(x, load(crd, q + k) as usize) })
}

/// The products of step `k`, both halves; in a band or diagonals the
/// step's 8 columns are consecutive (from [`SliceKind::column`] of lane
/// 0), its inputs one vector load.
/// (A function, not a closure: a closure is not compiled with the copy's
/// features unless inlined.)
///
/// # Safety
///
/// AVX2; `k < width`: slots `k * C..k * C + 8` are in `val`; gathered:
/// they are in `crd` too, each column below `x.len()`; a band: `k <
/// crd.len()`, `crd[k] + 8 <= x.len()`; diagonals: `crd[0] + k + 8 <=
/// x.len()`.
#[inline(always)]
unsafe fn step_f64(
    kind: SliceKind,
    crd: &[u32],
    val: &[f64],
    k: usize,
    x: &[f64],
) -> (__m256d, __m256d) {
    // SAFETY: the caller's guarantees.
    unsafe {
        let q = k * C;
        let (xa, xb) = if kind != SliceKind::Gather {
            let p = x.as_ptr().add(kind.column(crd, k, 0));
            (_mm256_loadu_pd(p), _mm256_loadu_pd(p.add(4)))
        } else {
            let g: [f64; C] = inputs(crd, q, x);
            (
                _mm256_loadu_pd(g.as_ptr()),
                _mm256_loadu_pd(g.as_ptr().add(4)),
            )
        };
        (
            _mm256_mul_pd(_mm256_loadu_pd(val.as_ptr().add(q)), xa),
            _mm256_mul_pd(_mm256_loadu_pd(val.as_ptr().add(q + 4)), xb),
        )
    }
}

/// [`step_f64`] for `f32`: one vector.
///
/// # Safety
///
/// As [`step_f64`].
#[inline(always)]
unsafe fn step_f32(kind: SliceKind, crd: &[u32], val: &[f32], k: usize, x: &[f32]) -> __m256 {
    // SAFETY: the caller's guarantees.
    unsafe {
        let q = k * C;
        let xv = if kind != SliceKind::Gather {
            _mm256_loadu_ps(x.as_ptr().add(kind.column(crd, k, 0)))
        } else {
            let g: [f32; C] = inputs(crd, q, x);
            _mm256_loadu_ps(g.as_ptr())
        };
        _mm256_mul_ps(_mm256_loadu_ps(val.as_ptr().add(q)), xv)
    }
}

/// [`SellValue::slice`](super::SellValue::slice) for `f64`: two vectors
/// of 4 lanes.
///
/// # Safety
///
/// AVX2; the columns below `x.len() <= 2^31`, the lengths at most
/// `i32::MAX`; `SellValue::slice`'s guarantees.
#[inline(always)]
pub(super) unsafe fn slice_f64(
    kind: SliceKind,
    min: usize,
    crd: &[u32],
    val: &[f64],
    lens: &[u32; C],
    x: &[f64],
    acc: &mut [f64; C],
) {
    let width = val.len() / C;
    // SAFETY (of the whole body): AVX2 (the contract); `k < width`: slots
    // `k * C..k * C + 8` are in `val`, and in `crd` when gathered; a
    // band's column `k` is in `crd` with `crd[k] + 8 <= x.len()`,
    // diagonals' `crd[0]` with `crd[0] + k + 8 <= x.len()` (the lengths of
    // both all equal `width`, so `min == width` and the masked loop,
    // which reads per-slot columns, does not run); each column (0 in
    // padding) below `x.len()`; `lens` and `acc` hold 8 elements.
    unsafe {
        let (mut a, mut b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        let lv = _mm256_loadu_si256(lens.as_ptr().cast());
        // Two loops rather than a test per step: every lane is live
        // below the shortest row's length, so those steps need no mask.
        // One loop per kind of slice (`SliceKind::dispatch`).
        (a, b) = kind.dispatch(
            #[inline(always)]
            |kind| {
                for k in 0..min {
                    let (pa, pb) = step_f64(kind, crd, val, k, x);
                    (a, b) = (_mm256_add_pd(a, pa), _mm256_add_pd(b, pb));
                }
                (a, b)
            },
        );
        for k in min..width {
            let (pa, pb) = step_f64(SliceKind::Gather, crd, val, k, x);
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
        _mm256_storeu_pd(acc.as_mut_ptr(), a);
        _mm256_storeu_pd(acc.as_mut_ptr().add(4), b);
    }
}

/// [`SellValue::slice`](super::SellValue::slice) for `f32`: one vector of
/// 8 lanes.
///
/// # Safety
///
/// As [`slice_f64`].
#[inline(always)]
pub(super) unsafe fn slice_f32(
    kind: SliceKind,
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
        // As in `slice_f64`: no mask below the shortest row's length.
        a = kind.dispatch(
            #[inline(always)]
            |kind| {
                for k in 0..min {
                    a = _mm256_add_ps(a, step_f32(kind, crd, val, k, x));
                }
                a
            },
        );
        for k in min..width {
            let s = _mm256_add_ps(a, step_f32(SliceKind::Gather, crd, val, k, x));
            let live = _mm256_cmpgt_epi32(lv, _mm256_set1_epi32(k as i32));
            a = _mm256_blendv_ps(a, s, _mm256_castsi256_ps(live));
        }
        _mm256_storeu_ps(acc.as_mut_ptr(), a);
    }
}
