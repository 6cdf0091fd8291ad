//! The conversion from CSR to SELL-C-σ: rows sorted by length within σ
//! windows, cut into slices of [`C`] rows, each slice's entries stored
//! column-major and padded to its longest row, and each slice's head
//! ([`SliceHead`]) saying where its buffers lie and how the SpMV reads
//! it (a band, rows in their own order).

use alloc::vec::Vec;

use super::values::Values;
use super::{filled, Sell, SellError, SellOptions, SellValue, SliceHead, SliceKind, C};
use crate::encoding::Encoding;
use crate::index::Index;
use crate::tensor::SparseTensor;
use crate::vocab::LevelFormat;

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
        let column = |i: usize, k: usize| E::Crd::get_at(crd, at(pos, i) + k);
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
        let empty = SliceHead {
            slots: 0,
            columns: 0,
            width: 0,
            min: 0,
            kind: SliceKind::Gather,
            in_order: false,
        };
        let mut heads: Vec<SliceHead> = filled(slices, empty)?;
        let (mut stored, mut columns) = (0usize, 0usize);
        for (s, h) in heads.iter_mut().enumerate() {
            let slice_lens = &lens[s * C..s * C + C];
            let width = slice_lens.iter().max().copied().unwrap_or(0);
            let rows_of = perm.get(s * C..s * C + C).unwrap_or(&[]);
            let full = rows_of.len() == C;
            // A band: its 8 rows as long as the slice and every step's
            // columns `c..c + 8`. It stores one column per step (the first
            // row's), so the SpMV reads 1/8 of the columns and loads each
            // step's inputs with one vector load.
            let band = width > 0
                && full
                && slice_lens.iter().all(|&l| l == width)
                && (0..width as usize).all(|k| {
                    let c0 = column(rows_of[0], k);
                    rows_of.iter().zip(0..).all(|(&i, r)| {
                        matches!((c0, column(i, k)), (Some(c0), Some(c)) if c0.checked_add(r) == Some(c))
                    })
                });
            // Diagonals: a band whose every step starts one column after
            // the step before (the interior of a banded matrix). One
            // column for the whole slice: no column bytes per step.
            let diagonals = band && {
                let c0 = column(rows_of[0], 0);
                (0..width as usize)
                    .all(|k| column(rows_of[0], k) == c0.and_then(|c| c.checked_add(k)))
            };
            let kind = if diagonals {
                SliceKind::Diagonals
            } else if band {
                SliceKind::Band
            } else {
                SliceKind::Gather
            };
            let slots = (width as usize).checked_mul(C).ok_or(SellError::TooLarge)?;
            *h = SliceHead {
                slots: stored,
                columns,
                width,
                min: slice_lens.iter().min().copied().unwrap_or(0),
                kind,
                in_order: full && rows_of.iter().zip(s * C..).all(|(&i, r)| i == r),
            };
            stored = stored.checked_add(slots).ok_or(SellError::TooLarge)?;
            columns += kind.columns(width as usize);
        }
        let entries = a.number_of_entries();
        let limit = entries.saturating_mul(opt.max_fill_percent) / 100;
        if stored > limit.max(C) {
            return Err(SellError::Padding { stored, entries });
        }
        let mut out_crd: Vec<u32> = filled(columns, 0)?;
        let mut values = Values::zeros(stored)?;
        let out_val = values.as_mut_slice();
        for (slot, &i) in perm.iter().enumerate() {
            let (h, lane) = (heads[slot / C], slot % C);
            let lo = at(pos, i);
            for k in 0..len(i) {
                let c = column(i, k).ok_or(SellError::NotCsr)?;
                let v = *val.get(lo + k).ok_or(SellError::NotCsr)?;
                out_val[h.slots + k * C + lane] = v;
                // `c < cols <= 2^32` (validated, checked above).
                match h.kind {
                    SliceKind::Gather => out_crd[h.columns + k * C + lane] = c as u32,
                    SliceKind::Band if lane == 0 => out_crd[h.columns + k] = c as u32,
                    SliceKind::Diagonals if lane == 0 && k == 0 => out_crd[h.columns] = c as u32,
                    _ => {}
                }
            }
        }
        Ok(Sell {
            rows,
            cols,
            entries,
            perm,
            lens,
            heads,
            crd: out_crd,
            val: values,
        })
    }
}
