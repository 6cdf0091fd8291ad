//! Writing one output row whose entry count is bounded in advance: what a
//! generated kernel does when the loop over the output's last level merges
//! sparse inputs (a sparse add's union, a product's intersection, a walk
//! over one row): the row holds at most as many entries as the merged rows
//! together.
//!
//! A [`Segment`]'s `push` checks the order, the range and the room of two
//! buffers, and pushes into each (a length update in memory per entry).
//! A [`Row`] reserves the bound's slots in both buffers once, after the
//! row's first entry (which opens the row through the segment), and then
//! writes each entry into its slot: one test of the slot count, the order
//! and the range, two stores. Dropping the row cuts the buffers back to
//! what was written and hands the count to the segment, which settles the
//! output's lengths as for its own pushes.
//!
//! Anything the fast path cannot write (the first entry, a coordinate out
//! of order or out of range, more entries than reserved, a buffer without
//! room for the bound) goes to the segment's `push` after the written ones
//! are handed over, so the result, the errors and the counted lengths are
//! exactly `insert`'s (the segment's guarantee).
//!
//! The slots are written through raw pointers into the two buffers: the
//! buffers' own `&mut` would be reborrowed from the output on every entry,
//! and the compiler then reloads each buffer's pointer and length per entry
//! (the stores to the slots could alias them). See [`Slots`].

use core::ptr::NonNull;

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::Segment;

/// `len` elements of a buffer, written by index.
///
/// Invariant: while a `Slots` with `len > 0` is in use, `ptr..ptr + len`
/// are initialized elements of a buffer that nothing else reads or writes:
/// the [`Row`] holding it borrows the segment (and so the output) mutably,
/// takes the pointer from the buffer's slice right after growing it, and
/// touches the buffer again only after setting `len` to 0.
struct Slots<T> {
    ptr: NonNull<T>,
    len: usize,
}

impl<T> Slots<T> {
    const EMPTY: Self = Slots {
        ptr: NonNull::dangling(),
        len: 0,
    };

    /// The last `len` elements of `slice` (nothing if it is shorter).
    fn tail_of(slice: &mut [T], len: usize) -> Self {
        match slice
            .len()
            .checked_sub(len)
            .and_then(|s| slice.get_mut(s..))
        {
            Some(tail) => Slots {
                ptr: NonNull::from(tail).cast(),
                len,
            },
            None => Self::EMPTY,
        }
    }

    /// Overwrites element `k` (dropping the old one); `k < len` is the
    /// caller's test, repeated here so a wrong index writes nothing.
    #[inline(always)]
    fn set(&mut self, k: usize, value: T) {
        if k < self.len {
            // SAFETY: `k < len`, and by the type's invariant `ptr + k` is an
            // initialized element of a buffer nothing else accesses while
            // this `Slots` is in use.
            unsafe { *self.ptr.as_ptr().add(k) = value };
        }
    }
}

/// One output row written into slots reserved for its bound. Made by
/// [`Segment::row`]; hands its entries to the segment when dropped.
pub struct Row<'s, 'o, V, E, B, const DIM: usize, const LVL: usize>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    seg: &'s mut Segment<'o, V, E, B, DIM, LVL>,
    crd: Slots<E::Crd>,
    val: Slots<V>,
    /// Slots written.
    k: usize,
    /// The last coordinate written (or pushed through the segment).
    prev: usize,
    /// The last level's size.
    size: usize,
    /// Entries the row may still hold: the bound less every entry pushed.
    left: usize,
}

