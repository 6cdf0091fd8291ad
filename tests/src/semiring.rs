//! Presence-mask references for the semiring tests (`binary`, `unary`,
//! `select`, `reduce`): a dense tensor whose every element is either a value
//! or *no value*, evaluated with plain loops over all coordinates, so that
//! which regions run where (both stored, one side only, neither) is written
//! out independently of the sparsifier's lattices.
//!
//! Regions are passed as closures returning `Option`: `None` is MLIR's empty
//! region (`none`), `Some(x)` for `identity`. Every region also receives the
//! coordinates, for closures that read index variables.

use crate::dense::Dense;
use crate::gen::{unravel, Elem, Entries};
use crate::sparse_out::Stored;

/// A dense tensor in which each element holds a value or no value: an
/// operand's stored entries (explicit zeros are values), or what a semiring
/// operation produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Masked<V> {
    /// The dimension sizes.
    pub dims: Vec<usize>,
    /// The elements, row-major; `None` where nothing is stored or produced.
    pub data: Vec<Option<V>>,
}

impl<V: Copy> Masked<V> {
    /// No value anywhere.
    pub fn empty(dims: &[usize]) -> Self {
        Masked {
            dims: dims.to_vec(),
            data: vec![None; dims.iter().product()],
        }
    }

    /// A value everywhere: a dense operand.
    pub fn full(dims: &[usize], data: &[V]) -> Self {
        assert_eq!(data.len(), dims.iter().product::<usize>(), "dense length");
        Masked {
            dims: dims.to_vec(),
            data: data.iter().copied().map(Some).collect(),
        }
    }

    /// The stored entries of a sparse operand.
    ///
    /// # Panics
    ///
    /// If a coordinate repeats (test code: the generators give distinct ones).
    pub fn from_entries(dims: &[usize], entries: &Entries<V>) -> Self {
        let mut m = Self::empty(dims);
        for (c, v) in entries {
            let at = m.offset(c);
            assert!(m.data[at].is_none(), "{c:?} given twice");
            m.data[at] = Some(*v);
        }
        m
    }

    /// The row-major offset of `c`.
    ///
    /// # Panics
    ///
    /// If `c` is out of range (test code).
    pub fn offset(&self, c: &[usize]) -> usize {
        assert_eq!(c.len(), self.dims.len(), "rank of {c:?}");
        c.iter().zip(&self.dims).fold(0, |acc, (&x, &n)| {
            assert!(x < n, "{c:?} out of {:?}", self.dims);
            acc * n + x
        })
    }

    /// The element at `c`.
    pub fn at(&self, c: &[usize]) -> Option<V> {
        self.data[self.offset(c)]
    }

    /// Every coordinate with its element, row-major.
    pub fn iter(&self) -> impl Iterator<Item = (Vec<usize>, Option<V>)> + '_ {
        self.data
            .iter()
            .enumerate()
            .map(|(at, v)| (unravel(&self.dims, at), *v))
    }

    /// `f` at every coordinate: the element-wise result of an operation.
    pub fn map<W: Copy>(&self, f: impl Fn(&[usize], Option<V>) -> Option<W>) -> Masked<W> {
        Masked {
            dims: self.dims.clone(),
            data: self.iter().map(|(c, v)| f(&c, v)).collect(),
        }
    }
}

impl<V: Elem> Masked<V> {
    /// As a dense output after `=`: no value is 0.
    pub fn dense(&self) -> Dense<V> {
        Dense::from_data(
            &self.dims,
            self.data.iter().map(|v| v.unwrap_or(V::ZERO)).collect(),
        )
    }

    /// As a dense output after `+=` onto `old`: no value leaves the old
    /// element.
    pub fn added_to(&self, old: &[V]) -> Vec<V> {
        assert_eq!(old.len(), self.data.len(), "old output length");
        self.data
            .iter()
            .zip(old)
            .map(|(v, &o)| v.map_or(o, |v| o + v))
            .collect()
    }

    /// What a sparse output must store: exactly the produced values.
    pub fn stored(&self) -> Stored<V> {
        self.iter().filter_map(|(c, v)| v.map(|v| (c, v))).collect()
    }
}

/// `binary(a, b, overlap, left, right)` element by element: `overlap` where
/// both hold a value, `left` where only `a` does, `right` where only `b`
/// does, no value where neither.
///
/// # Panics
///
/// If the shapes differ (test code).
pub fn binary<A: Copy, B: Copy, C: Copy>(
    a: &Masked<A>,
    b: &Masked<B>,
    overlap: impl Fn(&[usize], A, B) -> Option<C>,
    left: impl Fn(&[usize], A) -> Option<C>,
    right: impl Fn(&[usize], B) -> Option<C>,
) -> Masked<C> {
    assert_eq!(a.dims, b.dims, "operand shapes");
    a.map(|c, x| match (x, b.at(c)) {
        (Some(x), Some(y)) => overlap(c, x, y),
        (Some(x), None) => left(c, x),
        (None, Some(y)) => right(c, y),
        (None, None) => None,
    })
}

