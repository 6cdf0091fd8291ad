//! Writing one output row whose entry count is bounded in advance: what a
//! generated kernel does when the loop over the output's last level merges
//! sparse inputs (a sparse add's union, a product's intersection, a walk
//! over one row): the row holds at most as many entries as the merged rows
//! together.
//!
//! A [`Segment`]'s `push` checks the order, the range and the room of two
//! buffers, and pushes into each (a length update in memory per entry).
//! A [`Row`] reserves the bound's slots in both buffers once, when it is
//! made (a new row of a `(dense, compressed)` output — CSR, CSC — is
//! opened then, before its first entry, so that entry is a slot like the
//! others; any other row's first entry opens it through the segment), and
//! then writes each entry into its slot: one test of the slot count, the
//! order and the range, two stores. A generated kernel whose coordinates
//! come in order and in range by construction (validated inputs merged in
//! increasing order) vouches for them with
//! [`push_in_order`](Row::push_in_order): one test of the slot count. Dropping the row cuts the buffers back to
//! what was written and hands the count to the segment, which settles the
//! output's lengths as for its own pushes. Buffers that can lend their
//! spare capacity (a `Vec`: `Buffer::SLOTS_PAST_LEN`) give the slots past
//! their lengths instead: nothing is filled in first (the fill of a row's
//! reserved values was a quarter of the sparse add's instructions outside
//! the merge) and nothing is cut back; the written slots join the lengths.
//! A row asked of a segment held for the whole kernel call
//! ([`Segment::row_at`]) takes its slots from that segment's run of rows
//! instead (`run.rs`): they start where the previous row's ended, and the
//! row's count joins the run's, settled once for all the rows.
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
//! entry in the push alone), and what they return comes back through a
//! copy (`in_registers`), so the row's state is never their return slot.

use core::ptr::NonNull;

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::run::settle_run;
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
pub(super) struct Slots<C, V> {
    pub(super) crd: NonNull<C>,
    pub(super) val: NonNull<V>,
    /// Slots reserved (0: none, every push takes the segment's path).
    pub(super) room: usize,
    /// Slots written.
    pub(super) k: usize,
    /// The smallest coordinate the row accepts next: one past the last
    /// written (or pushed through the segment), 0 before the first.
    pub(super) next: usize,
    /// The last level's size.
    pub(super) size: usize,
    /// Entries the row may still hold: the bound less every entry pushed.
    pub(super) left: usize,
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
    pub(super) st: Slots<E::Crd, V>,
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
    #[inline(always)]
    pub fn row(&mut self, bound: usize) -> Row<'_, 'o, V, E, B, DIM, LVL> {
        // A run's rows are counted by the run (`run.rs`), not yet by the
        // output that the checks below read.
        settle_run(self);
        // The common case in line (64-bit targets; the microcontrollers
        // keep the one out-of-line call): a fresh segment of the next
        // CSR/CSC row, its slots in the spare capacity the kernel reserved
        // up front. The out-of-line call with its state passed through
        // memory was ~150 instructions per row.
        let next = cfg!(target_pointer_width = "64")
            && !self.appending
            && bound > 0
            && self.pending == 0
            && self.out.open_next_row(&self.lvl);
        let st = if next {
            self.appending = true;
            reserve(self, fresh_slots(self, bound))
        } else {
            in_registers(open_slots(self, bound))
        };
        Row { seg: self, st }
    }
}

impl<'s, 'o, V, E, B, const DIM: usize, const LVL: usize> Row<'s, 'o, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The row of `seg` in state `st` (`Slots`' invariant holds for it).
    #[inline(always)]
    pub(super) fn new(seg: &'s mut Segment<'o, V, E, B, DIM, LVL>, st: Slots<E::Crd, V>) -> Self {
        Row { seg, st }
    }
}

/// The state of a row of `seg` with `bound` and no slots yet, accepting
/// any coordinate below the last level's size.
#[inline(always)]
pub(super) fn fresh_slots<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &Segment<'_, V, E, B, DIM, LVL>,
    bound: usize,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let size = LVL
        .checked_sub(1)
        .and_then(|l| seg.out.lvl_sizes.get(l))
        .copied()
        .unwrap_or(0);
    Slots {
        crd: NonNull::dangling(),
        val: NonNull::dangling(),
        room: 0,
        k: 0,
        next: 0,
        size,
        left: bound,
    }
}

