//! `for_each`: MLIR's `sparse_tensor.foreach` over the stored entries.
//!
//! The walk is an explicit stack of one `(position, end)` pair per level
//! (at most [`MAX_RANK`](crate::vocab::MAX_RANK) deep), so it needs no
//! recursion and no allocation. Entries come in storage order: level 0's
//! segment first, each entry followed by everything stored below it. What
//! is stored is visited, explicit zeros and the zero padding of dense
//! levels included; the free space between loose compressed segments is
//! not stored data and is never visited, and an entry that overlapping
//! loose segments share is visited once per segment (see
//! [`number_of_entries`](SparseTensor::number_of_entries)). A tensor that
//! stores nothing is not walked at all, whatever its dense sizes.
//!
//! A pattern tensor (`explicitVal`) has no values array: every entry is
//! visited with the `explicitVal`.
//!
//! Reads go through `get`, so even a tensor built by a misused
//! `assemble_unchecked` makes the walk skip entries, not panic.

use crate::encoding::Encoding;
use crate::layout::Layout;
use crate::tensor::SparseTensor;

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// Calls `f` with the level coordinates and the value of every stored
    /// entry, in storage order.
    ///
    /// Dense and counting levels report the coordinate within their parent
    /// (the slice number for a counting level).
    pub fn for_each_lvl(&self, mut f: impl FnMut([usize; LVL], &V)) {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        let explicit = self.explicit_value();
        let pattern = E::is_pattern();
        // The value of the entry at position `q` of the last level.
        let value = |q: usize| {
            if pattern {
                explicit.as_ref().filter(|_| q < self.entries)
            } else {
                self.values.get(q)
            }
        };
        // A 0-level tensor is a scalar: one value, no coordinates.
        if LVL == 0 {
            if let Some(v) = value(0) {
                f([0; LVL], v);
            }
            return;
        }
        // Nothing stored, nothing to visit: without this an all-dense
        // `[2^40, 0]` tensor would walk 2^40 outer entries to find no leaf.
        if self.entries == 0 {
            return;
        }
        let mut crd = [0usize; LVL];
        let mut pos = [0usize; LVL];
        let mut start = [0usize; LVL];
        let mut end = [0usize; LVL];
        let mut l = 0usize;
        if !self.enter(&layout, 0, 0, &mut pos, &mut start, &mut end) {
            return;
        }
        loop {
            let (Some(&q), Some(&e), Some(&a)) = (pos.get(l), end.get(l), start.get(l)) else {
                return;
            };
            if q >= e {
                // Segment exhausted: resume the parent after its entry.
                let Some(up) = l.checked_sub(1) else {
                    return;
                };
                l = up;
                if let Some(p) = pos.get_mut(l) {
                    *p = p.saturating_add(1);
                }
                continue;
            }
            let coordinate = match (layout.levels.get(l), self.levels.get(l)) {
                (Some(info), _) if info.is_dense() => q.checked_sub(a),
                (Some(info), Some(st)) => info.coordinate(st, q),
                _ => None,
            };
            let descend = match coordinate {
                Some(c) => {
                    if let Some(slot) = crd.get_mut(l) {
                        *slot = c;
                    }
                    l + 1 < LVL
                }
                None => false,
            };
            if descend && self.enter(&layout, l + 1, q, &mut pos, &mut start, &mut end) {
                l += 1;
                continue;
            }
            if coordinate.is_some() && l + 1 == LVL {
                if let Some(v) = value(q) {
                    f(crd, v);
                }
            }
            if let Some(p) = pos.get_mut(l) {
                *p = q.saturating_add(1);
            }
        }
    }

    /// Calls `f` with the dimension coordinates (through the lvl→dim map)
    /// and the value of every stored entry, in storage order.
    ///
    /// Padding of a block map whose block does not divide the dimension
    /// (e.g. the last block row of a 5-row BSR with 2x2 blocks) lies outside
    /// the dimension sizes and is skipped, so every call has
    /// `dim[d] < dim_sizes[d]`.
    pub fn for_each(&self, mut f: impl FnMut([usize; DIM], &V)) {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        let sizes = self.dim_sizes;
        self.for_each_lvl(|lvl, v| {
            let dim = layout.lvl_to_dim(&lvl);
            if dim.iter().zip(&sizes).all(|(c, n)| c < n) {
                f(dim, v);
            }
        });
    }

    /// Opens level `l`'s segment under parent entry `parent`; `false` if
    /// the buffers do not describe one.
    fn enter(
        &self,
        layout: &Layout<DIM, LVL>,
        l: usize,
        parent: usize,
        pos: &mut [usize; LVL],
        start: &mut [usize; LVL],
        end: &mut [usize; LVL],
    ) -> bool {
        let segment = match (
            layout.levels.get(l),
            self.levels.get(l),
            self.lvl_sizes.get(l),
        ) {
            (Some(info), Some(st), Some(&size)) => info.segment(st, size, parent),
            _ => None,
        };
        match (segment, pos.get_mut(l), start.get_mut(l), end.get_mut(l)) {
            (Some((a, b)), Some(p), Some(s), Some(e)) => {
                (*p, *s, *e) = (a, a, b);
                true
            }
            _ => false,
        }
    }
}
