//! Helpers shared by the semantics tests.

use proptest::prelude::*;
use sparse_core::{Encoding, Index, SparseTensor};
use sparse_tests::gen::Entries;

/// `got == want` element by element, NaN equal to NaN (`sqrt` of a
/// negative sum is NaN on both sides), with `what` in the failure.
pub fn same(what: &str, got: &[f64], want: &[f64]) -> Result<(), TestCaseError> {
    let equal = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g == w || (g.is_nan() && w.is_nan()));
    if equal {
        Ok(())
    } else {
        Err(TestCaseError::fail(format!(
            "{what}: got {got:?}, want {want:?}"
        )))
    }
}

/// `entries` in row-major order (the reference builder keeps the order of
/// nonunique storage as given).
pub fn sorted(mut entries: Entries<f64>) -> Entries<f64> {
    entries.sort_by(|x, y| x.0.cmp(&y.0));
    entries
}

/// Entries from `(coordinates, value)` pairs.
pub fn at<const R: usize>(entries: &[([usize; R], f64)]) -> Entries<f64> {
    entries.iter().map(|&(c, v)| (c.to_vec(), v)).collect()
}

/// The storage of a tensor as literal arrays would write it: per level
/// `(positions, coordinates)` as `usize`, then the values.
pub type Layout<V> = (Vec<(Vec<usize>, Vec<usize>)>, Vec<V>);

/// `t`'s storage, every buffer as `usize`.
pub fn layout<V: Copy, E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, V, E, D, L>,
) -> Layout<V> {
    let (_, levels, values) = t.disassemble();
    (
        levels
            .iter()
            .map(|l| {
                (
                    l.positions.iter().map(|p| p.as_usize()).collect(),
                    l.coordinates.iter().map(|c| c.as_usize()).collect(),
                )
            })
            .collect(),
        values.to_vec(),
    )
}

/// Failures collected over several kernels of one input, so that one
/// failing kernel does not hide the others.
#[derive(Default)]
pub struct Report(Vec<String>);

impl Report {
    /// Records `r`'s failure, if any.
    pub fn add(&mut self, r: Result<(), TestCaseError>) {
        if let Err(e) = r {
            self.0.push(e.to_string());
        }
    }

    /// Every failure recorded, one per line.
    pub fn finish(self) -> Result<(), TestCaseError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(TestCaseError::fail(self.0.join("\n")))
        }
    }
}
