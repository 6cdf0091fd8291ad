//! The int8 dot product of one compressed row with a dense vector,
//! gathered: `sum over p in lo..hi of val[p] * (x[crd[p]] + off)` in `i32`
//! with wrapping arithmetic, the innermost walk of an int8 layer
//! (`acc[i] = w[i, j] as i32 * (x[j] as i32 + off)`), which the schedule
//! hands to this routine whole (`schedule/dual_mac.rs` in the compiler).
//!
//! With the DSP extension (`cfg(sk_dsp)`, which `build.rs` sets on
//! Armv7E-M, Cortex-M4/M7, and on Armv8-M Mainline when the build turns
//! the extension on, e.g. `-C target-cpu=cortex-m33`) four entries take
//! one word load of their weights, two `SXTB16` (the weights as two pairs
//! of 16-bit lanes), two `PKHBT` and two `SADD16` (the gathered inputs
//! plus the offset, paired the same way) and two `SMLAD` (two
//! multiply-accumulates each), as CMSIS-NN's `arm_nn_vec_mat_mult_t_s8`
//! does for dense rows. The intrinsics of `core::arch::arm` for these are
//! unstable, so they are `asm!`. Elsewhere (Cortex-M0/M3, an M33 without
//! the extension, the desktop) a plain loop computes the same sum.
//!
//! Both give the same bits: every product is exact in 32 bits (|w| <= 128,
//! |x + off| < 2^15 in the lanes) and `i32` addition wrapping modulo 2^32
//! is associative, so the order of the sums does not matter. An offset
//! whose lanes would not hold `x + off` takes the plain loop.

use crate::index::Index;

use super::unchecked::{load, load_index};

/// `sum(val[p] as i32 * (x[crd[p]] as i32 + off))` over `p` in `lo..hi`,
/// wrapping.
///
/// # Safety
///
/// `lo <= hi <= crd.len()`, `hi <= val.len()`, and `crd[p] < x.len()` for
/// every `p` in `lo..hi`: the entries of a validated tensor's last
/// compressed level under one parent entry, whose coordinates are below
/// the dimension size the kernel's prologue checked `x` against.
#[inline(always)]
pub unsafe fn dot_s8<I: Index>(
    crd: &[I],
    val: &[i8],
    lo: usize,
    hi: usize,
    x: &[i8],
    off: i32,
) -> i32 {
    debug_assert!(lo <= hi && hi <= crd.len() && hi <= val.len());
    #[cfg(sk_dsp)]
    {
        if (-32640..=32640).contains(&off) && I::PER_ELEMENT == 1 {
            // SAFETY: the caller's guarantees, passed on.
            return unsafe { dsp::dot_s8(crd, val, lo, hi, x, off) };
        }
    }
    // SAFETY: the caller's guarantees, passed on.
    unsafe { plain(crd, val, lo, hi, x, off, 0) }
}

/// The plain loop, from accumulator `acc`.
///
/// # Safety
///
/// As [`dot_s8`].
#[inline(always)]
unsafe fn plain<I: Index>(
    crd: &[I],
    val: &[i8],
    lo: usize,
    hi: usize,
    x: &[i8],
    off: i32,
    mut acc: i32,
) -> i32 {
    for p in lo..hi {
        // SAFETY: `p < hi <= crd.len()` and `hi <= val.len()`; `crd[p] <
        // x.len()` by the caller's guarantee.
        let (w, v) = unsafe { (load(val, p), load(x, load_index(crd, p))) };
        acc = acc.wrapping_add(i32::from(w).wrapping_mul(i32::from(v).wrapping_add(off)));
    }
    acc
}

#[cfg(sk_dsp)]
mod dsp {
    use super::super::dsp::{pack, sadd16, smlad, sxtb16, sxtb16_ror8};
    use super::{load, plain, Index};

