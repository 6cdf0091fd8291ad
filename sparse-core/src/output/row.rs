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
//! output's lengths as for its own pushes. Buffers that can lend their
//! spare capacity (a `Vec`: `Buffer::SLOTS_PAST_LEN`) give the slots past
//! their lengths instead: nothing is filled in first (the fill of a row's
//! reserved values was a quarter of the sparse add's instructions outside
//! the merge) and nothing is cut back; the written slots join the lengths.
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
//! (the stores to the slots could alias them). The row's state is a `Copy`
//! value that the out-of-line paths take and return by value, never by
//! reference, so in the kernel's loop it stays in registers (a row passed
//! by `&mut` to its slow path lived on the stack: 15.7 instructions per
//! entry in the push alone).

use core::ptr::NonNull;

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::Segment;

/// The state of a [`Row`]: its reserved slots and how far they are written.
///
/// Invariant: while `room > 0`, `crd..crd + room` and `val..val + room` are
/// slots that nothing else reads or writes: initialized elements at the end
/// of the output's last coordinate buffer and of its value buffer, or, when
/// both buffers have `SLOTS_PAST_LEN` (a `Vec`), their spare capacity just
/// past their lengths, whose first `k` slots are written. The [`Row`]
/// holding this state borrows the segment (and so the output) mutably,
/// takes the pointers from the buffers' slices right after growing them,
/// and touches the buffers again only after setting `room` to 0.
struct Slots<C, V> {
    crd: NonNull<C>,
    val: NonNull<V>,
    /// Slots reserved (0: none, every push takes the segment's path).
    room: usize,
    /// Slots written.
    k: usize,
    /// The last coordinate written (or pushed through the segment).
    prev: usize,
    /// The last level's size.
    size: usize,
    /// Entries the row may still hold: the bound less every entry pushed.
    left: usize,
}

impl<C, V> Clone for Slots<C, V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C, V> Copy for Slots<C, V> {}

/// One output row written into slots reserved for its bound. Made by
/// [`Segment::row`]; hands its entries to the segment when dropped.
pub struct Row<'s, 'o, V, E, B, const DIM: usize, const LVL: usize>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    seg: &'s mut Segment<'o, V, E, B, DIM, LVL>,
    st: Slots<E::Crd, V>,
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
        let st = Slots {
            crd: NonNull::dangling(),
            val: NonNull::dangling(),
            room: 0,
            k: 0,
            prev: usize::MAX,
            size,
            left: bound,
        };
        let st = if self.appending {
            reserve(self, st)
        } else {
            st
        };
        Row { seg: self, st }
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
        let st = &mut self.st;
        let k = st.k;
        if k < st.room && c > st.prev && c < st.size {
            // `prev < c < size`, so `c` fits the coordinate width (`new`
            // checked the level size does).
            let crd = <E::Crd as Index>::from_usize_wrapping(c);
            // SAFETY: `k < room`, and by `Slots`' invariant slot `k` of both
            // runs is an initialized element nothing else accesses.
            unsafe {
                put::<E::Crd, B::Crd>(st.crd.as_ptr().add(k), crd);
                put::<V, B::Val>(st.val.as_ptr().add(k), value);
            }
            st.k = k + 1;
            st.prev = c;
        } else {
            self.st = push_slow(self.seg, self.st, c, value);
        }
    }
}

/// What [`Row::push`] cannot write: the written slots go to the segment,
/// the entry takes the segment's path, and slots for the rest of the bound
/// are reserved again if the segment can append. The state comes and goes
/// by value, so the kernel keeps it in registers.
#[inline(never)]
fn push_slow<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    st: Slots<E::Crd, V>,
    c: usize,
    value: V,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let mut st = hand_over(seg, st);
    seg.push(c, value);
    st.left = st.left.saturating_sub(1);
    if seg.appending {
        reserve(seg, st)
    } else {
        st
    }
}

/// Reserves `st.left` slots when both buffers have the room (the segment
/// is appending: its last push was accepted under this row and the output
/// is in its fast state); otherwise reserves none.
fn reserve<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    mut st: Slots<E::Crd, V>,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let n = st.left;
    let Some(l) = LVL.checked_sub(1) else {
        return st;
    };
    if n == 0 || <E::Crd as Index>::PER_ELEMENT != 1 {
        return st;
    }
    let zero = <E::Crd as Index>::from_usize_wrapping(0);
    let out = &mut *seg.out;
    let Some(buffer) = out.coordinates.get_mut(l) else {
        return st;
    };
    if past_len::<V, E, B>() {
        // Spare capacity: no fill of the slots, nothing to cut back.
        if let (Some(crd), Some(val)) = (buffer.spare_slots(n), out.values.spare_slots(n)) {
            st.crd = crd;
            st.val = val;
            st.room = n;
            st.k = 0;
            st.prev = seg.lvl.get(l).copied().unwrap_or(usize::MAX);
        }
        return st;
    }
    let c0 = buffer.len();
    if !buffer.extend_unspecified(n, zero) {
        return st;
    }
    if !out.values.extend_unspecified_default(n) {
        buffer.truncate(c0);
        return st;
    }
    let (crd, val) = (
        tail(buffer.as_mut_slice(), n),
        tail(out.values.as_mut_slice(), n),
    );
    if let (Some(crd), Some(val)) = (crd, val) {
        st.crd = crd;
        st.val = val;
        st.room = n;
        st.k = 0;
        st.prev = seg.lvl.get(l).copied().unwrap_or(usize::MAX);
    } else {
        // Unreachable for this crate's buffers (each grew by `n`): no slots.
        cut(seg, n);
    }
    st
}

