//! Element types a file can be read into and written from.

use core::fmt::{self, Display};
use core::ops::Add;

mod sealed {
    pub trait Sealed {}
}

/// An element type of files: `f32`, `f64`, the integer types, and with
/// their features `f16`/`bf16` and `Complex<f32>`/`Complex<f64>`. Sealed.
///
/// Reading converts each value to the type: a `real` value into an integer
/// type must be integral and in range, an `integer` value into any type
/// must be in range; `pattern` entries are 1. A half type reads the value
/// as `f64` and rounds it to nearest even. A complex type reads `complex`
/// files (two numbers per value, real part first) and real or integer ones
/// (imaginary part 0); `complex` files into a real type are an error at
/// the value.
pub trait FileValue:
    sealed::Sealed + Clone + Default + PartialEq + Add<Output = Self> + Display + 'static
{
    /// Whether the type is written as Matrix Market's `integer` field
    /// (else `real`).
    const INTEGER: bool;
    /// A `real` (or `double`) token.
    fn parse_real(token: &str) -> Option<Self>;
    /// An `integer` token.
    fn parse_integer(token: &str) -> Option<Self>;
    /// The value of a `pattern` entry.
    fn one() -> Self;
    /// The negation (skew-symmetric mirrors), `None` if the type has none
    /// for this value.
    fn negate(&self) -> Option<Self>;
    /// Whether values are complex: written as Matrix Market's `complex`
    /// field and as two numbers per value.
    const COMPLEX: bool = false;
    /// A `complex` value from its two tokens; `None` for real types.
    fn parse_complex(_re: &str, _im: &str) -> Option<Self> {
        None
    }
    /// The mirror of a `hermitian` entry: the conjugate (the value itself
    /// for real types).
    fn conjugate(&self) -> Self {
        self.clone()
    }
    /// Writes the value as a file holds it (a complex number as `re im`).
    fn write_value(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(self, f)
    }
}

/// A value displayed as files hold it ([`FileValue::write_value`]).
pub(crate) struct InFile<'v, V>(pub(crate) &'v V);

impl<V: FileValue> Display for InFile<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_value(f)
    }
}

#[cfg(feature = "half")]
macro_rules! half_value {
    ($($t:ident),*) => {$(
        impl sealed::Sealed for half::$t {}
        impl FileValue for half::$t {
            const INTEGER: bool = false;
            fn parse_real(token: &str) -> Option<Self> {
                token.parse::<f64>().ok().map(half::$t::from_f64)
            }
            fn parse_integer(token: &str) -> Option<Self> {
                token.parse::<i128>().ok().map(|x| half::$t::from_f64(x as f64))
            }
            fn one() -> Self {
                half::$t::ONE
            }
            fn negate(&self) -> Option<Self> {
                Some(-*self)
            }
        }
    )*};
}
#[cfg(feature = "half")]
half_value!(f16, bf16);

#[cfg(feature = "complex")]
macro_rules! complex_value {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for num_complex::Complex<$t> {}
        impl FileValue for num_complex::Complex<$t> {
            const INTEGER: bool = false;
            const COMPLEX: bool = true;
            fn parse_real(token: &str) -> Option<Self> {
                token.parse::<$t>().ok().map(|x| num_complex::Complex::new(x, 0.0))
            }
            fn parse_integer(token: &str) -> Option<Self> {
                token
                    .parse::<i128>()
                    .ok()
                    .map(|x| num_complex::Complex::new(x as $t, 0.0))
            }
            fn parse_complex(re: &str, im: &str) -> Option<Self> {
                Some(num_complex::Complex::new(re.parse().ok()?, im.parse().ok()?))
            }
            fn one() -> Self {
                num_complex::Complex::new(1.0, 0.0)
            }
            fn negate(&self) -> Option<Self> {
                Some(-*self)
            }
            fn conjugate(&self) -> Self {
                self.conj()
            }
            fn write_value(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} {}", self.re, self.im)
            }
        }
    )*};
}
#[cfg(feature = "complex")]
complex_value!(f32, f64);

macro_rules! float_value {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl FileValue for $t {
            const INTEGER: bool = false;
            fn parse_real(token: &str) -> Option<Self> {
                token.parse::<$t>().ok()
            }
            fn parse_integer(token: &str) -> Option<Self> {
                token.parse::<i128>().ok().map(|x| x as $t)
            }
            fn one() -> Self {
                1.0
            }
            fn negate(&self) -> Option<Self> {
                Some(-*self)
            }
        }
    )*};
}
float_value!(f32, f64);

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl FileValue for $t {
            const INTEGER: bool = true;
            fn parse_real(token: &str) -> Option<Self> {
                if let Ok(x) = token.parse::<$t>() {
                    return Some(x);
                }
                let x = token.parse::<f64>().ok()?;
                // Integral and exactly representable: through i128, whose
                // range covers every integer type here.
                if !x.is_finite() || x.fract() != 0.0 || x.abs() >= 1.7e38 {
                    return None;
                }
                <$t>::try_from(x as i128).ok()
            }
            fn parse_integer(token: &str) -> Option<Self> {
                token.parse::<$t>().ok()
            }
            fn one() -> Self {
                1
            }
            fn negate(&self) -> Option<Self> {
                <$t>::try_from(-(i128::from(*self))).ok()
            }
        }
    )*};
}
int_value!(i8, i16, i32, i64, u8, u16, u32, u64);
