//! The int8 dot product of one row of a 2:4 level (`structured[2, 4]`,
//! two stored values in every group of four columns) with a dense vector:
//! `sum over groups g, entries k of val[e] * (x[4 g + crd[e]] + off)` with
//! `e = 2 (first + g) + k`, in `i32` with wrapping arithmetic. It is the
//! whole walk over a 2:4 row of an int8 layer, which the schedule hands to
//! this routine (`schedule/dual_mac_2_4.rs` in the compiler).
//!
//! With the DSP extension (`cfg(sk_dsp)`, see `dual_mac.rs`) and 2-bit
//! coordinates packed four per byte ([`Packed2`](crate::Packed2),
//! `crdWidth = 2`), eight groups take one word of coordinates, four words
//! of weights and eight words of inputs (the four inputs of each group,
//! read whole: no address is computed from a coordinate). A coordinate
//! selects its input by rotating the group's word by eight times the
//! coordinate; two groups' selected inputs are packed into one register,
//! sign-extended with the offset added, and each pair of weights
//! multiplies a pair of inputs in one `SMLAD`: 19 instructions per two
//! groups (18 with a word-aligned input), in one `asm!` loop (the
//! instructions are described at `dsp::steps8`). Elsewhere (other
//! coordinate widths, Cortex-M0/M3, an M33 without the extension, the
//! desktop) a plain loop computes the same sum.
//!
//! Both give the same bits: every product is exact in 32 bits and `i32`
//! addition modulo 2^32 is associative. An offset whose 16-bit lanes would
//! not hold `x + off` takes the plain loop.

use crate::index::Index;

use super::unchecked::{load, load_index, load_pair2};

/// `sum(val[e] as i32 * (x[4 g + crd[e]] as i32 + off))` over the groups
/// `g` in `0..groups` and their two entries `e = 2 (first + g) + k`,
/// wrapping.
///
/// # Safety
///
/// `2 (first + groups) <= val.len()` and `crd` holds at least `2 (first +
/// groups)` coordinates (`4 crd.len()` for [`Packed2`](crate::Packed2)),
/// each below 4, and `4 groups <= x.len()`: the groups `first..first +
/// groups` of a validated tensor's last level `structured[2, 4]`, under
/// one row of its dense parent level, read against an input the kernel's
/// prologue checked to have four columns per group.
#[inline(always)]
pub unsafe fn dot_s8_2_4<I: Index>(
    crd: &[I],
    val: &[i8],
    first: usize,
    groups: usize,
    x: &[i8],
    off: i32,
) -> i32 {
    debug_assert!(2 * (first + groups) <= val.len() && 4 * groups <= x.len());
    debug_assert!(2 * (first + groups) <= I::PER_ELEMENT * crd.len());
    #[cfg(sk_dsp)]
    {
        if (-32640..=32640).contains(&off) && I::PER_ELEMENT == 4 {
            // SAFETY: `Index` is sealed and `Packed2` (a transparent `u8`)
            // is its only implementation with four indices per element, so
            // the buffer is `crd.len()` bytes; the caller's guarantees
            // pass on.
            return unsafe {
                dsp::dot_s8_2_4(
                    crd.as_ptr().cast::<u8>(),
                    crd.len(),
                    val,
                    first,
                    groups,
                    x,
                    off,
                )
            };
        }
    }
    // SAFETY: the caller's guarantees, passed on.
    unsafe { plain(crd, val, first, (0, groups), x, off, 0) }
}

/// The plain loop over the groups `from..to` (relative to `first`), from
/// accumulator `acc`.
///
/// # Safety
///
/// As [`dot_s8_2_4`], with `to` for `groups`.
#[inline(always)]
unsafe fn plain<I: Index>(
    crd: &[I],
    val: &[i8],
    first: usize,
    (from, to): (usize, usize),
    x: &[i8],
    off: i32,
    mut acc: i32,
) -> i32 {
    for g in from..to {
        let e = 2 * (first + g);
        let (c0, c1) = if I::PER_ELEMENT == 4 {
            // SAFETY: `Index` is sealed and `Packed2` (a transparent `u8`)
            // is its only implementation with four indices per element;
            // `e` is even and `e + 1 < 2 (first + to)`, within the
            // coordinates: both of the group's in one byte, read once.
            let pair = unsafe {
                let packed = core::slice::from_raw_parts(crd.as_ptr().cast(), crd.len());
                load_pair2(packed, e)
            };
            (pair & 3, pair >> 2)
        } else {
            // SAFETY: `e + 1 < 2 (first + to)`, within the coordinates.
            unsafe { (load_index(crd, e), load_index(crd, e + 1)) }
        };
        // SAFETY: `e + 1 < 2 (first + to)`, within the values; the
        // coordinates are below 4, so `4 g + c < 4 to <= x.len()`.
        let (w0, w1, x0, x1) = unsafe {
            (
                load(val, e),
                load(val, e + 1),
                load(x, 4 * g + c0),
                load(x, 4 * g + c1),
            )
        };
        let p0 = i32::from(w0).wrapping_mul(i32::from(x0).wrapping_add(off));
        let p1 = i32::from(w1).wrapping_mul(i32::from(x1).wrapping_add(off));
        acc = acc.wrapping_add(p0).wrapping_add(p1);
    }
    acc
}

