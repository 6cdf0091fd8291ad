//! Index widths: the integer types positions and coordinates are stored in.

mod sealed {
    pub trait Sealed {}
}

/// An unsigned integer type used for positions or coordinates
/// (`posWidth`/`crdWidth` 8, 16, 32, 64, or 0 for `usize`).
///
/// Sealed: only `u8`, `u16`, `u32`, `u64` and `usize` implement it, so the
/// conversions below are the whole contract the validators rely on.
pub trait Index: sealed::Sealed + Copy + Ord + Eq + core::fmt::Debug + core::fmt::Display {
    /// Bits of the type as written in an encoding (0 for `usize`).
    const WIDTH: u32;
    /// The largest value, widened to `u64`.
    const MAX: u64;
    /// The value as a `usize`, `None` if it does not fit the target's `usize`.
    fn to_usize(self) -> Option<usize>;
    /// The value as a `usize`, truncating on 16/32-bit targets. Only for
    /// values already checked by [`Index::to_usize`] (validated storage).
    fn as_usize(self) -> usize;
    /// A `usize` narrowed to this type, `None` if it does not fit.
    fn from_usize(value: usize) -> Option<Self>;
    /// The value widened to `u64` (lossless for every width), for error
    /// reports about values that may not fit `usize`.
    fn to_u64(self) -> u64;
}

macro_rules! impl_index {
    ($($t:ty => $w:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl Index for $t {
            const WIDTH: u32 = $w;
            const MAX: u64 = <$t>::MAX as u64;
            #[inline(always)]
            fn to_usize(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline(always)]
            fn as_usize(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn from_usize(value: usize) -> Option<Self> {
                <$t>::try_from(value).ok()
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    )*};
}

impl_index!(u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => 0);
