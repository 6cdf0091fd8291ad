//! SELL-C-σ: a CSR matrix in sliced ELLPACK with σ-window row sorting, a
//! layout for SpMV on SIMD machines (Kreutzer et al., SIAM J. Sci.
//! Comput. 36(5), 2014), with the conversion from CSR and the SpMV
//! ([`Sell::spmv`]).
//!
//! The rows are sorted by length, longest first, within windows of σ
//! consecutive rows; the sorted rows are cut into slices of [`C`] = 8
//! rows, one per SIMD lane; each slice stores its rows' entries padded to
//! its longest row, column-major (entry `k` of the slice's 8 rows side by
//! side), so one step of the SpMV loads 8 values and 8 column indices
//! with two vector loads and loads 8 inputs.
//!
//! Not an MLIR encoding: MLIR's `dimToLvl` maps are affine functions of
//! the coordinates and cannot express a permutation that depends on the
//! rows' lengths (the σ sort), nor a per-slice width. This type is the
//! documented equivalent: a separate structure converted from a CSR
//! [`SparseTensor`](crate::tensor::SparseTensor), owned (`alloc`), read by its own SpMV.
//!
//! # Results
//!
//! The lanes are rows, and each lane adds its row's products in the row's
//! stored order, from zero, one rounding for the product and one for the
//! sum: the same operations as the in-order CSR kernel
//! (`y[i] = a[i, j] * x[j]` without `#[reassociate]`), so the results
//! agree with it bit for bit. Padding is masked: a padded slot adds
//! nothing (it is not multiplied as a zero, which would turn an infinite
//! or NaN `x[0]` into NaN).
//!
//! # Memory
//!
//! `O(rows + stored slots)`: per row its slot and length, per slice a
//! head (where its buffers start, its width, how its columns are stored),
//! per stored slot (entries plus padding) a value and a `u32` column,
//! except in a band (every row as long as the slice, each step's columns
//! consecutive: one column per step) and in whole diagonals (a band whose
//! every step starts one column further, as inside a banded matrix: one
//! column for the slice). [`SellOptions::max_fill_percent`] bounds the padding: a
//! conversion that would store more slots than that percentage of the
//! entries (at least one slice's worth) is refused with
//! [`SellError::Padding`] before the slots are allocated.

use alloc::vec::Vec;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", sk_avx512))]
mod avx512;
mod convert;
mod spmv;
#[cfg(test)]
mod tests;
mod values;

pub use spmv::SellValue;
use spmv::SliceKind;
use values::Values;

/// Rows per slice: the SIMD lanes (8 `f32` in an AVX2 vector, 8 `f64` in
/// two).
pub const C: usize = 8;

/// The bytes of values and columns above which the SpMV prefetches ahead:
/// half the L2 cache of a core of the Xeon measured (2 MiB). The
/// prefetches made the large bench matrices 5-15% faster (their slots
/// stream from the last-level cache or memory) and the small one (480 KB
/// of slots, in L2) 10% slower (bench/desktop `spmv-simd`).
const STREAM_BYTES: usize = 1 << 20;

/// How to build a [`Sell`] matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SellOptions {
    /// σ: rows are sorted by length within windows of this many rows (1:
    /// no sorting; the number of rows: a global sort). A multiple of [`C`]
    /// keeps slices inside windows.
    pub sigma: usize,
    /// The most slots (entries plus padding) the layout may store, in
    /// percent of the entries (at least [`C`] slots are always allowed).
    pub max_fill_percent: usize,
}

impl Default for SellOptions {
    /// σ = 256 rows, at most 150% of the entries stored.
    fn default() -> Self {
        SellOptions {
            sigma: 256,
            max_fill_percent: 150,
        }
    }
}

