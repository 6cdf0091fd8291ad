//! A statement that reads only dense operands, written into a sparse
//! output, stores its nonzero results only, as MLIR does (its result is
//! the dense one, converted); a statement with a sparse operand stores
//! every coordinate its loops visit, computed zeros included. The
//! expected buffers are the upstream MLIR sparsifier's, printed by
//! `tests/oracle/dense_into_sparse.py`.

use sparse_core::output::Owned;
use sparse_core::{DenseView, Level};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #NV24 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 2
        }>
        pub fn copy(d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = d[i, j];
        }
        pub fn twice(d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = d[i, j] * 2.0;
        }
        pub fn plus_one(d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = d[i, j] + 1.0;
        }
        pub fn add(a: &tensor<?x?xf64, #CSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + d[i, j];
        }
        pub fn mul(a: &tensor<?x?xf64, #CSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * d[i, j];
        }
        /// Dense weights into 2:4: only the nonzeros, so a layer that is
        /// already 2:4 converts.
        pub fn to_2_4(d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = d[i, j];
        }
    }
}

type Buffers = (Vec<usize>, Vec<usize>, Vec<f64>);

fn csr(c: &k::CSROut<f64, Owned>) -> Buffers {
    let v = c.view();
    (
        v.level(1).positions().to_vec(),
        v.level(1).coordinates().to_vec(),
        v.values().to_vec(),
    )
}

#[test]
fn dense_only_statements_store_their_nonzero_results() {
    // d = [[-1, 0, 2], [0, 0, 0]]; a = [[1, ., .], [., ., .]] (CSR).
    let d = [-1.0, 0.0, 2.0, 0.0, 0.0, 0.0];
    let d = || DenseView::new(&d, [2, 3]).unwrap();
    let a = k::CSR::<f64>::assemble(
        [2, 3],
        [Level::dense(), Level::compressed(&[0, 1, 1], &[0])],
        &[1.0],
    )
    .unwrap();
    let mut c = k::CSROut::<f64, Owned>::with_dims([2, 3]).unwrap();
    k::copy(d(), &mut c).unwrap();
    assert_eq!(csr(&c), (vec![0, 2, 2], vec![0, 2], vec![-1.0, 2.0]));
    k::twice(d(), &mut c).unwrap();
    assert_eq!(csr(&c), (vec![0, 2, 2], vec![0, 2], vec![-2.0, 4.0]));
    // The test is on the result: -1 + 1 = 0 is not stored, 0 + 1 is.
    k::plus_one(d(), &mut c).unwrap();
    assert_eq!(
        csr(&c),
        (
            vec![0, 2, 5],
            vec![1, 2, 0, 1, 2],
            vec![1.0, 3.0, 1.0, 1.0, 1.0]
        )
    );
    // With a sparse operand every visited coordinate is stored: the union
    // (everything, `d` is dense), 1 + -1 = 0 included.
    k::add(&a, d(), &mut c).unwrap();
    assert_eq!(
        csr(&c),
        (
            vec![0, 3, 6],
            vec![0, 1, 2, 0, 1, 2],
            vec![0.0, 0.0, 2.0, 0.0, 0.0, 0.0]
        )
    );
    k::mul(&a, d(), &mut c).unwrap();
    assert_eq!(csr(&c), (vec![0, 1, 1], vec![0], vec![-1.0]));
}

#[test]
fn a_dense_layer_that_is_2_4_converts_into_2_4() {
    use sparse_core::Packed2;
    // | 0 1 0 2 | 3 0 0 0 |   (seed 001's layout, one value dropped)
    let d = [0.0, 1.0, 0.0, 2.0, 3.0, 0.0, 0.0, 0.0];
    let mut c = k::NV24Out::<f64, Owned>::with_dims([1, 8]).unwrap();
    k::to_2_4(DenseView::new(&d, [1, 8]).unwrap(), &mut c).unwrap();
    assert_eq!(
        c.view().level(2).coordinates(),
        &[Packed2::new([1, 3, 0, 1])]
    );
    assert_eq!(c.view().values(), &[1.0, 2.0, 3.0, 0.0]);
}
