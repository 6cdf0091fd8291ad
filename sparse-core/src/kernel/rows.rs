//! The rows of a compressed level under a dense level walked in order, as
//! generated CSR-like loops read them (`for i in 0..n { walk pos[i]..pos[i + 1] }`).
//!
//! `walk` starts every row from `pos[i]`; a
//! `Rows` cursor instead carries the walk's end over as the next row's
//! start (the rows of a compressed level are contiguous: row `i` ends
//! where row `i + 1` begins) and steps through `pos` by pointer, so each
//! row costs one position load and no start arithmetic. On the Cortex-M4F
//! this is 10 instructions per row of SpMV instead of 16 (`bench/firmware`).
//!
//! The loop shape per target follows `walk_values`:
//! a pointer walk ended by pointer equality on Arm, an index walk elsewhere.

use core::marker::PhantomData;
use core::ptr::NonNull;

use crate::index::Index;

/// A cursor over the rows of a compressed level whose parent level is
/// walked in order, entry 0 first; see the module documentation.
pub struct Rows<'a, P, I, V> {
    /// At `pos[r]`, `r` the rows handed out so far.
    pos: *const P,
    /// The coordinates' base.
    crd: *const I,
    /// Arm: the next entry's coordinate.
    #[cfg(target_arch = "arm")]
    next: *const I,
    /// Arm: the next entry's value.
    #[cfg(target_arch = "arm")]
    value: *const V,
    /// Elsewhere: the values' base.
    #[cfg(not(target_arch = "arm"))]
    val: *const V,
    /// Elsewhere: the next entry's position.
    #[cfg(not(target_arch = "arm"))]
    position: usize,
    _slices: PhantomData<(&'a [P], &'a [I], &'a [V])>,
}

/// A cursor over the rows of `pos`/`crd` with the values `val`.
///
/// # Safety
///
/// `pos` is the positions array of a validated compressed level (at least
/// one entry, nondecreasing, its last at most `crd.len()` and
/// `val.len()`), and `Rows::row` is called at most `pos.len() - 1`
/// times.
#[inline(always)]
pub unsafe fn rows_values<'a, P: Index, I: Index, V: Copy>(
    pos: &'a [P],
    crd: &'a [I],
    val: &'a [V],
) -> Rows<'a, P, I, V> {
    debug_assert!(I::PER_ELEMENT == 1, "walks read one coordinate per element");
    debug_assert!(
        !pos.is_empty() && pos[pos.len() - 1].as_usize() <= crd.len().min(val.len()),
        "kernel rows over {} positions, {} coordinates, {} values",
        pos.len(),
        crd.len(),
        val.len()
    );
    // SAFETY: the caller guarantees a nonempty `pos`.
    let lo = unsafe { pos.get_unchecked(0) }.as_usize();
    Rows {
        pos: pos.as_ptr(),
        crd: crd.as_ptr(),
        // SAFETY: `lo <= pos[last] <= crd.len()`.
        #[cfg(target_arch = "arm")]
        next: unsafe { crd.as_ptr().add(lo) },
        // SAFETY: `lo <= pos[last] <= val.len()`.
        #[cfg(target_arch = "arm")]
        value: unsafe { val.as_ptr().add(lo) },
        #[cfg(not(target_arch = "arm"))]
        val: val.as_ptr(),
        #[cfg(not(target_arch = "arm"))]
        position: lo,
        _slices: PhantomData,
    }
}

/// `rows_values` without values: the rows of a level that is not a
/// tensor's last, or of a pattern tensor. Its walks yield `()` as value.
///
/// # Safety
///
/// As `rows_values`, without the condition on values.
#[inline(always)]
pub unsafe fn rows<'a, P: Index, I: Index>(pos: &'a [P], crd: &'a [I]) -> Rows<'a, P, I, ()> {
    debug_assert!(I::PER_ELEMENT == 1, "walks read one coordinate per element");
    debug_assert!(
        !pos.is_empty() && pos[pos.len() - 1].as_usize() <= crd.len(),
        "kernel rows over {} positions, {} coordinates",
        pos.len(),
        crd.len()
    );
    // SAFETY: the caller guarantees a nonempty `pos`.
    let lo = unsafe { pos.get_unchecked(0) }.as_usize();
    // A zero-sized value: any aligned pointer reads it, and steps do not move it.
    let unit = NonNull::<()>::dangling().as_ptr().cast_const();
    Rows {
        pos: pos.as_ptr(),
        crd: crd.as_ptr(),
        // SAFETY: `lo <= pos[last] <= crd.len()`.
        #[cfg(target_arch = "arm")]
        next: unsafe { crd.as_ptr().add(lo) },
        #[cfg(target_arch = "arm")]
        value: unit,
        #[cfg(not(target_arch = "arm"))]
        val: unit,
        #[cfg(not(target_arch = "arm"))]
        position: lo,
        _slices: PhantomData,
    }
}

