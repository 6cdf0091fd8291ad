//! Copying a run of entries into a [`Row`]'s slots: a merge loop's tail,
//! one operand's rest of the row, with one test of the room for all of it.

use crate::encoding::Encoding;
use crate::index::Index;

use super::buffer::OutputBuffers;
use super::row::put;
use super::Row;

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
            let (k, mut next, mut last) = (st.k, st.next, 0);
            let mut ordered = true;
            for (i, (c, v)) in crd.iter().zip(val).enumerate() {
                let c = c.as_usize();
                ordered &= c >= next;
                next = c.saturating_add(1);
                last = c;
                // SAFETY: `k + i < k + n <= room` (tested above), and by
                // `Slots`' invariant that slot of both runs is an
                // initialized element nothing else accesses.
                unsafe {
                    let crd = <E::Crd as Index>::from_usize_wrapping(c);
                    put::<E::Crd, B::Crd>(st.crd.as_ptr().add(k + i), crd);
                    put::<V, B::Val>(st.val.as_ptr().add(k + i), v.clone());
                }
            }
            // Increasing, so the last is the largest.
            if ordered && last < st.size {
                st.k = k + n;
                st.next = last + 1;
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

    /// [`extend_from`](Self::extend_from) for a run the caller vouches for:
    /// a run that fits the reserved slots is copied with one test for all
    /// of it and no test per entry (a merge's tail: the rest of a
    /// validated input's row).
    ///
    /// # Safety
    ///
    /// The coordinates increase, the first is larger than every
    /// coordinate pushed into this row before, and all are below the last
    /// level's size (as for [`push_in_order`](Self::push_in_order)).
    #[inline]
    pub unsafe fn extend_in_order<C: Index>(&mut self, crd: &[C], val: &[V]) {
        let n = crd.len().min(val.len());
        let (crd, val) = (
            crd.get(..n).unwrap_or_default(),
            val.get(..n).unwrap_or_default(),
        );
        let st = &mut self.st;
        if let (Some(last), true) = (crd.last(), n <= st.room - st.k.min(st.room)) {
            let k = st.k;
            for (i, (c, v)) in crd.iter().zip(val).enumerate() {
                // SAFETY: `k + i < k + n <= room` (tested above), and by
                // `Slots`' invariant that slot of both runs is a slot
                // nothing else accesses; the caller vouches for `c`.
                unsafe {
                    let crd = <E::Crd as Index>::from_usize_wrapping(c.as_usize());
                    put::<E::Crd, B::Crd>(st.crd.as_ptr().add(k + i), crd);
                    put::<V, B::Val>(st.val.as_ptr().add(k + i), v.clone());
                }
            }
            st.k = k + n;
            st.next = last.as_usize().wrapping_add(1);
            return;
        }
        for (c, v) in crd.iter().zip(val) {
            // SAFETY: the caller's contract, entry by entry.
            unsafe { self.push_in_order(c.as_usize(), v.clone()) };
        }
    }
}
