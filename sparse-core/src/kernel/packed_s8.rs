//! The int8 dot product of one row of a constant weight matrix packed
//! into a word stream at expansion time (`#[specialize(w = W)]` above its
//! written-out budget, `schedule/specialize_packed.rs` in the compiler):
//! `sum over the row's entries of w * x[c]` in `i32` with wrapping
//! arithmetic.
//!
//! The stream holds groups of four entries: their coordinates (one word
//! of four `u8` when every coordinate is below 256, two words of two
//! `u16` each otherwise: `WIDE`), then their weights: one word of four
//! `i8`, or (`PAIRS`) two words of two `i16` lanes, entries 0 and 2 then
//! 1 and 3, ready for a dual multiply-accumulate. The compiler pads each
//! row to whole groups with weight 0 at coordinate 0 (a product of 0
//! changes no sum), and folds an input offset into the row's weights
//! summed, so no offset is added here.
//!
//! With the DSP extension (`cfg(sk_dsp)`) a group is one `asm!` step: one
//! `LDM` of its words (the pointer advanced), four coordinate extractions
//! (`UXTB`/`UBFX`/`LSR`, or `UXTH`/`LSR`), four input loads, two `PKHBT`
//! (inputs 0 and 2, 1 and 3 in 16-bit lanes), two `SMLAD` and the loop's
//! test: 15 instructions, 17 with `i8` weights (two `SXTB16` pair them),
//! against 19 for `dot_s8`'s four entries of a compressed row. Elsewhere
//! a plain loop computes the same sum: every product is exact and `i32`
//! addition wrapping modulo 2^32 is associative.

use super::unchecked::load;

/// Words per group: coordinate words, then weight words.
pub const fn group_words(wide: bool, pairs: bool) -> usize {
    (if wide { 2 } else { 1 }) + (if pairs { 2 } else { 1 })
}

/// `sum(w * x[c])` over the entries of the groups in `words[lo..hi]`,
/// wrapping.
///
/// # Safety
///
/// `lo <= hi <= words.len()`, `hi - lo` is a multiple of
/// `group_words(WIDE, PAIRS)` (the words of one group), and every coordinate the groups hold is
/// below `x.len()`: a stream the compiler wrote from a checked constant,
/// whose coordinates are below the dimension size the kernel's prologue
/// checked `x`'s length against.
#[inline(always)]
pub unsafe fn dot_s8_packed<const WIDE: bool, const PAIRS: bool>(
    words: &[u32],
    lo: usize,
    hi: usize,
    x: &[i8],
) -> i32 {
    debug_assert!(lo <= hi && hi <= words.len() && (hi - lo) % group_words(WIDE, PAIRS) == 0);
    #[cfg(sk_dsp)]
    {
        // SAFETY: the caller's guarantees, passed on.
        unsafe { dsp::dot::<WIDE, PAIRS>(words, lo, hi, x) }
    }
    #[cfg(not(sk_dsp))]
    {
        // SAFETY: the caller's guarantees, passed on.
        unsafe { plain::<WIDE, PAIRS>(words, lo, hi, x) }
    }
}

/// The plain loop: a group per step, its four products written out (at
/// opt-level `s` a loop over the four stays a loop through the stack).
///
/// # Safety
///
/// As [`dot_s8_packed`].
#[cfg_attr(sk_dsp, allow(dead_code))]
#[inline(always)]
unsafe fn plain<const WIDE: bool, const PAIRS: bool>(
    words: &[u32],
    lo: usize,
    hi: usize,
    x: &[i8],
) -> i32 {
    let mut acc = 0i32;
    let mut g = lo;
    while g < hi {
        // SAFETY: `g + group_words(WIDE, PAIRS) <= hi <= words.len()`
        // (whole groups); each coordinate is below `x.len()` (the
        // caller's guarantee).
        unsafe {
            let (c0, c1, c2, c3) = if WIDE {
                let (a, b) = (load(words, g), load(words, g + 1));
                (a & 0xffff, a >> 16, b & 0xffff, b >> 16)
            } else {
                let c = load(words, g);
                (c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff, c >> 24)
            };
            let v = g + if WIDE { 2 } else { 1 };
            let (w0, w1, w2, w3) = if PAIRS {
                // Lanes: (w0, w2), then (w1, w3).
                let (a, b) = (load(words, v), load(words, v + 1));
                (
                    i32::from(a as u16 as i16),
                    i32::from(b as u16 as i16),
                    i32::from((a >> 16) as u16 as i16),
                    i32::from((b >> 16) as u16 as i16),
                )
            } else {
                let u = load(words, v);
                (
                    i32::from(u as u8 as i8),
                    i32::from((u >> 8) as u8 as i8),
                    i32::from((u >> 16) as u8 as i8),
                    i32::from((u >> 24) as u8 as i8),
                )
            };
            let x = |c: u32| i32::from(load(x, c as usize));
            acc = acc
                .wrapping_add(w0.wrapping_mul(x(c0)))
                .wrapping_add(w1.wrapping_mul(x(c1)))
                .wrapping_add(w2.wrapping_mul(x(c2)))
                .wrapping_add(w3.wrapping_mul(x(c3)));
        }
        g += group_words(WIDE, PAIRS);
    }
    acc
}

