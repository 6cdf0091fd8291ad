//! Access pattern expansion (MLIR's `expand`/`compress`): a dense
//! workspace over the innermost level, for kernels that produce the
//! entries of one innermost segment out of order (Gustavson's SpGEMM).

use core::ptr::NonNull;

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::error::KernelError;

use super::buffer::{Buffer, OutputBuffers};
use super::order::{apply, plan};
use super::{Fault, SparseTensorOut, State};

/// The expanded innermost level of a sparse output: dense values, filled
/// flags, and the list of coordinates filled so far (MLIR's `values`,
/// `filled`, `added` and `count`).
///
/// Between two `compress` calls (the protocol's) every value
/// not filled is `V::default()` and every flag not added is `false`, so
/// starting a segment costs nothing and `compress` resets only what was
/// added.
///
/// Where the added list is a `Vec` (`Buffer::SLOTS_PAST_LEN`), coordinates
/// are written into its spare capacity, reserved when the workspace is
/// borrowed, and counted here; the list's length takes the count when the
/// workspace drops (or hands out its [`parts`](Self::parts)). A push through
/// the list would store its length back at every add: the flag written
/// next to it is a byte store the compiler must assume may alias it, so
/// the length could not stay in a register.
pub struct Workspace<'w, V, I: Buffer<usize>> {
    values: &'w mut [V],
    filled: &'w mut [bool],
    added: Added<'w, I>,
    /// Set when [`parts`](Self::parts) hands the list out.
    listed_raw: &'w mut bool,
}

/// The added list while a workspace borrows it: reserved slots past its
/// length and how many of them were written.
struct Added<'w, I: Buffer<usize>> {
    list: &'w mut I,
    /// The first slot past the list's length, from `spare_slots`
    /// (dangling when `room` is 0).
    slots: NonNull<usize>,
    /// How many slots from `slots` on were reserved.
    room: usize,
    /// How many of them hold added coordinates: slots `0..count`, all
    /// written, `count <= room`.
    count: usize,
}

impl<I: Buffer<usize>> Added<'_, I> {
    /// Adds `j` to the list: into the next reserved slot, or pushed once
    /// the slots are used up (never, when the workspace's length was
    /// reserved: each coordinate below it is added once). `false` when
    /// the list is full.
    #[inline(always)]
    fn add(&mut self, j: usize) -> bool {
        if self.count < self.room {
            // SAFETY: `count < room`: the slot is one of the `room`
            // `spare_slots` reserved past the list's length, which nothing
            // else touched since (the workspace borrows the list), so it
            // is valid for a write; slots `0..count` stay written.
            unsafe { self.slots.as_ptr().add(self.count).write(j) };
            self.count += 1;
            true
        } else {
            self.commit();
            self.list.push(j).is_ok()
        }
    }

    /// Makes the written slots the list's elements; no slots after.
    #[inline(always)]
    fn commit(&mut self) {
        if self.room > 0 {
            // SAFETY: the last `spare_slots` call on the list gave the
            // `room` slots at `slots`, the list was not used since, and
            // slots `0..count` (`count <= room`) were written by `add`.
            unsafe { self.list.commit_slots(self.count) };
        }
        self.room = 0;
        self.count = 0;
    }
}

impl<I: Buffer<usize>> Drop for Added<'_, I> {
    /// The list's length takes the added coordinates.
    #[inline(always)]
    fn drop(&mut self) {
        self.commit();
    }
}

impl<'w, V: Default, I: Buffer<usize>> Workspace<'w, V, I> {
    /// Views the buffers as a workspace of length `min(values, filled)`
    /// (`workspace` makes them equal), with room for `n` added coordinates
    /// past the list where it has slots past its length.
    fn new(
        values: &'w mut [V],
        filled: &'w mut [bool],
        list: &'w mut I,
        listed_raw: &'w mut bool,
        n: usize,
    ) -> Self {
        let (slots, room) = match I::SLOTS_PAST_LEN.then(|| list.spare_slots(n)).flatten() {
            Some(p) => (p, n),
            None => (NonNull::dangling(), 0),
        };
        Workspace {
            values,
            filled,
            added: Added {
                list,
                slots,
                room,
                count: 0,
            },
            listed_raw,
        }
    }

