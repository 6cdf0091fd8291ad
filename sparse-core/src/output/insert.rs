//! The insertion protocol: `begin`, `insert` (MLIR's `lexInsert`) and
//! `finish` (the `hasInserts` finalization), all append-only.
//!
//! Every buffer only grows during a kernel call: a compressed level pushes
//! the end position of a parent when it *closes* that parent (the next
//! insertion goes to a later parent, or `finish` runs), a loose compressed
//! level pushes the parent's `lo, hi` pair then, coordinates are pushed
//! when an entry is created, and values are pushed when an entry of the
//! last level is created (a whole zero-filled block when dense levels hang
//! below the new entry, whose slot the insertion then overwrites). Because
//! nothing already written is ever revisited (except that one value slot),
//! counting mode is just "skip the write, still count": the logical
//! lengths are exactly the lengths the result needs.

use crate::encoding::Encoding;
use crate::index::Index;
use crate::vocab::LevelFormat;

use super::buffer::{Buffer, OutputBuffers};
use super::{Fault, SparseTensorOut, State};

/// Where the previous insertion went, and how long every buffer would be
/// if nothing had overflowed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cursor<const LVL: usize> {
    /// The previous insertion's level coordinates.
    pub(crate) last: [usize; LVL],
    /// The previous insertion's entry (position) on each level.
    pub(crate) entry: [usize; LVL],
    /// Entries of each level so far.
    pub(crate) count: [usize; LVL],
    /// Compressed and loose levels: parents whose segment is closed.
    pub(crate) closed: [usize; LVL],
    /// Loose levels: the first entry of the open parent's segment.
    pub(crate) seg_start: [usize; LVL],
    /// Logical lengths of the positions buffers.
    pub(crate) pos_len: [usize; LVL],
    /// Logical lengths of the coordinate buffers (AoS tuples counted in the
    /// region start's buffer).
    pub(crate) crd_len: [usize; LVL],
    /// Logical length of the values.
    pub(crate) val_len: usize,
    /// Insertions accepted so far.
    pub(crate) inserts: usize,
    /// An n:m last level: the parent entry of the group insertions go to
    /// (`usize::MAX`: none yet), and how many of its slots they filled.
    pub(crate) group_parent: usize,
    pub(crate) group_len: usize,
}

