//! The constructors behind `static NAME: tensor<..., #ENC> = sparse<...>;`
//! (see the [`constants`](crate::guide::constants) chapter).
//!
//! `sparse_kernel!` builds a constant's buffers at compile time, checks
//! every rule of [`SparseTensor::assemble`](crate::SparseTensor::assemble)
//! on them while it builds them, and emits `static` arrays plus a call of
//! [`constant_tensor`]. Both functions are `const`, so the tensor is a
//! `static` initializer: its buffers stay in flash and nothing is
//! validated at run time. Not public API: generated code reaches them
//! through `sparse_core::__private`.

use core::marker::PhantomData;

use crate::encoding::Encoding;
use crate::tensor::{LevelStorage, SparseTensor};

/// The storage of one level exactly as kernels read it: the coordinate of
/// the entry at position `p` is `coordinates[p * crd_stride + crd_offset]`
/// (an AoS COO level reads its region's shared buffer at its slot).
///
/// Safe to call: a `LevelStorage` means nothing until
/// [`constant_tensor`] puts it in a tensor, and that is `unsafe`.
#[doc(hidden)]
pub const fn constant_level<'a, P, C>(
    positions: &'a [P],
    coordinates: &'a [C],
    crd_stride: usize,
    crd_offset: usize,
) -> LevelStorage<'a, P, C> {
    LevelStorage {
        positions,
        coordinates,
        crd_stride,
        crd_offset,
    }
}

/// A tensor from storage laid out and checked at compile time, in a
/// `const` context.
///
/// # Safety
///
/// The arguments must be what [`SparseTensor::assemble`] followed by
/// [`level`](SparseTensor::level), [`lvl_sizes`](SparseTensor::lvl_sizes)
/// and [`number_of_entries`](SparseTensor::number_of_entries) would give
/// for buffers it accepts under `E`: `E` a valid encoding, `lvl_sizes` the
/// level sizes of `dim_sizes` under `E`'s map, `levels[l]` level `l`'s
/// buffers with the AoS stride and offset of `E`'s COO regions, every rule
/// of [`crate::assemble`] met, `values` one per entry (empty for a pattern
/// encoding) and `entries` the number of entries of the last level.
/// `sparse_kernel!` calls it only for constants it built that way.
#[doc(hidden)]
pub const unsafe fn constant_tensor<'a, V, E: Encoding, const DIM: usize, const LVL: usize>(
    dim_sizes: [usize; DIM],
    lvl_sizes: [usize; LVL],
    levels: [LevelStorage<'a, E::Pos, E::Crd>; LVL],
    values: &'a [V],
    entries: usize,
) -> SparseTensor<'a, V, E, DIM, LVL> {
    SparseTensor {
        dim_sizes,
        lvl_sizes,
        levels,
        values,
        entries,
        encoding: PhantomData,
    }
}

/// A tensor with the positions and coordinates of `levels_of` and its own
/// values, in a `const` context: `static W8: tensor<..> = levels_of(W,
/// values = ..)`. The level buffers are `levels_of`'s own (one copy in
/// flash for both constants); only the values are new.
///
/// # Safety
///
/// `levels_of` must be a valid tensor (built by [`constant_tensor`] or
/// checked), and `values` must hold one value per entry of it (empty for
/// a pattern encoding), in its storage order: what
/// [`SparseTensor::assemble`] would accept with `levels_of`'s buffers and
/// these values. `sparse_kernel!` lays the values out on the entries of
/// `levels_of` it built itself.
#[doc(hidden)]
pub const unsafe fn constant_sharing<'a, V, U, E: Encoding, const DIM: usize, const LVL: usize>(
    levels_of: &SparseTensor<'a, U, E, DIM, LVL>,
    values: &'a [V],
) -> SparseTensor<'a, V, E, DIM, LVL> {
    SparseTensor {
        dim_sizes: levels_of.dim_sizes,
        lvl_sizes: levels_of.lvl_sizes,
        levels: levels_of.levels,
        values,
        entries: levels_of.entries,
        encoding: PhantomData,
    }
}