/// The state of a new row of `seg` with `bound` (see [`Segment::row`]).
/// Out of line: once per row.
#[inline(never)]
pub(super) fn open_slots<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    bound: usize,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let mut st = fresh_slots(seg, bound);
    if seg.appending {
        st.next = last_pushed(seg).saturating_add(1);
        st = reserve(seg, st);
    } else if bound > 0 && seg.pending == 0 && opens(seg) {
        // A new CSR/CSC row, opened now as its first entry would open
        // it (`opens_row` held: nothing is out of order or faulted), so
        // that entry is a slot too. The segment appends from here: its
        // last coordinate says 0 while no entry is in, which only sends
        // a push of coordinate 0 to the general path (where opening the
        // row again changes nothing).
        seg.appending = true;
        st = reserve(seg, st);
    }
    st
}

/// Opens the segment's row of a CSR/CSC output before its first entry
/// when `insert` would open it with no fault (`opens_row`): the next row
/// in a few instructions (`open_next_row`), any other through `open_row`.
/// On 64-bit targets [`Segment::row`] already tried `open_next_row` in
/// line under the same conditions, and it changes nothing when it fails,
/// so it is not tried twice.
#[inline(always)]
fn opens<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
) -> bool
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if !cfg!(target_pointer_width = "64") && seg.out.open_next_row(&seg.lvl) {
        return true;
    }
    if !seg.out.opens_row(&seg.lvl, 0) {
        return false;
    }
    seg.out.open_row(&seg.lvl);
    true
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
        let st = &self.st;
        if st.k < st.room && c >= st.next && c < st.size {
            // SAFETY: a slot is left (`k < room`) and `next <= c < size`.
            unsafe { self.write_slot(c, value) }
        } else {
            self.st = in_registers(push_slow(self.seg, self.st, c, value));
        }
    }

    /// [`push`](Self::push) for a coordinate the caller vouches for: one
    /// test of the slot count, two stores. What a generated kernel calls
    /// when the plan proves the order and the range (coordinates of
    /// validated inputs' ordered, unique levels, merged in increasing order,
    /// below the level size the kernel checked equal to the output's).
    ///
    /// # Safety
    ///
    /// `c` is larger than every coordinate pushed into this row before (by
    /// any method) and below the last level's size. The output's `view`
    /// trusts its buffers without re-validating them, and kernels reading
    /// that view index with its coordinates unchecked, so a coordinate out
    /// of order or out of range would make later reads unsound.
    #[inline(always)]
    pub unsafe fn push_in_order(&mut self, c: usize, value: V) {
        if self.st.k < self.st.room {
            // SAFETY: a slot is left, and the caller's contract gives
            // `next <= c < size`.
            unsafe { self.write_slot(c, value) }
        } else {
            self.st = in_registers(push_slow(self.seg, self.st, c, value));
        }
    }

    /// Whether the row's reserved slots cover its whole bound: pushing at
    /// most the `bound` given to [`Segment::row`] never runs out of slots.
    /// Checked once per row, before a merge whose every push is
    /// [`push_reserved`](Self::push_reserved). Always `false` on targets
    /// whose pointers are narrower than 64 bits: a generated kernel's
    /// second copy of the merge behind it is then dead code, and the
    /// microcontrollers keep one copy (code size).
    #[inline(always)]
    pub fn holds_bound(&self) -> bool {
        cfg!(target_pointer_width = "64") && self.st.room >= self.st.left
    }

    /// [`push_in_order`](Self::push_in_order) without the slot test: two
    /// stores. What a generated kernel calls inside a merge that the
    /// schedule proves writes at most the row's bound (every iteration
    /// advances a cursor over the bounded levels and inserts at most once),
    /// after [`holds_bound`](Self::holds_bound) held.
    ///
    /// # Safety
    ///
    /// [`holds_bound`](Self::holds_bound) returned `true` for this row
    /// before its first push, at most `bound` entries are pushed into it
    /// in all (by any method: `push_reserved`, `push_in_order`,
    /// `extend_in_order`), and `c` satisfies
    /// [`push_in_order`](Self::push_in_order)'s contract (larger than every
    /// coordinate pushed before, below the last level's size).
    #[inline(always)]
    pub unsafe fn push_reserved(&mut self, c: usize, value: V) {
        // SAFETY: the row held its bound (`room >= left`, with `left` the
        // bound and `k` 0 when it was checked before any push); no push
        // took the segment's path since (every one found a slot: at most
        // `bound` were made), so `room` and `left` are unchanged and the
        // `k` pushes before this one are fewer than `bound <= room`: a slot
        // is left. The caller's contract gives `next <= c < size`.
        unsafe { self.write_slot(c, value) }
    }

    /// Writes `c` and `value` to the row's next slot and advances past it:
    /// the two stores both pushes end in.
    ///
    /// # Safety
    ///
    /// A slot is left (`k < room`) and `next <= c < size` (so `c` fits the
    /// coordinate width: `new` checked the level size does).
    #[inline(always)]
    unsafe fn write_slot(&mut self, c: usize, value: V) {
        let st = &mut self.st;
        let k = st.k;
        let crd = <E::Crd as Index>::from_usize_wrapping(c);
        // SAFETY: `k < room` (the caller's contract), and by `Slots`'
        // invariant slot `k` of both runs is a slot nothing else accesses.
        unsafe {
            put::<E::Crd, B::Crd>(st.crd.as_ptr().add(k), crd);
            put::<V, B::Val>(st.val.as_ptr().add(k), value);
        }
        st.k = k + 1;
        st.next = c.wrapping_add(1);
    }
}

