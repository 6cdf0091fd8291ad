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
//! [`SparseTensor`], owned (`alloc`), read by its own SpMV.
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
//! flag (its columns consecutive, a band) and an
//! offset, per stored slot (entries plus padding) a `u32` column and a
//! value. [`SellOptions::max_fill_percent`] bounds the padding: a
//! conversion that would store more slots than that percentage of the
//! entries (at least one slice's worth) is refused with
//! [`SellError::Padding`] before the slots are allocated.

use alloc::vec::Vec;

use crate::encoding::Encoding;
use crate::index::Index;
use crate::tensor::SparseTensor;
use crate::vocab::LevelFormat;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", sk_avx512))]
mod avx512;
mod spmv;
#[cfg(test)]
mod tests;

pub use spmv::SellValue;

/// Rows per slice: the SIMD lanes (8 `f32` in an AVX2 vector, 8 `f64` in
/// two).
pub const C: usize = 8;

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
    /// Where each slice's slots start, and one past the last.
    offsets: Vec<usize>,
    /// Per slice: a band (every row as long as the slice, each step's
    /// columns `c..c + 8`), whose columns are stored one per step.
    bands: Vec<bool>,
    /// Per slice: its rows are 8 consecutive rows in their own order
    /// (the sort moved none), so its sums are stored to `y` directly.
    in_order: Vec<bool>,
    /// Where each slice's columns start in `crd`, and one past the last.
    crd_offsets: Vec<usize>,
    /// The columns: per slot (0 in padding), or per step in a band.
    crd: Vec<u32>,
    /// Per stored slot, the value (0 in padding).
    val: Vec<V>,
}

/// `n` elements of `fill`, or [`SellError::Alloc`].
fn filled<T: Clone>(n: usize, fill: T) -> Result<Vec<T>, SellError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| SellError::Alloc)?;
    v.resize(n, fill);
    Ok(v)
}

impl<V: SellValue> Sell<V> {
    /// Converts the CSR matrix `a`, with options `opt`. `O(rows log σ +
    /// stored slots)` time.
    pub fn from_csr<E: Encoding>(
        a: &SparseTensor<'_, V, E, 2, 2>,
        opt: SellOptions,
    ) -> Result<Self, SellError> {
        let csr = a.level_type(0).format == LevelFormat::Dense
            && a.level_type(1).format == LevelFormat::Compressed
            && a.lvl_to_dim([1, 2]) == [1, 2]
            && a.explicit_value().is_none();
        if !csr {
            return Err(SellError::NotCsr);
        }
        if opt.sigma == 0 {
            return Err(SellError::Sigma);
        }
        let [rows, cols] = a.dim_sizes();
        if u32::try_from(cols.saturating_sub(1)).is_err() {
            return Err(SellError::TooLarge);
        }
        let level = a.level(1);
        let (pos, crd, val) = (level.positions(), level.coordinates(), a.values());
        // A validated tensor has `rows + 1` nondecreasing positions, the
        // last at most the coordinates and values held.
        let at = |p: &[E::Pos], i: usize| p.get(i).map_or(0, |q| q.as_usize());
        let len = |i: usize| at(pos, i + 1).saturating_sub(at(pos, i));
        let slices = rows.div_ceil(C);
        let mut perm: Vec<usize> = filled(rows, 0)?;
        for (slot, p) in perm.iter_mut().enumerate() {
            *p = slot;
        }
        // Longest first within each window; stable, so equal rows keep
        // their order.
        for w in perm.chunks_mut(opt.sigma) {
            w.sort_by_key(|&i| core::cmp::Reverse(len(i)));
        }
        let mut lens: Vec<u32> = filled(slices * C, 0)?;
        for (l, &i) in lens.iter_mut().zip(&perm) {
            *l = u32::try_from(len(i)).map_err(|_| SellError::TooLarge)?;
        }
        let mut offsets: Vec<usize> = filled(slices + 1, 0)?;
        let mut stored = 0usize;
        for s in 0..slices {
            let width = lens[s * C..s * C + C].iter().max().copied().unwrap_or(0);
            stored = (width as usize)
                .checked_mul(C)
                .and_then(|n| stored.checked_add(n))
                .ok_or(SellError::TooLarge)?;
            offsets[s + 1] = stored;
        }
        let entries = a.number_of_entries();
        let limit = entries.saturating_mul(opt.max_fill_percent) / 100;
        if stored > limit.max(C) {
            return Err(SellError::Padding { stored, entries });
        }
        // A slice is a band when its 8 rows are as long as the slice and
        // every step's columns are `c..c + 8`: it then stores one column
        // per step (the first row's), so the SpMV reads 1/8 of the
        // columns and loads each step's inputs with one vector load.
        let column = |i: usize, k: usize| E::Crd::get_at(crd, at(pos, i) + k);
        let mut bands: Vec<bool> = filled(slices, false)?;
        let mut crd_offsets: Vec<usize> = filled(slices + 1, 0)?;
        let mut columns = 0usize;
        for (s, band) in bands.iter_mut().enumerate() {
            let width = (offsets[s + 1] - offsets[s]) / C;
            let rows_of = perm.get(s * C..s * C + C).unwrap_or(&[]);
            *band = width > 0
                && rows_of.len() == C
                && lens[s * C..s * C + C].iter().all(|&l| l as usize == width)
                && (0..width).all(|k| {
                    let c0 = column(rows_of[0], k);
                    rows_of.iter().zip(0..).all(|(&i, r)| {
                        matches!((c0, column(i, k)), (Some(c0), Some(c)) if c0.checked_add(r) == Some(c))
                    })
                });
            columns += if *band { width } else { width * C };
            crd_offsets[s + 1] = columns;
        }
        let mut in_order: Vec<bool> = filled(slices, false)?;
        for (s, o) in in_order.iter_mut().enumerate() {
            let rows_of = perm.get(s * C..s * C + C).unwrap_or(&[]);
            *o = rows_of.len() == C && rows_of.iter().zip(s * C..).all(|(&i, r)| i == r);
        }
        let mut out_crd: Vec<u32> = filled(columns, 0)?;
        let mut out_val: Vec<V> = filled(stored, V::ZERO)?;
        for (slot, &i) in perm.iter().enumerate() {
            let (s, lane) = (slot / C, slot % C);
            let lo = at(pos, i);
            let band = bands[s];
            for k in 0..len(i) {
                let c = column(i, k).ok_or(SellError::NotCsr)?;
                let v = *val.get(lo + k).ok_or(SellError::NotCsr)?;
                out_val[offsets[s] + k * C + lane] = v;
                // `c < cols <= 2^32` (validated, checked above).
                if !band {
                    out_crd[crd_offsets[s] + k * C + lane] = c as u32;
                } else if lane == 0 {
                    out_crd[crd_offsets[s] + k] = c as u32;
                }
            }
        }
        Ok(Sell {
            rows,
            cols,
            entries,
            perm,
            lens,
            offsets,
            bands,
            in_order,
            crd_offsets,
            crd: out_crd,
            val: out_val,
        })
    }

