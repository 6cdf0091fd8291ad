//! Math functions of kernel expressions (`sqrt(a[i])`, `powi(x[i], 2)`),
//! usable without `std`.
//!
//! Generated kernels call these free functions instead of the inherent
//! float methods, which exist only with `std`. With sparse-core's `std`
//! feature they are the inherent methods; without it, `f32` uses
//! `micromath` (feature `micromath`: fast approximations, see micromath's
//! docs for their accuracy). `f64` without `std` has no implementation, and
//! the compiler says so at the kernel, naming the feature to enable.
//!
//! `abs`, `max` and `min` are in `core` for every element type, so
//! kernel expressions call them as methods directly; closures of semiring
//! operations get them as free functions ([`abs`], [`max`], [`min`]).

#[cfg(feature = "complex")]
pub mod complex;
#[cfg(feature = "half")]
mod half;

/// Floating-point math for kernel expressions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` math functions in a sparse kernel need sparse-core's `std` feature",
    label = "this math call needs `sparse-core/std` (or, for `f32` only, `sparse-core/micromath`)",
    note = "enable the feature on the `sparse-core` dependency: `features = [\"std\"]`, or for f32 kernels without std, `features = [\"micromath\"]`"
)]
pub trait Real: Copy {
    /// Square root.
    fn sqrt(self) -> Self;
    /// `e^x`.
    fn exp(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Sine (radians).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// `self^n` for a float exponent.
    fn powf(self, n: Self) -> Self;
    /// `self^n` for an integer exponent.
    fn powi(self, n: i32) -> Self;
}

#[cfg(feature = "std")]
macro_rules! std_real {
    ($($t:ty),*) => {$(
        impl Real for $t {
            #[inline(always)]
            fn sqrt(self) -> Self { <$t>::sqrt(self) }
            #[inline(always)]
            fn exp(self) -> Self { <$t>::exp(self) }
            #[inline(always)]
            fn ln(self) -> Self { <$t>::ln(self) }
            #[inline(always)]
            fn sin(self) -> Self { <$t>::sin(self) }
            #[inline(always)]
            fn cos(self) -> Self { <$t>::cos(self) }
            #[inline(always)]
            fn tanh(self) -> Self { <$t>::tanh(self) }
            #[inline(always)]
            fn powf(self, n: Self) -> Self { <$t>::powf(self, n) }
            #[inline(always)]
            fn powi(self, n: i32) -> Self { <$t>::powi(self, n) }
        }
    )*};
}
#[cfg(feature = "std")]
std_real!(f32, f64);

#[cfg(all(not(feature = "std"), feature = "micromath"))]
impl Real for f32 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        micromath::F32Ext::sqrt(self)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        micromath::F32Ext::exp(self)
    }
    #[inline(always)]
    fn ln(self) -> Self {
        micromath::F32Ext::ln(self)
    }
    #[inline(always)]
    fn sin(self) -> Self {
        micromath::F32Ext::sin(self)
    }
    #[inline(always)]
    fn cos(self) -> Self {
        micromath::F32Ext::cos(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        // micromath has no `tanh`: `1 - 2 / (e^2x + 1)` from its `exp`,
        // which saturates to +-1 where `e^2x` overflows or vanishes.
        1.0 - 2.0 / (micromath::F32Ext::exp(2.0 * self) + 1.0)
    }
    #[inline(always)]
    fn powf(self, n: Self) -> Self {
        micromath::F32Ext::powf(self, n)
    }
    #[inline(always)]
    fn powi(self, n: i32) -> Self {
        micromath::F32Ext::powi(self, n)
    }
}

/// Square root.
#[inline(always)]
pub fn sqrt<T: Real>(x: T) -> T {
    x.sqrt()
}
/// `e^x`.
#[inline(always)]
pub fn exp<T: Real>(x: T) -> T {
    x.exp()
}
/// Natural logarithm.
#[inline(always)]
pub fn ln<T: Real>(x: T) -> T {
    x.ln()
}
/// Sine.
#[inline(always)]
pub fn sin<T: Real>(x: T) -> T {
    x.sin()
}
/// Cosine.
#[inline(always)]
pub fn cos<T: Real>(x: T) -> T {
    x.cos()
}
/// Hyperbolic tangent.
#[inline(always)]
pub fn tanh<T: Real>(x: T) -> T {
    x.tanh()
}
/// `x^n`, float exponent.
#[inline(always)]
pub fn powf<T: Real>(x: T, n: T) -> T {
    x.powf(n)
}
/// `x^n`, integer exponent.
#[inline(always)]
pub fn powi<T: Real>(x: T, n: i32) -> T {
    x.powi(n)
}

/// `abs`, `max` and `min` for every element type, which `core` has as
/// inherent methods; the free functions let closures of semiring
/// operations write `max(x, y)` as kernel expressions do.
pub trait Ordered: Copy {
    /// The absolute value (the value itself for unsigned types).
    fn abs_value(self) -> Self;
    /// The larger of two values (for floats, `f64::max`: a NaN loses).
    fn max_value(self, other: Self) -> Self;
    /// The smaller of two values.
    fn min_value(self, other: Self) -> Self;
}

