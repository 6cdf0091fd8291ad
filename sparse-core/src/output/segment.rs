//! Appending a whole segment of the last level: what a generated kernel
//! does when it inserts every entry of one output row (or fiber) in a row.
//!
//! `SparseTensorOut::insert` is safe against any order and any buffer
//! size, and pays for it on every call: it compares the parent with the
//! previous insertion's, and keeps four logical lengths so that a full
//! buffer can still report how much room the result needed. A kernel that
//! inserts the entries of one parent one after the other can open a
//! [`Segment`] for that parent instead: each [`push`](Segment::push)
//! checks only the order within the segment and the room in the two
//! buffers, and the lengths are settled once, when the segment is dropped
//! (or when a push has to take the general path). Anything a segment
//! cannot append (the first entry under a new parent, an out-of-order or
//! out-of-range coordinate, a full buffer, an encoding without a plain
//! compressed last level) goes through `insert`, so the result, the
//! errors and the counted lengths are exactly `insert`'s.

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::run::{settle_run, Run};
use super::{SparseTensorOut, State};

/// The entries of the last level under one parent, appended in order.
/// Made by the protocol's `segment`; settles the output's lengths when
/// dropped.
pub struct Segment<'o, V, E, B, const DIM: usize, const LVL: usize>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    pub(super) out: &'o mut SparseTensorOut<V, E, B, DIM, LVL>,
    /// The parent's level coordinates; the last is the previous entry's.
    pub(super) lvl: [usize; LVL],
    /// Whether pushes can append (the previous one was accepted under this
    /// parent and the output is in its fast state).
    pub(super) appending: bool,
    /// Entries appended since the output's lengths were last settled.
    pub(super) pending: usize,
    /// The rows written one after the other into one run of slots
    /// (`run.rs`; idle unless `row_at` started one).
    pub(super) run: Run<E::Pos, E::Crd, V>,
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Opens the segment of the last level under the parent whose level
    /// coordinates are `lvl` (its last coordinate is ignored). Pushes into
    /// it mean exactly `insert(parent ++ [c], v)`.
    #[inline]
    pub(crate) fn segment(&mut self, lvl: [usize; LVL]) -> Segment<'_, V, E, B, DIM, LVL> {
        Segment {
            out: self,
            lvl,
            appending: false,
            pending: 0,
            run: Run::idle(),
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Segment<'_, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Inserts `value` at last-level coordinate `c` under the segment's
    /// parent: `insert(parent ++ [c], value)`.
    ///
    /// Always inlined, and small: the append, with everything else out of
    /// line in `segment_insert` (a kernel pushes from several co-iteration
    /// cases; an outlined `push` cost a call frame per entry).
    #[inline(always)]
    pub fn push(&mut self, c: usize, value: V) {
        let Some(l) = LVL.checked_sub(1) else {
            return;
        };
        if self.appending {
            let prev = self.lvl.get(l).copied().unwrap_or(usize::MAX);
            let size = self.out.lvl_sizes.get(l).copied().unwrap_or(0);
            // `new` checked that every level size fits the coordinate
            // width, so a coordinate below its size converts.
            let crd = <E::Crd as Index>::from_usize(c);
            // The value's room first: once the coordinate is pushed the
            // value must follow, and a full buffer takes the general path.
            let room = self.out.values.len() < self.out.values.capacity();
            if let (true, true, true, Some(crd)) = (c > prev, c < size, room, crd) {
                if let Some(buffer) = self.out.coordinates.get_mut(l) {
                    if buffer.push(crd).is_ok() {
                        // Cannot fail: `room` above (an unbounded buffer
                        // always has room).
                        let _ = self.out.values.push(value);
                        self.pending += 1;
                        if let Some(last) = self.lvl.get_mut(l) {
                            *last = c;
                        }
                        return;
                    }
                }
            }
        }
        // Not appending during a run: the run's rows join the counts first.
        settle_run(self);
        let pending = core::mem::take(&mut self.pending);
        self.appending = self.out.segment_insert(self.lvl, pending, c, value);
        if let Some(last) = self.lvl.get_mut(l) {
            *last = c;
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Segment<'_, V, E, B, DIM, LVL>
where
    V: Default + Clone,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Pushes `(crd[k], val[k])` for every `k` in order: exactly
    /// `push(crd[k], val[k].clone())` one after the other (a length
    /// mismatch pushes the shorter's count), but when the segment is
    /// appending, the coordinates increase from its last one and stay
    /// below the level size, and both buffers have room for all of them,
    /// with one room check and one pass for the whole run — what a merge
    /// loop's tail (one operand's rest of the row, copied) needs instead of
    /// a check per entry.
    pub fn extend_from<C: Index>(&mut self, crd: &[C], val: &[V]) {
        let n = crd.len().min(val.len());
        let (crd, val) = (
            crd.get(..n).unwrap_or_default(),
            val.get(..n).unwrap_or_default(),
        );
        if !self.append_run(crd, val) {
            for (c, v) in crd.iter().zip(val) {
                self.push(c.as_usize(), v.clone());
            }
        }
    }

    /// The bulk case of [`extend_from`](Self::extend_from); `false` with
    /// nothing changed when it does not apply.
    fn append_run<C: Index>(&mut self, crd: &[C], val: &[V]) -> bool {
        let Some(l) = LVL.checked_sub(1) else {
            return false;
        };
        let (Some(first), Some(last)) = (crd.first(), crd.last()) else {
            return true;
        };
        let prev = self.lvl.get(l).copied().unwrap_or(usize::MAX);
        let size = self.out.lvl_sizes.get(l).copied().unwrap_or(0);
        let increasing = crd
            .windows(2)
            .all(|w| matches!(w, [a, b] if a.as_usize() < b.as_usize()));
        let (first, last) = (first.as_usize(), last.as_usize());
        if !self.appending
            || first <= prev
            || last >= size
            || !increasing
            || <E::Crd as Index>::PER_ELEMENT != 1
        {
            return false;
        }
        let Some(zero) = <E::Crd as Index>::from_usize(0) else {
            return false;
        };
        let out = &mut *self.out;
        let Some(buffer) = out.coordinates.get_mut(l) else {
            return false;
        };
        let c0 = buffer.len();
        // Every coordinate is below the size, which `new` checked fits the
        // coordinate width: every conversion succeeds.
        let to_crd = |c: &C| <E::Crd as Index>::from_usize(c.as_usize()).unwrap_or(zero);
        if !buffer.extend_exact(crd.iter().map(to_crd)) {
            return false;
        }
        if !out.values.extend_exact(val.iter().cloned()) {
            buffer.truncate(c0);
            return false;
        }
        self.pending += crd.len();
        if let Some(x) = self.lvl.get_mut(l) {
            *x = last;
        }
        true
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// What [`Segment::push`] cannot append: settles the `pending` entries
    /// appended after the insertion at `lvl`, then inserts `value` at `lvl`
    /// with last coordinate `c` through `insert`'s general path. Returns
    /// whether the segment can append again. The segment's state comes by
    /// value (not `&mut Segment`), so it can stay in registers in the
    /// kernel's loop.
    #[inline(never)]
    fn segment_insert(
        &mut self,
        mut lvl: [usize; LVL],
        pending: usize,
        c: usize,
        value: V,
    ) -> bool {
        self.settle_segment(lvl, pending);
        if let Some(last) = lvl.last_mut() {
            *last = c;
        }
        // A row's first entry: opened directly when `insert` would take
        // it without a fault (most of its cost per row otherwise).
        if self.opens_row(&lvl, c) {
            self.open_row(&lvl);
            self.push_last(&lvl, 1, 1, value);
        } else {
            self.insert(lvl, value);
        }
        // `insert` accepted it under this parent and the output can append.
        self.appendable && self.cur.last == lvl
    }

    /// Whether an insertion at `lvl` whose row's last-level coordinates
    /// are at most `largest` starts a new row of a `(dense, compressed)`
    /// output (CSR, CSC) that `insert` would accept with no fault: two
    /// levels, the first dense, the last compressed and unique with a
    /// coordinate buffer of its own, writing with nothing gone wrong, the
    /// row and `largest` in range, and the row after the previous
    /// insertion's. Then [`open_row`](Self::open_row) does what `insert`
    /// does first, without `insert`'s general checks and level walk.
    #[inline]
    pub(super) fn opens_row(&self, lvl: &[usize; LVL], largest: usize) -> bool {
        let (Some(&i), Some(&rows), Some(&cols)) =
            (lvl.first(), self.lvl_sizes.first(), self.lvl_sizes.get(1))
        else {
            return false;
        };
        LVL == 2
            && self.appends
            && self.writing
            && self.fault.is_none()
            && self.state == State::Writing
            && self
                .layout
                .levels
                .first()
                .is_some_and(|info| info.is_dense())
            && i < rows
            && largest < cols
            && (self.cur.inserts == 0 || self.cur.last.first().is_some_and(|&p| i > p))
    }

    /// After [`opens_row`](Self::opens_row) held for `lvl`: what `insert`
    /// does for that row's first entry before storing it — level 0's
    /// entry is the row, and the last level's parent opens (closing the
    /// rows before it). The entry itself follows with
    /// [`push_last`](Self::push_last) or a bulk append.
    #[inline]
    pub(super) fn open_row(&mut self, lvl: &[usize; LVL]) {
        let i = lvl.first().copied().unwrap_or(0);
        if let Some(e) = self.cur.entry.first_mut() {
            *e = i;
        }
        self.close_up_to(1, i);
    }

    /// Adds `n` entries appended by a segment, the last at `lvl`, to the
    /// lengths and the cursor, as `insert` would have one by one.
    #[inline]
    pub(super) fn settle_segment(&mut self, lvl: [usize; LVL], n: usize) {
        let Some(l) = LVL.checked_sub(1) else {
            return;
        };
        if n == 0 {
            return;
        }
        let cur = &mut self.cur;
        if let Some(len) = cur.crd_len.get_mut(l) {
            *len = len.saturating_add(n);
        }
        let count = cur.count.get(l).copied().unwrap_or(0).saturating_add(n);
        if let Some(x) = cur.count.get_mut(l) {
            *x = count;
        }
        if let Some(e) = cur.entry.get_mut(l) {
            *e = count - 1;
        }
        cur.val_len = cur.val_len.saturating_add(n);
        cur.inserts = cur.inserts.saturating_add(n);
        cur.last = lvl;
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Drop for Segment<'_, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    fn drop(&mut self) {
        settle_run(self);
        self.out.settle_segment(self.lvl, self.pending);
    }
}
