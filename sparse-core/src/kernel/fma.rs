//! Fused multiply-add for kernels marked `#[fma]`: `r += a * b` computed as
//! `a * b + r` with one rounding instead of two.
//!
//! This changes results in the last bit (usually for the better), so it is
//! opt-in per kernel. Where it comes from, in order:
//!
//! - with the `std` feature: the inherent `mul_add` (a hardware instruction
//!   where the target has one enabled, e.g. x86-64 with `-C
//!   target-feature=+fma`; otherwise the C library's `fma`);
//! - on Arm with a single-precision FPU (Cortex-M4F, M7, M33), for `f32`:
//!   one `vfma.f32` instruction through `asm!`, when the compiler accepts
//!   FPU registers in inline assembly on that target (build.rs probes it:
//!   Rust 1.95 rejects them on the `eabihf` Cortex-M targets, whose FPU is
//!   not the `vfp2` feature `asm!` asks for; later releases accept it,
//!   rust-lang/rust#159988);
//! - with the `libm` feature: `libm`'s software `fmaf` / `fma` (exact, but
//!   tens to hundreds of instructions per call without an FPU instruction);
//! - otherwise a compile error at the kernel naming these features.

/// `a * b + c` rounded once.
#[diagnostic::on_unimplemented(
    message = "`#[fma]` kernels over `{Self}` need a fused multiply-add on this target",
    label = "this accumulation is fused because the kernel is marked `#[fma]`",
    note = "enable sparse-core's `std` feature (the inherent `mul_add`) or its `libm` feature (software, slow), or remove `#[fma]`"
)]
pub trait MulAdd: Copy {
    /// `a * b + c` with a single rounding.
    fn mul_add(a: Self, b: Self, c: Self) -> Self;
}

#[cfg(feature = "std")]
impl MulAdd for f32 {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

#[cfg(feature = "std")]
impl MulAdd for f64 {
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
}

#[cfg(all(not(feature = "std"), sk_asm_vfma))]
impl MulAdd for f32 {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        let mut r = c;
        // SAFETY: `vfma.f32` reads two FPU registers and updates a third;
        // it touches no memory, no stack and no flags (build.rs enabled
        // this only where the target has the instruction).
        unsafe {
            core::arch::asm!(
                "vfma.f32 {r}, {a}, {b}",
                r = inout(sreg) r,
                a = in(sreg) a,
                b = in(sreg) b,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        r
    }
}

#[cfg(all(not(feature = "std"), not(sk_asm_vfma), feature = "libm"))]
impl MulAdd for f32 {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        libm::fmaf(a, b, c)
    }
}

#[cfg(all(not(feature = "std"), feature = "libm"))]
impl MulAdd for f64 {
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        libm::fma(a, b, c)
    }
}

#[cfg(all(test, any(feature = "std", feature = "libm")))]
mod tests {
    use super::MulAdd;

    #[test]
    fn one_rounding() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the last term is lost when
        // the product is rounded first, kept by the fused operation
        // (2^-24 = EPSILON / 2).
        let a = 1.0f32 + f32::EPSILON * 2048.0;
        let separate = a * a - (1.0 + f32::EPSILON * 4096.0);
        let fused = <f32 as MulAdd>::mul_add(a, a, -(1.0 + f32::EPSILON * 4096.0));
        assert_eq!(separate, 0.0);
        assert_eq!(fused, f32::EPSILON / 2.0);
    }
}
