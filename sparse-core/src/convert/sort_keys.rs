//! MLIR's `sparse_tensor.sort` in full: `n` tuples in one linear buffer
//! `xy`, each `rank` keys (compared in the order a permutation `perm_map`
//! gives) followed by `ny` payload values that move with their keys, plus
//! any number of further arrays sorted jointly (`jointly %ys`), with the
//! four algorithms MLIR names.
//!
//! Everything works by comparing and swapping whole rows in place, so no
//! algorithm needs memory beyond the arrays and a few words of stack: the
//! quick sorts recurse into the smaller part only (depth at most
//! `log2 n`) and fall back to heap sort past `2 log2 n` levels, so every
//! algorithm but the stable insertion sort is `O(n log n)` on any input.

use core::cmp::Ordering;

use super::sort::{heap_sort, is_sorted, Rows, SortError};

/// The algorithms of MLIR's `SparseTensorSortKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SortAlgorithm {
    /// Quick sort that finishes short ranges (16 rows or fewer) by
    /// insertion sort; not stable.
    HybridQuickSort,
    /// Stable: rows with equal keys keep their order. `O(n²)` in the
    /// worst case (the algorithm MLIR uses for short, nearly sorted
    /// buffers).
    InsertionSortStable,
    /// Quick sort (median-of-three pivots); not stable.
    QuickSort,
    /// Heap sort; not stable.
    HeapSort,
}

/// Arrays sorted along with the keys (MLIR's `jointly %ys`): every row
/// swap of the keys swaps the same two elements of each array.
///
/// Implemented for `()` (nothing), a slice `[T]` (one array), `&mut A`,
/// arrays `[A; N]` and tuples of up to four `Jointly` arrays, so arrays of
/// different element types go in one call:
/// `(&mut values[..], &mut ids[..])`.
pub trait Jointly {
    /// The first array (counted in the order given) shorter than `n`, and
    /// its length.
    fn shorter_than(&self, n: usize) -> Option<(usize, usize)>;
    /// Swaps elements `a` and `b` (both below the `n` checked) of every
    /// array.
    fn swap_rows(&mut self, a: usize, b: usize);
    /// The number of arrays.
    fn arrays(&self) -> usize;
}

impl Jointly for () {
    fn shorter_than(&self, _n: usize) -> Option<(usize, usize)> {
        None
    }
    fn swap_rows(&mut self, _a: usize, _b: usize) {}
    fn arrays(&self) -> usize {
        0
    }
}

impl<T> Jointly for [T] {
    fn shorter_than(&self, n: usize) -> Option<(usize, usize)> {
        (self.len() < n).then_some((0, self.len()))
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        if a < self.len() && b < self.len() {
            self.swap(a, b);
        }
    }
    fn arrays(&self) -> usize {
        1
    }
}

impl<A: Jointly + ?Sized> Jointly for &mut A {
    fn shorter_than(&self, n: usize) -> Option<(usize, usize)> {
        (**self).shorter_than(n)
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        (**self).swap_rows(a, b);
    }
    fn arrays(&self) -> usize {
        (**self).arrays()
    }
}

impl<A: Jointly, const N: usize> Jointly for [A; N] {
    fn shorter_than(&self, n: usize) -> Option<(usize, usize)> {
        let mut before = 0;
        for a in self {
            if let Some((k, len)) = a.shorter_than(n) {
                return Some((before + k, len));
            }
            before += a.arrays();
        }
        None
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        for x in self {
            x.swap_rows(a, b);
        }
    }
    fn arrays(&self) -> usize {
        self.iter().map(Jointly::arrays).sum()
    }
}

