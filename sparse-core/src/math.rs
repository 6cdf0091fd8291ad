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
//! `abs`, `max`, `min` and `clamp` are free functions over [`Ordered`]
//! (every real element type), for generated kernels and for closures of
//! semiring operations, which write `max(x, y)` as kernel expressions do.
//! The integer operators that Rust would panic on in debug builds are
//! functions with one meaning in every profile: [`int_div`], [`shl`],
//! [`shr`].

mod bits;
#[cfg(feature = "complex")]
pub mod complex;
#[cfg(feature = "half")]
mod half;

/// For semiring regions, whose closures call math functions by name.
pub use crate::quant::requantize;
pub use bits::{clamp, shl, shr, Shift, ShiftAmount};

/// Floating-point math for kernel expressions.
///
/// Where each backend gets its functions, and so their precision (see the
/// kernel-language chapter, "Math functions"):
///
/// - `std`: the inherent methods of `f32`/`f64` (correctly rounded or
///   within an ulp or two, as the platform's libm); `sigmoid` is
///   `1 / (1 + e^-x)` and `rsqrt` `1 / sqrt(x)` on them.
/// - no `std`, feature `libm`: the `libm` crate (a port of musl's libm,
///   within an ulp or so) for `f32` and `f64`.
/// - no `std`, no `libm`, feature `micromath`: `f32` only, micromath's fast
///   approximations (relative errors around 1e-3 to 1e-4 for the
///   transcendental functions; exact for `floor`, `ceil`, `round`,
///   `trunc`, `copysign`); `tanh`, `exp2`, `expm1`, `log1p` and `sigmoid`
///   are computed from its `exp`/`ln` (so `expm1`/`log1p` lose the
///   precision near 0 that their names promise).
///
/// `erf` is in [`Erf`], which only `libm` provides.
#[diagnostic::on_unimplemented(
    message = "`{Self}` math functions in a sparse kernel need sparse-core's `std` feature",
    label = "this math call needs `sparse-core/std` or `sparse-core/libm` (or, for `f32` only, `sparse-core/micromath`)",
    note = "enable the feature on the `sparse-core` dependency: `features = [\"std\"]`, or without std `features = [\"libm\"]`, or for f32 kernels `features = [\"micromath\"]`"
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
    /// Tangent (radians).
    fn tan(self) -> Self;
    /// Arctangent (radians).
    fn atan(self) -> Self;
    /// `2^x`.
    fn exp2(self) -> Self;
    /// `e^x - 1`.
    fn expm1(self) -> Self;
    /// `ln(1 + x)`.
    fn log1p(self) -> Self;
    /// Base-2 logarithm.
    fn log2(self) -> Self;
    /// Base-10 logarithm.
    fn log10(self) -> Self;
    /// The logistic function `1 / (1 + e^-x)`.
    fn sigmoid(self) -> Self;
    /// `1 / sqrt(x)`.
    fn rsqrt(self) -> Self;
    /// The largest integer not above `x`.
    fn floor(self) -> Self;
    /// The smallest integer not below `x`.
    fn ceil(self) -> Self;
    /// The nearest integer, halfway cases away from zero.
    fn round(self) -> Self;
    /// The integer part (towards zero).
    fn trunc(self) -> Self;
    /// `self`'s magnitude with `sign`'s sign.
    fn copysign(self, sign: Self) -> Self;
}

/// The error function, for kernel expressions (`erf(x)`): `libm`'s, with
/// or without `std` (the standard library's `erf` is not stable).
#[diagnostic::on_unimplemented(
    message = "`erf` in a sparse kernel needs sparse-core's `libm` feature",
    label = "this call needs `sparse-core/libm`",
    note = "enable it on the `sparse-core` dependency: `features = [\"libm\"]`"
)]
pub trait Erf: Copy {
    /// The error function.
    fn erf(self) -> Self;
}

#[cfg(feature = "libm")]
impl Erf for f32 {
    #[inline(always)]
    fn erf(self) -> Self {
        libm::erff(self)
    }
}
#[cfg(feature = "libm")]
impl Erf for f64 {
    #[inline(always)]
    fn erf(self) -> Self {
        libm::erf(self)
    }
}

