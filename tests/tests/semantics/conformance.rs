//! Conformance (issue 10): seed 000's `binary`/`unary`/`select`/`reduce`
//! examples and the row-product, min-plus and sum-scope cases, each with a
//! hand-computed result written out as literal arrays: the storage of a
//! sparse output (per level positions and coordinates, then the values;
//! a dense level has neither) or a dense output. The `reduce`, min-plus and
//! sum-scope numbers are the ones the upstream MLIR sparsifier prints for
//! the same inputs (`tests/oracle/reduce.py`, `min_plus.py`,
//! `sum_scope.py`); so are those of the outputs written at affine
//! subscripts and the min/max reductions (`linear_out.py`, `min_max.py`).

use sparse_core::output::Owned;
use sparse_core::DenseViewMut;
use sparse_tests::fixture::{with_tensor, CSC, CSR, DCSR, SV};

use super::common::{at, layout, Layout};

mod k {
    sparse_core::sparse_kernel! {
        #SparseVector = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #SparseMatrix = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        // ---- seed 000's examples
        pub fn is_equal(a: &tensor<?xf64, #SparseVector>, b: &tensor<?xf64, #SparseVector>,
                        c: &mut tensor<?xi8, #SparseVector>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none);
        }
        pub fn triangles(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| if j >= i { x + y } else { x - y },
                left = identity,
                right = |y| if j >= i { y } else { -y });
        }
        pub fn difference(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xi32, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }
        pub fn plus_one(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64, #SparseVector>) {
            c[i] = unary(a[i], present = |x| x + 1.0, absent = none);
        }
        pub fn plus_minus(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi32, #SparseVector>) {
            c[i] = unary(a[i], present = |_| 1, absent = || -1);
        }
        pub fn invert(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi64, #SparseVector>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn threshold(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64, #SparseVector>) {
            c[i] = select(a[i], |v| v >= 4.0);
        }
        pub fn lower(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }
        // max(product(x_i), 100) after every step, matrix -> vector.
        pub fn capped_product(a: &tensor<?x?xf64, #SparseMatrix>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| if acc * v > 100.0 { 100.0 } else { acc * v });
        }
        pub fn capped_product_dense(a: &tensor<?x?xf64, #SparseMatrix>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| min(acc * v, 100.0));
        }
        // The same with the implicit zeros made present.
        pub fn capped_product_with_zeros(a: &tensor<?x?xf64, #SparseMatrix>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = reduce(unary(a[i, j], present = |v| v, absent = || 0.0),
                          identity = 1.0, |acc, v| if acc * v > 100.0 { 100.0 } else { acc * v });
        }

        // ---- row products (issue 10, items 2 and 3)
        pub fn row_products(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn row_products_sv(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn row_products_csc(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn row_products_csc_sv(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }

        // ---- min-plus (items 2 and 3)
        pub fn min_plus(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y, left = none, right = none),
                             identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn min_plus_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y, left = none, right = none),
                             identity = f64::INFINITY, |acc, v| min(acc, v));
        }

        // ---- sum scope (item 1)
        pub fn bias(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_zero(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i] + 0.0;
        }
        pub fn bias_first(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] + w[i, j] * x[j];
        }
        pub fn bias_add(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i];
        }

        // ---- outputs at affine subscripts (`tests/oracle/linear_out.py`)
        pub fn flat5(a: &tensor<3x4xf64, #CSR>, x: &mut tensor<15xf64>) {
            x[5 * i + j] = a[i, j];
        }
        pub fn antidiagonals(a: &tensor<3x4xf64, #CSR>, x: &mut tensor<6xf64>) {
            x[i + j] += a[i, j];
        }
        // ---- min reductions written directly (`tests/oracle/min_max.py`)
        pub fn min_i32(a: &tensor<8xi32, #SparseVector>, x: &mut tensor<i32>) {
            x[] = min(x[], a[i]);
        }
        pub fn max_i32(a: &tensor<8xi32, #SparseVector>, x: &mut tensor<i32>) {
            x[] = max(a[i], x[]);
        }
    }
}