/// `unary(a, present, absent)` element by element.
pub fn unary<A: Copy, C: Copy>(
    a: &Masked<A>,
    present: impl Fn(&[usize], A) -> Option<C>,
    absent: impl Fn(&[usize]) -> Option<C>,
) -> Masked<C> {
    a.map(|c, x| match x {
        Some(x) => present(c, x),
        None => absent(c),
    })
}

/// `select(a, keep)`: the values of `a` for which `keep` holds.
pub fn select<A: Copy>(a: &Masked<A>, keep: impl Fn(&[usize], A) -> bool) -> Masked<A> {
    a.map(|c, x| x.filter(|&x| keep(c, x)))
}

/// `x[i] = reduce(e[i, j], identity, f)` over the last dimension of a
/// matrix, as MLIR's `sparse_tensor.reduce`: for each row, `f` folded from
/// `identity` over the *present* values only (stored entries, explicit
/// zeros included, or values a region produced), in increasing column
/// order; no value where none is present (what a sparse output stores:
/// nothing there).
///
/// # Panics
///
/// If `e` is not a matrix (test code).
pub fn fold_rows<V: Elem>(e: &Masked<V>, identity: V, f: impl Fn(V, V) -> V) -> Masked<V> {
    let [m, n] = <[usize; 2]>::try_from(e.dims.as_slice()).expect("a matrix");
    Masked {
        dims: vec![m],
        data: (0..m)
            .map(|i| {
                e.data[i * n..(i + 1) * n]
                    .iter()
                    .flatten()
                    .fold(None, |acc: Option<V>, &v| {
                        Some(f(acc.unwrap_or(identity), v))
                    })
            })
            .collect(),
    }
}

/// `x[j] = reduce(e[i, j], identity, f)` over the first dimension of a
/// matrix: [`fold_rows`] of each column, in increasing row order.
///
/// # Panics
///
/// If `e` is not a matrix (test code).
pub fn fold_columns<V: Elem>(e: &Masked<V>, identity: V, f: impl Fn(V, V) -> V) -> Masked<V> {
    let [m, n] = <[usize; 2]>::try_from(e.dims.as_slice()).expect("a matrix");
    Masked {
        dims: vec![n],
        data: (0..n)
            .map(|j| {
                (0..m)
                    .filter_map(|i| e.data[i * n + j])
                    .fold(None, |acc: Option<V>, v| {
                        Some(f(acc.unwrap_or(identity), v))
                    })
            })
            .collect(),
    }
}

/// [`fold_rows`] into a dense output: the identity where no value is
/// present in the row (a row with no columns included).
pub fn reduce_rows<V: Elem>(e: &Masked<V>, identity: V, f: impl Fn(V, V) -> V) -> Vec<V> {
    fold_rows(e, identity, f)
        .data
        .into_iter()
        .map(|v| v.unwrap_or(identity))
        .collect()
}

/// [`fold_columns`] into a dense output: the identity where no value is
/// present in the column.
pub fn reduce_columns<V: Elem>(e: &Masked<V>, identity: V, f: impl Fn(V, V) -> V) -> Vec<V> {
    fold_columns(e, identity, f)
        .data
        .into_iter()
        .map(|v| v.unwrap_or(identity))
        .collect()
}

/// `unary(e, present = |v| v, absent = || 0)`: every element present, the
/// implicit zeros as 0 (how a kernel asks `reduce` to fold them).
pub fn zeros_present<V: Elem>(e: &Masked<V>) -> Masked<V> {
    e.map(|_, v| Some(v.unwrap_or(V::ZERO)))
}

/// `x[i] = e[i, j]` with `j` summed and no `reduce`: the produced values of
/// each row added up (no value adds nothing), and whether any was produced
/// (what a sparse output stores).
///
/// # Panics
///
/// If `e` is not a matrix (test code).
pub fn sum_rows<V: Elem>(e: &Masked<V>) -> Masked<V> {
    let [m, n] = <[usize; 2]>::try_from(e.dims.as_slice()).expect("a matrix");
    Masked {
        dims: vec![m],
        data: (0..m)
            .map(|i| {
                e.data[i * n..(i + 1) * n]
                    .iter()
                    .flatten()
                    .fold(None, |s: Option<V>, &v| Some(s.map_or(v, |s| s + v)))
            })
            .collect(),
    }
}

/// Whether every entry of a compressed level of `t` has children: an output
/// must not keep the coordinate of a row (say) where nothing was produced,
/// as an empty segment under a compressed parent.
///
/// # Errors
///
/// The first empty segment, as text.
pub fn no_empty_segments<V, E, const D: usize, const L: usize>(
    t: &sparse_core::SparseTensor<'_, V, E, D, L>,
) -> Result<(), String>
where
    E: sparse_core::Encoding,
{
    use sparse_core::Index;
    let (_, levels, _) = t.disassemble();
    for l in 1..L {
        if levels[l - 1].positions.is_empty() || levels[l].positions.is_empty() {
            continue;
        }
        for (k, w) in levels[l].positions.windows(2).enumerate() {
            if w[0].as_usize() >= w[1].as_usize() {
                return Err(format!(
                    "level {l}: the segment of entry {k} of level {} is empty (positions {:?})",
                    l - 1,
                    levels[l]
                        .positions
                        .iter()
                        .map(|p| p.as_usize())
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    Ok(())
}