#[cfg(feature = "std")]
macro_rules! std_real {
    ($($t:ty),*) => {$(
        impl Real for $t {
            #[inline(always)] fn sqrt(self) -> Self { <$t>::sqrt(self) }
            #[inline(always)] fn exp(self) -> Self { <$t>::exp(self) }
            #[inline(always)] fn ln(self) -> Self { <$t>::ln(self) }
            #[inline(always)] fn sin(self) -> Self { <$t>::sin(self) }
            #[inline(always)] fn cos(self) -> Self { <$t>::cos(self) }
            #[inline(always)] fn tanh(self) -> Self { <$t>::tanh(self) }
            #[inline(always)] fn powf(self, n: Self) -> Self { <$t>::powf(self, n) }
            #[inline(always)] fn powi(self, n: i32) -> Self { <$t>::powi(self, n) }
            #[inline(always)] fn tan(self) -> Self { <$t>::tan(self) }
            #[inline(always)] fn atan(self) -> Self { <$t>::atan(self) }
            #[inline(always)] fn exp2(self) -> Self { <$t>::exp2(self) }
            #[inline(always)] fn expm1(self) -> Self { <$t>::exp_m1(self) }
            #[inline(always)] fn log1p(self) -> Self { <$t>::ln_1p(self) }
            #[inline(always)] fn log2(self) -> Self { <$t>::log2(self) }
            #[inline(always)] fn log10(self) -> Self { <$t>::log10(self) }
            #[inline(always)] fn sigmoid(self) -> Self { 1.0 / (1.0 + <$t>::exp(-self)) }
            #[inline(always)] fn rsqrt(self) -> Self { 1.0 / <$t>::sqrt(self) }
            #[inline(always)] fn floor(self) -> Self { <$t>::floor(self) }
            #[inline(always)] fn ceil(self) -> Self { <$t>::ceil(self) }
            #[inline(always)] fn round(self) -> Self { <$t>::round(self) }
            #[inline(always)] fn trunc(self) -> Self { <$t>::trunc(self) }
            #[inline(always)] fn copysign(self, sign: Self) -> Self { <$t>::copysign(self, sign) }
        }
    )*};
}
#[cfg(feature = "std")]
std_real!(f32, f64);

#[cfg(all(not(feature = "std"), feature = "libm"))]
macro_rules! libm_real {
    ($($t:ty => $sqrt:ident $exp:ident $ln:ident $sin:ident $cos:ident $tanh:ident $pow:ident
        $tan:ident $atan:ident $exp2:ident $expm1:ident $log1p:ident $log2:ident $log10:ident
        $floor:ident $ceil:ident $round:ident $trunc:ident $copysign:ident;)*) => {$(
        impl Real for $t {
            #[inline(always)] fn sqrt(self) -> Self { libm::$sqrt(self) }
            #[inline(always)] fn exp(self) -> Self { libm::$exp(self) }
            #[inline(always)] fn ln(self) -> Self { libm::$ln(self) }
            #[inline(always)] fn sin(self) -> Self { libm::$sin(self) }
            #[inline(always)] fn cos(self) -> Self { libm::$cos(self) }
            #[inline(always)] fn tanh(self) -> Self { libm::$tanh(self) }
            #[inline(always)] fn powf(self, n: Self) -> Self { libm::$pow(self, n) }
            #[inline(always)] fn powi(self, n: i32) -> Self { libm::$pow(self, n as $t) }
            #[inline(always)] fn tan(self) -> Self { libm::$tan(self) }
            #[inline(always)] fn atan(self) -> Self { libm::$atan(self) }
            #[inline(always)] fn exp2(self) -> Self { libm::$exp2(self) }
            #[inline(always)] fn expm1(self) -> Self { libm::$expm1(self) }
            #[inline(always)] fn log1p(self) -> Self { libm::$log1p(self) }
            #[inline(always)] fn log2(self) -> Self { libm::$log2(self) }
            #[inline(always)] fn log10(self) -> Self { libm::$log10(self) }
            #[inline(always)] fn sigmoid(self) -> Self { 1.0 / (1.0 + libm::$exp(-self)) }
            #[inline(always)] fn rsqrt(self) -> Self { 1.0 / libm::$sqrt(self) }
            #[inline(always)] fn floor(self) -> Self { libm::$floor(self) }
            #[inline(always)] fn ceil(self) -> Self { libm::$ceil(self) }
            #[inline(always)] fn round(self) -> Self { libm::$round(self) }
            #[inline(always)] fn trunc(self) -> Self { libm::$trunc(self) }
            #[inline(always)] fn copysign(self, sign: Self) -> Self { libm::$copysign(self, sign) }
        }
    )*};
}
#[cfg(all(not(feature = "std"), feature = "libm"))]
libm_real! {
    f32 => sqrtf expf logf sinf cosf tanhf powf tanf atanf exp2f expm1f log1pf log2f log10f
        floorf ceilf roundf truncf copysignf;
    f64 => sqrt exp log sin cos tanh pow tan atan exp2 expm1 log1p log2 log10
        floor ceil round trunc copysign;
}

