//! The AVX-512 path of [`dot_gather`](super::dot_gather): each step's 8
//! inputs by one hardware gather, its offsets loaded as a vector from the
//! coordinates (widened from 8 or 16 bits), the last step masked: its
//! missing lanes load nothing and add nothing. `f64` in one 512-bit
//! vector, `f32` in one 256-bit vector (AVX-512 VL for the masks).
//!
//! Plain `#[inline(always)]` functions, not `#[target_feature]` ones:
//! they inline into the kernel's AVX-512 copy (`kernel/isa.rs`), which is
//! compiled with the features, and their intrinsics with them. (A
//! `#[target_feature]` function is inlined only at LLVM's discretion, and
//! was not, which cost a call per row.)

// Compiled only where the build script found the compiler builds AVX-512
// (`cfg(sk_avx512)`, Rust 1.89 on), whatever the crate's `rust-version`.
#![allow(clippy::incompatible_msrv)]

use core::arch::x86_64::*;

use super::avx2::{fold_f32, fold_f64x4};
use super::{Index, LANES};

/// Whether coordinates of `width` bytes, below `len`, fit the gathers'
/// offsets: 32-bit signed offsets for 8-, 16- and 32-bit coordinates.
#[inline(always)]
pub(super) fn fits(width: usize, len: usize) -> bool {
    width == 8 || len <= 1 << 31
}

/// The mask of the first `n` lanes (`n <= 8`).
#[inline(always)]
fn first(n: usize) -> __mmask8 {
    ((1u32 << n) - 1) as __mmask8
}

/// The offsets of entries `p..p + 8` (the lanes of `m`, the rest 0), as
/// 32-bit lanes, for coordinates of 1, 2 or 4 bytes.
///
/// # Safety
///
/// AVX-512 F/VL/BW; the lanes of `m` are entries of `crd` (unpacked).
#[inline(always)]
unsafe fn offsets32<I: Index>(crd: &[I], p: usize, m: __mmask8) -> __m256i {
    let at = crd.as_ptr().wrapping_add(p);
    // SAFETY: the masked loads touch the lanes of `m` only, entries of
    // `crd` (the caller's guarantee).
    unsafe {
        match core::mem::size_of::<I>() {
            1 => _mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m.into(), at.cast())),
            2 => _mm256_cvtepu16_epi32(_mm_maskz_loadu_epi16(m, at.cast())),
            _ => _mm256_maskz_loadu_epi32(m, at.cast()),
        }
    }
}