    /// The slot of innermost coordinate `j`, and whether this is its first
    /// touch since the last `compress` (then it is marked filled and
    /// added). `None` if `j` is not below the workspace length.
    #[inline(always)]
    fn touch(&mut self, j: usize) -> Option<(&mut V, bool)> {
        // One test of `j` for both slices (the compiler drops the two
        // `get_mut` tests below it).
        if j >= self.values.len().min(self.filled.len()) {
            return None;
        }
        let filled = self.filled.get_mut(j)?;
        let first = !*filled;
        if first {
            // `workspace(n)` made room for `n` added coordinates and each
            // coordinate is added once, so this cannot fail.
            if !self.added.add(j) {
                return None;
            }
            *filled = true;
        }
        Some((self.values.get_mut(j)?, first))
    }

    /// The slot of innermost coordinate `j`: on the first touch since the
    /// last `compress` it is marked filled and added, and holds
    /// `V::default()` (so `*ws.entry(j)? += x` accumulates from zero).
    /// `None` if `j` is not below the workspace length.
    #[inline]
    pub fn entry(&mut self, j: usize) -> Option<&mut V> {
        self.touch(j).map(|(slot, _)| slot)
    }
    /// The slot of innermost coordinate `j` for a custom reduction: like
    /// [`entry`](Self::entry), but on the first touch since the last
    /// `compress` it holds `start` (the reduction's identity), so
    /// `*slot = combine(*slot, x)` folds from the identity.
    #[inline]
    pub fn entry_from(&mut self, j: usize, start: V) -> Option<&mut V> {
        let (slot, first) = self.touch(j)?;
        if first {
            *slot = start;
        }
        Some(slot)
    }
    /// The workspace length (the size it was requested with).
    #[inline]
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// Whether the workspace has length 0.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// How many coordinates were added since the last `compress`.
    #[inline]
    pub fn count(&self) -> usize {
        self.added.list.len() + self.added.count
    }
    /// The raw arrays `(values, filled, added)`, for kernels that manage
    /// the flags themselves. They must keep the invariant above: a
    /// coordinate is in `added` exactly when its flag is set, and values of
    /// unset flags are `V::default()`. A caller that breaks it (a
    /// coordinate listed twice) gets an error from `finish`
    /// (`InsertOutOfOrder`), never a tensor with a repeated coordinate.
    pub fn parts(&mut self) -> (&mut [V], &mut [bool], &mut I) {
        self.added.commit();
        *self.listed_raw = true;
        (self.values, self.filled, self.added.list)
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The workspace of length `n` (the innermost level size): makes the
    /// workspace buffers hold `n` values (`V::default()`) and `n` flags
    /// (`false`) if they do not already, and checks that `n` coordinates
    /// fit the added list. Cheap when already of length `n`: call it once
    /// per segment.
    ///
    /// If a workspace buffer holds fewer than `n`, returns
    /// `KernelError::Capacity { buffer: Buffer::Workspace, level: LVL - 1,
    /// needed: n, capacity }` (the smallest of the three capacities, named
    /// `"output"`) and, inside `begin`..`finish`, empties the output (a
    /// valid tensor) so the kernel may return at once; a later `finish`
    /// returns the same error with the tensor's name.
    pub(crate) fn workspace(&mut self, n: usize) -> Result<Workspace<'_, V, B::Idx>, KernelError> {
        let capacity = self
            .ws_values
            .capacity()
            .min(self.ws_filled.capacity())
            .min(self.ws_added.capacity());
        if n > capacity {
            let level = LVL.saturating_sub(1);
            let fault = Fault::Capacity {
                level,
                buffer: Which::Workspace,
                capacity,
                needed: n,
            };
            if self.state == State::Writing {
                self.set_fault(fault);
                self.state = State::Failed;
                self.clear_keeping_fault();
            }
            return Err(KernelError::Capacity {
                tensor: "output",
                level,
                buffer: Which::Workspace,
                needed: n,
                capacity,
            });
        }
        if self.ws_values.len() != n || self.ws_filled.len() != n {
            self.ws_values.clear();
            self.ws_filled.clear();
            self.ws_added.clear();
            self.ws_listed_raw = false;
            // A growable added list gets room for `n` coordinates now, so
            // neither the adds nor `compress`'s scratch (at most `n / 2`
            // past at most `n / 2` added) ever grow it inside the loops.
            self.ws_added.reserve(n);
            for _ in 0..n {
                // Capacities were checked above.
                let _ = self.ws_values.push(V::default());
                let _ = self.ws_filled.push(false);
            }
        }
        Ok(Workspace::new(
            self.ws_values.as_mut_slice(),
            self.ws_filled.as_mut_slice(),
            &mut self.ws_added,
            &mut self.ws_listed_raw,
            n,
        ))
    }

