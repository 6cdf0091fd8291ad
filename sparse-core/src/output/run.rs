//! The rows of one kernel call written one after the other into one run
//! of slots: what a generated kernel does when its loop over the rows of a
//! CSR/CSC output holds one [`Segment`] for all of them and asks it for
//! each row with [`Segment::row_at`].
//!
//! A row made by [`Segment::row`] takes its slots, opens its row in the
//! output's cursor, and hands its entries back and settles the output's
//! lengths when it drops: ~250 instructions per row of a sparse add, six
//! per input entry at 40 entries per row (the hand-written C merge pushes
//! one position per row). A run takes the spare capacity of the
//! coordinates and the values once (the bound `reserve_entries` reserved
//! up front) and one slot per later row in the positions, and keeps its
//! own count of what it wrote: the next row is then one position written
//! and the row's slots start where the previous row's ended; a row that
//! drops adds its count to the run's. The output's lengths and cursor are
//! settled once, when the run ends: when the segment drops, or before
//! anything the run cannot write (a row that is not the next one, more
//! entries than the run has slots, a push through the segment), which then
//! takes the general path from an output exactly as the row-by-row
//! insertions would have left it: the results, the errors (the capacity of
//! a buffer, a position too wide) and the counted lengths are `insert`'s.
//!
//! Runs need buffers that lend their spare capacity (`SLOTS_PAST_LEN`: an
//! `Owned` output's `Vec`s) and a `(dense, compressed)` output; any other
//! output writes row by row as before.

use core::ptr::NonNull;

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::row::{fresh_slots, in_registers, open_slots, reserve, Slots};
use super::{Row, Segment};

/// The state of a run: its slots, how far they are written, and the open
/// row.
///
/// Invariant: while `active`, `crd..crd + room` and `val..val + room` are
/// the spare capacity just past the lengths of the output's last
/// coordinate buffer and of its values, whose first `k` slots are written
/// (the rows before the open one, and the open row's once its `Row`
/// dropped), and `pos..pos + pos_room` is spare capacity just past the
/// length of the last level's positions, whose first `pos_k` slots are
/// written; nothing else reads or writes those buffers (the segment
/// borrows the output mutably, and every path that touches the buffers
/// settles the run first). The output's cursor and lengths stand as they
/// were when the run started: `base` entries of the last level, row `open
/// - pos_k` open.
pub(super) struct Run<P, C, V> {
    pos: NonNull<P>,
    crd: NonNull<C>,
    val: NonNull<V>,
    /// Position slots: one per row after the first of the run.
    pos_room: usize,
    /// Position slots written: rows closed by the run.
    pos_k: usize,
    /// Entry slots (coordinates and values).
    room: usize,
    /// Entry slots written.
    k: usize,
    /// Entries of the last level before the run: the position that closes
    /// a row is `base + k`.
    base: usize,
    /// The row open now.
    open: usize,
    /// The level coordinates of the run's last entry (`k > 0`).
    pub(super) last: [usize; 2],
    /// The last level's size.
    size: usize,
    /// Whether a run is under way.
    pub(super) active: bool,
}

impl<P, C, V> Run<P, C, V> {
    /// No run.
    pub(super) const fn idle() -> Self {
        Run {
            pos: NonNull::dangling(),
            crd: NonNull::dangling(),
            val: NonNull::dangling(),
            pos_room: 0,
            pos_k: 0,
            room: 0,
            k: 0,
            base: 0,
            open: 0,
            last: [0; 2],
            size: 0,
            active: false,
        }
    }

    /// Adds the `written` slots of the open row (a [`Row`] handing over):
    /// the next row's slots start past them.
    #[inline(always)]
    pub(super) fn add(&mut self, written: usize) {
        self.k += written;
    }
}