#[cfg(sk_dsp)]
mod dsp {
    use core::arch::asm;

    use super::super::dsp::pack;
    use super::plain;
    use crate::index::Packed2;

    /// Eight groups per step (one word of coordinates), the rest one by
    /// one.
    ///
    /// # Safety
    ///
    /// As [`super::dot_s8_2_4`] over the `len` bytes at `crd`, with
    /// `-32640 <= off <= 32640`.
    #[inline(always)]
    pub(super) unsafe fn dot_s8_2_4(
        crd: *const u8,
        len: usize,
        val: &[i8],
        first: usize,
        groups: usize,
        x: &[i8],
        off: i32,
    ) -> i32 {
        // SAFETY: `crd` points to `len` initialized `Packed2` bytes (the
        // caller's slice).
        let packed: &[Packed2] = unsafe { core::slice::from_raw_parts(crd.cast(), len) };
        let offsets = pack(off as u32, off as u32);
        // The common case, one test: the row starts at a coordinate byte
        // (`first` even) and is whole steps of eight groups.
        if (first % 2) | (groups % 8) == 0 && groups != 0 {
            // SAFETY: `first` is even, so the row's coordinates start at
            // byte `first / 2`; its `groups / 8` steps of coordinate
            // bytes, values and inputs are within the caller's slices.
            return unsafe {
                steps8(
                    (crd, val.as_ptr(), first),
                    x.as_ptr(),
                    groups / 8,
                    offsets,
                    0,
                )
            };
        }
        // Otherwise a group that starts in the middle of a coordinate byte
        // (an odd `first`) and the groups after the last eight go one by
        // one, first: the sum's order does not matter (wrapping
        // addition), and nothing but the sum is then live across the
        // loop's `asm!`.
        let lead = (first % 2).min(groups);
        let steps = (groups - lead) / 8;
        let body = lead + 8 * steps;
        let mut acc = 0i32;
        if lead != 0 || body != groups {
            // SAFETY: `lead <= body <= groups`, the caller's guarantees.
            unsafe {
                acc = plain(packed, val, first, (0, lead), x, off, acc);
                acc = plain(packed, val, first, (body, groups), x, off, acc);
            }
        }
        if steps != 0 {
            // SAFETY: `first + lead` is even, so its group's coordinates
            // start at byte `(first + lead) / 2`; the `8 steps` groups
            // from there are within the row: their `4 steps` coordinate
            // bytes, `16 steps` values and `32 steps` inputs (from input
            // `4 lead`) are within the caller's slices.
            acc = unsafe {
                steps8(
                    (crd, val.as_ptr(), first + lead),
                    x.as_ptr().add(4 * lead),
                    steps,
                    offsets,
                    acc,
                )
            };
        }
        acc
    }