    /// MLIR's `compress`: inserts the workspace's added entries at level
    /// coordinates `lvl` (the last coordinate is ignored: each added
    /// coordinate takes its place), in increasing order of that
    /// coordinate, then resets exactly those entries (value to
    /// `V::default()`, flag to `false`) and empties the added list.
    ///
    /// The order is found per segment by the cheapest of a small sort
    /// (networks and a merge), a flag scan, an insertion sort and a radix
    /// sort, or nothing for a row already increasing (see `order`). A new
    /// row of a CSR/CSC output is opened once and appended whole (see
    /// `opens_row`); anything else goes through `insert`. The radix sort's
    /// scratch is the added list's own spare room, used only when the
    /// list has room for its count again and that count is at most half
    /// the workspace length (which `workspace` reserved for a growable
    /// list, so nothing grows here).
    pub(crate) fn compress(&mut self, lvl: [usize; LVL]) {
        self.compress_added(lvl);
        self.ws_listed_raw = false;
    }

    /// `compress` without the reset of `ws_listed_raw`, which `compress`
    /// does once after whichever way this returns.
    fn compress_added(&mut self, lvl: [usize; LVL]) {
        self.order_workspace();
        let total = self.ws_added.len();
        let mut from = 0;
        // The list is sorted: its last coordinate is the largest.
        let largest = self.ws_added.as_slice().last().copied();
        if largest.is_some_and(|j| self.opens_row(&lvl, j)) {
            // The row's parent opened as `insert` opens it; then the whole
            // row in one step when nothing went wrong and the buffers have
            // room for it (one room check per row; `insert` would compare
            // the row with the previous insertion, walk the levels and
            // check each buffer for the first entry alone).
            self.open_row(&lvl);
            if self.fault.is_none() {
                if let Some(max) = self.append_added(0, None) {
                    let mut last = lvl;
                    if let Some(x) = last.get_mut(1) {
                        *x = max;
                    }
                    self.settle_segment(last, total);
                    self.appendable = true;
                    self.ws_added.clear();
                    return;
                }
            }
            // Else the first entry as `insert` ends it, the rest below.
            if let Some(&j) = self.ws_added.as_slice().first() {
                let value = self.take_slot(j);
                let mut at = lvl;
                if let Some(x) = at.get_mut(1) {
                    *x = j;
                }
                self.push_last(&at, 1, 1, value);
                from = 1;
                if self.append_rest(at, 1) {
                    self.ws_added.clear();
                    return;
                }
            }
        }
        for k in from..total {
            let Some(&j) = self.ws_added.as_slice().get(k) else {
                break;
            };
            let value = self.take_slot(j);
            let mut at = lvl;
            if let Some(last) = at.last_mut() {
                *last = j;
            }
            self.insert(at, value);
            // After the segment's first entry the rest append, in order
            // and distinct: straight into the buffers when they have room
            // for all of them (one check, not one per entry); else one by
            // one through `insert`.
            if k == 0 && self.append_rest(at, 1) {
                break;
            }
        }
        self.ws_added.clear();
    }

    /// Puts the added list in increasing order (see `compress`).
    fn order_workspace(&mut self) {
        let n = self.ws_added.len();
        let spare = self.ws_added.capacity().saturating_sub(n) >= n;
        let half = n <= self.ws_values.len() / 2;
        let plan = plan(self.ws_added.as_slice(), spare && half);
        // Scratch only for a radix or bucket sort: `extend_unspecified` makes the
        // length `2n` (the keys, then the scratch), `truncate` undoes it.
        if plan.method.needs_scratch() && self.ws_added.extend_unspecified(n, 0) {
            if let Some((keys, scratch)) = self.ws_added.as_mut_slice().split_at_mut_checked(n) {
                apply(plan, keys, scratch, self.ws_filled.as_slice());
            }
            self.ws_added.truncate(n);
        } else {
            apply(
                plan,
                self.ws_added.as_mut_slice(),
                &mut [],
                self.ws_filled.as_slice(),
            );
        }
    }