/// Whether outputs of these buffers and levels can run: a positions, a
/// coordinate and a value buffer with slots past their lengths, two levels,
/// one coordinate per element.
const fn runs<V, E, B, const LVL: usize>() -> bool
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    LVL == 2
        && <B::Pos as Buffer<E::Pos>>::SLOTS_PAST_LEN
        && <B::Crd as Buffer<E::Crd>>::SLOTS_PAST_LEN
        && <B::Val as Buffer<V>>::SLOTS_PAST_LEN
        && <E::Crd as Index>::PER_ELEMENT == 1
}

impl<'o, V, E, B, const DIM: usize, const LVL: usize> Segment<'o, V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The row under parent `lvl` (its last coordinate is ignored),
    /// holding at most `bound` entries: the segment moves to that parent
    /// (settling its entries under the previous one) and gives its
    /// [`row`](Self::row). Pushes into it mean exactly `insert(lvl ++
    /// [c], v)`. A kernel that walks the rows of a CSR/CSC output in
    /// order keeps one segment for all of them and asks it for each row:
    /// the next row of a run is then a position and two pointers.
    #[inline(always)]
    pub fn row_at(&mut self, lvl: [usize; LVL], bound: usize) -> Row<'_, 'o, V, E, B, DIM, LVL> {
        let i = lvl.first().copied().unwrap_or(0);
        let run = &mut self.run;
        if run.active && i == run.open.wrapping_add(1) && run.pos_k < run.pos_room {
            // Closing the open row: its position is the entries so far,
            // at most `base + room`, which `start_run` kept within the
            // position width.
            let end = <E::Pos as Index>::from_usize_wrapping(run.base + run.k);
            // SAFETY: `pos_k < pos_room`: a position slot of the run
            // (`Run`'s invariant), spare capacity, written with `write`.
            unsafe { run.pos.as_ptr().add(run.pos_k).write(end) };
            run.pos_k += 1;
            run.open = i;
            let st = run_slots(self, bound);
            self.lvl = lvl;
            if let Some(last) = self.lvl.last_mut() {
                *last = 0;
            }
            return Row::new(self, st);
        }
        if runs::<V, E, B, LVL>() {
            let st = in_registers(enter_row(self, lvl, bound));
            return Row::new(self, st);
        }
        self.enter(lvl);
        self.row(bound)
    }

    /// Moves the segment to parent `lvl` (its last coordinate is ignored):
    /// what the previous parent's entries were is settled, and pushes go
    /// under the new parent, as from a segment opened there.
    #[inline]
    pub fn enter(&mut self, lvl: [usize; LVL]) {
        settle_run(self);
        let pending = core::mem::take(&mut self.pending);
        self.out.settle_segment(self.lvl, pending);
        self.lvl = lvl;
        if let Some(last) = self.lvl.last_mut() {
            *last = 0;
        }
        self.appending = false;
    }
}

/// A row that is not the run's next one: the segment moves to `lvl`, the
/// row opens the general way, and a run starts from it when the buffers
/// have the room. Out of line: once per run.
#[inline(never)]
fn enter_row<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    lvl: [usize; LVL],
    bound: usize,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    seg.enter(lvl);
    // As `Segment::row`: the next row in a few instructions, any other
    // that `insert` would open with no fault through `open_row`.
    let opened = seg.out.open_next_row(&seg.lvl) || {
        let open = seg.out.opens_row(&seg.lvl, 0);
        if open {
            seg.out.open_row(&seg.lvl);
        }
        open
    };
    if !opened {
        return open_slots(seg, bound);
    }
    seg.appending = true;
    if start_run(seg, bound) {
        return run_slots(seg, bound);
    }
    reserve(seg, fresh_slots(seg, bound))
}

