//! Kernel codegen through `sparse_kernel!`, end to end: the expression
//! forms (literals, scalar parameters, unary minus, division, casts, index
//! variables as values, math calls), loops that must visit every
//! coordinate, nested static arrays and dense views, several statements,
//! and the prologue's errors, each against a dense computation written out
//! by hand.

use sparse_core::{DenseView, DenseViewMut, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSR, LOOSE, SV};
use sparse_tests::gen::Entries;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed), posWidth = 16 }>

        /// Every expression form at once.
        pub fn exprs(a: &tensor<?xf64, #SV>, alpha: f64, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = -a[i] * alpha / 2.0 + max(a[i], 0.5) * (i as f64) - sqrt(abs(x[i])) * 0.0 + min(x[i], 1.0);
        }
        /// `+ 1.0` holds everywhere: every coordinate is visited.
        pub fn shift(a: &tensor<?xf32, #SV>, y: &mut tensor<?xf32>) {
            y[i] = a[i] + 1.0;
        }
        /// Integer elements, `+=`, static nested arrays.
        pub fn int_rows(a: &tensor<3x4xi32, #CSR>, b: &tensor<4x2xi32>, c: &mut tensor<3x2xi32>) {
            c[i, j] += a[i, k] * b[k, j];
        }
        /// Loose compressed rows merged with a dense matrix through views.
        pub fn loose_plus(a: &tensor<?x?xf64, #LOOSE>, d: &tensor<?x3xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, j] + d[i, j];
        }
        /// Two statements; the second reads the first one's output.
        pub fn row_sums_then_total(a: &tensor<?x?xf64, #CSR>, r: &mut tensor<?xf64>, t: &mut tensor<f64>) {
            r[i] = a[i, j];
            t[] = r[i] * 2.0;
        }
    }
}

fn vector(n: usize, e: &Entries<f64>) -> Vec<f64> {
    Dense::from_entries(&[n], e).data
}

#[test]
fn expression_forms_match_the_same_expression_in_rust() {
    let n = 9;
    let e: Entries<f64> = vec![
        (vec![0], 1.5),
        (vec![3], -2.0),
        (vec![4], 0.0),
        (vec![8], 3.0),
    ];
    let a = vector(n, &e);
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 0.75 - 3.0).collect();
    let mut y = vec![777.25; n];
    with_tensor(&SV, [n], &e, |t| k::exprs(t, 3.0, &x, &mut y)).unwrap();
    let stored = |i: usize| e.iter().any(|(c, _)| c[0] == i);
    for i in 0..n {
        // Where `a` stores nothing the product terms vanish; `max(a, 0.5)`
        // over an implicit zero is `max(0, 0.5)`.
        let want = if stored(i) {
            -a[i] * 3.0 / 2.0 + a[i].max(0.5) * i as f64 - x[i].abs().sqrt() * 0.0 + x[i].min(1.0)
        } else {
            0.0f64.max(0.5) * i as f64 - x[i].abs().sqrt() * 0.0 + x[i].min(1.0)
        };
        assert_eq!(y[i], want, "y[{i}]");
    }
}

#[test]
fn a_union_with_a_constant_visits_every_coordinate() {
    let e: Entries<f32> = vec![(vec![1], 2.0), (vec![5], -1.0)];
    let mut y = [777.25f32; 7];
    with_tensor(&SV, [7], &e, |t| k::shift(t, &mut y)).unwrap();
    assert_eq!(y, [1.0, 3.0, 1.0, 1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn integer_spmm_accumulates_into_nested_arrays() {
    let e: Entries<i32> = vec![(vec![0, 1], 2), (vec![2, 0], -1), (vec![2, 3], 5)];
    let b = [[1, 2], [3, 4], [5, 6], [7, 8]];
    let mut c = [[10, 20], [30, 40], [50, 60]];
    with_tensor(&CSR, [3, 4], &e, |t| k::int_rows(t, &b, &mut c)).unwrap();
    assert_eq!(c, [[10 + 6, 20 + 8], [30, 40], [50 - 1 + 35, 60 - 2 + 40]]);
    // The static shape of `a` is checked against the tensor.
    let err = with_tensor(&CSR, [3, 5], &e, |t| k::int_rows(t, &b, &mut c));
    assert_eq!(
        err,
        Err(KernelError::ShapeMismatch {
            tensor: "a",
            dim: 1,
            size: 5,
            expected: 4
        })
    );
}

#[test]
fn loose_rows_plus_a_dense_view() {
    let e: Entries<f64> = vec![(vec![0, 2], 1.0), (vec![1, 0], -2.0), (vec![1, 1], 4.0)];
    let d: Vec<f64> = (0..6).map(|q| q as f64).collect();
    let mut c = vec![777.25; 6];
    let dv = DenseView::new(&d, [2, 3]).unwrap();
    let cv = DenseViewMut::new(&mut c, [2, 3]).unwrap();
    with_tensor(&LOOSE, [2, 3], &e, |t| k::loose_plus(t, dv, cv)).unwrap();
    assert_eq!(c, vec![0.0, 1.0, 3.0, 1.0, 8.0, 5.0]);
    // A view whose static size differs from the type is refused first.
    let d4 = vec![0.0; 8];
    let mut c4 = vec![0.0; 8];
    let err = with_tensor(&LOOSE, [2, 4], &e, |t| {
        k::loose_plus(
            t,
            DenseView::new(&d4, [2, 4]).unwrap(),
            DenseViewMut::new(&mut c4, [2, 4]).unwrap(),
        )
    });
    assert_eq!(
        err,
        Err(KernelError::ShapeMismatch {
            tensor: "d",
            dim: 1,
            size: 4,
            expected: 3
        })
    );
    assert!(c4.iter().all(|&v| v == 0.0));
}

#[test]
fn statements_run_in_order() {
    let e: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![0, 2], 2.0), (vec![2, 1], -0.5)];
    let mut r = vec![777.25; 3];
    let mut t = 777.25;
    with_tensor(&CSR, [3, 3], &e, |a| {
        k::row_sums_then_total(a, &mut r, &mut t)
    })
    .unwrap();
    assert_eq!(r, vec![3.0, 0.0, -0.5]);
    assert_eq!(t, 5.0);
    let mut short = vec![0.0; 2];
    let err = with_tensor(&CSR, [3, 3], &e, |a| {
        k::row_sums_then_total(a, &mut short, &mut t)
    });
    assert_eq!(
        err,
        Err(KernelError::DimensionMismatch {
            tensor: "r",
            dim: 0,
            size: 2,
            index: "i",
            expected: 3,
            bound_by: "a",
            bound_dim: 0,
        })
    );
}