/// Decoders of the little-endian byte strings large constant buffers are
/// emitted as: `static VAL: [f32; N] = bytes::f32s(b"...")`. rustc reads
/// one byte-string token far faster than an array literal of `N` tokens.
/// On little-endian targets the bytes are the array already, and the
/// decoder is one unaligned read (const evaluation copies them at once);
/// on big-endian targets a loop swaps each value. Each fails (a compile
/// error in a `static`) if the string is not exactly `N` values long.
/// `usize` buffers are emitted in the target's pointer width (`usizes`
/// reads `size_of::<usize>()` bytes per value).
#[doc(hidden)]
pub mod bytes {
    macro_rules! decoders {
        ($($name:ident: $t:ty, |$b:ident| $from:expr;)*) => {$(
            #[doc = concat!("`N` little-endian `", stringify!($t), "` values.")]
            pub const fn $name<const N: usize>(bytes: &[u8]) -> [$t; N] {
                const W: usize = core::mem::size_of::<$t>();
                assert!(bytes.len() == N * W, "constant buffer of the wrong length");
                if cfg!(target_endian = "little") {
                    // SAFETY: `bytes` holds exactly `size_of::<[T; N]>()`
                    // bytes (asserted), every bit pattern is a valid value
                    // of these integer and float types, and
                    // `read_unaligned` needs no alignment.
                    return unsafe { core::ptr::read_unaligned(bytes.as_ptr().cast::<[$t; N]>()) };
                }
                let mut out = [0 as $t; N];
                let mut i = 0;
                while i < N {
                    let mut $b = [0u8; W];
                    let mut k = 0;
                    while k < W {
                        $b[k] = bytes[i * W + k];
                        k += 1;
                    }
                    out[i] = $from;
                    i += 1;
                }
                out
            }
        )*};
    }
    /// `N` bytes of packed 2-bit coordinates ([`Packed2`](crate::Packed2)).
    pub const fn packed2s<const N: usize>(bytes: &[u8]) -> [crate::Packed2; N] {
        assert!(bytes.len() == N, "constant buffer of the wrong length");
        let mut out = [crate::Packed2(0); N];
        let mut i = 0;
        while i < N {
            out[i] = crate::Packed2(bytes[i]);
            i += 1;
        }
        out
    }

    decoders! {
        f32s: f32, |b| f32::from_le_bytes(b);
        f64s: f64, |b| f64::from_le_bytes(b);
        i8s: i8, |b| i8::from_le_bytes(b);
        i16s: i16, |b| i16::from_le_bytes(b);
        i32s: i32, |b| i32::from_le_bytes(b);
        i64s: i64, |b| i64::from_le_bytes(b);
        u8s: u8, |b| b[0];
        u16s: u16, |b| u16::from_le_bytes(b);
        u32s: u32, |b| u32::from_le_bytes(b);
        u64s: u64, |b| u64::from_le_bytes(b);
        usizes: usize, |b| usize::from_le_bytes(b);
    }

    /// A value of type `T` (an array of one primitive type of `W` bytes,
    /// nested to any depth: a dense constant) from its little-endian bytes:
    /// one unaligned read on little-endian targets, after swapping each
    /// `W`-byte group on big-endian ones.
    ///
    /// # Safety
    ///
    /// `T` must be such an array with `size_of::<T>() == B` (asserted), and
    /// every `W`-byte group must be a valid element (any bits for integers
    /// and floats, 0 or 1 for `bool`); `sparse_kernel!` emits exactly that.
    pub const unsafe fn array<T, const B: usize, const W: usize>(bytes: &[u8; B]) -> T {
        assert!(
            core::mem::size_of::<T>() == B && W > 0 && B % W == 0,
            "constant buffer of the wrong length"
        );
        let mut native = *bytes;
        if cfg!(target_endian = "big") {
            let mut i = 0;
            while i < B {
                let mut k = 0;
                while k < W / 2 {
                    let t = native[i + k];
                    native[i + k] = native[i + W - 1 - k];
                    native[i + W - 1 - k] = t;
                    k += 1;
                }
                i += W;
            }
        }
        // SAFETY: `native` holds `size_of::<T>()` bytes (asserted) that
        // form a valid `T` by the caller's contract; `read_unaligned` needs
        // no alignment.
        unsafe { core::ptr::read_unaligned(native.as_ptr().cast::<T>()) }
    }