/// Why a conversion or an SpMV was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SellError {
    /// The tensor is not CSR: two levels, dense then compressed, with the
    /// identity map and stored values.
    NotCsr,
    /// σ was 0.
    Sigma,
    /// More than 2^32 columns, or a row of more than 2^32 - 1 entries: the
    /// columns and lengths are stored in `u32`.
    TooLarge,
    /// The padded layout would store `stored` slots for `entries`
    /// entries, more than [`SellOptions::max_fill_percent`] allows.
    Padding {
        /// Slots the layout needs.
        stored: usize,
        /// Stored entries of the matrix.
        entries: usize,
    },
    /// The allocator refused the layout's buffers.
    Alloc,
    /// `spmv`: `x` or `y` does not match the matrix (`which`: `"x"` or
    /// `"y"`), with its length and the expected one.
    Length {
        /// `"x"` or `"y"`.
        which: &'static str,
        /// The length given.
        found: usize,
        /// The length expected.
        expected: usize,
    },
}

impl core::fmt::Display for SellError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SellError::NotCsr => f.write_str("SELL conversion needs a CSR tensor with stored values"),
            SellError::Sigma => f.write_str("SELL sigma must be at least 1"),
            SellError::TooLarge => f.write_str("SELL stores columns and row lengths in u32"),
            SellError::Padding { stored, entries } => write!(
                f,
                "SELL layout would store {stored} slots for {entries} entries, over the padding limit"
            ),
            SellError::Alloc => f.write_str("SELL buffers could not be allocated"),
            SellError::Length {
                which,
                found,
                expected,
            } => write!(f, "SELL spmv: `{which}` has length {found}, expected {expected}"),
        }
    }
}

/// A matrix in SELL-C-σ (module documentation), `C` = [`C`].
#[derive(Clone, Debug, PartialEq)]
pub struct Sell<V> {
    rows: usize,
    cols: usize,
    entries: usize,
    /// The original row of each sorted slot (`rows` of them).
    perm: Vec<usize>,
    /// Each slot's row length, 0 for the last slice's missing rows.
    lens: Vec<u32>,
    /// Per slice: where its values and columns start, its width and
    /// how it is read.
    heads: Vec<SliceHead>,
    /// The columns: per slot (0 in padding), or per step in a band.
    crd: Vec<u32>,
    /// Per stored slot, the value (0 in padding), the first slot on a
    /// cache line.
    val: Values<V>,
}

/// One slice of a [`Sell`] matrix. The conversion sets them; nothing
/// changes them after it, and the SpMV reads the slice's buffers through
/// them unchecked. For slice `s`:
/// - `slots + width * C <= val.len()`;
/// - `columns + width * C <= crd.len()`, or `columns + width` in a band,
///   `columns + 1` in diagonals;
/// - `lens[s * C..s * C + C]` exists, each length at most `width` and at
///   least `min`, one of them `min`;
/// - every column read is below the matrix's columns; in a band, every
///   `crd[columns + k] + C` is at most the columns, in diagonals
///   `crd[columns] + width - 1 + C`, and in both every length is `width`;
/// - `in_order`: `s * C + C <= rows` and the slice's rows are `s * C..`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SliceHead {
    /// The slice's first slot in `val` (`width * C` slots follow).
    slots: usize,
    /// Its first column in `crd`.
    columns: usize,
    /// Its steps: its longest row's length.
    width: u32,
    /// Its shortest row's length: every lane is live below it.
    min: u32,
    /// How its columns are stored and its inputs read: per slot
    /// (gathered), per step (a band) or once (diagonals).
    kind: SliceKind,
    /// Its rows are `s * C..s * C + C` in their own order (the sort moved
    /// none), so its sums go straight into `y`.
    in_order: bool,
}

/// `n` elements of `fill`, or [`SellError::Alloc`].
fn filled<T: Clone>(n: usize, fill: T) -> Result<Vec<T>, SellError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| SellError::Alloc)?;
    v.resize(n, fill);
    Ok(v)
}

impl<V: SellValue> Sell<V> {
    /// How many slices are stored as bands (every row as long as the
    /// slice, each step's columns consecutive: the inputs loaded rather
    /// than gathered), diagonals included.
    pub fn band_slices(&self) -> usize {
        self.heads
            .iter()
            .filter(|h| h.kind != SliceKind::Gather)
            .count()
    }

