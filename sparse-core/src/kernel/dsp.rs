//! The DSP instructions the int8 dot product of a compressed row uses
//! (`SXTB16`, `SADD16`, `SMLAD`), one `asm!` each: the intrinsics of
//! `core::arch::arm` for them are unstable. Only under `cfg(sk_dsp)` (set
//! by `build.rs` where the target has the DSP extension); every function
//! is register-only, so none is `unsafe` to call.

use core::arch::asm;

/// `SXTB16`: bytes 0 and 2 of `w`, sign-extended into two 16-bit lanes.
#[inline(always)]
pub(super) fn sxtb16(w: u32) -> u32 {
    let out: u32;
    // SAFETY: a register-only instruction of Armv7E-M.
    unsafe { asm!("sxtb16 {0}, {1}", out(reg) out, in(reg) w, options(pure, nomem, nostack)) };
    out
}

/// `SXTB16 .., ROR #8`: bytes 1 and 3 of `w`, sign-extended.
#[inline(always)]
pub(super) fn sxtb16_ror8(w: u32) -> u32 {
    let out: u32;
    // SAFETY: a register-only instruction of Armv7E-M.
    unsafe {
        asm!("sxtb16 {0}, {1}, ror #8", out(reg) out, in(reg) w, options(pure, nomem, nostack))
    };
    out
}

/// `SADD16`: lane-wise 16-bit sums.
#[inline(always)]
pub(super) fn sadd16(a: u32, b: u32) -> u32 {
    let out: u32;
    // SAFETY: a register-only instruction of Armv7E-M (it sets the GE
    // flags, which nothing reads).
    unsafe {
        asm!("sadd16 {0}, {1}, {2}", out(reg) out, in(reg) a, in(reg) b, options(pure, nomem, nostack))
    };
    out
}

/// `SMLAD`: `acc + a.lo * b.lo + a.hi * b.hi`, 16-bit signed lanes.
#[inline(always)]
pub(super) fn smlad(a: u32, b: u32, acc: i32) -> i32 {
    let out: i32;
    // SAFETY: a register-only instruction of Armv7E-M (it may set the Q
    // flag, which nothing reads; the sum wraps).
    unsafe {
        asm!("smlad {0}, {1}, {2}, {3}", out(reg) out, in(reg) a, in(reg) b, in(reg) acc, options(pure, nomem, nostack))
    };
    out
}

/// Two 16-bit lanes: `lo` in bits 0..16, `hi` in 16..32 (`PKHBT`).
#[inline(always)]
pub(super) fn pack(lo: u32, hi: u32) -> u32 {
    (lo & 0xffff) | (hi << 16)
}