    /// How many slices are stored as bands (every row as long as the
    /// slice, each step's columns consecutive: one column per step, the
    /// inputs loaded rather than gathered).
    pub fn band_slices(&self) -> usize {
        self.bands.iter().filter(|&&b| b).count()
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
        self.val.len()
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
        // The whole loop in the copy of the best vector extension, so the
        // slice routine inlines into it (`kernel/isa.rs`).
        crate::kernel::isa::with_vector_isa(
            #[inline(always)]
            |isa| self.slices(isa, x, y),
        )
    }

    /// Every slice of [`spmv`](Self::spmv), its lengths checked.
    #[inline(always)]
    fn slices(
        &self,
        isa: crate::kernel::isa::VectorIsa,
        x: &[V],
        y: &mut [V],
    ) -> Result<(), SellError> {
        let mut acc = [V::ZERO; C];
        let slices = self
            .offsets
            .windows(2)
            .zip(self.crd_offsets.windows(2))
            .zip(self.bands.iter().zip(&self.in_order));
        for (s, ((slots, columns), (&band, &in_order))) in slices.enumerate() {
            let parts = (
                self.lens.get(s * C..s * C + C),
                self.crd.get(columns[0]..columns[1]),
                self.val.get(slots[0]..slots[1]),
            );
            let (Some(lens), Some(crd), Some(val)) = parts else {
                return Err(SellError::NotCsr);
            };
            let lens: &[u32; C] = lens.try_into().map_err(|_| SellError::NotCsr)?;
            // Rows in their own order: the sums go straight to `y`.
            let direct = match in_order {
                true => y
                    .get_mut(s * C..s * C + C)
                    .and_then(|rows| <&mut [V; C]>::try_from(rows).ok()),
                false => None,
            };
            // SAFETY (both calls): the slice's slots are `C` per step
            // (`offsets` steps by `width * C`); its columns one per slot,
            // or one per step in a band (`crd_offsets`, `bands`: set
            // together by the conversion, never changed after it); every
            // column is below `cols = x.len()` (the validated tensor's
            // coordinates, 0 in padding, which exists only when some row
            // of the slice has an entry, so `cols > 0`), and in a band the
            // last row's, `c + 7`, too; every length is at most the slice's
            // width, and all of them equal it in a band.
            match direct {
                Some(out) => unsafe { V::slice(isa, band, crd, val, lens, x, out) },
                None => {
                    unsafe { V::slice(isa, band, crd, val, lens, x, &mut acc) };
                    let slots = self.perm.get(s * C..).unwrap_or(&[]);
                    for (&i, &v) in slots.iter().zip(&acc) {
                        if let Some(out) = y.get_mut(i) {
                            *out = v;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
