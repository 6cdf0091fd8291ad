//! The unchecked reads and writes generated kernels use in their loops.
//!
//! Each generated call carries a `// SAFETY:` comment naming the invariant
//! that keeps its index in range: one of [`SparseTensor`]'s validated
//! storage invariants (positions monotone and within the coordinates,
//! coordinates below their level sizes, one value per entry of the last
//! level) together with the size checks of the kernel's prologue. Debug
//! builds still check every index, so a codegen bug shows up in tests as a
//! panic rather than as undefined behaviour.
//!
//! [`SparseTensor`]: crate::SparseTensor

use core::marker::PhantomData;

use crate::index::Index;

/// `s[i]` without the bounds check.
///
/// # Safety
///
/// `i < s.len()`.
#[inline(always)]
pub unsafe fn load<T: Copy>(s: &[T], i: usize) -> T {
    debug_assert!(i < s.len(), "kernel read {i} of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { *s.get_unchecked(i) }
}

/// The position or coordinate `s[i]` as a `usize`, without the bounds
/// check.
///
/// # Safety
///
/// `i < s.len()` (for packed coordinates, [`Packed2`](crate::Packed2):
/// `i < 4 * s.len()`). The value is converted with [`Index::as_usize`],
/// so it must fit `usize`, which holds for every buffer of a validated
/// tensor.
#[inline(always)]
pub unsafe fn load_index<I: Index>(s: &[I], i: usize) -> usize {
    if I::PER_ELEMENT > 1 {
        // Packed 2-bit coordinates (`Packed2`, the only packed index):
        // index `i` is field `i % 4` of byte `i / 4`.
        debug_assert!(
            i / 4 < s.len(),
            "kernel read packed index {i} of {}",
            s.len()
        );
        // SAFETY: the caller guarantees that `i` is an entry of a validated
        // level, so `i / 4 < s.len()` (`assemble` checked that the buffer
        // holds `ceil(entries / 4)` bytes).
        let byte = unsafe { s.get_unchecked(i / 4) }.as_usize();
        return (byte >> (2 * (i % 4))) & 3;
    }
    debug_assert!(i < s.len(), "kernel read index {i} of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { s.get_unchecked(i) }.as_usize()
}

/// The two 2-bit coordinates of a 2:4 group, entries `i` and `i + 1` of a
/// packed buffer ([`Packed2`](crate::Packed2)), as `c0 | c1 << 2`: one
/// byte load for the group instead of one per coordinate.
///
/// # Safety
///
/// `i` is even and `i + 1 < 4 * s.len()` (the group's two entries are
/// entries of a validated level: `assemble` checked the buffer holds
/// `ceil(entries / 4)` bytes). An even `i` keeps both fields in byte
/// `i / 4`.
#[inline(always)]
pub unsafe fn load_pair2(s: &[crate::index::Packed2], i: usize) -> usize {
    debug_assert!(
        i % 2 == 0 && i / 4 < s.len(),
        "kernel read packed pair {i} of {}",
        s.len()
    );
    // SAFETY: the caller guarantees `i / 4 < s.len()`.
    let byte = unsafe { s.get_unchecked(i >> 2) }.0;
    usize::from(byte >> ((i & 2) << 1)) & 15
}

/// `&mut s[i]` without the bounds check.
///
/// # Safety
///
/// `i < s.len()`.
#[inline(always)]
pub unsafe fn slot<T>(s: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < s.len(), "kernel write {i} of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { s.get_unchecked_mut(i) }
}

/// The stored entries `lo..hi` of one level, as `(position, coordinate)`
/// pairs: what a generated `iterate` walks at a level that is not a
/// tensor's last with values (those use [`walk_values`]), e.g. the
/// rows of DCSR, where the position is the parent of the next level.
///
/// The walk advances a pointer over the coordinates and stops when it
/// reaches the end pointer (the shape of `core::slice::Iter`), so the
/// coordinate read needs no index: a post-incremented load on Arm.
pub struct Walk<'a, I> {
    next: *const I,
    end: *const I,
    position: usize,
    _crd: PhantomData<&'a [I]>,
}

/// Walks the coordinates `crd[lo..hi]`.
///
/// # Safety
///
/// `lo <= hi <= crd.len()`: the range a validated tensor stores under
/// one parent entry (positions are nondecreasing and the last is at
/// most the number of coordinates).
#[inline(always)]
pub unsafe fn walk<I: Index>(crd: &[I], lo: usize, hi: usize) -> Walk<'_, I> {
    debug_assert!(I::PER_ELEMENT == 1, "walks read one coordinate per element");
    debug_assert!(
        lo <= hi && hi <= crd.len(),
        "kernel walk {lo}..{hi} of {}",
        crd.len()
    );
    let base = crd.as_ptr();
    // SAFETY: `lo <= hi <= crd.len()`, so both pointers are within the
    // slice or one past its end.
    let (next, end) = unsafe { (base.add(lo), base.add(hi)) };
    Walk {
        next,
        end,
        position: lo,
        _crd: PhantomData,
    }
}