    /// The instructions of one step of [`steps8`] after its coordinate
    /// word is in `{c}`: eight groups, two at a time, their input words
    /// read by `ldrd` (one `LDRD` per two groups) or `ldr` (two `LDR`s),
    /// the first two groups' advancing `{xp}` by 32 and the others' at
    /// negative offsets from it.
    macro_rules! steps8_body {
        ($load:ident) => {
            concat!(
                steps8_body!(@first $load),
                "lsl {t0}, {c}, #3\n",
                steps8_body!(@select "lsr #1", "lsl #1", "lsr #3"),
                "ldr {xg}, [{v}], #16\n",
                steps8_body!(@mac),
                steps8_body!(@load $load, -24, -20),
                "and {t0}, {mask}, {c}, lsr #5\n",
                steps8_body!(@select "lsr #9", "lsr #7", "lsr #11"),
                "ldr {xg}, [{v}, #-12]\n",
                steps8_body!(@mac),
                steps8_body!(@load $load, -16, -12),
                "and {t0}, {mask}, {c}, lsr #13\n",
                steps8_body!(@select "lsr #17", "lsr #15", "lsr #19"),
                "ldr {xg}, [{v}, #-8]\n",
                steps8_body!(@mac),
                steps8_body!(@load $load, -8, -4),
                "and {t0}, {mask}, {c}, lsr #21\n",
                steps8_body!(@select "lsr #25", "lsr #23", "lsr #27"),
                "ldr {xg}, [{v}, #-4]\n",
                steps8_body!(@mac),
            )
        };
        // The first two groups' input words, `{xp}` advanced past all.
        (@first ldrd) => {
            "ldrd {xg}, {xh}, [{xp}], #32\n"
        };
        (@first ldr) => {
            "ldr {xg}, [{xp}], #32\nldr {xh}, [{xp}, #-28]\n"
        };
        // Two groups' input words at `{xp}` + the offsets.
        (@load ldrd, $a:literal, $b:literal) => {
            concat!("ldrd {xg}, {xh}, [{xp}, #", $a, "]\n")
        };
        (@load ldr, $a:literal, $b:literal) => {
            concat!("ldr {xg}, [{xp}, #", $a, "]\n", "ldr {xh}, [{xp}, #", $b, "]\n")
        };
        // With `{t0}` = 8 x the first group's first coordinate: the
        // packed inputs (first entries) in `{t0}`, (second entries) in
        // `{t1}`, offset added; the shifts place the second group's first
        // coordinate, the first group's second and the second group's
        // second in bits 3..5.
        (@select $s2:literal, $s1:literal, $s3:literal) => {
            concat!(
                "ror {t0}, {xg}, {t0}\n",
                "and {t1}, {mask}, {c}, ", $s2, "\n",
                "ror {t1}, {xh}, {t1}\n",
                "pkhbt {t0}, {t0}, {t1}, lsl #16\n",
                "sxtab16 {t0}, {offs}, {t0}\n",
                "and {t1}, {mask}, {c}, ", $s1, "\n",
                "ror {t1}, {xg}, {t1}\n",
                "and {xg}, {mask}, {c}, ", $s3, "\n",
                "ror {xg}, {xh}, {xg}\n",
                "pkhbt {t1}, {t1}, {xg}, lsl #16\n",
                "sxtab16 {t1}, {offs}, {t1}\n",
            )
        };
        // The weight word in `{xg}`: two multiply-accumulates.
        (@mac) => {
            concat!(
                "sxtb16 {xh}, {xg}\n",
                "smlad {acc}, {xh}, {t0}, {acc}\n",
                "sxtb16 {xh}, {xg}, ror #8\n",
                "smlad {acc}, {xh}, {t1}, {acc}\n",
            )
        };
    }

