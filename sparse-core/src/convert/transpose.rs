//! CSR ↔ CSC for the fast conversion path (`fast.rs`): the counting
//! transpose of a compressed source read transposed, with each entry's
//! slots asked for (prefetched) a fixed number of entries before they are
//! written, or, for a bucket written row after row (a band's column), its
//! next cache line.

use crate::encoding::Encoding;
use crate::index::Index;
use crate::kernel::unchecked::{load, load_index, slot};
use crate::tensor::SparseTensor;

use super::slots::Slots;

/// How many entries ahead of its write the transpose asks for an entry's
/// slots (x86-64 `prefetcht0` of its coordinate and value slots at its
/// bucket's cursor). A uniform matrix's scatter writes a new cache line
/// for almost every entry: 64 (about six of its rows) was the fastest of
/// 64, 128, 256 and 512 on the uniform and small matrices; 128 and 256
/// helped the band more, before its own case (the entry ahead in the
/// bucket written now: that bucket's next line instead) was added (Intel
/// Xeon; BENCHMARKS.md, "CSR → CSC on the band").
const AHEAD: usize = 64;

/// The fast path's count and scatter for CSR ↔ CSC (a compressed source
/// read transposed), row by row: the classic counting transpose, with the
/// bucket cursor, the two stores and the cursor increment of each entry
/// unchecked, as Eigen's and GraphBLAS' transposes — bounds-checked
/// indexing kept three more values live in pass 2 than the registers
/// hold, and twice the loads of the hand loop per entry.
///
/// The unchecked accesses rest on what this function checks itself, not
/// on the source being valid: pass 1 refuses a coordinate outside the
/// buckets (so every bucket index is below `pos.len() - 1`), pass 2
/// refuses a row whose end is below its start (so the rows cover the
/// entries `first..last` once each, and bucket `j`'s cursor stays below
/// the start of bucket `j + 1`, at most `last - first`, which is checked
/// to be within the coordinate and value buffers and to fit `P`).
/// Returns the number of entries written, `0` for a source that broke
/// its invariants (the caller then clears the output).
// (Out of line off x86-64: a Cortex-M0's stack, `fast.rs`.)
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn transpose_compressed<V, S, P, C, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    pos: &mut [P],
    crd: &mut Slots<C>,
    val: &mut Slots<V>,
) -> usize
where
    V: Clone,
    S: Encoding,
    P: Index,
    C: Index,
{
    let level = src.level(1);
    let (spos, scrd, svals) = (level.positions(), level.coordinates(), src.values());
    let first = spos.first().map_or(0, |p| p.as_usize());
    let last = spos.last().map_or(0, |p| p.as_usize());
    let Some(entries) = scrd.get(first..last) else {
        return 0;
    };
    let total = entries.len();
    if total > crd.len() || total > val.len() || total as u64 > P::MAX {
        return 0;
    }
    // Pass 1: the entries of each bucket, at `pos[j + 1]`; every `j` below
    // `pos.len() - 1` from here on.
    // Four entries at a time, one test of the largest: a test and a
    // branch per entry were as many instructions as the count itself.
    let buckets = pos.len().saturating_sub(1);
    let mut quads = entries.chunks_exact(4);
    for quad in &mut quads {
        if let [a, b, c, d] = quad {
            let (a, b, c, d) = (a.as_usize(), b.as_usize(), c.as_usize(), d.as_usize());
            if a.max(b).max(c).max(d) >= buckets {
                return 0;
            }
            for j in [a, b, c, d] {
                // SAFETY: `j < buckets`, so `j + 1 < pos.len()`.
                let count = unsafe { slot(pos, j + 1) };
                *count = P::from_usize_wrapping(count.as_usize() + 1);
            }
        }
    }
    for j in quads.remainder() {
        match pos.get_mut(j.as_usize() + 1) {
            Some(count) => *count = P::from_usize_wrapping(count.as_usize() + 1),
            None => return 0,
        }
    }
    // Counts and their sums are at most `total`, which fits `P`.
    let mut sum = 0usize;
    for slot in pos.iter_mut() {
        sum += slot.as_usize();
        *slot = P::from_usize_wrapping(sum);
    }
    // Pass 2: each row's entries to the next free slot of their bucket.
    let mut lo = first;
    for (i, hi) in spos.iter().skip(1).enumerate() {
        let hi = hi.as_usize();
        let (Some(row), Some(vals)) = (scrd.get(lo..hi), svals.get(lo..hi)) else {
            return 0;
        };
        // A row of the source is below its level size, which the caller
        // checked fits `C`.
        let ci = C::from_usize_wrapping(i);
        let k0 = lo - first;
        // SAFETY: `row` and `vals` are entries `k0..k0 + row.len()` of
        // `entries` (the rows, checked increasing, split `first..last`),
        // whose buckets pass 1 checked; each entry is visited once, so
        // bucket `j`'s cursor stays below the start of bucket `j + 1`, at
        // most `total <= crd.len(), val.len()`. A row ending `AHEAD` or
        // more before `last` has its look-ahead entries in `entries`.
        unsafe {
            if hi + AHEAD <= last {
                scatter_row::<_, _, _, _, false>(entries, k0, row, vals, ci, pos, crd, val);
            } else {
                scatter_row::<_, _, _, _, true>(entries, k0, row, vals, ci, pos, crd, val);
            }
        }
        lo = hi;
    }
    total
}