#[cfg(all(not(feature = "std"), not(feature = "libm"), feature = "micromath"))]
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
    #[inline(always)]
    fn tan(self) -> Self {
        micromath::F32Ext::tan(self)
    }
    #[inline(always)]
    fn atan(self) -> Self {
        micromath::F32Ext::atan(self)
    }
    #[inline(always)]
    fn exp2(self) -> Self {
        micromath::F32Ext::exp(self * core::f32::consts::LN_2)
    }
    #[inline(always)]
    fn expm1(self) -> Self {
        micromath::F32Ext::exp(self) - 1.0
    }
    #[inline(always)]
    fn log1p(self) -> Self {
        micromath::F32Ext::ln(1.0 + self)
    }
    #[inline(always)]
    fn log2(self) -> Self {
        micromath::F32Ext::log2(self)
    }
    #[inline(always)]
    fn log10(self) -> Self {
        micromath::F32Ext::log10(self)
    }
    #[inline(always)]
    fn sigmoid(self) -> Self {
        1.0 / (1.0 + micromath::F32Ext::exp(-self))
    }
    #[inline(always)]
    fn rsqrt(self) -> Self {
        1.0 / micromath::F32Ext::sqrt(self)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        micromath::F32Ext::floor(self)
    }
    #[inline(always)]
    fn ceil(self) -> Self {
        micromath::F32Ext::ceil(self)
    }
    #[inline(always)]
    fn round(self) -> Self {
        micromath::F32Ext::round(self)
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        micromath::F32Ext::trunc(self)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        micromath::F32Ext::copysign(self, sign)
    }
}

macro_rules! free_functions {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<T: Real>(x: T $(, $arg: $ty)*) -> T {
            x.$name($($arg),*)
        }
    )*};
}

free_functions! {
    /// Square root.
    sqrt();
    /// `e^x`.
    exp();
    /// Natural logarithm.
    ln();
    /// Sine.
    sin();
    /// Cosine.
    cos();
    /// Hyperbolic tangent.
    tanh();
    /// `x^n`, float exponent.
    powf(n: T);
    /// `x^n`, integer exponent.
    powi(n: i32);
    /// Tangent.
    tan();
    /// Arctangent.
    atan();
    /// `2^x`.
    exp2();
    /// `e^x - 1`.
    expm1();
    /// `ln(1 + x)`.
    log1p();
    /// Base-2 logarithm.
    log2();
    /// Base-10 logarithm.
    log10();
    /// The logistic function `1 / (1 + e^-x)`.
    sigmoid();
    /// `1 / sqrt(x)`.
    rsqrt();
    /// Rounds down.
    floor();
    /// Rounds up.
    ceil();
    /// Rounds to nearest, halfway cases away from zero.
    round();
    /// Rounds towards zero.
    trunc();
    /// `x`'s magnitude with `sign`'s sign.
    copysign(sign: T);
}

/// The error function (needs the `libm` feature).
#[inline(always)]
pub fn erf<T: Erf>(x: T) -> T {
    x.erf()
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