    /// How many of the [band slices](Self::band_slices) are whole
    /// diagonals (step `k` of every row one column further than step `k -
    /// 1`), which store one column for the slice rather than one per step.
    pub fn diagonal_slices(&self) -> usize {
        self.heads
            .iter()
            .filter(|h| h.kind == SliceKind::Diagonals)
            .count()
    }

    /// `[rows, columns]`.
    pub fn dims(&self) -> [usize; 2] {
        [self.rows, self.cols]
    }

    /// The matrix's stored entries.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// The slots stored, entries plus padding.
    pub fn stored(&self) -> usize {
        self.val.as_slice().len()
    }

    /// `y = A x`, each row's products added in its stored order (the same
    /// bits as the in-order CSR kernel). Checks the lengths first: on
    /// `Err`, `y` is untouched.
    pub fn spmv(&self, x: &[V], y: &mut [V]) -> Result<(), SellError> {
        if x.len() != self.cols {
            return Err(SellError::Length {
                which: "x",
                found: x.len(),
                expected: self.cols,
            });
        }
        if y.len() != self.rows {
            return Err(SellError::Length {
                which: "y",
                found: y.len(),
                expected: self.rows,
            });
        }
        // A matrix beyond `STREAM_BYTES` streams from past the L2 cache:
        // its loops prefetch ahead. Below it, the hardware keeps up and
        // the hints would only take load slots.
        let stream = self.stored().saturating_mul(size_of::<V>() + 4) > STREAM_BYTES;
        // The whole loop in the copy of the best vector extension, so the
        // slice routine inlines into it (`kernel/isa.rs`).
        crate::kernel::isa::with_vector_isa(
            #[inline(always)]
            |isa| {
                if stream {
                    self.slices::<true>(isa, x, y)
                } else {
                    self.slices::<false>(isa, x, y)
                }
            },
        )
    }

    /// Every slice of [`spmv`](Self::spmv), its lengths checked;
    /// `STREAM`: prefetch ahead ([`SellValue::slice`]).
    #[inline(always)]
    fn slices<const STREAM: bool>(
        &self,
        isa: crate::kernel::isa::VectorIsa,
        x: &[V],
        y: &mut [V],
    ) -> Result<(), SellError> {
        let mut acc = [V::ZERO; C];
        let values = self.val.as_slice();
        for (s, h) in self.heads.iter().enumerate() {
            let slots = h.width as usize * C;
            let columns = h.kind.columns(h.width as usize);
            // SAFETY: the slice's head says where its slots and columns
            // lie within `val` and `crd`, and `lens` has its 8 lengths
            // (`SliceHead`'s invariants, set by the conversion).
            let (val, crd, lens) = unsafe {
                (
                    values.get_unchecked(h.slots..h.slots + slots),
                    self.crd.get_unchecked(h.columns..h.columns + columns),
                    &*self.lens.as_ptr().add(s * C).cast::<[u32; C]>(),
                )
            };
            // SAFETY (both calls): `val` holds `width` steps of `C` slots;
            // `crd` one column per slot, one per step in a band, one in
            // diagonals; every column is below `cols = x.len()` (the
            // validated tensor's coordinates, 0 in padding, which exists
            // only when some row of the slice has an entry, so `cols >
            // 0`), and in a band or diagonals each step's last, too; every
            // length is at most the width, and equals it in a band or
            // diagonals (`SliceHead`).
            if h.in_order {
                // SAFETY: `s * C + C <= rows = y.len()` (`SliceHead`).
                let out = unsafe { &mut *y.as_mut_ptr().add(s * C).cast::<[V; C]>() };
                unsafe { V::slice(isa, h.kind, STREAM, h.min as usize, crd, val, lens, x, out) };
            } else {
                unsafe {
                    V::slice(
                        isa,
                        h.kind,
                        STREAM,
                        h.min as usize,
                        crd,
                        val,
                        lens,
                        x,
                        &mut acc,
                    )
                };
                let slots = self.perm.get(s * C..).unwrap_or(&[]);
                for (&i, &v) in slots.iter().zip(&acc) {
                    if let Some(out) = y.get_mut(i) {
                        *out = v;
                    }
                }
            }
        }
        Ok(())
    }
}