/// The values the MLIR sparsifier prints for a `3x4` CSR matrix written at
/// `5 * i + j` (overwrite: the output zeroed, unreached elements 0) and
/// added at `i + j` into 100s (`tests/oracle/linear_out.py`).
#[test]
fn mlir_affine_outputs() {
    // | 1 . . 2 |
    // | . . . . |
    // | . 3 4 . |
    let a = at(&[([0, 0], 1.0), ([0, 3], 2.0), ([2, 1], 3.0), ([2, 2], 4.0)]);
    let mut x = [100.0; 15];
    with_tensor(&CSR, [3, 4], &a, |t| k::flat5(t, &mut x)).unwrap();
    let mut want = [0.0; 15];
    (want[0], want[3], want[11], want[12]) = (1.0, 2.0, 3.0, 4.0);
    assert_eq!(x, want);
    let mut x = [100.0; 6];
    with_tensor(&CSR, [3, 4], &a, |t| k::antidiagonals(t, &mut x)).unwrap();
    assert_eq!(x, [101.0, 100.0, 100.0, 105.0, 104.0, 100.0]);
}

/// `arith.minsi`/`maxsi` of the output and a sparse vector of 8 under a
/// reduction iterator, from 999 (`tests/oracle/min_max.py`): implicit
/// zeros count.
#[test]
fn mlir_min_max_reductions() {
    let cases: [(&[usize], &[i32], i32, i32); 4] = [
        (&[1, 4], &[3, 5], 0, 999),
        (&[], &[], 0, 999),
        (
            &[0, 1, 2, 3, 4, 5, 6, 7],
            &[3, 4, 5, 6, 7, 8, 9, 10],
            3,
            999,
        ),
        (&[2], &[0], 0, 999),
    ];
    for (crd, val, min, max) in cases {
        let e: sparse_tests::gen::Entries<i32> =
            crd.iter().zip(val).map(|(&c, &v)| (vec![c], v)).collect();
        let (mut lo, mut hi) = (999, 999);
        with_tensor(&SV, [8], &e, |t| k::min_i32(t, &mut lo)).unwrap();
        with_tensor(&SV, [8], &e, |t| k::max_i32(t, &mut hi)).unwrap();
        assert_eq!((lo, hi), (min, max), "{crd:?} {val:?}");
    }
}

/// A one-level (sparse vector) layout.
fn sv<V>(pos: &[usize], crd: &[usize], values: Vec<V>) -> Layout<V> {
    (vec![(pos.to_vec(), crd.to_vec())], values)
}

/// A CSR layout: level 0 dense (no buffers), level 1 compressed.
fn csr<V>(pos: &[usize], crd: &[usize], values: Vec<V>) -> Layout<V> {
    (vec![(vec![], vec![]), (pos.to_vec(), crd.to_vec())], values)
}

// ---- seed 000