/// Whether the row's slots lie past the buffers' lengths (both have
/// `SLOTS_PAST_LEN`): then they are reserved with `spare_slots` and kept
/// with `commit_slots`, otherwise appended and cut back.
const fn past_len<V, E, B>() -> bool
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    <B::Crd as Buffer<E::Crd>>::SLOTS_PAST_LEN && <B::Val as Buffer<V>>::SLOTS_PAST_LEN
}

/// Stores `x` in slot `p`: a write without dropping what it held when the
/// slot may be uninitialized (spare capacity), an assignment otherwise.
///
/// # Safety
///
/// `p` is a slot of a row (`Slots`' invariant): valid for writes, and
/// initialized unless `Buf` has `SLOTS_PAST_LEN`.
#[inline(always)]
unsafe fn put<T, Buf: Buffer<T>>(p: *mut T, x: T) {
    // SAFETY: by the caller's contract; `write` never reads (drops) the
    // old contents, which spare capacity does not have.
    unsafe {
        if Buf::SLOTS_PAST_LEN {
            p.write(x);
        } else {
            *p = x;
        }
    }
}

/// A pointer to the last `n` elements of `slice`, if it has that many.
fn tail<T>(slice: &mut [T], n: usize) -> Option<NonNull<T>> {
    let start = slice.len().checked_sub(n)?;
    slice.get_mut(start..).map(|t| NonNull::from(t).cast())
}

/// Hands the written slots to the segment (they become its appended
/// entries) and cuts the buffers back to them; the state has no slots
/// after.
fn hand_over<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    mut st: Slots<E::Crd, V>,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if st.room == 0 {
        return st;
    }
    let k = st.k.min(st.room);
    if past_len::<V, E, B>() {
        let out = &mut *seg.out;
        // SAFETY: `reserve` took the slots from `spare_slots(room)` of both
        // buffers (the only way `room > 0` when they have slots past their
        // lengths), the row touched neither buffer since, and slots
        // `0..k` of both were written (`Slots`' invariant).
        unsafe {
            if let Some(buffer) = LVL.checked_sub(1).and_then(|l| out.coordinates.get_mut(l)) {
                buffer.commit_slots(k);
            }
            out.values.commit_slots(k);
        }
    } else {
        cut(seg, st.room - k);
    }
    st.room = 0;
    st.k = 0;
    if k > 0 {
        seg.pending += k;
        if let Some(last) = LVL.checked_sub(1).and_then(|l| seg.lvl.get_mut(l)) {
            *last = st.prev;
        }
        st.left = st.left.saturating_sub(k);
    }
    st
}

/// Drops the last `unused` elements of the last coordinate buffer and of
/// the values (reserved slots never written).
fn cut<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    unused: usize,
) where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let out = &mut *seg.out;
    if let Some(buffer) = LVL.checked_sub(1).and_then(|l| out.coordinates.get_mut(l)) {
        let len = buffer.len();
        buffer.truncate(len.saturating_sub(unused));
    }
    let len = out.values.len();
    out.values.truncate(len.saturating_sub(unused));
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
    #[inline]
    pub fn extend_from<C: Index>(&mut self, crd: &[C], val: &[V]) {
        let n = crd.len().min(val.len());
        let (crd, val) = (
            crd.get(..n).unwrap_or_default(),
            val.get(..n).unwrap_or_default(),
        );
        let st = &mut self.st;
        if n > 0 && n <= st.room - st.k.min(st.room) {
            let (k, mut prev) = (st.k, st.prev);
            let mut ordered = true;
            for (i, (c, v)) in crd.iter().zip(val).enumerate() {
                let c = c.as_usize();
                // With slots, `prev` is the row's last coordinate.
                ordered &= c > prev;
                prev = c;
                // SAFETY: `k + i < k + n <= room` (tested above), and by
                // `Slots`' invariant that slot of both runs is an
                // initialized element nothing else accesses.
                unsafe {
                    let crd = <E::Crd as Index>::from_usize_wrapping(c);
                    put::<E::Crd, B::Crd>(st.crd.as_ptr().add(k + i), crd);
                    put::<V, B::Val>(st.val.as_ptr().add(k + i), v.clone());
                }
            }
            if ordered && prev < st.size {
                st.k = k + n;
                st.prev = prev;
                return;
            }
            // Slots past `k` hold this run's copies; they are overwritten or
            // cut back like any unwritten slot, and the run is pushed one
            // entry at a time below.
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
    #[inline]
    fn drop(&mut self) {
        self.st = hand_over(self.seg, self.st);
    }
}