    /// `steps` times eight groups from group `e` (even) of a level whose
    /// coordinates are at `crd` and values at `val`, from `acc`: per step
    /// one word of coordinates at `m = crd + e / 2` (two bits each, the
    /// first group's in the lowest bits), 16 values at `v = val + 2 e` and
    /// 32 inputs at `xp`.
    ///
    /// Groups 2j and 2j + 1 use byte j of `c`, the weight word at `4j`
    /// (the first group's two values, then the second's) and the input
    /// words at `8j` and `8j + 4`. A coordinate selects its input by
    /// rotating the group's input word right by 8 x the coordinate: `AND`
    /// of `c` shifted with `0x18` puts 8 x the coordinate in bits 3..5
    /// with zeros below, and `ROR` by a register rotates by its low five
    /// bits. `PKHBT` packs the two groups' selected inputs (bytes 0 and
    /// 2), `SXTAB16` sign-extends them and adds the offset in both 16-bit
    /// lanes, and `SXTB16` splits the weight word into the matching pairs
    /// (bytes 0 and 2, bytes 1 and 3) for two `SMLAD`s: 19 instructions
    /// per two groups (18 when `xp` is word-aligned: the two input words
    /// in one `LDRD`, which faults on an unaligned address, hence two
    /// copies of the loop), plus a coordinate word load and the loop's
    /// `subs`/`bpl` per eight, the whole loop in one `asm!` so that no
    /// register spills. It needs 11: the loop counts down in steps of 32
    /// in the register whose low five bits are the mask `0x18` (`ROR`
    /// reads no other bits of the `AND`'s result).
    ///
    /// # Safety
    ///
    /// `1 <= steps < 2^26`; `crd + e / 2`, `val + 2 e` and `xp` are valid
    /// for `4 steps`, `16 steps` and `32 steps` bytes of reads.
    #[inline(always)]
    unsafe fn steps8(
        (crd, val, e): (*const u8, *const i8, usize),
        xp: *const i8,
        steps: usize,
        offsets: u32,
        acc: i32,
    ) -> i32 {
        let mut acc = acc;
        // SAFETY: reads `4 steps` bytes at `crd + e / 2`, `16 steps` at
        // `val + 2 e` and `32 steps` at `xp` (the caller's guarantee),
        // unaligned word loads, which Armv7-M allows, or `LDRD` after the
        // test that `xp` is word-aligned; the other instructions are
        // register-only DSP and shifts, and `1 <= steps < 2^26` makes the
        // count `(steps - 1) * 32 + 0x18` fit and the loop end after
        // `steps` turns.
        unsafe {
            asm!(
                // The row's first coordinate byte and value.
                "add {m}, {m}, {c}, lsr #1",
                "add {v}, {v}, {c}, lsl #1",
                // Word-aligned inputs: each two groups' input words in one
                // `LDRD` (which faults on an unaligned address).
                "tst {xp}, #3",
                "bne 3f",
                "2:",
                "ldr {c}, [{m}], #4",
                steps8_body!(ldrd),
                "subs {mask}, {mask}, #32",
                "bpl 2b",
                "b 4f",
                // Any alignment: a word load per group's inputs.
                "3:",
                "ldr {c}, [{m}], #4",
                steps8_body!(ldr),
                "subs {mask}, {mask}, #32",
                "bpl 3b",
                "4:",
                m = inout(reg) crd => _,
                mask = inout(reg) ((steps as u32 - 1) << 5) | 0x18 => _,
                c = inout(reg) e => _,
                offs = in(reg) offsets,
                xp = inout(reg) xp => _,
                v = inout(reg) val => _,
                acc = inout(reg) acc,
                xg = out(reg) _,
                xh = out(reg) _,
                t0 = out(reg) _,
                t1 = out(reg) _,
                options(readonly, nostack),
            );
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::dot_s8_2_4;
    use crate::index::Packed2;

    /// The sum written from its definition, in `i64` then wrapped.
    fn reference(crd: &[u8], val: &[i8], first: usize, groups: usize, x: &[i8], off: i32) -> i32 {
        let mut sum = 0i64;
        for g in 0..groups {
            for k in 0..2 {
                let e = 2 * (first + g) + k;
                let xv = x[4 * g + usize::from(crd[e])];
                sum += i64::from(val[e]) * (i64::from(xv) + i64::from(off));
            }
        }
        // Modulo 2^32, as the kernel language's `i32` wraps.
        sum as i32
    }

    /// 21 groups: two distinct sorted coordinates per group, every pair
    /// of the six, extreme weights and inputs.
    fn data() -> ([u8; 42], [Packed2; 11], [i8; 42], [i8; 84]) {
        const PAIRS: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let mut crd = [0u8; 42];
        for g in 0..21 {
            let (a, b) = PAIRS[(g * 5 + 1) % 6];
            crd[2 * g] = a;
            crd[2 * g + 1] = b;
        }
        let mut packed = [Packed2::default(); 11];
        for (q, chunk) in crd.chunks(4).enumerate() {
            let mut c = [0u8; 4];
            c[..chunk.len()].copy_from_slice(chunk);
            packed[q] = Packed2::new(c);
        }
        let val: [i8; 42] = core::array::from_fn(|k| match k % 5 {
            0 => -128,
            1 => 127,
            _ => ((k * 53) % 256) as u8 as i8,
        });
        let mut x: [i8; 84] = core::array::from_fn(|k| ((k * 37 + 11) % 256) as u8 as i8);
        x[3] = -128;
        x[4] = 127;
        (crd, packed, val, x)
    }

    #[test]
    fn every_start_length_and_offset_packed_and_bytes() {
        let (crd, packed, val, x) = data();
        let (offsets, firsts) = if cfg!(miri) {
            (&[0, 128, i32::MIN][..], 0..3)
        } else {
            (
                &[0, 128, -128, 127, 32640, -32640, 32641, i32::MAX, i32::MIN][..],
                0..5,
            )
        };
        for &off in offsets {
            for first in firsts.clone() {
                for groups in 0..=21 - first {
                    let want = reference(&crd, &val, first, groups, &x, off);
                    // SAFETY: groups `first..first + groups` of 21, each
                    // with two coordinates below 4; `x` has 84 >= 4 groups
                    // inputs.
                    let got = unsafe { dot_s8_2_4(&packed, &val, first, groups, &x, off) };
                    assert_eq!(got, want, "packed, off {off} groups {first}+{groups}");
                    // SAFETY: as above, one byte per coordinate.
                    let got = unsafe { dot_s8_2_4(&crd, &val, first, groups, &x, off) };
                    assert_eq!(got, want, "bytes, off {off} groups {first}+{groups}");
                }
            }
        }
    }
}