#[test]
fn is_equal_on_the_overlap_only() {
    let a = at(&[([0], 1.0), ([2], 2.0), ([3], 5.0), ([5], 0.0)]);
    let b = at(&[([2], 2.0), ([3], 4.0), ([4], 1.0), ([5], 0.0)]);
    let mut c = k::SparseVectorOut::<i8, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| {
        with_tensor(&SV, [6], &b, |tb| k::is_equal(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(layout(&c.view()), sv(&[0, 3], &[2, 3, 5], vec![1, 0, 1]));
}

#[test]
fn triangles_add_above_and_subtract_below() {
    let a = at(&[([0, 1], 1.0), ([1, 0], 2.0), ([1, 1], 4.0), ([2, 2], 3.0)]);
    let b = at(&[
        ([0, 1], 10.0),
        ([0, 2], 5.0),
        ([1, 0], 20.0),
        ([1, 1], 1.0),
        ([2, 0], 30.0),
    ]);
    let mut c = k::CSROut::<f64, Owned>::with_dims([3, 3]).unwrap();
    with_tensor(&CSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| k::triangles(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        layout(&c.view()),
        csr(
            &[0, 2, 4, 6],
            &[1, 2, 0, 1, 0, 2],
            vec![11.0, 5.0, -18.0, 5.0, -30.0, 3.0]
        )
    );
}

#[test]
fn set_difference_keeps_entries_of_a_only() {
    let a = at(&[([0, 0], 1.0), ([0, 3], 2.0), ([1, 1], 3.0), ([2, 2], 4.0)]);
    // b's explicit zero at (2, 2) is stored: it removes a's entry there.
    let b: Vec<(Vec<usize>, i32)> = vec![(vec![0, 3], 7), (vec![1, 0], 1), (vec![2, 2], 0)];
    let mut c = k::CSROut::<f64, Owned>::with_dims([3, 4]).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::difference(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        layout(&c.view()),
        csr(&[0, 1, 2, 2], &[0, 1], vec![1.0, 3.0])
    );
}

#[test]
fn unary_examples() {
    let a = at(&[([1], 2.0), ([3], 0.0), ([4], -1.0)]);
    let mut c = k::SparseVectorOut::<f64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::plus_one(ta, &mut c)).unwrap();
    // The computed zero (-1 + 1) is stored.
    assert_eq!(
        layout(&c.view()),
        sv(&[0, 3], &[1, 3, 4], vec![3.0, 1.0, 0.0])
    );
    let mut c = k::SparseVectorOut::<i32, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::plus_minus(ta, &mut c)).unwrap();
    assert_eq!(
        layout(&c.view()),
        sv(&[0, 6], &[0, 1, 2, 3, 4, 5], vec![-1, 1, -1, 1, 1, -1])
    );
    let mut c = k::SparseVectorOut::<i64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::invert(ta, &mut c)).unwrap();
    assert_eq!(layout(&c.view()), sv(&[0, 3], &[0, 2, 5], vec![1, 1, 1]));
}

#[test]
fn select_examples() {
    let t = at(&[([0], 4.0), ([1], 3.75), ([2], 10.0), ([4], -5.0)]);
    let mut c = k::SparseVectorOut::<f64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &t, |ta| k::threshold(ta, &mut c)).unwrap();
    assert_eq!(layout(&c.view()), sv(&[0, 2], &[0, 2], vec![4.0, 10.0]));
    let a = at(&[
        ([0, 0], 1.0),
        ([0, 3], 9.0),
        ([1, 0], 2.0),
        ([1, 1], 8.0),
        ([2, 1], 4.0),
        ([3, 0], 0.0),
        ([3, 2], 5.0),
    ]);
    let mut c = k::CSROut::<f64, Owned>::with_dims([4, 4]).unwrap();
    with_tensor(&CSR, [4, 4], &a, |ta| k::lower(ta, &mut c)).unwrap();
    assert_eq!(
        layout(&c.view()),
        csr(&[0, 0, 1, 2, 4], &[0, 1, 0, 2], vec![2.0, 4.0, 0.0, 5.0])
    );
}

/// Seed 000's capped row product on a 7x3 matrix (`tests/oracle/reduce.py`
/// prints the same layout and values).
fn capped_rows() -> Vec<(Vec<usize>, f64)> {
    at(&[
        // 2 * 3 * 4 = 24.
        ([0, 0], 2.0),
        ([0, 1], 3.0),
        ([0, 2], 4.0),
        // One stored value: 5 (the implicit zeros are not folded).
        ([1, 0], 5.0),
        // Row 2 empty: nothing stored; the identity 1 in a dense output.
        // 10, 200 -> 100, 50.
        ([3, 0], 10.0),
        ([3, 1], 20.0),
        ([3, 2], 0.5),
        // -10, 200 -> 100, 200 -> 100: the cap applies after every step.
        ([4, 0], -10.0),
        ([4, 1], -20.0),
        ([4, 2], 2.0),
        // -200: only values above 100 are capped.
        ([5, 0], -200.0),
        ([5, 1], 1.0),
        ([5, 2], 1.0),
        // An explicit zero is present: 0.
        ([6, 1], 0.0),
    ])
}

#[test]
fn capped_product_folds_stored_values_only() {
    let a = capped_rows();
    let mut x = k::SparseVectorOut::<f64, Owned>::with_dims([7]).unwrap();
    with_tensor(&DCSR, [7, 3], &a, |ta| k::capped_product(ta, &mut x)).unwrap();
    assert_eq!(
        layout(&x.view()),
        sv(
            &[0, 6],
            &[0, 1, 3, 4, 5, 6],
            vec![24.0, 5.0, 50.0, 100.0, -200.0, 0.0]
        )
    );
    let mut y = [777.0; 7];
    with_tensor(&DCSR, [7, 3], &a, |ta| k::capped_product_dense(ta, &mut y)).unwrap();
    assert_eq!(y, [24.0, 5.0, 1.0, 50.0, 100.0, -200.0, 0.0]);
}