macro_rules! jointly_tuple {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: Jointly),+> Jointly for ($($name,)+) {
            fn shorter_than(&self, n: usize) -> Option<(usize, usize)> {
                let mut before = 0;
                $(
                    if let Some((k, len)) = self.$idx.shorter_than(n) {
                        return Some((before + k, len));
                    }
                    before += self.$idx.arrays();
                )+
                let _ = before;
                None
            }
            fn swap_rows(&mut self, a: usize, b: usize) {
                $(self.$idx.swap_rows(a, b);)+
            }
            fn arrays(&self) -> usize {
                0 $(+ self.$idx.arrays())+
            }
        }
    };
}
jointly_tuple!(A 0);
jointly_tuple!(A 0, B 1);
jointly_tuple!(A 0, B 1, C 2);
jointly_tuple!(A 0, B 1, C 2, D 3);

/// The rows of one `sort` call: tuples of `width = rank + ny` in `xy`,
/// compared on the keys `perm` names, and the joint arrays.
struct Tuples<'a, 'p, C, J: ?Sized> {
    xy: &'a mut [C],
    perm: &'p [usize],
    width: usize,
    ys: &'a mut J,
}

impl<C: Ord, J: Jointly + ?Sized> Rows for Tuples<'_, '_, C, J> {
    fn cmp_rows(&self, a: usize, b: usize) -> Ordering {
        let (ra, rb) = (a * self.width, b * self.width);
        for &k in self.perm {
            match self.xy.get(ra + k).cmp(&self.xy.get(rb + k)) {
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        let (ra, rb) = (a * self.width, b * self.width);
        for k in 0..self.width {
            let (i, j) = (ra + k, rb + k);
            if i < self.xy.len() && j < self.xy.len() {
                self.xy.swap(i, j);
            }
        }
        self.ys.swap_rows(a, b);
    }
}

/// MLIR's `sparse_tensor.sort algorithm n, xy jointly ys {perm_map, ny}`:
/// sorts the first `n` tuples of `xy` and the first `n` elements of every
/// array of `ys` in place.
///
/// Each tuple is `perm.len() + ny` consecutive elements of `xy`: the keys
/// `x0 .. x(rank-1)`, then `ny` values that move with them but are not
/// compared. Tuples compare lexicographically on `x[perm[0]]`,
/// `x[perm[1]]`, ...: `perm` is the list of results of `perm_map`
/// (`affine_map<(i, j, k) -> (j, k, i)>` is `[1, 2, 0]`), and must be a
/// permutation of `0..rank`. `xy` may be longer than `n` tuples and the
/// arrays of `ys` longer than `n` (capacity); nothing past them moves.
///
/// Errors, checked before anything moves: `perm` not a permutation
/// ([`SortError::Permutation`]), `xy` shorter than `n` tuples
/// ([`SortError::Tuples`]), an array of `ys` shorter than `n`
/// ([`SortError::Jointly`]).
///
/// ```
/// use sparse_core::convert::{sort, SortAlgorithm};
/// // Tuples (x0, x1, y0), sorted on x1 then x0; y0 and the names follow.
/// let mut xy = [2u32, 1, 10, 0, 1, 11, 5, 0, 12];
/// let mut names = ['a', 'b', 'c'];
/// sort(SortAlgorithm::InsertionSortStable, 3, &mut xy, &[1, 0], 1, &mut names[..])?;
/// assert_eq!(xy, [5, 0, 12, 0, 1, 11, 2, 1, 10]);
/// assert_eq!(names, ['c', 'b', 'a']);
/// # Ok::<(), sparse_core::convert::SortError>(())
/// ```
pub fn sort<C: Ord, J: Jointly + ?Sized>(
    algorithm: SortAlgorithm,
    n: usize,
    xy: &mut [C],
    perm: &[usize],
    ny: usize,
    ys: &mut J,
) -> Result<(), SortError> {
    let rank = perm.len();
    for (k, &p) in perm.iter().enumerate() {
        if p >= rank || perm.get(..k).is_some_and(|before| before.contains(&p)) {
            return Err(SortError::Permutation { index: k });
        }
    }
    let width = rank.checked_add(ny).ok_or(SortError::TuplesShort {
        len: xy.len(),
        width: usize::MAX,
        n,
    })?;
    let needed = n.checked_mul(width);
    if needed.is_none_or(|needed| needed > xy.len()) {
        return Err(SortError::TuplesShort {
            len: xy.len(),
            width,
            n,
        });
    }
    if let Some((array, len)) = ys.shorter_than(n) {
        return Err(SortError::Jointly { array, len, n });
    }
    let mut rows = Tuples {
        xy,
        perm,
        width,
        ys,
    };
    sort_rows(&mut rows, algorithm, n);
    Ok(())
}

/// Sorts rows `0..n` with `algorithm`.
pub(crate) fn sort_rows<R: Rows + ?Sized>(rows: &mut R, algorithm: SortAlgorithm, n: usize) {
    if is_sorted(rows, 0, n) {
        return;
    }
    match algorithm {
        SortAlgorithm::InsertionSortStable => insertion_sort(rows, 0, n),
        SortAlgorithm::HeapSort => heap_sort(rows, 0, n),
        SortAlgorithm::QuickSort => quick_sort(rows, 0, n, 2, depth_limit(n)),
        SortAlgorithm::HybridQuickSort => quick_sort(rows, 0, n, SHORT, depth_limit(n)),
    }
}

/// Ranges this short are finished by insertion sort in the hybrid sort.
const SHORT: usize = 16;

/// `2 * floor(log2 n)`: deeper quick sort partitions fall back to heap
/// sort (introsort's bound), so no input costs more than `O(n log n)`.
fn depth_limit(n: usize) -> usize {
    2 * (usize::BITS - n.max(1).leading_zeros()) as usize
}

/// Stable insertion sort of rows `lo..hi` by adjacent swaps.
fn insertion_sort<R: Rows + ?Sized>(rows: &mut R, lo: usize, hi: usize) {
    for i in lo.saturating_add(1)..hi {
        let mut j = i;
        while j > lo && rows.cmp_rows(j - 1, j) == Ordering::Greater {
            rows.swap_rows(j - 1, j);
            j -= 1;
        }
    }
}

/// Quick sort of rows `lo..hi`: ranges shorter than `short` are finished
/// by insertion sort, partitions nested deeper than `depth` by heap sort.
/// Recurses into the smaller part and loops on the larger, so the stack
/// holds at most `log2 n` frames.
fn quick_sort<R: Rows + ?Sized>(
    rows: &mut R,
    mut lo: usize,
    mut hi: usize,
    short: usize,
    mut depth: usize,
) {
    while hi.saturating_sub(lo) > 1 {
        if hi - lo <= short {
            insertion_sort(rows, lo, hi);
            return;
        }
        if depth == 0 {
            heap_sort(rows, lo, hi);
            return;
        }
        depth -= 1;
        let p = partition(rows, lo, hi);
        if p - lo < hi - (p + 1) {
            quick_sort(rows, lo, p, short, depth);
            lo = p + 1;
        } else {
            quick_sort(rows, p + 1, hi, short, depth);
            hi = p;
        }
    }
}

/// Lomuto partition of `lo..hi` (at least two rows) around the median of
/// the first, middle and last rows; returns the pivot's final row.
fn partition<R: Rows + ?Sized>(rows: &mut R, lo: usize, hi: usize) -> usize {
    let last = hi - 1;
    let mid = lo + (hi - lo) / 2;
    // Order lo, mid, last; the median lands in `mid`, then moves to `last`.
    if rows.cmp_rows(mid, lo) == Ordering::Less {
        rows.swap_rows(mid, lo);
    }
    if rows.cmp_rows(last, lo) == Ordering::Less {
        rows.swap_rows(last, lo);
    }
    if rows.cmp_rows(last, mid) == Ordering::Less {
        rows.swap_rows(last, mid);
    }
    rows.swap_rows(mid, last);
    let mut store = lo;
    for i in lo..last {
        if rows.cmp_rows(i, last) == Ordering::Less {
            rows.swap_rows(i, store);
            store += 1;
        }
    }
    rows.swap_rows(store, last);
    store
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no `rand` in no_std unit tests).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    const ALL: [SortAlgorithm; 4] = [
        SortAlgorithm::HybridQuickSort,
        SortAlgorithm::InsertionSortStable,
        SortAlgorithm::QuickSort,
        SortAlgorithm::HeapSort,
    ];

    // Safe code only (the sorts and `Jointly` have no `unsafe`): it runs
    // natively; under Miri it took 20 s for nothing Miri checks.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn every_algorithm_sorts_tuples_with_payload_and_joint_arrays() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for n in [0usize, 1, 2, 3, 7, 16, 17, 40, 100] {
            for alg in ALL {
                // Tuples (x0, x1, y0) with few distinct keys (many ties);
                // y0 and the joint array record the original row.
                let mut xy = [0u8; 300];
                let mut ids = [0usize; 100];
                for r in 0..n {
                    xy[3 * r] = (next(&mut state) % 4) as u8;
                    xy[3 * r + 1] = (next(&mut state) % 5) as u8;
                    xy[3 * r + 2] = r as u8;
                    ids[r] = r;
                }
                let before = xy;
                sort(alg, n, &mut xy, &[1, 0], 1, &mut ids[..]).unwrap();
                for r in 0..n {
                    // Payload and joint array moved with the keys.
                    let from = xy[3 * r + 2] as usize;
                    assert_eq!(ids[r], from);
                    assert_eq!(xy[3 * r], before[3 * from]);
                    assert_eq!(xy[3 * r + 1], before[3 * from + 1]);
                }
                for r in 1..n {
                    let a = (xy[3 * r - 2], xy[3 * r - 3]);
                    let b = (xy[3 * r + 1], xy[3 * r]);
                    assert!(a <= b, "{alg:?} n={n}");
                    if alg == SortAlgorithm::InsertionSortStable && a == b {
                        assert!(ids[r - 1] < ids[r], "stable");
                    }
                }
                // Capacity past n tuples untouched.
                assert_eq!(xy[3 * n..], before[3 * n..]);
            }
        }
    }

    // Exhaustive over safe code (it reaches no `unsafe`): it runs natively;
    // under Miri it cost minutes of the suite for nothing Miri checks.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn adversarial_inputs_stay_in_bounds() {
        // Sorted, reversed and constant inputs of 1000 rows.
        for alg in ALL {
            if alg == SortAlgorithm::InsertionSortStable {
                continue;
            }
            for shape in 0..3 {
                let mut x = [0u16; 1000];
                for (i, v) in x.iter_mut().enumerate() {
                    *v = match shape {
                        0 => i as u16,
                        1 => (1000 - i) as u16,
                        _ => 7,
                    };
                }
                sort(alg, 1000, &mut x, &[0], 0, &mut ()).unwrap();
                assert!(x.windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }

    #[test]
    fn errors_leave_the_buffers_alone() {
        let mut xy = [3u8, 2, 1, 0];
        let mut y = [1, 2];
        assert_eq!(
            sort(SortAlgorithm::HeapSort, 2, &mut xy, &[0, 0], 0, &mut ()),
            Err(SortError::Permutation { index: 1 })
        );
        assert_eq!(
            sort(SortAlgorithm::HeapSort, 2, &mut xy, &[0, 2], 0, &mut ()),
            Err(SortError::Permutation { index: 1 })
        );
        assert_eq!(
            sort(SortAlgorithm::HeapSort, 3, &mut xy, &[0], 1, &mut ()),
            Err(SortError::TuplesShort {
                len: 4,
                width: 2,
                n: 3
            })
        );
        assert_eq!(
            sort(
                SortAlgorithm::HeapSort,
                3,
                &mut xy,
                &[0],
                0,
                &mut (&mut y[..],)
            ),
            Err(SortError::Jointly {
                array: 0,
                len: 2,
                n: 3
            })
        );
        assert_eq!(xy, [3, 2, 1, 0]);
        assert_eq!(y, [1, 2]);
    }
}