macro_rules! ordered {
    (float: $($t:ty),*) => {$(
        impl Ordered for $t {
            #[inline(always)]
            fn abs_value(self) -> Self { <$t>::abs(self) }
            #[inline(always)]
            fn max_value(self, other: Self) -> Self { <$t>::max(self, other) }
            #[inline(always)]
            fn min_value(self, other: Self) -> Self { <$t>::min(self, other) }
        }
    )*};
    (signed: $($t:ty),*) => {$(
        impl Ordered for $t {
            #[inline(always)]
            fn abs_value(self) -> Self { <$t>::wrapping_abs(self) }
            #[inline(always)]
            fn max_value(self, other: Self) -> Self { Ord::max(self, other) }
            #[inline(always)]
            fn min_value(self, other: Self) -> Self { Ord::min(self, other) }
        }
    )*};
    (unsigned: $($t:ty),*) => {$(
        impl Ordered for $t {
            #[inline(always)]
            fn abs_value(self) -> Self { self }
            #[inline(always)]
            fn max_value(self, other: Self) -> Self { Ord::max(self, other) }
            #[inline(always)]
            fn min_value(self, other: Self) -> Self { Ord::min(self, other) }
        }
    )*};
}
ordered!(float: f32, f64);
ordered!(signed: i8, i16, i32, i64, isize);
ordered!(unsigned: u8, u16, u32, u64, usize);

/// Absolute value.
#[inline(always)]
pub fn abs<T: Ordered>(x: T) -> T {
    x.abs_value()
}
/// The larger of `x` and `y`.
#[inline(always)]
pub fn max<T: Ordered>(x: T, y: T) -> T {
    x.max_value(y)
}
/// The smaller of `x` and `y`.
#[inline(always)]
pub fn min<T: Ordered>(x: T, y: T) -> T {
    x.min_value(y)
}

/// Integer division as kernel expressions define it: never a panic.
///
/// Kernels promise to panic on no value, and MLIR's `arith.divsi` /
/// `divui` leave division by zero undefined; kernels define it as 0 (what
/// a Cortex-M3/M4/M33 `sdiv`/`udiv` returns with divide-by-zero trapping
/// off), and `MIN / -1` wraps to `MIN` as the other integer operations
/// wrap.
pub trait IntDiv: Copy {
    /// `self / d`, 0 where `d` is 0, wrapping on `MIN / -1`.
    fn div_or_zero(self, d: Self) -> Self;
}

macro_rules! int_div {
    ($($t:ty),*) => {$(
        impl IntDiv for $t {
            #[inline(always)]
            fn div_or_zero(self, d: Self) -> Self {
                match self.checked_div(d) {
                    Some(q) => q,
                    // Only `MIN / -1` overflows; it wraps to `MIN`.
                    None if d != 0 => self.wrapping_div(d),
                    None => 0,
                }
            }
        }
    )*};
}
int_div!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// `x / y` for integers: 0 where `y` is 0 (see [`IntDiv`]).
#[inline(always)]
pub fn int_div<T: IntDiv>(x: T, y: T) -> T {
    x.div_or_zero(y)
}

#[cfg(test)]
mod int_tests {
    #[test]
    fn integer_division_never_panics() {
        assert_eq!(super::int_div(7i32, 2), 3);
        assert_eq!(super::int_div(-7i32, 2), -3);
        assert_eq!(super::int_div(7i32, 0), 0);
        assert_eq!(super::int_div(i8::MIN, -1), i8::MIN);
        assert_eq!(super::int_div(i64::MIN, -1), i64::MIN);
        assert_eq!(super::int_div(200u8, 0), 0);
        assert_eq!(super::int_div(200u8, 3), 66);
        assert_eq!(super::int_div(usize::MAX, 0), 0);
    }
}

#[cfg(all(test, any(feature = "std", feature = "micromath")))]
mod tests {
    #[test]
    fn f32_functions_are_close_to_exact_values() {
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-3 * b.abs().max(1.0);
        assert!(close(super::sqrt(16.0f32), 4.0));
        assert!(close(super::exp(1.0f32), core::f32::consts::E));
        assert!(close(super::ln(core::f32::consts::E), 1.0));
        assert!(close(super::sin(0.5f32), 0.479_425_5));
        assert!(close(super::cos(0.5f32), 0.877_582_6));
        assert!(close(super::powf(2.0f32, 10.0), 1024.0));
        assert!(close(super::powi(3.0f32, 3), 27.0));
    }

    #[test]
    fn ordered_functions_cover_every_element_type() {
        assert_eq!(super::max(2.0f64, -3.0), 2.0);
        assert_eq!(super::min(2.0f32, -3.0), -3.0);
        assert_eq!(super::abs(-2.5f64), 2.5);
        assert_eq!(super::abs(-7i32), 7);
        assert_eq!(super::abs(i8::MIN), i8::MIN);
        assert_eq!(super::max(3u16, 9), 9);
        assert_eq!(super::min(-4i64, 2), -4);
    }

    #[cfg(feature = "std")]
    #[test]
    fn f64_functions_are_the_inherent_methods() {
        assert_eq!(super::sqrt(2.0f64), 2.0f64.sqrt());
        assert_eq!(super::powi(1.5f64, 3), 3.375);
        assert_eq!(super::ln(1.0f64), 0.0);
    }
}