/// `rows_values` starting at row `first`: the first `row()` is
/// `pos[first]..pos[first + 1]` (the rows of one chunk of a `#[parallel]`
/// loop, which starts at its first row).
///
/// # Safety
///
/// As `rows_values`, with `first < pos.len()`, and `Rows::row` called at
/// most `pos.len() - 1 - first` times.
#[inline(always)]
pub unsafe fn rows_values_from<'a, P: Index, I: Index, V: Copy>(
    pos: &'a [P],
    crd: &'a [I],
    val: &'a [V],
    first: usize,
) -> Rows<'a, P, I, V> {
    debug_assert!(first < pos.len(), "rows from {first} of {}", pos.len() - 1);
    // SAFETY: `first < pos.len()` (the caller's contract), so the tail is
    // a nonempty part of a validated positions array.
    let tail = unsafe { pos.get_unchecked(first..) };
    // SAFETY: the tail is nondecreasing, its last entry is `pos`'s, and
    // the caller asks for at most `tail.len() - 1` rows.
    unsafe { rows_values(tail, crd, val) }
}

/// `rows` starting at row `first` (see `rows_values_from`).
///
/// # Safety
///
/// As `rows_values_from`, without the condition on values.
#[inline(always)]
pub unsafe fn rows_from<'a, P: Index, I: Index>(
    pos: &'a [P],
    crd: &'a [I],
    first: usize,
) -> Rows<'a, P, I, ()> {
    debug_assert!(first < pos.len(), "rows from {first} of {}", pos.len() - 1);
    // SAFETY: as in `rows_values_from`.
    let tail = unsafe { pos.get_unchecked(first..) };
    // SAFETY: as in `rows_values_from`.
    unsafe { rows(tail, crd) }
}

impl<'a, P: Index, I: Index, V: Copy> Rows<'a, P, I, V> {
    /// The entries of the next row, `pos[r]..pos[r + 1]`, as
    /// `(position, coordinate, value)`, when the previous row was walked
    /// to its end (as a `for` loop does). A row dropped before its end
    /// leaves the cursor inside it: the next row then starts there and
    /// yields the rest of that row first. Wrong entries, but never a read
    /// out of bounds: the cursor only moves forward and stops at `pos[r + 1]`.
    ///
    /// # Safety
    ///
    /// Called at most `pos.len() - 1` times (the contract of `rows_values`).
    #[inline(always)]
    pub unsafe fn row(&mut self) -> Row<'_, 'a, P, I, V> {
        // SAFETY: at most `pos.len() - 1` rows: `pos[r + 1]` exists.
        self.pos = unsafe { self.pos.add(1) };
        // SAFETY: as above.
        let hi = unsafe { *self.pos }.as_usize();
        #[cfg(target_arch = "arm")]
        {
            // SAFETY: `hi <= pos[last] <= crd.len()`.
            let end = unsafe { self.crd.add(hi) };
            Row { rows: self, end }
        }
        #[cfg(not(target_arch = "arm"))]
        Row {
            rows: self,
            stop: hi,
        }
    }
}

/// The entries of one row of a `Rows` cursor.
pub struct Row<'r, 'a, P, I, V> {
    rows: &'r mut Rows<'a, P, I, V>,
    #[cfg(target_arch = "arm")]
    end: *const I,
    #[cfg(not(target_arch = "arm"))]
    stop: usize,
}

impl<P: Index, I: Index, V: Copy> Iterator for Row<'_, '_, P, I, V> {
    type Item = (usize, usize, V);

    #[cfg(target_arch = "arm")]
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize, V)> {
        let r = &mut *self.rows;
        if r.next == self.end {
            return None;
        }
        // SAFETY: rows are contiguous and positions nondecreasing, so
        // `crd[lo] <= next < end = crd[hi]` with `hi <= crd.len()` and
        // `hi <= val.len()`: both reads are in bounds.
        let (c, v) = unsafe { (*r.next, *r.value) };
        // SAFETY: `next` is a position of this row, and steps towards `end`.
        let p = unsafe { r.next.offset_from(r.crd) } as usize;
        // SAFETY: `p < hi`: one past stays within the slices or one past.
        unsafe {
            r.next = r.next.add(1);
            r.value = r.value.add(1);
        }
        Some((p, c.as_usize(), v))
    }

    #[cfg(not(target_arch = "arm"))]
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize, V)> {
        let r = &mut *self.rows;
        if r.position == self.stop {
            return None;
        }
        let p = r.position;
        // SAFETY: `lo <= p < hi <= len` of both slices (rows are contiguous,
        // positions nondecreasing and the last within both buffers).
        let (c, v) = unsafe { (*r.crd.add(p), *r.val.add(p)) };
        r.position += 1;
        Some((p, c.as_usize(), v))
    }
}