/// Pass 2 of [`transpose_compressed`] for one row: its entries `row` (with
/// their values `vals`), which are entries `k0..` of `entries`, each moved
/// to its bucket's cursor in `crd` and `val` (the row coordinate `ci`), the
/// cursor advanced. Before each, the slots of the entry `AHEAD` on are
/// asked for, at its bucket's cursor now (the last entry's, when `NEAR_END`
/// and that entry is past the end), or, when that entry is in the bucket
/// written now, the bucket's next cache line: on a band each column gets an
/// entry every row, so with 33 entries a row the entry 64 ahead is two rows
/// down the same column, its cursor the slot written now, while the line
/// the column needs next is the one after. (Another band width puts the
/// entry ahead in a nearby column instead; widening the test to nearby
/// buckets cost more in registers than it gained: BENCHMARKS.md.)
///
/// # Safety
///
/// `row` is `entries[k0..k0 + row.len()]` and `vals` as long; every entry
/// of `entries` is below `pos.len() - 1`; each bucket's cursor stays below
/// `crd.len()` and `val.len()` while this row's entries advance it (each
/// entry of `entries` is scattered once, and the buckets' cursors start at
/// the counts of the buckets before them); without `NEAR_END`,
/// `k0 + row.len() + AHEAD <= entries.len()`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn scatter_row<V, P, C, I, const NEAR_END: bool>(
    entries: &[I],
    k0: usize,
    row: &[I],
    vals: &[V],
    ci: C,
    pos: &mut [P],
    crd: &mut Slots<C>,
    val: &mut Slots<V>,
) where
    V: Clone,
    P: Index,
    C: Index,
    I: Index,
{
    let last = entries.len().saturating_sub(1);
    for (k, (j, v)) in (k0..).zip(row.iter().zip(vals)) {
        let ahead = if NEAR_END {
            (k + AHEAD).min(last)
        } else {
            k + AHEAD
        };
        // SAFETY: `ahead < entries.len()`: `k + AHEAD` is, away from the
        // end (the caller's contract), and `last` is (`k` is an entry).
        let ja = unsafe { load_index(entries, ahead) };
        // SAFETY: `ja` is an entry's bucket, below `pos.len() - 1`.
        let qa = unsafe { load(pos, ja) }.as_usize();
        let j = j.as_usize();
        // SAFETY: `j + 1 < pos.len()`, as every entry's bucket.
        let next = unsafe { slot(pos, j) };
        let q = next.as_usize();
        // The entry ahead in this same bucket (a band's column, written
        // row after row) has its slot in the line written now: the
        // bucket's next line is asked for instead.
        let hot = ja == j;
        crd.prefetch(if hot { q + Slots::<C>::LINE } else { qa });
        val.prefetch(if hot { q + Slots::<V>::LINE } else { qa });
        // SAFETY: `q < crd.len(), val.len()`: the cursor's bound, by the
        // caller's contract.
        unsafe {
            crd.put(q, ci);
            val.put(q, v.clone());
        }
        *next = P::from_usize_wrapping(q + 1);
    }
}