impl<I: Index> Iterator for Walk<'_, I> {
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.next == self.end {
            return None;
        }
        // SAFETY: `next` started at or before `end` (`walk`'s contract)
        // and moves by one element until it equals `end`, so here it
        // points at a coordinate of the borrowed slice.
        let c = unsafe { *self.next };
        // SAFETY: `next < end`, so one step stays within the slice or
        // one past its end.
        self.next = unsafe { self.next.add(1) };
        let p = self.position;
        self.position += 1;
        Some((p, c.as_usize()))
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        // SAFETY: both pointers are within (or one past) one slice,
        // `next <= end`.
        let n = unsafe { self.end.offset_from(self.next) } as usize;
        (n, Some(n))
    }
}

impl<I: Index> ExactSizeIterator for Walk<'_, I> {}

/// A [`Walk`] over a tensor's last level that also reads the values,
/// yielding `(position, coordinate, value)`: the leaf then reads no
/// `val[p]` of its own.
///
/// The loop shape depends on the target, as measured: on Arm the pointer
/// walk of [`Walk`] plus a value pointer stepping with it (post-incremented
/// `ldrb`/`vldmia`, 7 instructions per entry on the Cortex-M4F instead of
/// 8); elsewhere an index walk, the shape of `for p in lo..hi`, which
/// x86-64's unrolled loop addresses as `base + index` without a pointer
/// compare (the pointer walk cost 7.70 instead of 6.25 instructions per
/// nonzero there).
pub struct WalkValues<'a, I, V> {
    #[cfg(target_arch = "arm")]
    walk: Walk<'a, I>,
    #[cfg(target_arch = "arm")]
    value: *const V,
    #[cfg(not(target_arch = "arm"))]
    crd: *const I,
    #[cfg(not(target_arch = "arm"))]
    val: *const V,
    #[cfg(not(target_arch = "arm"))]
    position: usize,
    #[cfg(not(target_arch = "arm"))]
    stop: usize,
    _slices: PhantomData<(&'a [I], &'a [V])>,
}

/// Walks the coordinates `crd[lo..hi]` and the values `val[lo..hi]`.
///
/// # Safety
///
/// `lo <= hi <= crd.len()` and `hi <= val.len()`: the range a validated
/// tensor stores under one parent entry of its last level, which holds
/// one value per entry.
#[inline(always)]
pub unsafe fn walk_values<'a, I: Index, V: Copy>(
    crd: &'a [I],
    val: &'a [V],
    lo: usize,
    hi: usize,
) -> WalkValues<'a, I, V> {
    debug_assert!(I::PER_ELEMENT == 1, "walks read one coordinate per element");
    debug_assert!(
        hi <= val.len(),
        "kernel walk {lo}..{hi} of {} values",
        val.len()
    );
    #[cfg(target_arch = "arm")]
    {
        WalkValues {
            // SAFETY: `lo <= hi <= crd.len()`, the caller's guarantee.
            walk: unsafe { walk(crd, lo, hi) },
            // SAFETY: `lo <= hi <= val.len()`: within the slice or one past
            // its end.
            value: unsafe { val.as_ptr().add(lo) },
            _slices: PhantomData,
        }
    }
    #[cfg(not(target_arch = "arm"))]
    {
        debug_assert!(
            lo <= hi && hi <= crd.len(),
            "kernel walk {lo}..{hi} of {}",
            crd.len()
        );
        WalkValues {
            crd: crd.as_ptr(),
            val: val.as_ptr(),
            position: lo,
            stop: hi,
            _slices: PhantomData,
        }
    }
}

