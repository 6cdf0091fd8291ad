//! The formats every test runs over, and how tensors are made and read
//! back.

use proptest::prelude::*;
use sparse_core::convert::{from_dense, to_dense};
use sparse_core::levels::{compressed, d0, d1, d2, dense, nonunique, singleton, soa};
use sparse_core::{Enc, Encoding, Owned, SparseTensor, SparseTensorOut, StoresValues};

pub type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
pub type Csc = Enc<u16, u32, (dense, compressed), (d1, d0)>;
pub type Dcsr = Enc<u32, u16, (compressed, compressed), (d0, d1)>;
/// MLIR's sorted COO, one array of tuples.
pub type Coo = Enc<u16, u8, (compressed<nonunique>, singleton), (d0, d1)>;
/// Sorted COO, a structure of arrays.
pub type CooSoa = Enc<u8, u64, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
/// COO that keeps repeated coordinates.
pub type CooNu = Enc<u32, u32, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
/// `(i : compressed, j : dense)`: stored rows, each dense.
pub type RowSparse = Enc<u8, u8, (compressed, dense), (d0, d1)>;
pub type Csf = Enc<u8, u8, (compressed, compressed, compressed), (d0, d1, d2)>;
/// A 3-D format in another level order.
pub type Dcc = Enc<u32, u16, (dense, compressed, compressed), (d1, d2, d0)>;
/// MLIR's 3-D COO.
pub type Coo3 =
    Enc<usize, u8, (compressed<nonunique>, singleton<nonunique>, singleton), (d0, d1, d2)>;

/// A tensor of encoding `E` holding the nonzeros of the row-major `data`.
pub fn owned<E: StoresValues, const D: usize, const L: usize>(
    dims: [usize; D],
    data: &[i64],
) -> SparseTensorOut<i64, E, Owned, D, L> {
    let mut out = SparseTensorOut::<i64, E, Owned, D, L>::with_dims(dims).expect("with_dims");
    from_dense(data, dims, &mut out).expect("from_dense");
    out
}

/// The dense row-major contents of `t` (repeats summed), after checking
/// that its buffers pass the validating `assemble`.
pub fn dense_of<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, i64, E, D, L>,
) -> Vec<i64> {
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<i64, E, D, L>::assemble(dims, levels, values)
        .unwrap_or_else(|e| panic!("not a valid tensor: {e}"));
    let mut d = vec![0; dims.iter().product()];
    to_dense(&again, &mut d).expect("sizes agree");
    d
}

/// How many stored entries `t` visits.
pub fn visits<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, i64, E, D, L>,
) -> usize {
    let mut n = 0;
    t.for_each(|_, _| n += 1);
    n
}

/// Row-major dense data of `dims`: mostly zeros, small values otherwise.
pub fn data(dims: &[usize]) -> BoxedStrategy<Vec<i64>> {
    let n: usize = dims.iter().product();
    proptest::collection::vec(prop_oneof![3 => Just(0i64), 2 => -4i64..5], n).boxed()
}

/// Sizes of `R` dimensions, each `0..=max` (0 included).
pub fn dims<const R: usize>(max: usize) -> impl Strategy<Value = [usize; R]> {
    proptest::array::uniform(0..=max)
}

/// The row-major offset of `c` in `dims`.
pub fn offset(dims: &[usize], c: &[usize]) -> usize {
    c.iter().zip(dims).fold(0, |at, (&x, &n)| at * n + x)
}

/// The coordinates of row-major offset `at` in `dims`.
pub fn unravel(dims: &[usize], mut at: usize) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    for (x, &n) in c.iter_mut().zip(dims).rev() {
        *x = at % n;
        at /= n;
    }
    c
}