#[test]
fn capped_product_with_the_zeros_made_present() {
    // The implicit zeros folded, as `unary(.., absent = || 0.0)` asks:
    // every row stored, 0 wherever a zero was implicit.
    let a = capped_rows();
    let mut x = k::SparseVectorOut::<f64, Owned>::with_dims([7]).unwrap();
    with_tensor(&DCSR, [7, 3], &a, |ta| {
        k::capped_product_with_zeros(ta, &mut x)
    })
    .unwrap();
    assert_eq!(
        layout(&x.view()),
        sv(
            &[0, 7],
            &[0, 1, 2, 3, 4, 5, 6],
            vec![24.0, 0.0, 0.0, 50.0, 100.0, -200.0, 0.0]
        )
    );
}

#[test]
fn capped_product_of_rows_without_columns() {
    // Nothing is present: no entry stored, the identity in a dense output.
    let mut x = k::SparseVectorOut::<f64, Owned>::with_dims([3]).unwrap();
    with_tensor(&DCSR, [3, 0], &Vec::new(), |ta| {
        k::capped_product(ta, &mut x)
    })
    .unwrap();
    assert_eq!(layout(&x.view()), sv(&[0, 0], &[], vec![]));
    let mut y = [7.0; 3];
    with_tensor(&DCSR, [3, 0], &Vec::new(), |ta| {
        k::capped_product_dense(ta, &mut y)
    })
    .unwrap();
    assert_eq!(y, [1.0; 3]);
}

// ---- row products

#[test]
fn row_products_of_the_issue() {
    // Rows {1, 2} and {3}: [2, 3] (the implicit zeros would give [0, 0]).
    let a = at(&[([0, 0], 1.0), ([0, 2], 2.0), ([1, 1], 3.0)]);
    let mut y = [7.0; 2];
    with_tensor(&CSR, [2, 3], &a, |ta| k::row_products(ta, &mut y)).unwrap();
    assert_eq!(y, [2.0, 3.0]);
}

#[test]
fn row_products_with_an_empty_row_and_an_explicit_zero() {
    //   | 2 3 . |
    //   | . . . |
    //   | . 5 . |
    //   | . 0 . |
    let a = at(&[([0, 0], 2.0), ([0, 1], 3.0), ([2, 1], 5.0), ([3, 1], 0.0)]);
    let mut y = [777.0; 4];
    with_tensor(&CSR, [4, 3], &a, |ta| k::row_products(ta, &mut y)).unwrap();
    assert_eq!(y, [6.0, 1.0, 5.0, 0.0]);
    let mut x = k::SparseVectorOut::<f64, Owned>::with_dims([4]).unwrap();
    with_tensor(&CSR, [4, 3], &a, |ta| k::row_products_sv(ta, &mut x)).unwrap();
    assert_eq!(
        layout(&x.view()),
        sv(&[0, 3], &[0, 2, 3], vec![6.0, 5.0, 0.0])
    );
}

#[test]
fn row_products_of_a_csc_matrix() {
    //   | 2  .  .  3 |
    //   | .  .  .  . |
    //   | . -1 0.5 . |
    //   | .  0  .  . |
    let a = at(&[
        ([0, 0], 2.0),
        ([0, 3], 3.0),
        ([2, 1], -1.0),
        ([2, 2], 0.5),
        ([3, 1], 0.0),
    ]);
    let mut y = [777.0; 4];
    with_tensor(&CSC, [4, 4], &a, |ta| k::row_products_csc(ta, &mut y)).unwrap();
    assert_eq!(y, [6.0, 1.0, -0.5, 0.0]);
    let mut x = k::SparseVectorOut::<f64, Owned>::with_dims([4]).unwrap();
    with_tensor(&CSC, [4, 4], &a, |ta| k::row_products_csc_sv(ta, &mut x)).unwrap();
    assert_eq!(
        layout(&x.view()),
        sv(&[0, 3], &[0, 2, 3], vec![6.0, -0.5, 0.0])
    );
}

// ---- min-plus

