//! In-place sorting of COO buffers (MLIR's `sparse_tensor.sort`): a heap
//! sort over rows that live in several arrays at once, so it needs no
//! memory beyond the arrays and a few words of stack.

use core::cmp::Ordering;
use core::fmt;

/// Rows to sort: compared and swapped by index.
pub(crate) trait Rows {
    /// How row `a` compares with row `b`.
    fn cmp_rows(&self, a: usize, b: usize) -> Ordering;
    /// Swaps rows `a` and `b` in every array.
    fn swap_rows(&mut self, a: usize, b: usize);
}

/// Whether rows `lo..hi` are in non-decreasing order.
pub(crate) fn is_sorted<R: Rows + ?Sized>(rows: &R, lo: usize, hi: usize) -> bool {
    (lo.saturating_add(1)..hi).all(|r| rows.cmp_rows(r - 1, r) != Ordering::Greater)
}

/// Sorts rows `lo..hi` in place: heap sort, `O(n log n)` comparisons and
/// swaps, not stable, no recursion.
pub(crate) fn heap_sort<R: Rows + ?Sized>(rows: &mut R, lo: usize, hi: usize) {
    let n = hi.saturating_sub(lo);
    if n < 2 {
        return;
    }
    // Children of heap node k are 2k+1 and 2k+2 (offsets from `lo`).
    let sift = |rows: &mut R, mut k: usize, end: usize| loop {
        let left = match k.checked_mul(2).and_then(|x| x.checked_add(1)) {
            Some(c) if c < end => c,
            _ => return,
        };
        let right = left + 1;
        let big = if right < end && rows.cmp_rows(lo + right, lo + left) == Ordering::Greater {
            right
        } else {
            left
        };
        if rows.cmp_rows(lo + big, lo + k) != Ordering::Greater {
            return;
        }
        rows.swap_rows(lo + k, lo + big);
        k = big;
    };
    for k in (0..n / 2).rev() {
        sift(rows, k, n);
    }
    for end in (1..n).rev() {
        rows.swap_rows(lo, lo + end);
        sift(rows, 0, end);
    }
}

/// Why [`sort_coo_aos`] or [`sort_coo_soa`] refused its buffers (nothing
/// was moved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SortError {
    /// The AoS coordinate buffer's length is not a multiple of the rank
    /// (or the rank is 0 and the buffer is not empty).
    Tuples {
        /// The buffer's length.
        len: usize,
        /// The number of coordinates per entry.
        rank: usize,
    },
    /// An SoA coordinate buffer has another length than the first.
    Coordinates {
        /// The buffer (level) index.
        level: usize,
        /// Its length.
        len: usize,
        /// The first buffer's length.
        expected: usize,
    },
    /// The values are neither empty nor one per entry.
    Values {
        /// The values' length.
        len: usize,
        /// The number of entries.
        expected: usize,
    },
    /// [`sort`](super::sort)'s key permutation (`perm_map`) is not a
    /// permutation of `0..rank`: entry `index` is out of range or repeats
    /// an earlier one.
    Permutation {
        /// The offending entry of the permutation.
        index: usize,
    },
    /// [`sort`](super::sort)'s `xy` buffer holds fewer than `n` tuples.
    TuplesShort {
        /// The buffer's length.
        len: usize,
        /// Elements per tuple (keys plus `ny`).
        width: usize,
        /// The number of tuples to sort.
        n: usize,
    },
    /// An array sorted jointly by [`sort`](super::sort) is shorter than `n`.
    Jointly {
        /// The array, counted from 0 in the order given.
        array: usize,
        /// Its length.
        len: usize,
        /// The number of rows to sort.
        n: usize,
    },
}

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SortError::Tuples { len, rank } => write!(
                f,
                "{len} coordinates do not form tuples of {rank} (an array of structures)"
            ),
            SortError::Coordinates {
                level,
                len,
                expected,
            } => write!(
                f,
                "coordinate buffer {level} has {len} entries, the first one {expected}"
            ),
            SortError::Values { len, expected } => write!(
                f,
                "{len} values for {expected} entries (give one per entry, or none)"
            ),
            SortError::Permutation { index } => write!(
                f,
                "entry {index} of the key permutation is out of range or repeated \
                 (perm_map must permute 0..rank)"
            ),
            SortError::TuplesShort { len, width, n } => write!(
                f,
                "the xy buffer holds {len} elements, fewer than {n} tuples of {width}"
            ),
            SortError::Jointly { array, len, n } => write!(
                f,
                "jointly sorted array {array} has {len} elements, fewer than the {n} rows sorted"
            ),
        }
    }
}

impl core::error::Error for SortError {}

struct Aos<'a, C, V> {
    crd: &'a mut [C],
    val: &'a mut [V],
    rank: usize,
}