#[cfg(sk_dsp)]
mod dsp {
    use core::arch::asm;

    /// One `asm!` loop over the groups; registers are named because `LDM`
    /// loads a group's words into ascending registers.
    ///
    /// # Safety
    ///
    /// As [`super::dot_s8_packed`].
    #[inline(always)]
    pub(super) unsafe fn dot<const WIDE: bool, const PAIRS: bool>(
        words: &[u32],
        lo: usize,
        hi: usize,
        x: &[i8],
    ) -> i32 {
        let mut acc = 0i32;
        if lo == hi {
            return acc;
        }
        // SAFETY: `lo <= hi <= words.len()`: in range or one past the end.
        let (p, end) = unsafe { (words.as_ptr().add(lo), words.as_ptr().add(hi)) };
        let x = x.as_ptr();
        // SAFETY (every arm): the loop reads the whole groups from `p` to
        // `end` (within `words`) and `x` at their coordinates, each below
        // `x.len()` (the caller's guarantees); it writes only registers.
        // r0 = x, r1 = p (advanced), r2 = end, r3 = acc; a group's words
        // land in r4, r5, r8, r10 (as many as it has); r12 and lr are
        // scratch. Inputs 0 and 2 end up paired in one register, 1 and 3
        // in another, as the weights' lanes are.
        unsafe {
            match (WIDE, PAIRS) {
                (false, true) => asm!(
                    "2:",
                    "ldm r1!, {{r4, r8, r10}}",
                    "uxtb r12, r4",
                    "ubfx lr, r4, #16, #8",
                    "ubfx r5, r4, #8, #8",
                    "lsrs r4, r4, #24",
                    "ldrsb r12, [r0, r12]",
                    "ldrsb lr, [r0, lr]",
                    "ldrsb r5, [r0, r5]",
                    "ldrsb r4, [r0, r4]",
                    "pkhbt r12, r12, lr, lsl #16",
                    "pkhbt r5, r5, r4, lsl #16",
                    "smlad r3, r12, r8, r3",
                    "smlad r3, r5, r10, r3",
                    "cmp r1, r2",
                    "bne 2b",
                    in("r0") x, inout("r1") p => _, in("r2") end, inout("r3") acc,
                    out("r4") _, out("r5") _, out("r8") _, out("r10") _, out("r12") _, out("lr") _,
                    options(nostack, readonly),
                ),
                (false, false) => asm!(
                    "2:",
                    "ldm r1!, {{r4, r8}}",
                    "uxtb r12, r4",
                    "ubfx lr, r4, #16, #8",
                    "ubfx r5, r4, #8, #8",
                    "lsrs r4, r4, #24",
                    "ldrsb r12, [r0, r12]",
                    "ldrsb lr, [r0, lr]",
                    "ldrsb r5, [r0, r5]",
                    "ldrsb r4, [r0, r4]",
                    "pkhbt r12, r12, lr, lsl #16",
                    "pkhbt r5, r5, r4, lsl #16",
                    "sxtb16 r10, r8",
                    "sxtb16 r8, r8, ror #8",
                    "smlad r3, r12, r10, r3",
                    "smlad r3, r5, r8, r3",
                    "cmp r1, r2",
                    "bne 2b",
                    in("r0") x, inout("r1") p => _, in("r2") end, inout("r3") acc,
                    out("r4") _, out("r5") _, out("r8") _, out("r10") _, out("r12") _, out("lr") _,
                    options(nostack, readonly),
                ),
                (true, true) => asm!(
                    "2:",
                    "ldm r1!, {{r4, r5, r8, r10}}",
                    "uxth r12, r4",
                    "uxth lr, r5",
                    "lsrs r4, r4, #16",
                    "lsrs r5, r5, #16",
                    "ldrsb r12, [r0, r12]",
                    "ldrsb lr, [r0, lr]",
                    "ldrsb r4, [r0, r4]",
                    "ldrsb r5, [r0, r5]",
                    "pkhbt r12, r12, lr, lsl #16",
                    "pkhbt r4, r4, r5, lsl #16",
                    "smlad r3, r12, r8, r3",
                    "smlad r3, r4, r10, r3",
                    "cmp r1, r2",
                    "bne 2b",
                    in("r0") x, inout("r1") p => _, in("r2") end, inout("r3") acc,
                    out("r4") _, out("r5") _, out("r8") _, out("r10") _, out("r12") _, out("lr") _,
                    options(nostack, readonly),
                ),
                (true, false) => asm!(
                    "2:",
                    "ldm r1!, {{r4, r5, r8}}",
                    "uxth r12, r4",
                    "uxth lr, r5",
                    "lsrs r4, r4, #16",
                    "lsrs r5, r5, #16",
                    "ldrsb r12, [r0, r12]",
                    "ldrsb lr, [r0, lr]",
                    "ldrsb r4, [r0, r4]",
                    "ldrsb r5, [r0, r5]",
                    "pkhbt r12, r12, lr, lsl #16",
                    "pkhbt r4, r4, r5, lsl #16",
                    "sxtb16 r10, r8",
                    "sxtb16 r8, r8, ror #8",
                    "smlad r3, r12, r10, r3",
                    "smlad r3, r4, r8, r3",
                    "cmp r1, r2",
                    "bne 2b",
                    in("r0") x, inout("r1") p => _, in("r2") end, inout("r3") acc,
                    out("r4") _, out("r5") _, out("r8") _, out("r10") _, out("r12") _, out("lr") _,
                    options(nostack, readonly),
                ),
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::{dot_s8_packed, group_words};

    /// Packs `(coordinate, weight)` entries as the compiler does, after
    /// `words[..at]`: groups of four, the last padded with weight 0 at
    /// coordinate 0. Returns the end.
    fn pack(
        entries: &[(usize, i8)],
        (wide, pairs): (bool, bool),
        words: &mut [u32],
        mut at: usize,
    ) -> usize {
        for chunk in entries.chunks(4) {
            let mut e = [(0usize, 0i8); 4];
            e[..chunk.len()].copy_from_slice(chunk);
            let c = e.map(|e| e.0 as u32);
            if wide {
                words[at] = c[0] | c[1] << 16;
                words[at + 1] = c[2] | c[3] << 16;
                at += 2;
            } else {
                words[at] = c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24;
                at += 1;
            }
            let w = e.map(|e| u32::from(e.1 as u8));
            let h = e.map(|e| u32::from(e.1 as i16 as u16));
            if pairs {
                words[at] = h[0] | h[2] << 16;
                words[at + 1] = h[1] | h[3] << 16;
                at += 2;
            } else {
                words[at] = w[0] | w[1] << 8 | w[2] << 16 | w[3] << 24;
                at += 1;
            }
        }
        at
    }

    #[test]
    fn every_length_extreme_values_and_stream_form() {
        let mut x: [i8; 700] = core::array::from_fn(|k| ((k * 37 + 11) % 256) as u8 as i8);
        x[3] = -128;
        x[4] = 127;
        x[699] = -128;
        for form in [(false, false), (false, true), (true, false), (true, true)] {
            let cols = if form.0 { 700 } else { 256 };
            let mut entries = [(0usize, 0i8); 26];
            for (k, e) in entries.iter_mut().enumerate().take(23) {
                let w = match k % 5 {
                    0 => -128,
                    1 => 127,
                    _ => ((k * 53) % 256) as u8 as i8,
                };
                *e = ((k * 97 + 3) % cols, w);
            }
            entries[23] = (cols - 1, -128);
            entries[24] = (3, -128);
            entries[25] = (4, 127);
            // Every length natively; under Miri (~3 s a length there) the
            // lengths of every tail (0..=8: each remainder of a group of
            // four, one and two groups) and those holding the last three
            // entries (the largest coordinate and the extreme weights).
            for n in (0..=entries.len()).filter(|&n| !cfg!(miri) || n <= 8 || n >= 23) {
                // A row starting after another one.
                let mut words = [0u32; 64];
                let lo = pack(&entries[..5], form, &mut words, 0);
                let hi = pack(&entries[..n], form, &mut words, lo);
                let want = entries[..n]
                    .iter()
                    .map(|&(c, w)| i64::from(w) * i64::from(x[c]))
                    .sum::<i64>() as i32;
                assert_eq!((hi - lo) % group_words(form.0, form.1), 0);
                // SAFETY: whole groups in range; coordinates below `cols`
                // <= `x.len()`.
                let got = unsafe {
                    match form {
                        (false, false) => dot_s8_packed::<false, false>(&words, lo, hi, &x),
                        (false, true) => dot_s8_packed::<false, true>(&words, lo, hi, &x),
                        (true, false) => dot_s8_packed::<true, false>(&words, lo, hi, &x),
                        (true, true) => dot_s8_packed::<true, true>(&words, lo, hi, &x),
                    }
                };
                assert_eq!(got, want, "form {form:?}, {n} entries");
            }
        }
    }
}