#[test]
fn min_plus_by_hand() {
    // a:            b:
    //   | 1 . 4 |     | . 3 . |
    //   | . 2 . |     | 5 . 0 |   (b[1, 2] an explicit zero)
    //   | . . . |     | . 1 2 |
    // c[0, 1] = min(1 + 3, 4 + 1) = 4, c[0, 2] = 4 + 2 = 6,
    // c[1, 0] = 2 + 5 = 7, c[1, 2] = 2 + 0 = 2; nothing else has a k.
    let a = at(&[([0, 0], 1.0), ([0, 2], 4.0), ([1, 1], 2.0)]);
    let b = at(&[
        ([0, 1], 3.0),
        ([1, 0], 5.0),
        ([1, 2], 0.0),
        ([2, 1], 1.0),
        ([2, 2], 2.0),
    ]);
    let mut c = k::CSROut::<f64, Owned>::with_dims([3, 3]).unwrap();
    with_tensor(&CSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| k::min_plus(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        layout(&c.view()),
        csr(&[0, 2, 4, 4], &[1, 2, 0, 2], vec![4.0, 6.0, 7.0, 2.0])
    );
    let inf = f64::INFINITY;
    let mut d = [777.0; 9];
    with_tensor(&CSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| {
            k::min_plus_dense(ta, tb, DenseViewMut::new(&mut d, [3, 3]).unwrap())
        })
    })
    .unwrap();
    assert_eq!(d, [inf, 4.0, 6.0, 7.0, inf, 2.0, inf, inf, inf]);
}

#[test]
fn min_plus_rectangular() {
    // a (2x4): row 0 {1: -1, 3: 2}, row 1 {0: 0};
    // b (4x3): row 0 {2: 7}, row 1 {0: 1, 2: 4}, row 2 {}, row 3 {0: -5, 1: 3}.
    // c[0, 0] = min(-1 + 1, 2 - 5) = -3, c[0, 1] = 2 + 3 = 5,
    // c[0, 2] = -1 + 4 = 3, c[1, 2] = 0 + 7 = 7.
    let a = at(&[([0, 1], -1.0), ([0, 3], 2.0), ([1, 0], 0.0)]);
    let b = at(&[
        ([0, 2], 7.0),
        ([1, 0], 1.0),
        ([1, 2], 4.0),
        ([3, 0], -5.0),
        ([3, 1], 3.0),
    ]);
    let mut c = k::CSROut::<f64, Owned>::with_dims([2, 3]).unwrap();
    with_tensor(&CSR, [2, 4], &a, |ta| {
        with_tensor(&CSR, [4, 3], &b, |tb| k::min_plus(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        layout(&c.view()),
        csr(&[0, 3, 4], &[0, 1, 2, 2], vec![-3.0, 5.0, 3.0, 7.0])
    );
}

// ---- sum scope

#[test]
fn sum_scope_by_hand() {
    // w = ones(2, 3), x = 1, b = [10, 20]: [13, 23] ([33, 63] would add b
    // once per column).
    let ones: Vec<(Vec<usize>, f64)> = (0..6).map(|p| (vec![p / 3, p % 3], 1.0)).collect();
    let (x, b) = ([1.0; 3], [10.0, 20.0]);
    let mut y = [7.0; 2];
    with_tensor(&CSR, [2, 3], &ones, |t| k::bias(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [13.0, 23.0]);
    with_tensor(&CSR, [2, 3], &ones, |t| k::bias_zero(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [13.0, 23.0]);
    with_tensor(&CSC, [2, 3], &ones, |t| k::bias_first(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [13.0, 23.0]);
    let mut y = [1.0, -1.0];
    with_tensor(&CSR, [2, 3], &ones, |t| k::bias_add(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [14.0, 22.0]);

    // w = [[1, ., 2], [., ., .]], x = [1, 2, 3]: [1 + 6 + 10, 20] = [17, 20].
    let w = at(&[([0, 0], 1.0), ([0, 2], 2.0)]);
    let (x, b) = ([1.0, 2.0, 3.0], [10.0, 20.0]);
    let mut y = [7.0; 2];
    with_tensor(&CSR, [2, 3], &w, |t| k::bias(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [17.0, 20.0]);
    with_tensor(&CSC, [2, 3], &w, |t| k::bias_first(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [17.0, 20.0]);
}
