//! How a conversion combines entries stored at one coordinate: refused,
//! combined by a kernel's own (wrapping) sum, or summed with overflow
//! checked.
//!
//! Conversions that sum for a user (`convert_sum`, `to_dense`, the file
//! readers) must not lose data silently, in debug or release builds: a
//! sum of integers that overflows is [`ConvertError::SumOverflow`]. Their
//! bound stays `V: Add` (any element type a user has), so the check picks
//! the primitive integer types by their `TypeId` (safe `Any` downcasts,
//! hence `V: 'static`) and adds everything else with `+`: floats round
//! (to an infinity at worst, which is not silent), and a user's own type
//! means what its `Add` means.

use core::any::Any;
use core::ops::Add;

use super::error::{ConvertError, Coordinates};

/// How repeated coordinates are merged.
pub(crate) enum Merge<V> {
    /// Repeats are an error ([`ConvertError::Duplicate`]).
    Refuse,
    /// Repeats combined by a function that cannot fail: the sum a kernel
    /// means, which wraps for integers as MLIR's `arith` does.
    Total(fn(V, V) -> V),
    /// Repeats summed; `None` when the sum does not fit the type.
    Checked(fn(V, V) -> Option<V>),
}

// Not derived: a derive would ask `V: Copy`, and fn pointers are `Copy`
// whatever `V` is.
impl<V> Clone for Merge<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Merge<V> {}

/// Why two entries could not be merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unmerged {
    /// The conversion refuses repeats.
    Refused,
    /// The sum overflows the element type.
    Overflow,
}

impl Unmerged {
    /// The error for entries merged at dimension coordinates `at`.
    pub(crate) fn error(self, at: &[usize]) -> ConvertError {
        match self {
            Unmerged::Refused => ConvertError::Duplicate,
            Unmerged::Overflow => ConvertError::SumOverflow {
                at: Coordinates::new(at),
            },
        }
    }
}

impl<V> Merge<V> {
    /// The checked sum of `convert_sum`, `to_dense` and the readers.
    pub(crate) fn sum() -> Self
    where
        V: Add<Output = V> + 'static,
    {
        Merge::Checked(checked_add::<V>)
    }
    /// Whether repeats are refused.
    pub(crate) fn refuses(&self) -> bool {
        matches!(self, Merge::Refuse)
    }
    /// `a` and `b` (stored at one coordinate) merged.
    #[inline]
    pub(crate) fn apply(self, a: V, b: V) -> Result<V, Unmerged> {
        match self {
            Merge::Refuse => Err(Unmerged::Refused),
            Merge::Total(f) => Ok(f(a, b)),
            Merge::Checked(f) => f(a, b).ok_or(Unmerged::Overflow),
        }
    }
}

/// `a + b`, `None` if `V` is a primitive integer type and the sum
/// overflows it.
pub(crate) fn checked_add<V: Add<Output = V> + 'static>(mut a: V, b: V) -> Option<V> {
    macro_rules! integers {
        ($($t:ty),*) => {$(
            if let (Some(x), Some(y)) = (
                (&mut a as &mut dyn Any).downcast_mut::<$t>(),
                (&b as &dyn Any).downcast_ref::<$t>(),
            ) {
                *x = x.checked_add(*y)?;
                return Some(a);
            }
        )*};
    }
    integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    Some(a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_sums_overflow_into_none_other_sums_add() {
        assert_eq!(checked_add(100i8, 27), Some(127));
        assert_eq!(checked_add(100i8, 100), None);
        assert_eq!(checked_add(-100i8, -100), None);
        assert_eq!(checked_add(u64::MAX, 1), None);
        assert_eq!(checked_add(usize::MAX - 1, 1), Some(usize::MAX));
        assert_eq!(checked_add(i64::MIN, -1), None);
        assert_eq!(checked_add(1.5f32, 2.0), Some(3.5));
        assert_eq!(checked_add(f64::MAX, f64::MAX), Some(f64::INFINITY));
        // A type of the user's: its own `+`.
        #[derive(Debug, PartialEq)]
        struct Max(u8);
        impl Add for Max {
            type Output = Max;
            fn add(self, o: Max) -> Max {
                Max(self.0.max(o.0))
            }
        }
        assert_eq!(checked_add(Max(200), Max(100)), Some(Max(200)));
    }

    #[test]
    fn merges_name_the_coordinate() {
        let m = Merge::<i8>::sum();
        assert_eq!(m.apply(1, 2), Ok(3));
        assert_eq!(m.apply(100, 100), Err(Unmerged::Overflow));
        assert_eq!(
            Unmerged::Overflow.error(&[3, 4]),
            ConvertError::SumOverflow {
                at: Coordinates::new(&[3, 4])
            }
        );
        assert_eq!(Merge::<i8>::Refuse.apply(1, 2), Err(Unmerged::Refused));
        assert_eq!(
            Merge::<i8>::Total(i8::wrapping_add).apply(100, 100),
            Ok(-56)
        );
    }
}
