//! Element types a file can be read into and written from.

use core::fmt::Display;
use core::ops::Add;

mod sealed {
    pub trait Sealed {}
}

/// An element type of files: `f32`, `f64` and the integer types. Sealed.
///
/// Reading converts each value to the type: a `real` value into an integer
/// type must be integral and in range, an `integer` value into any type
/// must be in range; `pattern` entries are 1.
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
}

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
