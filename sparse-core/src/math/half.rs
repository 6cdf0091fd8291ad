//! Math functions of `f16`/`bf16` elements (feature `half`), computed in
//! `f32` and rounded back once, as MLIR widens `math` operations on half
//! types (`-math-extend-to-supported-types`): one rounding per call, so a
//! function is as accurate as its `f32` version allows, to within half a
//! unit in the last place of the half type. Arithmetic (`+ - * /`) is in
//! the half type itself, each operation rounded, as MLIR's `arith` on
//! `f16`.

use half::{bf16, f16};

use super::Ordered;
#[cfg(any(feature = "std", feature = "libm", feature = "micromath"))]
use super::Real;

/// `f(x)` computed in `f32`, rounded back to the half type once.
#[cfg(any(feature = "std", feature = "libm", feature = "micromath"))]
macro_rules! wide {
    ($t:ident, $x:expr, $f:ident) => {
        $t::from_f32(Real::$f($x.to_f32()))
    };
}

macro_rules! half_math {
    ($($t:ident),*) => {$(
        #[cfg(any(feature = "std", feature = "libm", feature = "micromath"))]
        impl Real for $t {
            #[inline(always)] fn sqrt(self) -> Self { wide!($t, self, sqrt) }
            #[inline(always)] fn exp(self) -> Self { wide!($t, self, exp) }
            #[inline(always)] fn ln(self) -> Self { wide!($t, self, ln) }
            #[inline(always)] fn sin(self) -> Self { wide!($t, self, sin) }
            #[inline(always)] fn cos(self) -> Self { wide!($t, self, cos) }
            #[inline(always)] fn tanh(self) -> Self { wide!($t, self, tanh) }
            #[inline(always)]
            fn powf(self, n: Self) -> Self {
                $t::from_f32(Real::powf(self.to_f32(), n.to_f32()))
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self { $t::from_f32(Real::powi(self.to_f32(), n)) }
            #[inline(always)] fn tan(self) -> Self { wide!($t, self, tan) }
            #[inline(always)] fn atan(self) -> Self { wide!($t, self, atan) }
            #[inline(always)] fn exp2(self) -> Self { wide!($t, self, exp2) }
            #[inline(always)] fn expm1(self) -> Self { wide!($t, self, expm1) }
            #[inline(always)] fn log1p(self) -> Self { wide!($t, self, log1p) }
            #[inline(always)] fn log2(self) -> Self { wide!($t, self, log2) }
            #[inline(always)] fn log10(self) -> Self { wide!($t, self, log10) }
            #[inline(always)] fn sigmoid(self) -> Self { wide!($t, self, sigmoid) }
            #[inline(always)] fn rsqrt(self) -> Self { wide!($t, self, rsqrt) }
            #[inline(always)] fn floor(self) -> Self { wide!($t, self, floor) }
            #[inline(always)] fn ceil(self) -> Self { wide!($t, self, ceil) }
            #[inline(always)] fn round(self) -> Self { wide!($t, self, round) }
            #[inline(always)] fn trunc(self) -> Self { wide!($t, self, trunc) }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                // The sign bit, exactly.
                $t::from_bits((self.to_bits() & 0x7FFF) | (sign.to_bits() & 0x8000))
            }
        }

        #[cfg(feature = "libm")]
        impl super::Erf for $t {
            #[inline(always)]
            fn erf(self) -> Self { $t::from_f32(super::Erf::erf(self.to_f32())) }
        }

        impl Ordered for $t {
            #[inline(always)]
            fn abs_value(self) -> Self { $t::from_bits(self.to_bits() & 0x7FFF) }
            #[inline(always)]
            fn max_value(self, other: Self) -> Self { self.max(other) }
            #[inline(always)]
            fn min_value(self, other: Self) -> Self { self.min(other) }
        }
    )*};
}
half_math!(f16, bf16);

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn functions_round_the_f32_result_once() {
        let x = f16::from_f32(2.0);
        assert_eq!(Real::sqrt(x), f16::from_f32(2f32.sqrt()));
        assert_eq!(Real::powi(x, 3), f16::from_f32(8.0));
        assert_eq!(super::super::max(x, f16::ONE), x);
        let y = bf16::from_f32(-1.5);
        assert_eq!(super::super::abs(y), bf16::from_f32(1.5));
        assert_eq!(Real::tanh(y), bf16::from_f32((-1.5f32).tanh()));
    }
}
