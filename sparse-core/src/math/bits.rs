//! Shifts and `clamp` as kernel expressions define them: never a panic,
//! the same result in every build profile.
//!
//! MLIR's `arith.shli`/`shrsi`/`shrui` give poison for an amount at or
//! above the bit width, and Rust's `<<` panics there in debug builds and
//! masks in release builds. Kernels take the amount **modulo the width**
//! (its low bits, two's complement for a negative amount): `x << 33` on an
//! `i32` is `x << 1`, `x >> -1` on an `i8` is `x >> 7`. That is Rust's
//! `wrapping_shl`/`wrapping_shr` (and the rule of x86's shifts, Java and
//! C#); on Arm it is one `and` before the shift. A *constant* amount out of
//! range is a compile error at the kernel instead.

use super::Ordered;

/// An integer element type that shifts: `<<` shifts in zeros, `>>` is
/// arithmetic (copies of the sign bit shift in) for signed types and
/// logical (zeros) for unsigned ones, as MLIR's `arith.shrsi`/`shrui`.
pub trait Shift: Copy {
    /// `self << (n mod width)`.
    fn shift_left(self, n: u32) -> Self;
    /// `self >> (n mod width)`.
    fn shift_right(self, n: u32) -> Self;
}

/// A shift amount: any integer type, read modulo 2^32 (which the element's
/// width divides, so the amount taken modulo the width is unchanged).
pub trait ShiftAmount: Copy {
    /// The amount's low 32 bits (two's complement for negative amounts).
    fn low_bits(self) -> u32;
}

macro_rules! shift {
    ($($t:ty),*) => {$(
        impl Shift for $t {
            #[inline(always)]
            fn shift_left(self, n: u32) -> Self {
                <$t>::wrapping_shl(self, n)
            }
            #[inline(always)]
            fn shift_right(self, n: u32) -> Self {
                <$t>::wrapping_shr(self, n)
            }
        }
        impl ShiftAmount for $t {
            #[inline(always)]
            fn low_bits(self) -> u32 {
                // Truncating on purpose: every width divides 2^32.
                self as u32
            }
        }
    )*};
}
shift!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// `x << n`, the amount taken modulo `x`'s bit width (see the module
/// docs).
#[inline(always)]
pub fn shl<T: Shift, N: ShiftAmount>(x: T, n: N) -> T {
    x.shift_left(n.low_bits())
}

/// `x >> n`, arithmetic for signed `x`, logical for unsigned; the amount
/// taken modulo `x`'s bit width (see the module docs).
#[inline(always)]
pub fn shr<T: Shift, N: ShiftAmount>(x: T, n: N) -> T {
    x.shift_right(n.low_bits())
}

/// `x` limited to `lo..=hi`: `min(max(x, lo), hi)`, as MLIR spells a clamp
/// (`arith.maxsi` then `arith.minsi`, or `maxnumf`/`minnumf`). Unlike
/// `Ord::clamp` it never panics: where `lo > hi` the result is `hi`. For
/// floats a NaN `x` gives `lo` (`max` lets a NaN lose).
#[inline(always)]
pub fn clamp<T: Ordered>(x: T, lo: T, hi: T) -> T {
    x.max_value(lo).min_value(hi)
}

#[cfg(test)]
mod tests {
    use super::{clamp, shl, shr};

    #[test]
    fn shifts_take_the_amount_modulo_the_width() {
        assert_eq!(shl(1i32, 30), 1 << 30);
        assert_eq!(shl(1i32, 31), i32::MIN);
        assert_eq!(shl(1i32, 32), 1);
        assert_eq!(shl(1i32, 33), 2);
        assert_eq!(shl(3u8, 9), 6);
        assert_eq!(shl(1i64, 40u8), 1i64 << 40);
        assert_eq!(shl(1i64, 64), 1);
        // A negative amount is its two's complement: -1 is width - 1.
        assert_eq!(shl(1i8, -1i32), i8::MIN);
        assert_eq!(shr(i8::MIN, -1i64), -1);
        assert_eq!(shr(-128i32, 3), -16);
        assert_eq!(shr(-1i32, 31), -1);
        assert_eq!(shr(-1i32, 32), -1);
        assert_eq!(shr(0x80u8, 7), 1);
        assert_eq!(shr(0x8000_0000u32, 31u32), 1);
        assert_eq!(shr(u64::MAX, 63), 1);
        assert_eq!(shr(12usize, 2), 3);
    }

    #[test]
    fn clamp_never_panics() {
        assert_eq!(clamp(300i32, -128, 127), 127);
        assert_eq!(clamp(-300i32, -128, 127), -128);
        assert_eq!(clamp(5i32, -128, 127), 5);
        assert_eq!(clamp(5i32, 10, 0), 0);
        assert_eq!(clamp(7u8, 2, 5), 5);
        assert_eq!(clamp(0.5f64, 0.0, 1.0), 0.5);
        assert_eq!(clamp(f32::NAN, -1.0, 1.0), -1.0);
        assert_eq!(clamp(2.0f32, 1.0, -1.0), -1.0);
    }
}
