//! Math functions of `complex<f32>`/`complex<f64>` elements (feature
//! `complex`): kernel expressions call `exp(z)`, `abs(z)`, ... on complex
//! operands through these, as MLIR's `complex` dialect defines them
//! (`complex.abs` is the modulus, a real number; `complex.log` the
//! principal branch). They are `num_complex`'s, which need `std` or `libm`
//! for the real functions underneath; `conj`, `re` and `im` need neither.

use num_complex::Complex;

/// Complex math for kernel expressions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` math functions in a sparse kernel need sparse-core's `std` or `libm` feature",
    label = "this math call needs `sparse-core/std` or `sparse-core/libm`",
    note = "enable one on the `sparse-core` dependency: `features = [\"complex\", \"std\"]` or `features = [\"complex\", \"libm\"]`"
)]
pub trait ComplexMath: Copy {
    /// The type of the parts (`f32` for `Complex<f32>`).
    type Part;
    /// `e^z`.
    fn exp(self) -> Self;
    /// The principal natural logarithm.
    fn ln(self) -> Self;
    /// The principal square root.
    fn sqrt(self) -> Self;
    /// Sine.
    fn sin(self) -> Self;
    /// Cosine.
    fn cos(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// `self^n` for a complex exponent (principal branch).
    fn powf(self, n: Self) -> Self;
    /// The modulus `|z|`.
    fn abs(self) -> Self::Part;
}

#[cfg(any(feature = "std", feature = "libm"))]
macro_rules! complex_math {
    ($($t:ty),*) => {$(
        impl ComplexMath for Complex<$t> {
            type Part = $t;
            #[inline(always)]
            fn exp(self) -> Self { Complex::exp(self) }
            #[inline(always)]
            fn ln(self) -> Self { Complex::ln(self) }
            #[inline(always)]
            fn sqrt(self) -> Self { Complex::sqrt(self) }
            #[inline(always)]
            fn sin(self) -> Self { Complex::sin(self) }
            #[inline(always)]
            fn cos(self) -> Self { Complex::cos(self) }
            #[inline(always)]
            fn tanh(self) -> Self { Complex::tanh(self) }
            #[inline(always)]
            fn powf(self, n: Self) -> Self { Complex::powc(self, n) }
            #[inline(always)]
            fn abs(self) -> $t { Complex::norm(self) }
        }
    )*};
}
#[cfg(any(feature = "std", feature = "libm"))]
complex_math!(f32, f64);

/// `e^z`.
#[inline(always)]
pub fn exp<T: ComplexMath>(z: T) -> T {
    z.exp()
}
/// The principal natural logarithm.
#[inline(always)]
pub fn ln<T: ComplexMath>(z: T) -> T {
    z.ln()
}
/// The principal square root.
#[inline(always)]
pub fn sqrt<T: ComplexMath>(z: T) -> T {
    z.sqrt()
}
/// Sine.
#[inline(always)]
pub fn sin<T: ComplexMath>(z: T) -> T {
    z.sin()
}
/// Cosine.
#[inline(always)]
pub fn cos<T: ComplexMath>(z: T) -> T {
    z.cos()
}
/// Hyperbolic tangent.
#[inline(always)]
pub fn tanh<T: ComplexMath>(z: T) -> T {
    z.tanh()
}
/// `z^n`, complex exponent.
#[inline(always)]
pub fn powf<T: ComplexMath>(z: T, n: T) -> T {
    z.powf(n)
}
/// The modulus `|z|` (MLIR's `complex.abs`).
#[inline(always)]
pub fn abs<T: ComplexMath>(z: T) -> T::Part {
    z.abs()
}
/// The complex conjugate.
#[inline(always)]
pub fn conj<T: Clone + core::ops::Neg<Output = T>>(z: Complex<T>) -> Complex<T> {
    Complex::new(z.re, -z.im)
}
/// The real part.
#[inline(always)]
pub fn re<T>(z: Complex<T>) -> T {
    z.re
}
/// The imaginary part.
#[inline(always)]
pub fn im<T>(z: Complex<T>) -> T {
    z.im
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn functions_agree_with_their_definitions() {
        let z = Complex::new(1.0f64, 2.0);
        assert_eq!(abs(Complex::new(3.0f64, 4.0)), 5.0);
        assert_eq!(conj(z), Complex::new(1.0, -2.0));
        assert_eq!((re(z), im(z)), (1.0, 2.0));
        // e^(1+2i) = e (cos 2 + i sin 2)
        let e = exp(z);
        assert!((e.re - 1f64.exp() * 2f64.cos()).abs() < 1e-12);
        assert!((e.im - 1f64.exp() * 2f64.sin()).abs() < 1e-12);
        assert!((exp(ln(z)) - z).norm() < 1e-12);
        assert!((sqrt(z) * sqrt(z) - z).norm() < 1e-12);
    }
}