    /// The workspace value at `j`, leaving `V::default()` and an unset
    /// flag behind.
    #[inline]
    fn take_slot(&mut self, j: usize) -> V {
        if let Some(f) = self.ws_filled.as_mut_slice().get_mut(j) {
            *f = false;
        }
        match self.ws_values.as_mut_slice().get_mut(j) {
            Some(v) => core::mem::take(v),
            None => V::default(),
        }
    }

    /// Appends the added entries from the `from`-th on after the one just
    /// inserted at `first`, when `insert` would append each of them (the
    /// output can append under that parent, the coordinates grow and stay
    /// below the level size, unpacked coordinates) and both buffers have
    /// room for all; returns whether it did. Leaves the lengths and the
    /// cursor as those insertions would.
    fn append_rest(&mut self, first: [usize; LVL], from: usize) -> bool {
        if !self.appendable || self.cur.last != first {
            return false;
        }
        let after = LVL.checked_sub(1).and_then(|l| first.get(l)).copied();
        let Some(max) = self.append_added(from, after) else {
            return false;
        };
        let n = self.ws_added.len().saturating_sub(from);
        let mut last = first;
        if let Some(x) = last.last_mut() {
            *x = max;
        }
        self.settle_segment(last, n);
        true
    }

    /// Appends the added coordinates from the `from`-th on, and their
    /// workspace values, to the last level's coordinate and value buffers
    /// and resets their slots, if the coordinates increase (from above
    /// `after`, if given), stay below the level size, are not packed, and
    /// both buffers have room for all of them; returns the largest, or
    /// `None` with nothing changed. The caller settles the lengths and the
    /// cursor.
    ///
    /// One check for the whole tail: each buffer grows by its length in
    /// one step, with no per-entry room, order or range test.
    fn append_added(&mut self, from: usize, after: Option<usize>) -> Option<usize> {
        let l = LVL.checked_sub(1)?;
        let added = self.ws_added.as_slice();
        let rest = added.get(from..)?;
        let &max = added.last()?;
        let size = self.lvl_sizes.get(l).copied().unwrap_or(0);
        // Strictly increasing: the sort guarantees it for the list kernels
        // build, but `parts()` lets a caller list a coordinate twice, which
        // `insert` (one by one) refuses as out of order and this path must
        // not store twice. One pass, no more than the copy below.
        // Only a raw list can do that (`entry` adds each coordinate
        // once): a list the kernel built skips the pass.
        let increasing = rest.first().is_none_or(|&j| after.is_none_or(|a| j > a))
            && (!self.ws_listed_raw || rest.windows(2).all(|w| matches!(w, [a, b] if a < b)));
        if !increasing || <E::Crd as crate::index::Index>::PER_ELEMENT != 1 || max >= size {
            return None;
        }
        let crd = self.coordinates.get_mut(l)?;
        let c0 = crd.len();
        // `j <= max < size`, and `new` checked that the size fits the
        // coordinate width: every conversion succeeds (the zero is never
        // stored).
        let zero = <E::Crd as crate::index::Index>::from_usize(0)?;
        let to_crd = |&j: &usize| <E::Crd as crate::index::Index>::from_usize(j).unwrap_or(zero);
        if !crd.extend_exact(rest.iter().map(to_crd)) {
            return None;
        }
        let (slots, flags) = (self.ws_values.as_mut_slice(), self.ws_filled.as_mut_slice());
        let len = slots.len().min(flags.len());
        let take = |&j: &usize| {
            // One test of `j` for both slices (their `get_mut` tests fold
            // away); `entry` added only coordinates below the length.
            if j >= len {
                return V::default();
            }
            if let Some(f) = flags.get_mut(j) {
                *f = false;
            }
            slots.get_mut(j).map(core::mem::take).unwrap_or_default()
        };
        if !self.values.extend_exact(rest.iter().map(take)) {
            crd.truncate(c0);
            return None;
        }
        Some(max)
    }

    /// Resets the workspace's added entries (values to `V::default()`,
    /// flags to `false`) without inserting them, and empties the added
    /// list: proportional to the number of added entries.
    pub(crate) fn reset_workspace(&mut self) {
        for &j in self.ws_added.as_slice() {
            if let Some(v) = self.ws_values.as_mut_slice().get_mut(j) {
                *v = V::default();
            }
            if let Some(f) = self.ws_filled.as_mut_slice().get_mut(j) {
                *f = false;
            }
        }
        self.ws_added.clear();
        self.ws_listed_raw = false;
    }
}
