//! Access pattern expansion (MLIR's `expand`/`compress`): a dense
//! workspace over the innermost level, for kernels that produce the
//! entries of one innermost segment out of order (Gustavson's SpGEMM).

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::error::KernelError;

use super::buffer::{Buffer, OutputBuffers};
use super::{Fault, SparseTensorOut, State};

/// The expanded innermost level of a sparse output: dense values, filled
/// flags, and the list of coordinates filled so far (MLIR's `values`,
/// `filled`, `added` and `count`).
///
/// Between two `compress` calls (the protocol's) every value
/// not filled is `V::default()` and every flag not added is `false`, so
/// starting a segment costs nothing and `compress` resets only what was
/// added.
pub struct Workspace<'w, V, I> {
    values: &'w mut [V],
    filled: &'w mut [bool],
    added: &'w mut I,
}

impl<'w, V: Default, I: Buffer<usize>> Workspace<'w, V, I> {
    /// The slot of innermost coordinate `j`: on the first touch since the
    /// last `compress` it is marked filled and added, and holds
    /// `V::default()` (so `*ws.entry(j)? += x` accumulates from zero).
    /// `None` if `j` is not below the workspace length.
    #[inline]
    pub fn entry(&mut self, j: usize) -> Option<&mut V> {
        let filled = self.filled.get_mut(j)?;
        if !*filled {
            // `workspace(n)` made room for `n` added coordinates and each
            // coordinate is added once, so this push cannot fail.
            self.added.push(j).ok()?;
            *filled = true;
        }
        self.values.get_mut(j)
    }
    /// The slot of innermost coordinate `j` for a custom reduction: like
    /// [`entry`](Self::entry), but on the first touch since the last
    /// `compress` it holds `start` (the reduction's identity), so
    /// `*slot = combine(*slot, x)` folds from the identity.
    #[inline]
    pub fn entry_from(&mut self, j: usize, start: V) -> Option<&mut V> {
        let filled = self.filled.get_mut(j)?;
        let first = !*filled;
        if first {
            self.added.push(j).ok()?;
            *filled = true;
        }
        let slot = self.values.get_mut(j)?;
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
        self.added.len()
    }
    /// The raw arrays `(values, filled, added)`, for kernels that manage
    /// the flags themselves. They must keep the invariant above: a
    /// coordinate is in `added` exactly when its flag is set, and values of
    /// unset flags are `V::default()`.
    pub fn parts(&mut self) -> (&mut [V], &mut [bool], &mut I) {
        (self.values, self.filled, self.added)
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
            for _ in 0..n {
                // Capacities were checked above.
                let _ = self.ws_values.push(V::default());
                let _ = self.ws_filled.push(false);
            }
        }
        Ok(Workspace {
            values: self.ws_values.as_mut_slice(),
            filled: self.ws_filled.as_mut_slice(),
            added: &mut self.ws_added,
        })
    }

    /// MLIR's `compress`: inserts the workspace's added entries at level
    /// coordinates `lvl` (the last coordinate is ignored: each added
    /// coordinate takes its place), in increasing order of that
    /// coordinate, then resets exactly those entries (value to
    /// `V::default()`, flag to `false`) and empties the added list.
    pub(crate) fn compress(&mut self, lvl: [usize; LVL]) {
        order_added(self.ws_added.as_mut_slice(), self.ws_filled.as_slice());
        let total = self.ws_added.len();
        for k in 0..total {
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
        let Some(l) = LVL.checked_sub(1) else {
            return false;
        };
        let added = self.ws_added.as_slice();
        let (Some(rest), Some(&max)) = (added.get(from..), added.last()) else {
            return false;
        };
        let n = rest.len();
        let size = self.lvl_sizes.get(l).copied().unwrap_or(0);
        let Some(crd) = self.coordinates.get(l) else {
            return false;
        };
        let room = |len: usize, cap: usize| cap.saturating_sub(len) >= n;
        if !self.appendable
            || self.cur.last != first
            || <E::Crd as crate::index::Index>::PER_ELEMENT != 1
            || max >= size
            || !room(crd.len(), crd.capacity())
            || !room(self.values.len(), self.values.capacity())
        {
            return false;
        }
        let mut last = first;
        for k in from..from + n {
            let Some(&j) = self.ws_added.as_slice().get(k) else {
                break;
            };
            let value = self.take_slot(j);
            // Room was checked for all `n`, and `j < size` fits the width.
            if let (Some(buffer), Some(c)) = (
                self.coordinates.get_mut(l),
                <E::Crd as crate::index::Index>::from_usize(j),
            ) {
                let _ = buffer.push(c);
            }
            let _ = self.values.push(value);
            if let Some(x) = last.get_mut(l) {
                *x = j;
            }
        }
        self.settle_segment(last, n);
        true
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
    }
}

/// Lists up to this long are insertion-sorted, longer ones heap-sorted.
const INSERTION_MAX: usize = 16;