/// `st`, read back from a copy the optimizer sees escape: what the
/// out-of-line paths return goes through it, so the row's own state is
/// never their return slot and stays in registers in the kernel's loop.
/// (Returned directly, the state was written in place on the stack and
/// every push loaded and stored its slot count there: the sparse add took
/// 30.7 instructions per entry instead of 26.0.) `black_box` is only an
/// optimization barrier here; nothing depends on it for correctness.
#[inline(always)]
pub(super) fn in_registers<C, V>(st: Slots<C, V>) -> Slots<C, V> {
    core::hint::black_box(st)
}

/// The last coordinate the segment took (its parent's last level
/// coordinate).
fn last_pushed<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &Segment<'_, V, E, B, DIM, LVL>,
) -> usize
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    LVL.checked_sub(1)
        .and_then(|l| seg.lvl.get(l))
        .copied()
        .unwrap_or(usize::MAX)
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
    // The segment's path reads the output's counts: a run's rows join them.
    settle_run(seg);
    seg.push(c, value);
    st.left = st.left.saturating_sub(1);
    if seg.appending {
        // The segment took `c`, below the level size.
        st.next = c.saturating_add(1);
        reserve(seg, st)
    } else {
        st
    }
}

/// Reserves `st.left` slots when both buffers have the room (the segment
/// is appending: the row is open and the output is in its fast state;
/// `st.next` is set); otherwise reserves none. In line: a `Vec`'s slots
/// are a capacity test and two pointers.
#[inline(always)]
pub(super) fn reserve<V, E, B, const DIM: usize, const LVL: usize>(
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
pub(super) unsafe fn put<T, Buf: Buffer<T>>(p: *mut T, x: T) {
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
    let run = seg.run.active;
    if run {
        // Slots of a run (`run.rs`): the run counts them; the output's
        // lengths are settled when it ends.
        seg.run.add(k);
    } else if past_len::<V, E, B>() {
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
        // A slot was written, so `next` is one past its coordinate.
        if let Some(last) = LVL.checked_sub(1).and_then(|l| seg.lvl.get_mut(l)) {
            *last = st.next.wrapping_sub(1);
        }
        if run {
            if let (Some(&i), Some(&j)) = (seg.lvl.first(), seg.lvl.last()) {
                seg.run.last = [i, j];
            }
        } else {
            seg.pending += k;
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

impl<V, E, B, const DIM: usize, const LVL: usize> Drop for Row<'_, '_, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    #[inline]
    fn drop(&mut self) {
        self.st = in_registers(hand_over(self.seg, self.st));
    }
}