impl<I: Index, V: Copy> Iterator for WalkValues<'_, I, V> {
    type Item = (usize, usize, V);

    #[cfg(target_arch = "arm")]
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize, V)> {
        let (p, c) = self.walk.next()?;
        // SAFETY: `value` started at `val[lo]` and advances with the walk,
        // so it points at `val[p]`, `p < hi <= val.len()`.
        let v = unsafe { *self.value };
        // SAFETY: `p < hi <= val.len()`: one past `val[p]` stays within the
        // slice or one past its end.
        self.value = unsafe { self.value.add(1) };
        Some((p, c, v))
    }

    #[cfg(not(target_arch = "arm"))]
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize, V)> {
        if self.position == self.stop {
            return None;
        }
        let p = self.position;
        // SAFETY: `lo <= p < hi <= len` of both slices (`walk_values`'s
        // contract; `position` counts up from `lo` and stops at `hi`).
        let (c, v) = unsafe { (*self.crd.add(p), *self.val.add(p)) };
        self.position += 1;
        Some((p, c.as_usize(), v))
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        #[cfg(target_arch = "arm")]
        return self.walk.size_hint();
        #[cfg(not(target_arch = "arm"))]
        {
            let n = self.stop - self.position;
            (n, Some(n))
        }
    }
}

impl<I: Index, V: Copy> ExactSizeIterator for WalkValues<'_, I, V> {}

/// The first position in `lo..hi` whose coordinate is at least `target`
/// (`hi` if none): where a walk of a sorted level starts, or stops, for
/// the window of coordinates an affine subscript (`a[i + k]`) reads. The
/// coordinate of position `p` is `crd[p * stride + slot]` (`stride` > 1
/// for the tuples of an array-of-structs COO buffer). A binary search,
/// `O(log(hi - lo))`, once per window; safe code, since it runs outside
/// the inner loop (a position outside `crd` ends the search).
#[inline]
pub fn lower_bound<I: Index>(
    crd: &[I],
    (lo, hi): (usize, usize),
    target: usize,
    (stride, slot): (usize, usize),
) -> usize {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match crd.get(mid.wrapping_mul(stride).wrapping_add(slot)) {
            Some(c) if I::PER_ELEMENT == 1 && c.as_usize() < target => lo = mid + 1,
            Some(_) => hi = mid,
            None => return lo,
        }
    }
    lo
}

