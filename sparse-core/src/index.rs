//! Index widths: the integer types positions and coordinates are stored in.

mod sealed {
    pub trait Sealed {}
}

/// An unsigned integer type used for positions or coordinates
/// (`posWidth`/`crdWidth` 8, 16, 32, 64, or 0 for `usize`), or
/// [`Packed2`], four 2-bit coordinates per byte (`crdWidth = 2`).
///
/// Sealed: only `u8`, `u16`, `u32`, `u64`, `usize` and `Packed2` implement
/// it, so the conversions below are the whole contract the validators rely
/// on. A buffer of `I` holds [`PER_ELEMENT`](Index::PER_ELEMENT) indices per
/// element; read and write them with [`get_at`](Index::get_at) and
/// [`set_at`](Index::set_at), which unpack.
pub trait Index: sealed::Sealed + Copy + Ord + Eq + core::fmt::Debug + core::fmt::Display {
    /// Indices stored per element of a buffer: 1, or 4 for [`Packed2`].
    const PER_ELEMENT: usize = 1;
    /// Index `q` of a buffer as a `usize`, `None` past its end (or if it
    /// does not fit `usize`).
    #[inline(always)]
    fn get_at(buffer: &[Self], q: usize) -> Option<usize> {
        buffer.get(q)?.to_usize()
    }
    /// Writes `value` as index `q` of a buffer; `false` (nothing written)
    /// past its end or if the value does not fit.
    #[inline(always)]
    fn set_at(buffer: &mut [Self], q: usize, value: usize) -> bool {
        match (buffer.get_mut(q), Self::from_usize(value)) {
            (Some(slot), Some(v)) => {
                *slot = v;
                true
            }
            _ => false,
        }
    }
    /// The number of elements that hold `count` indices.
    #[inline(always)]
    fn elements(count: usize) -> usize {
        count.div_ceil(Self::PER_ELEMENT)
    }
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
    /// A `usize` narrowed to this type, wrapping (an `as` cast). Only for
    /// values already known to fit (a count below a checked total), where
    /// [`Index::from_usize`]'s test per value would be paid for nothing.
    fn from_usize_wrapping(value: usize) -> Self;
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
            fn from_usize_wrapping(value: usize) -> Self {
                value as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    )*};
}

impl_index!(u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => 0);

/// Four 2-bit coordinates in one byte: the coordinate type of
/// `crdWidth = 2` (NVIDIA's 2:4 metadata), where a `structured[2, 4]`
/// level's in-group coordinates (0 to 3) cost 2 bits each instead of a
/// byte.
///
/// Coordinate `q` of a buffer lives in byte `q / 4`, bits `2 * (q % 4)`
/// and up: the first coordinate in the lowest bits. The unused fields of a
/// last, partly filled byte are 0 (`assemble` checks it). As an
/// [`Index`], a single `Packed2` reads as its byte; buffers of them are
/// read and written through [`Index::get_at`] and [`Index::set_at`].
///
/// ```
/// use sparse_core::{Index, Packed2};
/// // The coordinates 1, 3, 0, 2, 3 (two 2:4 groups and a half).
/// let crd = [Packed2::new([1, 3, 0, 2]), Packed2::new([3, 0, 0, 0])];
/// assert_eq!(crd[0].byte(), 0b10_00_11_01);
/// assert_eq!(Packed2::get_at(&crd, 4), Some(3));
/// assert_eq!(Packed2::elements(5), 2);
/// let mut packed = [Packed2::default(); 2];
/// assert_eq!(Packed2::pack(&[1, 3, 0, 2, 3], &mut packed), Some(2));
/// assert_eq!(packed, crd);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Packed2(pub u8);

impl Packed2 {
    /// Four coordinates (each below 4; higher bits are dropped) in one byte.
    pub const fn new(c: [u8; 4]) -> Self {
        Packed2((c[0] & 3) | (c[1] & 3) << 2 | (c[2] & 3) << 4 | (c[3] & 3) << 6)
    }
    /// The byte.
    pub const fn byte(self) -> u8 {
        self.0
    }
    /// The four coordinates, first in the lowest bits.
    pub const fn unpack(self) -> [u8; 4] {
        [
            self.0 & 3,
            self.0 >> 2 & 3,
            self.0 >> 4 & 3,
            self.0 >> 6 & 3,
        ]
    }
    /// Packs one coordinate per byte (each below 4) into `out`; returns
    /// the number of bytes written, or `None` (`out` unchanged past what
    /// fits) if `out` is too short or a coordinate is 4 or more.
    pub fn pack(coordinates: &[u8], out: &mut [Packed2]) -> Option<usize> {
        let bytes = coordinates.len().div_ceil(4);
        if out.len() < bytes || coordinates.iter().any(|&c| c > 3) {
            return None;
        }
        for (chunk, slot) in coordinates.chunks(4).zip(out.iter_mut()) {
            let mut c = [0u8; 4];
            for (d, s) in c.iter_mut().zip(chunk) {
                *d = *s;
            }
            *slot = Packed2::new(c);
        }
        Some(bytes)
    }
}

impl core::fmt::Debug for Packed2 {
    /// The four coordinates: `Packed2[1, 3, 0, 2]`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Packed2{:?}", self.unpack())
    }
}

impl core::fmt::Display for Packed2 {
    /// The four coordinates: `1 3 0 2`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let [a, b, c, d] = self.unpack();
        write!(f, "{a} {b} {c} {d}")
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Packed2 {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "Packed2{}", self.unpack());
    }
}

impl sealed::Sealed for Packed2 {}
impl Index for Packed2 {
    const WIDTH: u32 = 2;
    /// The largest coordinate a field holds.
    const MAX: u64 = 3;
    const PER_ELEMENT: usize = 4;
    #[inline(always)]
    fn to_usize(self) -> Option<usize> {
        Some(usize::from(self.0))
    }
    #[inline(always)]
    fn as_usize(self) -> usize {
        usize::from(self.0)
    }
    /// A coordinate below 4 as the byte holding it first (the others 0).
    #[inline(always)]
    fn from_usize(value: usize) -> Option<Self> {
        (value <= 3).then_some(Packed2(value as u8))
    }
    /// The low two bits, as the byte holding them first.
    #[inline(always)]
    fn from_usize_wrapping(value: usize) -> Self {
        Packed2((value & 3) as u8)
    }
    #[inline(always)]
    fn to_u64(self) -> u64 {
        u64::from(self.0)
    }
    #[inline(always)]
    fn get_at(buffer: &[Self], q: usize) -> Option<usize> {
        let b = buffer.get(q / 4)?;
        Some(usize::from(b.0 >> (2 * (q % 4)) & 3))
    }
    #[inline(always)]
    fn set_at(buffer: &mut [Self], q: usize, value: usize) -> bool {
        match buffer.get_mut(q / 4) {
            Some(b) if value <= 3 => {
                let shift = 2 * (q % 4);
                b.0 = (b.0 & !(3 << shift)) | (value as u8) << shift;
                true
            }
            _ => false,
        }
    }
}