/// The elements of a dense output written in order, one per call of
/// `Slots::next`: a row loop's `y[i] = ...` as a post-incremented
/// store (`vstmia y!` on the Cortex-M4F) instead of `y + 4 * i`.
pub struct Slots<'a, T> {
    next: *mut T,
    _slice: PhantomData<&'a mut [T]>,
}

/// The elements of `s`, in order.
///
/// # Safety
///
/// `Slots::next` is called at most `s.len()` times.
#[inline(always)]
pub unsafe fn slots<T>(s: &mut [T]) -> Slots<'_, T> {
    Slots {
        next: s.as_mut_ptr(),
        _slice: PhantomData,
    }
}

impl<'a, T> Slots<'a, T> {
    /// The next element (`s[k]` at the `k`-th call).
    ///
    /// # Safety
    ///
    /// Fewer than `s.len()` calls before this one.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub unsafe fn next(&mut self) -> &mut T {
        let at = self.next;
        // SAFETY: `at` is an element of the slice (the caller's count), so
        // one past it is within the slice or one past its end.
        self.next = unsafe { at.add(1) };
        // SAFETY: `at` is an element of the mutably borrowed slice, handed
        // out once.
        unsafe { &mut *at }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    #[test]
    fn rows_walk_each_row_in_turn() {
        let pos = [1u16, 3, 3, 6];
        let crd = [9u8, 0, 2, 1, 4, 5];
        let val = [0.5f32, 1.0, 2.0, 3.0, 4.0, 5.0];
        // SAFETY: a valid compressed level, three rows.
        let mut r = unsafe { rows_values(&pos, &crd, &val) };
        let first: Vec<_> = unsafe { r.row() }.collect();
        assert_eq!(first, [(1, 0, 1.0), (2, 2, 2.0)]);
        assert_eq!(unsafe { r.row() }.count(), 0);
        let third: Vec<_> = unsafe { r.row() }.collect();
        assert_eq!(third, [(3, 1, 3.0), (4, 4, 4.0), (5, 5, 5.0)]);
        let mut q = unsafe { rows(&pos, &crd) };
        let all: Vec<_> = (0..3)
            .flat_map(|_| unsafe { q.row() }.collect::<Vec<_>>())
            .collect();
        assert_eq!(
            all,
            [(1, 0, ()), (2, 2, ()), (3, 1, ()), (4, 4, ()), (5, 5, ())]
        );
    }

    #[test]
    fn rows_from_start_at_their_first_row() {
        let pos = [1u16, 3, 3, 6];
        let crd = [9u8, 0, 2, 1, 4, 5];
        let val = [0.5f32, 1.0, 2.0, 3.0, 4.0, 5.0];
        // SAFETY: a valid compressed level of three rows, from row 1: two
        // rows left.
        let mut r = unsafe { rows_values_from(&pos, &crd, &val, 1) };
        assert_eq!(unsafe { r.row() }.count(), 0);
        let third: Vec<_> = unsafe { r.row() }.collect();
        assert_eq!(third, [(3, 1, 3.0), (4, 4, 4.0), (5, 5, 5.0)]);
        // SAFETY: from row 2: one row left.
        let mut q = unsafe { rows_from(&pos, &crd, 2) };
        let last: Vec<_> = unsafe { q.row() }.collect();
        assert_eq!(last, [(3, 1, ()), (4, 4, ()), (5, 5, ())]);
        // From the end: no row is asked for.
        // SAFETY: `3 < pos.len()`, zero rows left and none asked for.
        let _ = unsafe { rows_from(&pos, &crd, 3) };
    }

    #[test]
    fn a_row_dropped_early_stays_in_bounds() {
        let pos = [0u32, 2, 3];
        let crd = [0u32, 1, 7];
        let val = [1i32, 2, 3];
        // SAFETY: a valid compressed level, two rows.
        let mut r = unsafe { rows_values(&pos, &crd, &val) };
        let _ = unsafe { r.row() };
        let second: Vec<_> = unsafe { r.row() }.collect();
        assert_eq!(second, [(0, 0, 1), (1, 1, 2), (2, 7, 3)]);
    }

    #[test]
    fn slots_hand_out_the_elements_in_order() {
        let mut y = [0u8; 3];
        // SAFETY: three calls for three elements.
        let mut s = unsafe { slots(&mut y) };
        for k in 1..=3 {
            *unsafe { s.next() } = k;
        }
        assert_eq!(y, [1, 2, 3]);
    }
}