impl<'o, V, E, B, const DIM: usize, const LVL: usize> Segment<'o, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The row of this segment, holding at most `bound` entries: pushes
    /// into it mean exactly the segment's pushes. A larger `bound` costs
    /// only room (the slots are reserved and cut back); a smaller one only
    /// speed (entries past it take the segment's path).
    #[inline]
    pub fn row(&mut self, bound: usize) -> Row<'_, 'o, V, E, B, DIM, LVL> {
        let size = LVL
            .checked_sub(1)
            .and_then(|l| self.out.lvl_sizes.get(l))
            .copied()
            .unwrap_or(0);
        let mut row = Row {
            seg: self,
            crd: Slots::EMPTY,
            val: Slots::EMPTY,
            k: 0,
            prev: usize::MAX,
            size,
            left: bound,
        };
        row.reserve();
        row
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Row<'_, '_, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Inserts `value` at last-level coordinate `c`: the segment's
    /// `push(c, value)`. Inlined and small: the slot write, everything else
    /// out of line.
    #[inline(always)]
    pub fn push(&mut self, c: usize, value: V) {
        let k = self.k;
        if k < self.crd.len && c > self.prev && c < self.size {
            // `prev < c < size`, so `c` fits the coordinate width (`new`
            // checked the level size does).
            self.crd.set(k, <E::Crd as Index>::from_usize_wrapping(c));
            self.val.set(k, value);
            self.k = k + 1;
            self.prev = c;
        } else {
            self.push_slow(c, value);
        }
    }

    /// What [`push`](Self::push) cannot write: the written slots go to the
    /// segment, the entry takes the segment's path, and slots for the rest
    /// of the bound are reserved again if the segment can append.
    #[inline(never)]
    fn push_slow(&mut self, c: usize, value: V) {
        self.hand_over();
        self.seg.push(c, value);
        self.left = self.left.saturating_sub(1);
        self.reserve();
    }

    /// Reserves `left` slots when the segment is appending (its last push
    /// was accepted under this row and the output is in its fast state) and
    /// both buffers have the room; otherwise leaves none.
    fn reserve(&mut self) {
        let Some(l) = LVL.checked_sub(1) else {
            return;
        };
        let n = self.left;
        if !self.seg.appending || n == 0 || <E::Crd as Index>::PER_ELEMENT != 1 {
            return;
        }
        let zero = <E::Crd as Index>::from_usize_wrapping(0);
        let out = &mut *self.seg.out;
        let Some(buffer) = out.coordinates.get_mut(l) else {
            return;
        };
        let c0 = buffer.len();
        if !buffer.extend_unspecified(n, zero) {
            return;
        }
        if !out.values.extend_unspecified_default(n) {
            buffer.truncate(c0);
            return;
        }
        self.prev = self.seg.lvl.get(l).copied().unwrap_or(usize::MAX);
        self.crd = Slots::tail_of(buffer.as_mut_slice(), n);
        self.val = Slots::tail_of(out.values.as_mut_slice(), n);
        if self.crd.len != self.val.len {
            // Unreachable for this crate's buffers (each grew by `n`); no
            // slots rather than slots the two buffers disagree on.
            self.crd = Slots::EMPTY;
            self.val = Slots::EMPTY;
            self.cut(0);
        }
    }

    /// Hands the written slots to the segment (they become its appended
    /// entries) and cuts the buffers back to them.
    fn hand_over(&mut self) {
        if self.crd.len == 0 {
            return;
        }
        let k = core::mem::take(&mut self.k);
        self.cut(k);
        self.crd = Slots::EMPTY;
        self.val = Slots::EMPTY;
        if k > 0 {
            self.seg.pending += k;
            if let Some(last) = LVL.checked_sub(1).and_then(|l| self.seg.lvl.get_mut(l)) {
                *last = self.prev;
            }
            self.left = self.left.saturating_sub(k);
        }
    }

    /// Drops the reserved slots past the first `k` from both buffers.
    fn cut(&mut self, k: usize) {
        let unused = self.crd.len.saturating_sub(k);
        let out = &mut *self.seg.out;
        if let Some(buffer) = LVL.checked_sub(1).and_then(|l| out.coordinates.get_mut(l)) {
            let len = buffer.len();
            buffer.truncate(len.saturating_sub(unused));
        }
        let len = out.values.len();
        out.values.truncate(len.saturating_sub(unused));
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Row<'_, '_, V, E, B, DIM, LVL>
where
    V: Default + Clone,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Pushes `(crd[k], val[k])` for every `k` in order: exactly
    /// `push(crd[k], val[k].clone())` one after the other (a length
    /// mismatch pushes the shorter's count). A run that fits the reserved
    /// slots is written in one pass with one test for all of it (the
    /// order and range of its coordinates are checked as they are copied):
    /// a merge loop's tail, one operand's rest of the row.
    pub fn extend_from<C: Index>(&mut self, crd: &[C], val: &[V]) {
        let n = crd.len().min(val.len());
        let (crd, val) = (
            crd.get(..n).unwrap_or_default(),
            val.get(..n).unwrap_or_default(),
        );
        if n <= self.crd.len - self.k.min(self.crd.len) && n > 0 {
            let (k, mut prev) = (self.k, self.prev);
            let mut ordered = true;
            for (i, (c, v)) in crd.iter().zip(val).enumerate() {
                let c = c.as_usize();
                // With slots, `prev` is the row's last coordinate.
                ordered &= c > prev;
                prev = c;
                self.crd
                    .set(k + i, <E::Crd as Index>::from_usize_wrapping(c));
                self.val.set(k + i, v.clone());
            }
            if ordered && prev < self.size {
                self.k = k + n;
                self.prev = prev;
                return;
            }
            // Slots past `k` hold this run's copies; they are overwritten or
            // cut back like any unwritten slot.
        }
        for (c, v) in crd.iter().zip(val) {
            self.push(c.as_usize(), v.clone());
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> Drop for Row<'_, '_, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    fn drop(&mut self) {
        self.hand_over();
    }
}
