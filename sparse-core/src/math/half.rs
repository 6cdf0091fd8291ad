//! Math functions of `f16`/`bf16` elements (feature `half`), computed in
//! `f32` and rounded back once, as MLIR widens `math` operations on half
//! types (`-math-extend-to-supported-types`): one rounding per call, so a
//! function is as accurate as its `f32` version allows, to within half a
//! unit in the last place of the half type. Arithmetic (`+ - * /`) is in
//! the half type itself, each operation rounded, as MLIR's `arith` on
//! `f16`.

use half::{bf16, f16};

use super::{Ordered, Real};

macro_rules! half_math {
    ($($t:ident),*) => {$(
        #[cfg(any(feature = "std", feature = "micromath"))]
        impl Real for $t {
            #[inline(always)]
            fn sqrt(self) -> Self { $t::from_f32(Real::sqrt(self.to_f32())) }
            #[inline(always)]
            fn exp(self) -> Self { $t::from_f32(Real::exp(self.to_f32())) }
            #[inline(always)]
            fn ln(self) -> Self { $t::from_f32(Real::ln(self.to_f32())) }
            #[inline(always)]
            fn sin(self) -> Self { $t::from_f32(Real::sin(self.to_f32())) }
            #[inline(always)]
            fn cos(self) -> Self { $t::from_f32(Real::cos(self.to_f32())) }
            #[inline(always)]
            fn tanh(self) -> Self { $t::from_f32(Real::tanh(self.to_f32())) }
            #[inline(always)]
            fn powf(self, n: Self) -> Self {
                $t::from_f32(Real::powf(self.to_f32(), n.to_f32()))
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self { $t::from_f32(Real::powi(self.to_f32(), n)) }
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
