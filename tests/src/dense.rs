//! The dense side of the kernel tests: a tensor stored everywhere, built
//! from entry lists (duplicates summed, as MLIR reads nonunique storage),
//! and nothing else — each test writes its kernel's loops over it by hand.

use crate::gen::{Elem, Entries};

/// A dense row-major tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense<V> {
    /// The dimension sizes.
    pub dims: Vec<usize>,
    /// The values, row-major.
    pub data: Vec<V>,
}

impl<V: Elem> Dense<V> {
    /// All zeros.
    pub fn zeros(dims: &[usize]) -> Self {
        Dense {
            dims: dims.to_vec(),
            data: vec![V::ZERO; dims.iter().product()],
        }
    }

    /// The tensor of `entries`; repeated coordinates add up.
    pub fn from_entries(dims: &[usize], entries: &Entries<V>) -> Self {
        let mut t = Self::zeros(dims);
        for (c, v) in entries {
            let at = t.offset(c);
            t.data[at] = t.data[at] + *v;
        }
        t
    }

    /// Wraps row-major `data` of shape `dims`.
    ///
    /// # Panics
    ///
    /// If the length does not match (test code).
    pub fn from_data(dims: &[usize], data: Vec<V>) -> Self {
        assert_eq!(
            data.len(),
            dims.iter().product::<usize>(),
            "dense data length"
        );
        Dense {
            dims: dims.to_vec(),
            data,
        }
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

    /// The value at `c`.
    pub fn at(&self, c: &[usize]) -> V {
        self.data[self.offset(c)]
    }

    /// The value at `c`, mutably.
    pub fn at_mut(&mut self, c: &[usize]) -> &mut V {
        let at = self.offset(c);
        &mut self.data[at]
    }
}

/// `data` (row-major, `R x C`) as nested arrays.
///
/// # Panics
///
/// If the length is not `R * C` (test code).
pub fn nested<V: Copy, const R: usize, const C: usize>(data: &[V]) -> [[V; C]; R] {
    assert_eq!(data.len(), R * C, "nested array data length");
    core::array::from_fn(|i| core::array::from_fn(|j| data[i * C + j]))
}

/// Nested arrays flattened row-major.
pub fn flat<V: Copy, const R: usize, const C: usize>(m: &[[V; C]; R]) -> Vec<V> {
    m.iter().flatten().copied().collect()
}

/// Which elements of `dims` `entries` stores, as 1.0 (else 0.0): the
/// pattern a sparse output's stored set is compared with.
pub fn pattern(dims: &[usize], entries: &Entries<f64>) -> Dense<f64> {
    let ones: Entries<f64> = entries.iter().map(|(c, _)| (c.clone(), 1.0)).collect();
    let mut p = Dense::from_entries(dims, &ones);
    for v in &mut p.data {
        *v = v.min(1.0);
    }
    p
}

/// Whether `a` and `b` agree to a relative 1e-9 (sums taken in another
/// order than the kernel's).
pub fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs())))
}