impl<C: Ord, V> Rows for Aos<'_, C, V> {
    fn cmp_rows(&self, a: usize, b: usize) -> Ordering {
        let (ra, rb) = (a * self.rank, b * self.rank);
        let x = self.crd.get(ra..ra + self.rank).unwrap_or(&[]);
        let y = self.crd.get(rb..rb + self.rank).unwrap_or(&[]);
        x.cmp(y)
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        for k in 0..self.rank {
            let (i, j) = (a * self.rank + k, b * self.rank + k);
            if i < self.crd.len() && j < self.crd.len() {
                self.crd.swap(i, j);
            }
        }
        if a < self.val.len() && b < self.val.len() {
            self.val.swap(a, b);
        }
    }
}

struct Soa<'a, 'b, C, V, const R: usize> {
    crd: [&'b mut [C]; R],
    val: &'a mut [V],
}

impl<C: Ord, V, const R: usize> Rows for Soa<'_, '_, C, V, R> {
    fn cmp_rows(&self, a: usize, b: usize) -> Ordering {
        for column in &self.crd {
            match column.get(a).cmp(&column.get(b)) {
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        for column in &mut self.crd {
            if a < column.len() && b < column.len() {
                column.swap(a, b);
            }
        }
        if a < self.val.len() && b < self.val.len() {
            self.val.swap(a, b);
        }
    }
}

/// Sorts a COO array of structures in place: `coordinates` holds one
/// tuple of `rank` coordinates per entry (`[i0, j0, i1, j1, ...]`, the
/// layout of an AoS COO region), `values` one value per entry (or nothing,
/// for a pattern tensor). Entries are ordered lexicographically by their
/// tuples, i.e. in level order; values move with their coordinates.
///
/// Heap sort: `O(n log n)`, in place, no allocation, **not stable**
/// (entries with equal tuples may swap).
///
/// ```
/// use sparse_core::convert::sort_coo_aos;
/// let mut crd = [1u32, 0, 0, 2, 0, 1];
/// let mut val = ['c', 'b', 'a'];
/// sort_coo_aos(2, &mut crd, &mut val)?;
/// assert_eq!(crd, [0, 1, 0, 2, 1, 0]);
/// assert_eq!(val, ['a', 'b', 'c']);
/// # Ok::<(), sparse_core::convert::SortError>(())
/// ```
pub fn sort_coo_aos<C: Ord, V>(
    rank: usize,
    coordinates: &mut [C],
    values: &mut [V],
) -> Result<(), SortError> {
    let len = coordinates.len();
    let n = match len.checked_div(rank) {
        Some(n) if n * rank == len => n,
        None if len == 0 => values.len(),
        _ => return Err(SortError::Tuples { len, rank }),
    };
    if !values.is_empty() && values.len() != n {
        return Err(SortError::Values {
            len: values.len(),
            expected: n,
        });
    }
    if rank == 0 {
        // No coordinates: every entry is equal, nothing moves.
        return Ok(());
    }
    let mut rows = Aos {
        crd: coordinates,
        val: values,
        rank,
    };
    if !is_sorted(&rows, 0, n) {
        heap_sort(&mut rows, 0, n);
    }
    Ok(())
}

/// Sorts a COO structure of arrays in place: `coordinates[l]` holds level
/// `l`'s coordinate of every entry, `values` one value per entry (or
/// nothing). Entries are ordered lexicographically by `(coordinates[0][k],
/// coordinates[1][k], ...)`; every array moves together.
///
/// Heap sort: `O(n log n)`, in place, no allocation, **not stable**.
///
/// ```
/// use sparse_core::convert::sort_coo_soa;
/// let (mut i, mut j) = ([1u8, 0, 0], [0u8, 2, 1]);
/// let mut val = [30, 20, 10];
/// sort_coo_soa([&mut i[..], &mut j[..]], &mut val)?;
/// assert_eq!((i, j, val), ([0, 0, 1], [1, 2, 0], [10, 20, 30]));
/// # Ok::<(), sparse_core::convert::SortError>(())
/// ```
pub fn sort_coo_soa<C: Ord, V, const R: usize>(
    coordinates: [&mut [C]; R],
    values: &mut [V],
) -> Result<(), SortError> {
    let n = coordinates.first().map_or(values.len(), |c| c.len());
    for (level, column) in coordinates.iter().enumerate() {
        if column.len() != n {
            return Err(SortError::Coordinates {
                level,
                len: column.len(),
                expected: n,
            });
        }
    }
    if !values.is_empty() && values.len() != n {
        return Err(SortError::Values {
            len: values.len(),
            expected: n,
        });
    }
    if R == 0 {
        return Ok(());
    }
    let mut rows = Soa {
        crd: coordinates,
        val: values,
    };
    if !is_sorted(&rows, 0, n) {
        heap_sort(&mut rows, 0, n);
    }
    Ok(())
}