/// Starts a run at the row the segment just opened (its parent's first
/// coordinate): the spare capacity of the coordinates and the values
/// (the bound reserved up front, `reserve_entries`), and a position slot
/// for every later row. `false` with nothing changed when a buffer cannot
/// lend them. The entry slots are at least the first row's `bound`.
fn start_run<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
    bound: usize,
) -> bool
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let i = seg.lvl.first().copied().unwrap_or(0);
    // Nothing faulted opening the row (the output still writes).
    if !seg.out.opens_row(&seg.lvl, 0) {
        return false;
    }
    let out = &mut *seg.out;
    let (Some(&rows), Some(&size), Some(&base)) = (
        out.lvl_sizes.first(),
        out.lvl_sizes.get(1),
        out.cur.count.get(1),
    ) else {
        return false;
    };
    // `opens_row` held: `i < rows`.
    let later = rows.saturating_sub(i).saturating_sub(1);
    let Some(pos) = out.positions.get_mut(1).and_then(|b| b.spare_slots(later)) else {
        return false;
    };
    let Some((crd, crd_room)) = out.coordinates.get_mut(1).and_then(|b| b.spare_run(bound)) else {
        return false;
    };
    let Some((val, val_room)) = out.values.spare_run(bound) else {
        return false;
    };
    // Every position the run writes is at most `base + room`: within the
    // position width (a larger count takes the general path, which records
    // the overflow).
    let widest = usize::try_from(<E::Pos as Index>::MAX).unwrap_or(usize::MAX);
    if base > widest {
        return false;
    }
    let room = crd_room.min(val_room).min(widest - base);
    seg.run = Run {
        pos,
        crd,
        val,
        pos_room: later,
        pos_k: 0,
        room,
        k: 0,
        base,
        open: i,
        last: [0; 2],
        size,
        active: true,
    };
    seg.appending = false;
    true
}

/// The slots of the run's open row, holding at most `bound` entries.
#[inline(always)]
fn run_slots<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &Segment<'_, V, E, B, DIM, LVL>,
    bound: usize,
) -> Slots<E::Crd, V>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let run = &seg.run;
    Slots {
        // SAFETY: `k <= room` (`Run::add` adds what rows wrote into their
        // slots, at most the room left): within or one past the slots.
        crd: unsafe { NonNull::new_unchecked(run.crd.as_ptr().add(run.k)) },
        // SAFETY: as above.
        val: unsafe { NonNull::new_unchecked(run.val.as_ptr().add(run.k)) },
        room: run.room - run.k,
        k: 0,
        next: 0,
        size: run.size,
        left: bound,
    }
}

/// Ends the run, if one is under way: the written slots join the
/// buffers' lengths and the output's cursor and lengths count them, as
/// the row-by-row insertions would have. The segment's parent is the open
/// row, and it appends from there.
#[inline]
pub(super) fn settle_run<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
) where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if seg.run.active {
        settle_active(seg);
    }
}

/// [`settle_run`] of a run under way. Out of line: once per run.
#[inline(never)]
fn settle_active<V, E, B, const DIM: usize, const LVL: usize>(
    seg: &mut Segment<'_, V, E, B, DIM, LVL>,
) where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let run = &mut seg.run;
    run.active = false;
    let (pos_k, k, open, last) = (run.pos_k, run.k, run.open, run.last);
    let out = &mut *seg.out;
    // SAFETY: `start_run` took the run's slots from `spare_slots` and
    // `spare_run` of these three buffers, nothing used them since (`Run`'s
    // invariant), and the first `pos_k` and `k` slots were written.
    unsafe {
        if let Some(b) = out.positions.get_mut(1) {
            b.commit_slots(pos_k);
        }
        if let Some(b) = out.coordinates.get_mut(1) {
            b.commit_slots(k);
        }
        out.values.commit_slots(k);
    }
    // The `pos_k` positions closed the rows before `open`, as
    // `close_up_to` would have, one at a time.
    let cur = &mut out.cur;
    if let Some(n) = cur.pos_len.get_mut(1) {
        *n = n.saturating_add(pos_k);
    }
    if let Some(c) = cur.closed.get_mut(1) {
        *c = c.saturating_add(pos_k);
    }
    if let Some(e) = cur.entry.first_mut() {
        *e = open;
    }
    let mut at = [0; LVL];
    for (x, y) in at.iter_mut().zip(last) {
        *x = y;
    }
    out.settle_segment(at, k);
    seg.appending = true;
}