/// The first offset `o >= from` whose window of coordinates `o .. o +
/// width` holds a stored coordinate of positions `lo..hi` (sorted, as
/// [`lower_bound`] reads them), or `usize::MAX` if none does: lets the
/// loop over an output dimension that an affine subscript reads through
/// (`y[i] = x[i + k] * f[k]`, `i` the offset, `k` of size `width`) jump
/// over the offsets whose windows are empty, so its cost follows the
/// stored entries (each stored `c` opens the windows `c + 1 - width ..=
/// c`) instead of the dimension's size. `O(log(hi - lo))`.
#[inline]
pub fn next_window<I: Index>(
    crd: &[I],
    (lo, hi): (usize, usize),
    from: usize,
    width: usize,
    (stride, slot): (usize, usize),
) -> usize {
    if width == 0 {
        return usize::MAX;
    }
    let p = lower_bound(crd, (lo, hi), from, (stride, slot));
    if p >= hi {
        return usize::MAX;
    }
    match crd.get(p.wrapping_mul(stride).wrapping_add(slot)) {
        Some(c) if I::PER_ELEMENT == 1 => {
            from.max(c.as_usize().saturating_add(1).saturating_sub(width))
        }
        _ => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;

    /// Against a scan of every offset: the first whose window holds a
    /// stored coordinate.
    // Exhaustive over safe code (it reaches no `unsafe`): it runs natively;
    // under Miri it cost minutes of the suite for nothing Miri checks.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn next_window_finds_the_first_nonempty_window() {
        let crd: [u32; 5] = [3, 4, 10, 40, 41];
        let scan = |lo: usize, hi: usize, from: usize, width: usize| {
            (from..64)
                .find(|&o| {
                    crd[lo..hi]
                        .iter()
                        .any(|&c| (o..o + width).contains(&(c as usize)))
                })
                .unwrap_or(usize::MAX)
        };
        for (lo, hi) in [(0, 5), (1, 4), (2, 2), (0, 1), (3, 5)] {
            for width in 0..6 {
                for from in 0..50 {
                    assert_eq!(
                        next_window(&crd, (lo, hi), from, width, (1, 0)),
                        scan(lo, hi, from, width),
                        "{lo}..{hi} from {from} width {width}"
                    );
                }
            }
        }
        // AoS tuples: the second coordinate of each pair.
        let aos: [u8; 6] = [0, 7, 1, 9, 2, 30];
        assert_eq!(next_window(&aos, (0, 3), 0, 3, (2, 1)), 5);
        assert_eq!(next_window(&aos, (0, 3), 10, 3, (2, 1)), 28);
        assert_eq!(next_window(&aos, (0, 3), 31, 3, (2, 1)), usize::MAX);
        // Huge dimensions: one binary search, whatever the size.
        let far: [usize; 2] = [5, usize::MAX - 1];
        assert_eq!(next_window(&far, (0, 2), 6, 4, (1, 0)), usize::MAX - 4);
    }

    #[test]
    fn load_pair2_reads_a_group_in_one_byte() {
        use crate::index::Packed2;
        let crd = [Packed2::new([1, 3, 0, 2]), Packed2::new([3, 2, 0, 1])];
        // SAFETY: even `i`, `i + 1 < 8`.
        let got: std::vec::Vec<usize> = [0, 2, 4, 6]
            .iter()
            .map(|&i| unsafe { load_pair2(&crd, i) })
            .collect();
        assert_eq!(got, [1 | 3 << 2, 2 << 2, 3 | 2 << 2, 1 << 2]);
    }

    #[test]
    fn load_index_unpacks_2_bit_coordinates() {
        use crate::index::Packed2;
        let crd = [Packed2::new([1, 3, 0, 2]), Packed2::new([3, 2, 0, 0])];
        // SAFETY: every `i < 8 = 4 * crd.len()`.
        let got: std::vec::Vec<usize> = (0..8).map(|i| unsafe { load_index(&crd, i) }).collect();
        assert_eq!(got, [1, 3, 0, 2, 3, 2, 0, 0]);
        // The plain widths read one element per index.
        // SAFETY: 2 < 3.
        assert_eq!(unsafe { load_index(&[7u16, 8, 9], 2) }, 9);
    }

    #[test]
    fn walk_yields_positions_and_coordinates_of_the_range() {
        let crd: [u8; 6] = [3, 1, 4, 1, 5, 9];
        // SAFETY: 1 <= 4 <= 6.
        let got: std::vec::Vec<_> = unsafe { walk(&crd, 1, 4) }.collect();
        assert_eq!(got, [(1, 1), (2, 4), (3, 1)]);
        // SAFETY: empty ranges, at the start and one past the end.
        assert_eq!(unsafe { walk(&crd, 0, 0) }.count(), 0);
        assert_eq!(unsafe { walk(&crd, 6, 6) }.count(), 0);
        // SAFETY: the whole slice.
        let all = unsafe { walk(&crd, 0, 6) };
        assert_eq!(all.len(), 6);
        assert_eq!(all.map(|(_, c)| c).sum::<usize>(), 23);
        let wide: [u64; 2] = [7, 1 << 40];
        // SAFETY: the whole slice.
        let got: std::vec::Vec<_> = unsafe { walk(&wide, 0, 2) }.collect();
        assert_eq!(got, [(0, 7), (1, (1u64 << 40) as usize)]);
    }

    #[test]
    fn walk_values_pairs_each_coordinate_with_its_value() {
        let crd: [u16; 5] = [0, 2, 1, 3, 4];
        let val = [1.5f32, 2.5, 3.5, 4.5, 5.5];
        // SAFETY: 2 <= 5 <= 5 = crd.len() = val.len().
        let got: std::vec::Vec<_> = unsafe { walk_values(&crd, &val, 2, 5) }.collect();
        assert_eq!(got, [(2, 1, 3.5), (3, 3, 4.5), (4, 4, 5.5)]);
        // SAFETY: an empty range one past the end.
        assert_eq!(unsafe { walk_values(&crd, &val, 5, 5) }.len(), 0);
    }

    #[test]
    fn lower_bound_finds_window_ends_in_plain_and_tuple_buffers() {
        let crd: [u8; 6] = [1, 3, 3, 5, 8, 9];
        assert_eq!(super::lower_bound(&crd, (0, 6), 0, (1, 0)), 0);
        assert_eq!(super::lower_bound(&crd, (0, 6), 3, (1, 0)), 1);
        assert_eq!(super::lower_bound(&crd, (0, 6), 4, (1, 0)), 3);
        assert_eq!(super::lower_bound(&crd, (2, 5), 9, (1, 0)), 5);
        assert_eq!(super::lower_bound(&crd, (4, 4), 0, (1, 0)), 4);
        // (row, col) tuples: the columns of entries 0..3 are 3, 5, 9.
        let coo: [u16; 6] = [0, 3, 0, 5, 1, 9];
        assert_eq!(super::lower_bound(&coo, (0, 3), 5, (2, 1)), 1);
        assert_eq!(super::lower_bound(&coo, (0, 3), 6, (2, 1)), 2);
        // A range past the buffer (never a validated level's) stops the
        // search where it stands instead of panicking.
        assert_eq!(super::lower_bound(&crd, (4, 40), 100, (1, 0)), 4);
    }
}