    /// Four entries per step, then the rest one by one.
    ///
    /// # Safety
    ///
    /// As [`super::dot_s8`], with `-32640 <= off <= 32640`.
    #[inline(always)]
    pub(super) unsafe fn dot_s8<I: Index>(
        crd: &[I],
        val: &[i8],
        lo: usize,
        hi: usize,
        x: &[i8],
        off: i32,
    ) -> i32 {
        let offsets = pack(off as u32, off as u32);
        let mut acc = 0i32;
        // Pointers, not positions: the coordinates at immediate offsets
        // from one register, the weights' word after them.
        let steps = (hi - lo) / 4;
        // SAFETY: `lo <= hi <= crd.len()` and `hi <= val.len()`: in range
        // or one past the end.
        let (mut c, mut v) = unsafe { (crd.as_ptr().add(lo), val.as_ptr().add(lo)) };
        // SAFETY: `lo + 4 * steps <= hi`, within both slices.
        let stop = unsafe { c.add(4 * steps) };
        while c != stop {
            // SAFETY: `c` and `v` are at the same entry `p` with `p + 4 <=
            // hi`: four coordinates and four weights (one word, read
            // unaligned: Armv7-M allows unaligned word loads); each
            // coordinate is below `x.len()` by the caller's guarantee.
            // (Written out: at opt-level `s` a `map` over the four stays a
            // loop through the stack, twice the instructions.)
            let (w, x0, x1, x2, x3) = unsafe {
                (
                    v.cast::<u32>().read_unaligned(),
                    i32::from(load(x, (*c).as_usize())),
                    i32::from(load(x, (*c.add(1)).as_usize())),
                    i32::from(load(x, (*c.add(2)).as_usize())),
                    i32::from(load(x, (*c.add(3)).as_usize())),
                )
            };
            // Lanes (w0, w2) and (w1, w3), the inputs paired alike.
            acc = smlad(sxtb16(w), sadd16(pack(x0 as u32, x2 as u32), offsets), acc);
            acc = smlad(
                sxtb16_ror8(w),
                sadd16(pack(x1 as u32, x3 as u32), offsets),
                acc,
            );
            // SAFETY: at most `stop`, in range.
            unsafe {
                c = c.add(4);
                v = v.add(4);
            }
        }
        let p = lo + 4 * steps;
        // SAFETY: `lo <= p <= hi`, the caller's guarantees for the rest.
        unsafe { plain(crd, val, p, hi, x, off, acc) }
    }
}

#[cfg(test)]
mod tests {
    use super::dot_s8;

    /// The sum written from its definition, in `i64` then wrapped.
    fn reference(crd: &[u8], val: &[i8], x: &[i8], off: i32) -> i32 {
        let sum: i64 = crd
            .iter()
            .zip(val)
            .map(|(&c, &w)| i64::from(w) * (i64::from(x[usize::from(c)]) + i64::from(off)))
            .sum();
        // Modulo 2^32, as the kernel language's `i32` wraps.
        sum as i32
    }

    #[test]
    fn every_length_offset_and_extreme_value() {
        let mut x: [i8; 64] = core::array::from_fn(|k| ((k * 37 + 11) % 256) as u8 as i8);
        x[3] = -128;
        x[4] = 127;
        let crd: [u8; 21] = core::array::from_fn(|k| ((k * 7 + 3) % 64) as u8);
        let val: [i8; 21] = core::array::from_fn(|k| match k % 5 {
            0 => -128,
            1 => 127,
            _ => ((k * 53) % 256) as u8 as i8,
        });
        // Under Miri (the plain loop's unchecked reads) a few cases do.
        let (offsets, starts) = if cfg!(miri) {
            (&[0, 128, i32::MIN][..], 0..2)
        } else {
            (
                &[0, 128, -128, 127, 32640, -32640, 32641, i32::MAX, i32::MIN][..],
                0..6,
            )
        };
        for &off in offsets {
            for lo in starts.clone() {
                for hi in lo..=crd.len() {
                    // SAFETY: `lo <= hi <= 21` entries and every
                    // coordinate is below 64 = `x.len()`.
                    let got = unsafe { dot_s8(&crd, &val, lo, hi, &x, off) };
                    let want = reference(&crd[lo..hi], &val[lo..hi], &x, off);
                    assert_eq!(got, want, "off {off} range {lo}..{hi}");
                }
            }
        }
    }
}