    /// `N` booleans, one byte each (0 or 1).
    pub const fn bools<const N: usize>(bytes: &[u8]) -> [bool; N] {
        assert!(bytes.len() == N, "constant buffer of the wrong length");
        let mut out = [false; N];
        let mut i = 0;
        while i < N {
            out[i] = bytes[i] != 0;
            i += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{compressed, d0, d1, dense};
    use crate::tensor::Level;
    use crate::Enc;

    type Csr = Enc<u16, u8, (dense, compressed), (d0, d1)>;

    static POS: [u16; 4] = [0, 1, 2, 2];
    static CRD: [u8; 2] = [0, 2];
    static VAL: [f32; 2] = [1.0, 5.0];
    // SAFETY: the layout `assemble` accepts (checked in the test below).
    static W: SparseTensor<'static, f32, Csr, 2, 2> = unsafe {
        constant_tensor(
            [3, 4],
            [3, 4],
            [
                constant_level(&[], &[], 1, 0),
                constant_level(&POS, &CRD, 1, 0),
            ],
            &VAL,
            2,
        )
    };

    #[test]
    fn a_constant_is_the_tensor_assemble_builds() {
        let checked = SparseTensor::<f32, Csr, 2, 2>::assemble(
            [3, 4],
            [Level::dense(), Level::compressed(&POS, &CRD)],
            &VAL,
        )
        .unwrap();
        assert_eq!(W.dim_sizes(), checked.dim_sizes());
        assert_eq!(W.lvl_sizes(), checked.lvl_sizes());
        assert_eq!(W.number_of_entries(), checked.number_of_entries());
        for l in 0..2 {
            let (a, b) = (W.level(l), checked.level(l));
            assert_eq!(a.positions(), b.positions());
            assert_eq!(a.coordinates(), b.coordinates());
            assert_eq!(
                (a.crd_stride(), a.crd_offset()),
                (b.crd_stride(), b.crd_offset())
            );
        }
        assert_eq!(W.values(), checked.values());
    }

    static VAL8: [i8; 2] = [10, 50];
    // SAFETY: one value per entry of `W`, which `constant_tensor` built.
    static W8: SparseTensor<'static, i8, Csr, 2, 2> = unsafe { constant_sharing(&W, &VAL8) };

    #[test]
    fn a_shared_constant_reads_the_same_buffers_with_its_values() {
        for l in 0..2 {
            let (a, b) = (W.level(l), W8.level(l));
            assert!(core::ptr::eq(a.positions(), b.positions()));
            assert!(core::ptr::eq(a.coordinates(), b.coordinates()));
        }
        assert_eq!(W8.dim_sizes(), W.dim_sizes());
        assert_eq!(W8.number_of_entries(), 2);
        assert_eq!(W8.values(), &[10, 50]);
        // What `assemble` builds from those buffers and values.
        let checked = SparseTensor::<i8, Csr, 2, 2>::assemble(
            [3, 4],
            [Level::dense(), Level::compressed(&POS, &CRD)],
            &VAL8,
        )
        .unwrap();
        assert_eq!(W8.values(), checked.values());
        assert_eq!(W8.lvl_sizes(), checked.lvl_sizes());
        assert_eq!(W8.number_of_entries(), checked.number_of_entries());
    }

    const F: [f32; 3] = bytes::f32s(b"\x00\x00\x80\x3f\x00\x00\x00\xc0\x00\x00\xc0\x7f");
    const I: [i16; 2] = bytes::i16s(b"\xff\xff\x2c\x01");
    const B: [bool; 3] = bytes::bools(b"\x01\x00\x01");
    // SAFETY: 4 little-endian i16 (any bits valid), 8 bytes.
    const M: [[i16; 2]; 2] =
        unsafe { bytes::array::<[[i16; 2]; 2], 8, 2>(b"\x01\x00\xff\xff\x2c\x01\x00\x80") };

    #[test]
    fn byte_strings_decode_little_endian() {
        assert_eq!(F[..2], [1.0, -2.0]);
        assert!(F[2].is_nan());
        assert_eq!(I, [-1, 300]);
        assert_eq!(B, [true, false, true]);
        assert_eq!(M, [[1, -1], [300, i16::MIN]]);
        // At run time too (the same functions, not const-evaluated).
        let bytes: &[u8] = &[7, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0];
        let n = core::mem::size_of::<usize>();
        let values: [u64; 2] = bytes::u64s(bytes);
        assert_eq!(values, [7, 9]);
        let wide: [usize; 1] = bytes::usizes(&bytes[..n]);
        assert_eq!(wide, [7]);
    }
}