/// `Some(c)` when entries `p..p + 8` have the consecutive columns `c..c +
/// 8` (a band, a dense block), whose inputs one vector load reads; `None`
/// otherwise. One vector comparison of the coordinates, so a gather is
/// left only where the columns really are scattered.
///
/// # Safety
///
/// AVX-512 F/VL/BW; entries `p..p + 8` are entries of `crd` (unpacked).
#[inline(always)]
unsafe fn run_start<I: Index>(crd: &[I], p: usize) -> Option<usize> {
    // SAFETY: the caller's guarantees.
    unsafe {
        let c = crd.as_ptr().add(p);
        let c0 = (*c).as_usize();
        let run = if core::mem::size_of::<I>() == 8 {
            let o = _mm512_loadu_si512(c.cast());
            let want = _mm512_add_epi64(
                _mm512_set1_epi64(c0 as i64),
                _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
            );
            _mm512_cmpeq_epi64_mask(o, want)
        } else {
            let o = offsets32(crd, p, 0xff);
            let want = _mm256_add_epi32(
                _mm256_set1_epi32(c0 as i32),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            _mm256_cmpeq_epi32_mask(o, want)
        };
        (run == 0xff).then_some(c0)
    }
}

/// With `increasing` coordinates, `Some(c)` when the row `lo..hi` (not
/// empty) reads the columns `c..c + n`: its last column is its first plus
/// `n - 1`, which for strictly increasing columns means every one between.
/// `None` otherwise, and always without `increasing`.
///
/// # Safety
///
/// Entries `lo..hi` are entries of `crd` (unpacked).
#[inline(always)]
unsafe fn row_run<I: Index>(increasing: bool, crd: &[I], lo: usize, hi: usize) -> Option<usize> {
    if !increasing || hi <= lo {
        return None;
    }
    // SAFETY: `lo < hi`, both entries of the row.
    let (c0, c1) = unsafe {
        (
            (*crd.as_ptr().add(lo)).as_usize(),
            (*crd.as_ptr().add(hi - 1)).as_usize(),
        )
    };
    (c1.wrapping_sub(c0) == hi - lo - 1).then_some(c0)
}

/// [`dot_gather`](super::dot_gather) for `f64`.
///
/// # Safety
///
/// AVX-512 F/VL/BW/DQ/CD, AVX2 and FMA; unpacked coordinates that fit the
/// offsets ([`fits`]); `dot_gather`'s guarantees.
#[inline(always)]
pub(super) unsafe fn dot_f64<I: Index>(
    increasing: bool,
    crd: &[I],
    val: &[f64],
    lo: usize,
    hi: usize,
    x: &[f64],
) -> f64 {
    let mut acc = _mm512_setzero_pd();
    let mut p = lo;
    // SAFETY: entries `lo..hi` are the row's (the caller's guarantees).
    if let Some(c) = unsafe { row_run(increasing, crd, lo, hi) } {
        // The whole row reads `x[c..c + n]`: loads, the last one masked
        // (the same inputs as the gathers, so the same bits).
        let xs = x.as_ptr().wrapping_add(c).wrapping_sub(lo);
        while p < hi {
            let m = first((hi - p).min(LANES));
            // SAFETY: the lanes of `m` are entries `p..hi` of the row,
            // whose inputs `x[c + (p - lo)..]` are below `c + n <=
            // x.len()`; masked lanes load nothing.
            acc = unsafe { add_run_f64(acc, xs.wrapping_add(p), val, p, m) };
            p += LANES;
        }
    } else {
        while hi - p >= LANES {
            // SAFETY: the lanes are entries `p..p + 8 <= hi`; the
            // caller's guarantees (a run's 8 inputs end at its last
            // column, below `x.len()`).
            acc = unsafe {
                // Eight consecutive columns somewhere in a row not known to
                // increase: one load instead of a gather. (An increasing
                // row was tested whole, above.)
                match if increasing { None } else { run_start(crd, p) } {
                    Some(c) => add_run_f64(acc, x.as_ptr().add(c), val, p, 0xff),
                    None => add_f64(acc, crd, val, p, 0xff, x),
                }
            };
            p += LANES;
        }
        if p < hi {
            // SAFETY: the lanes are entries `p..hi`; the caller's
            // guarantees.
            acc = unsafe { add_f64(acc, crd, val, p, first(hi - p), x) };
        }
    }
    // SAFETY: AVX-512 F and AVX2 (this function's contract). 8 lanes into
    // 4 (`s[k] + s[k + 4]`), then 4 into 1.
    unsafe {
        let t = _mm256_add_pd(
            _mm512_castpd512_pd256(acc),
            _mm512_extractf64x4_pd::<1>(acc),
        );
        fold_f64x4(t)
    }
}

/// `acc` plus the products of the lanes of `m` of step `p` whose inputs
/// are consecutive, from `xs` (a run of columns: loaded, not gathered);
/// the other lanes load nothing and keep their sums.
///
/// # Safety
///
/// As [`dot_f64`]; the lanes of `m` are entries of the row, whose inputs
/// are `xs[0..8]`'s lanes of `m`, within `x`.
#[inline(always)]
unsafe fn add_run_f64(acc: __m512d, xs: *const f64, val: &[f64], p: usize, m: __mmask8) -> __m512d {
    // SAFETY: the caller's guarantees; masked lanes load nothing.
    unsafe {
        let g = _mm512_maskz_loadu_pd(m, xs);
        let v = _mm512_maskz_loadu_pd(m, val.as_ptr().add(p));
        _mm512_mask_add_pd(acc, m, acc, _mm512_mul_pd(v, g))
    }
}

/// `acc` plus the products of the lanes of `m` of step `p`; the other
/// lanes load nothing and keep their sums.
///
/// # Safety
///
/// As [`dot_f64`]; the lanes of `m` are entries of the row.
#[inline(always)]
unsafe fn add_f64<I: Index>(
    acc: __m512d,
    crd: &[I],
    val: &[f64],
    p: usize,
    m: __mmask8,
    x: &[f64],
) -> __m512d {
    // SAFETY: the lanes of `m` are entries of the row: within the
    // coordinates and `val`, each coordinate below `x.len()` (the caller's
    // guarantees); the masked loads and gathers touch those lanes only.
    unsafe {
        let g = if core::mem::size_of::<I>() == 8 {
            let o = _mm512_maskz_loadu_epi64(m, crd.as_ptr().wrapping_add(p).cast());
            _mm512_mask_i64gather_pd::<8>(_mm512_setzero_pd(), m, o, x.as_ptr().cast())
        } else {
            let o = offsets32(crd, p, m);
            _mm512_mask_i32gather_pd::<8>(_mm512_setzero_pd(), m, o, x.as_ptr().cast())
        };
        let v = _mm512_maskz_loadu_pd(m, val.as_ptr().add(p));
        _mm512_mask_add_pd(acc, m, acc, _mm512_mul_pd(v, g))
    }
}

/// [`dot_gather`](super::dot_gather) for `f32`.
///
/// # Safety
///
/// As [`dot_f64`].
#[inline(always)]
pub(super) unsafe fn dot_f32<I: Index>(
    increasing: bool,
    crd: &[I],
    val: &[f32],
    lo: usize,
    hi: usize,
    x: &[f32],
) -> f32 {
    let mut acc = _mm256_setzero_ps();
    let mut p = lo;
    // SAFETY: as in `dot_f64`.
    if let Some(c) = unsafe { row_run(increasing, crd, lo, hi) } {
        // The whole row reads `x[c..c + n]`: loads, the last one masked
        // (the same inputs as the gathers, so the same bits).
        let xs = x.as_ptr().wrapping_add(c).wrapping_sub(lo);
        while p < hi {
            let m = first((hi - p).min(LANES));
            // SAFETY: as in `dot_f64`.
            acc = unsafe { add_run_f32(acc, xs.wrapping_add(p), val, p, m) };
            p += LANES;
        }
    } else {
        while hi - p >= LANES {
            // SAFETY: as in `dot_f64`.
            acc = unsafe {
                // Eight consecutive columns somewhere in a row not known to
                // increase: one load instead of a gather. (An increasing
                // row was tested whole, above.)
                match if increasing { None } else { run_start(crd, p) } {
                    Some(c) => add_run_f32(acc, x.as_ptr().add(c), val, p, 0xff),
                    None => add_f32(acc, crd, val, p, 0xff, x),
                }
            };
            p += LANES;
        }
        if p < hi {
            // SAFETY: as in `dot_f64`.
            acc = unsafe { add_f32(acc, crd, val, p, first(hi - p), x) };
        }
    }
    // SAFETY: AVX2 (this function's contract).
    unsafe { fold_f32(acc) }
}

/// [`add_run_f64`] for `f32`.
///
/// # Safety
///
/// As [`add_run_f64`].
#[inline(always)]
unsafe fn add_run_f32(acc: __m256, xs: *const f32, val: &[f32], p: usize, m: __mmask8) -> __m256 {
    // SAFETY: the caller's guarantees; masked lanes load nothing.
    unsafe {
        let g = _mm256_maskz_loadu_ps(m, xs);
        let v = _mm256_maskz_loadu_ps(m, val.as_ptr().add(p));
        _mm256_mask_add_ps(acc, m, acc, _mm256_mul_ps(v, g))
    }
}

/// As [`add_f64`], for `f32`.
///
/// # Safety
///
/// As [`add_f64`].
#[inline(always)]
unsafe fn add_f32<I: Index>(
    acc: __m256,
    crd: &[I],
    val: &[f32],
    p: usize,
    m: __mmask8,
    x: &[f32],
) -> __m256 {
    // SAFETY: as in `add_f64`.
    unsafe {
        let g = if core::mem::size_of::<I>() == 8 {
            let o = _mm512_maskz_loadu_epi64(m, crd.as_ptr().wrapping_add(p).cast());
            _mm512_mask_i64gather_ps::<4>(_mm256_setzero_ps(), m, o, x.as_ptr().cast())
        } else {
            let o = offsets32(crd, p, m);
            _mm256_mmask_i32gather_ps::<4>(_mm256_setzero_ps(), m, o, x.as_ptr().cast())
        };
        let v = _mm256_maskz_loadu_ps(m, val.as_ptr().add(p));
        _mm256_mask_add_ps(acc, m, acc, _mm256_mul_ps(v, g))
    }
}