/// Puts the workspace's added coordinates `s` in increasing order. When
/// they are dense in their range (`max - min` within a few times `len x
/// log2 len`), a scan of the filled flags over that range lists them in
/// order for about one step per coordinate of the range, well below a
/// comparison sort's `log2 len` dearer steps per entry (a row of a
/// 2000-column SpGEMM with ~400 entries: a fifth of the instructions of
/// the heap sort); otherwise [`sort_added`]. `filled` must flag exactly the
/// coordinates in `s` (the workspace's invariant); if it does not, the
/// coordinates are sorted as they are, never read out of range.
pub(crate) fn order_added(s: &mut [usize], filled: &[bool]) {
    let n = s.len();
    if n <= INSERTION_MAX {
        insertion_sort(s);
        return;
    }
    let (mut lo, mut hi) = (usize::MAX, 0);
    for &j in s.iter() {
        lo = lo.min(j);
        hi = hi.max(j);
    }
    let span = hi.saturating_sub(lo).saturating_add(1);
    let budget = n
        // `log2 len + 1`, without `ilog2`'s panic path for 0.
        .saturating_mul((usize::BITS - n.leading_zeros()) as usize)
        .saturating_mul(SCAN_PER_SORT_STEP);
    let range = filled.get(lo..=hi);
    match range {
        Some(flags) if span <= budget => {
            // Branch-free: every coordinate is written at the next slot,
            // which only a set flag moves past (the flags are random).
            let mut k = 0;
            for (j, &f) in flags.iter().enumerate() {
                if let Some(slot) = s.get_mut(k) {
                    *slot = lo + j;
                }
                k += usize::from(f);
            }
            if k != n {
                sort_added(s);
            }
        }
        _ => sort_added(s),
    }
}

/// Flags a scan may read per entry where a sort would take one step of
/// `log2 len`: a flag costs a load and a branch, a sort step a compare,
/// a swap and a mispredicted branch.
const SCAN_PER_SORT_STEP: usize = 4;

/// Sorts the workspace's added coordinates in increasing order, in place,
/// with no panic path (`sort_unstable` links `core::slice::sort`'s
/// `panic_on_ord_violation`, which `scripts/kernel-asm-check.sh` rejects):
/// every access is a `get`/`get_mut`, whose `None` arms are unreachable.
/// The coordinates are distinct, so the result is the one of any sort.
pub(crate) fn sort_added(s: &mut [usize]) {
    if s.len() <= INSERTION_MAX {
        insertion_sort(s);
    } else {
        heap_sort(s);
    }
}

fn insertion_sort(s: &mut [usize]) {
    for i in 1..s.len() {
        let Some(&x) = s.get(i) else { return };
        let mut j = i;
        while let Some(&y) = j.checked_sub(1).and_then(|k| s.get(k)) {
            if y <= x {
                break;
            }
            if let Some(slot) = s.get_mut(j) {
                *slot = y;
            }
            j -= 1;
        }
        if let Some(slot) = s.get_mut(j) {
            *slot = x;
        }
    }
}

/// Swaps `s[a]` and `s[b]` (nothing if either is out of range).
fn swap(s: &mut [usize], a: usize, b: usize) {
    if let (Some(&x), Some(&y)) = (s.get(a), s.get(b)) {
        if let Some(slot) = s.get_mut(a) {
            *slot = y;
        }
        if let Some(slot) = s.get_mut(b) {
            *slot = x;
        }
    }
}

/// Moves `s[k]` down the max-heap `s[..end]` (children `2k+1`, `2k+2`).
fn sift_down(s: &mut [usize], mut k: usize, end: usize) {
    loop {
        let left = match k.checked_mul(2).and_then(|c| c.checked_add(1)) {
            Some(c) if c < end => c,
            _ => return,
        };
        let right = left + 1;
        let (Some(&l), Some(&at)) = (s.get(left), s.get(k)) else {
            return;
        };
        let (big, v) = match s.get(right) {
            Some(&r) if right < end && r > l => (right, r),
            _ => (left, l),
        };
        if v <= at {
            return;
        }
        swap(s, k, big);
        k = big;
    }
}

fn heap_sort(s: &mut [usize]) {
    let n = s.len();
    for k in (0..n / 2).rev() {
        sift_down(s, k, n);
    }
    for end in (1..n).rev() {
        swap(s, 0, end);
        sift_down(s, 0, end);
    }
}

#[cfg(test)]
mod sort_tests {
    use super::{order_added, sort_added};
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    /// The flag scan and the sort give the same order, dense or spread out.
    #[test]
    fn order_added_scans_dense_ranges_and_sorts_spread_ones() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for (len, range) in [
            (0, 10),
            (5, 10),
            (17, 20),
            (40, 64),
            (100, 400),
            (30, 100_000),
        ] {
            let mut filled = vec![false; range];
            let mut added = Vec::new();
            while added.len() < len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let j = (seed % range as u64) as usize;
                if !filled[j] {
                    filled[j] = true;
                    added.push(j);
                }
            }
            let mut want = added.clone();
            want.sort_unstable();
            order_added(&mut added, &filled);
            assert_eq!(added, want, "{len} of {range}");
        }
        // Flags that do not match the list: sorted as given, no panic.
        let mut added = vec![
            40, 3, 20, 10, 1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17,
        ];
        let filled = vec![true; 8];
        order_added(&mut added, &filled);
        let mut want = vec![
            40, 3, 20, 10, 1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17,
        ];
        want.sort_unstable();
        assert_eq!(added, want);
    }

    /// Against `sort_unstable` on both sides of the insertion/heap
    /// threshold, with duplicates too (not produced by the workspace).
    #[test]
    fn sort_added_sorts_like_sort_unstable() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..80 {
            for round in 0..8 {
                let mut v = [0usize; 80];
                for x in v.iter_mut().take(len) {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    *x = (seed % if round % 2 == 0 { 1000 } else { 8 }) as usize;
                }
                let (mut got, mut want) = (v, v);
                sort_added(&mut got[..len]);
                want[..len].sort_unstable();
                assert_eq!(got, want);
            }
        }
        // Sorted, reversed and organ-pipe orders.
        let n = 100;
        let orders: [&dyn Fn(usize) -> usize; 3] =
            [&|i| i, &|i| n - i, &|i| if i < n / 2 { i } else { n - i }];
        for order in orders {
            let mut got: [usize; 100] = core::array::from_fn(order);
            let mut want = got;
            sort_added(&mut got);
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }
}