impl<const LVL: usize> Cursor<LVL> {
    pub(crate) const fn new() -> Self {
        Cursor {
            last: [0; LVL],
            entry: [0; LVL],
            count: [0; LVL],
            closed: [0; LVL],
            seg_start: [0; LVL],
            pos_len: [0; LVL],
            crd_len: [0; LVL],
            val_len: 0,
            inserts: 0,
            group_parent: usize::MAX,
            group_len: 0,
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Starts a kernel's output: empties every buffer (capacity kept),
    /// resets the counters and pending errors, and lays out what exists
    /// before any insertion (the first position 0 of each compressed
    /// level; the zero values of an all-dense tensor).
    ///
    /// Until [`finish`](Self::finish), [`view`](Self::view) shows an empty
    /// tensor of dimension sizes 0.
    ///
    /// This is the ordered protocol generated kernels use (through
    /// `__private::OutputProtocol`): insertions in strictly increasing
    /// lexicographic order of level coordinates, each written straight
    /// into the level buffers. For insertions in any order see
    /// [`begin_unordered`](Self::begin_unordered).
    pub(crate) fn begin(&mut self) {
        for b in &mut self.positions {
            b.clear();
        }
        for b in &mut self.coordinates {
            b.clear();
        }
        self.values.clear();
        self.cur = Cursor::new();
        self.fault = None;
        self.writing = true;
        self.appendable = false;
        self.state = State::Writing;
        for l in 0..LVL {
            if self.format(l) == LevelFormat::Compressed {
                self.push_pos(l, 0);
            }
        }
        // The root is the one entry above level 0.
        self.grow_dense(0, 1);
    }

    /// After [`begin`](Self::begin): makes room for `entries` stored
    /// entries in the values and in every level's coordinates, where the
    /// buffers can grow (`Owned`), so a kernel that knows a bound (a sparse
    /// sum: the operands' entries together) fills them without
    /// reallocating. Fixed and slice buffers ignore it.
    /// Out of line: one call per kernel call, kept from the kernel's loop
    /// (inlined, it cost the reused-output add 0.6 instructions per entry).
    #[inline(never)]
    pub(crate) fn reserve_entries(&mut self, entries: usize) {
        for b in &mut self.coordinates {
            b.reserve(entries);
        }
        self.values.reserve(entries);
    }

    /// Inserts `value` at level coordinates `lvl` (MLIR's `lexInsert`).
    ///
    /// Insertions of one kernel call come in strictly increasing
    /// lexicographic order of level coordinates (equal coordinates only
    /// where a non-unique level can hold the repeat). A coordinate not
    /// below its level size or an insertion out of order is not applied:
    /// it is recorded, later insertions are ignored, and
    /// [`finish`](Self::finish) returns the error. When a buffer is full,
    /// nothing more is written but everything is still counted, so
    /// `finish` can say exactly how much room the result needs.
    ///
    /// Outside `begin`..`finish` an insertion does nothing.
    #[inline]
    pub(crate) fn insert(&mut self, lvl: [usize; LVL], value: V) {
        match self.appends_in_row(&lvl) {
            Some(l) => self.append(&lvl, l, value),
            None => self.insert_general(lvl, value),
        }
    }

    /// Whether [`insert`](Self::insert) is the common case, and its level:
    /// another entry of the last level under the previous insertion's
    /// parent, with a larger coordinate, into a compressed last level of an
    /// all-unique encoding while nothing has gone wrong. The general path
    /// would do exactly what [`append`](Self::append) does then (no parent
    /// to close, no dense block to grow, no order or range fault), so the
    /// two agree.
    #[inline]
    fn appends_in_row(&self, lvl: &[usize; LVL]) -> Option<usize> {
        if !self.appendable {
            return None;
        }
        let l = LVL.checked_sub(1)?;
        let same_parent = lvl.get(..l)? == self.cur.last.get(..l)?;
        let (&c, &prev, &size) = (lvl.get(l)?, self.cur.last.get(l)?, self.lvl_sizes.get(l)?);
        (same_parent && c > prev && c < size).then_some(l)
    }

    /// Appends an entry of last level `l` (see [`appends_in_row`](Self::appends_in_row)):
    /// the parent is the previous insertion's, so only level `l`'s
    /// coordinate changes.
    #[inline]
    fn append(&mut self, lvl: &[usize; LVL], l: usize, value: V) {
        let c = lvl.get(l).copied().unwrap_or(0);
        self.push_crd(l, c);
        let entry = self.cur.count.get(l).copied().unwrap_or(0);
        if let Some(n) = self.cur.count.get_mut(l) {
            *n = entry.saturating_add(1);
        }
        self.push_val(value);
        if let Some(e) = self.cur.entry.get_mut(l) {
            *e = entry;
        }
        if let Some(last) = self.cur.last.get_mut(l) {
            *last = c;
        }
        self.cur.inserts += 1;
    }

    fn insert_general(&mut self, lvl: [usize; LVL], value: V) {
        if self.state != State::Writing || self.fault.is_some_and(|f| f.stops_inserts()) {
            return;
        }
        let Some(first_new) = self.check_insert(&lvl) else {
            return;
        };
        for l in first_new..LVL {
            let parent = match l.checked_sub(1) {
                Some(p) => self.cur.entry.get(p).copied().unwrap_or(0),
                None => 0,
            };
            let c = lvl.get(l).copied().unwrap_or(0);
            let Some(info) = self.layout.levels.get(l).copied() else {
                break;
            };
            if let Some((_, n, m)) = self.groups.filter(|g| g.0 == l) {
                self.insert_in_group(&lvl, l, parent, c, n, m, value);
                return;
            }
            let entry = if info.is_dense() {
                let size = self.lvl_sizes.get(l).copied().unwrap_or(0);
                parent.saturating_mul(size).saturating_add(c)
            } else {
                if info.ty.has_positions() {
                    self.close_up_to(l, parent);
                }
                // AoS singletons push into their region start's buffer, so
                // each entry's tuple is contiguous.
                let owner = l.saturating_sub(info.offset);
                if l + 1 == LVL {
                    self.push_last(&lvl, l, owner, value);
                    return;
                }
                self.push_crd(owner, c);
                let entry = self.cur.count.get(l).copied().unwrap_or(0);
                if let Some(n) = self.cur.count.get_mut(l) {
                    *n = n.saturating_add(1);
                }
                self.grow_dense(l + 1, 1);
                entry
            };
            if let Some(e) = self.cur.entry.get_mut(l) {
                *e = entry;
            }
        }
        // The last level is dense: its slot exists (zero-filled when its
        // parent entry was created); overwrite it.
        let last = LVL.checked_sub(1).and_then(|l| self.cur.entry.get(l));
        if let (Some(&slot), true) = (last, self.writing) {
            if let Some(v) = self.values.as_mut_slice().get_mut(slot) {
                *v = value;
            }
        }
        self.cur.last = lvl;
        self.cur.inserts += 1;
    }

    /// The end of an insertion that creates an entry of last level `l`
    /// (not dense, not n:m) once its parent is open: the coordinate (into
    /// buffer `owner`) and the value, the cursor, and whether insertions
    /// under this parent can now append. `compress` ends a row's first
    /// insertion here too when it opened the row itself.
    pub(super) fn push_last(&mut self, lvl: &[usize; LVL], l: usize, owner: usize, value: V) {
        let c = lvl.get(l).copied().unwrap_or(0);
        self.push_crd(owner, c);
        let entry = self.cur.count.get(l).copied().unwrap_or(0);
        if let Some(n) = self.cur.count.get_mut(l) {
            *n = n.saturating_add(1);
        }
        self.push_val(value);
        self.record(lvl, l, entry);
        // Insertions into this entry's parent can now append.
        self.appendable =
            self.appends && self.writing && self.fault.is_none() && self.state == State::Writing;
    }

    /// Inserts into the group of n:m last level `l` under entry `parent`
    /// of the level above: the group's `n` slots exist (made with their
    /// parent, holding padding), the insertions of a group fill them from
    /// the front in coordinate order, and the group is put in order when
    /// insertions leave it ([`close_group`](Self::close_group)).
    #[allow(clippy::too_many_arguments)]
    fn insert_in_group(
        &mut self,
        lvl: &[usize; LVL],
        l: usize,
        parent: usize,
        c: usize,
        n: usize,
        m: usize,
        value: V,
    ) {
        if self.cur.group_parent != parent {
            self.close_group();
            self.cur.group_parent = parent;
            self.cur.group_len = 0;
        }
        let k = self.cur.group_len;
        if k >= n {
            self.set_fault(Fault::Group {
                level: l,
                group: parent,
                coordinate: c,
                n,
                m,
            });
            return;
        }
        let slot = parent.saturating_mul(n).saturating_add(k);
        if self.writing {
            let owner = l.saturating_sub(self.layout.levels.get(l).map_or(0, |i| i.offset));
            if let Some(b) = self.coordinates.get_mut(owner) {
                <E::Crd as Index>::set_at(b.as_mut_slice(), slot, c);
            }
            if let Some(v) = self.values.as_mut_slice().get_mut(slot) {
                *v = value;
            }
        }
        self.cur.group_len = k + 1;
        self.record(lvl, l, slot);
    }

    /// Puts the open group of the n:m last level in order: its `k` inserted
    /// entries (in the first slots, coordinates increasing) merged with
    /// `n - k` padding entries (value `V::default()`) at the smallest
    /// coordinates no insertion took, so the group holds `n` distinct
    /// coordinates in increasing order, as `assemble` requires. Merged from
    /// the back, so every entry moves at most once and only to the right.
    pub(super) fn close_group(&mut self) {
        let (Some((l, n, m)), parent, k) = (self.groups, self.cur.group_parent, self.cur.group_len)
        else {
            return;
        };
        self.cur.group_parent = usize::MAX;
        self.cur.group_len = 0;
        if parent == usize::MAX || k == 0 || k >= n || !self.writing {
            // No insertion, or a full group: the slots are in order already.
            return;
        }
        let owner = l.saturating_sub(self.layout.levels.get(l).map_or(0, |i| i.offset));
        let base = parent.saturating_mul(n);
        // The whole coordinate buffer (packed coordinates share bytes
        // across groups); the group's values.
        let (Some(crd), Some(val)) = (
            self.coordinates.get_mut(owner).map(|b| b.as_mut_slice()),
            self.values
                .as_mut_slice()
                .get_mut(base..base.saturating_add(n)),
        ) else {
            return;
        };
        let at = |crd: &[E::Crd], i: usize| <E::Crd as Index>::get_at(crd, base + i);
        // Whether coordinate `x` is taken by one of the inserted entries
        // `0..k` (sorted; `k` is at most 31).
        let taken = |crd: &[E::Crd], r: usize, x: usize| (0..r).any(|i| at(crd, i) == Some(x));
        // The largest padding coordinate: the `(n - k)`-th free one.
        let mut pad = None;
        let mut free = 0;
        for x in 0..m {
            if !taken(crd, k, x) {
                free += 1;
                if free == n - k {
                    pad = Some(x);
                    break;
                }
            }
        }
        let mut r = k;
        let mut w = n;
        while w > r {
            let real = r.checked_sub(1).and_then(|i| at(crd, i));
            match (real, pad) {
                (Some(x), Some(p)) if x > p => {
                    // Slot `w - 1` is free (padding or already moved).
                    <E::Crd as Index>::set_at(crd, base + w - 1, x);
                    // `r - 1 < w - 1`: swap through a split, which cannot
                    // panic (the machine-code check denies `slice::swap`'s
                    // bounds check).
                    if let Some((lo, hi)) = val.split_at_mut_checked(w - 1) {
                        if let (Some(a), Some(b)) = (lo.get_mut(r - 1), hi.first_mut()) {
                            core::mem::swap(a, b);
                        }
                    }
                    r -= 1;
                }
                (_, Some(p)) => {
                    <E::Crd as Index>::set_at(crd, base + w - 1, p);
                    if let Some(v) = val.get_mut(w - 1) {
                        *v = V::default();
                    }
                    // The next free coordinate below `p`.
                    pad = (0..p).rev().find(|&x| !taken(crd, r, x));
                }
                // Unreachable: `n - k` free coordinates exist below `m`.
                (_, None) => break,
            }
            w -= 1;
        }
    }

    /// Remembers an insertion that ended by creating an entry of the last
    /// level.
    fn record(&mut self, lvl: &[usize; LVL], l: usize, entry: usize) {
        if let Some(e) = self.cur.entry.get_mut(l) {
            *e = entry;
        }
        self.cur.last = *lvl;
        self.cur.inserts += 1;
    }

    /// Checks `lvl` against the level sizes and the previous insertion;
    /// returns the first level that gets a new entry, or records the fault.
    fn check_insert(&mut self, lvl: &[usize; LVL]) -> Option<usize> {
        for (l, (&c, &size)) in lvl.iter().zip(&self.lvl_sizes).enumerate() {
            if c >= size {
                self.set_fault(Fault::Range {
                    level: l,
                    coordinate: c,
                    size,
                });
                return None;
            }
        }
        if self.cur.inserts == 0 {
            return Some(0);
        }
        let order = |level| Fault::Order {
            insert: self.cur.inserts,
            level,
        };
        // The first level whose coordinate differs from the previous one.
        let d = lvl
            .iter()
            .zip(&self.cur.last)
            .position(|(a, b)| a != b)
            .unwrap_or(LVL);
        if let (Some(a), Some(b)) = (lvl.get(d), self.cur.last.get(d)) {
            if a < b {
                self.set_fault(order(d));
                return None;
            }
        }
        // A non-unique level takes a new entry even for a repeated
        // coordinate (its singleton children need one entry each).
        let first_new = d.min(self.first_nonunique);
        if d == LVL && first_new == LVL {
            self.set_fault(order(LVL.saturating_sub(1)));
            return None;
        }
        // A singleton holds one entry per parent entry: a second one needs a
        // new parent.
        let singleton = |l: usize| {
            self.layout
                .levels
                .get(l)
                .is_some_and(|i| i.ty.format == LevelFormat::Singleton)
        };
        if singleton(first_new) {
            self.set_fault(order(first_new));
            return None;
        }
        // A unique singleton compares whole tuples of its COO region within
        // a segment of the region's start: the repeat is a duplicate if that
        // segment is the previous insertion's.
        for (l, info) in self.layout.levels.iter().enumerate().take(d) {
            let unique_singleton = info.ty.format == LevelFormat::Singleton && info.ty.is_unique();
            if unique_singleton && l >= first_new && info.region_start <= first_new {
                self.set_fault(order(l));
                return None;
            }
        }
        Some(first_new)
    }
}
