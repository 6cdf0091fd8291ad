//! End-to-end smoke tests of the semiring operations' lowering (issue 5),
//! one kernel per lattice shape, against hand-computed dense results: the
//! intersection `binary` with `none` sides, set difference (a `none`
//! overlap kept to exclude coordinates), structural inversion (a `none`
//! present region next to a universal `absent`), `select` with an index
//! predicate, and a custom `reduce` that folds implicit zeros.

use sparse_tests::fixture::{with_tensor, CSR, DCSR, SV};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        pub fn is_equal(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi8>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none);
        }
        pub fn difference(a: &tensor<?xf64, #SV>, b: &tensor<?xi32, #SV>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = none);
        }
        pub fn invert(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn lower(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }
        pub fn row_product(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| min(acc * v, 100.0));
        }
        pub fn row_max(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = f64::NEG_INFINITY, |acc, v| acc.max(v));
        }
    }
}

#[test]
fn binary_with_none_sides_is_an_intersection() {
    let a = vec![(vec![0], 1.0), (vec![2], 2.0), (vec![3], 5.0)];
    let b = vec![(vec![2], 2.0), (vec![3], 4.0), (vec![4], 1.0)];
    let mut c = [7i8; 5];
    with_tensor(&SV, [5], &a, |ta| {
        with_tensor(&SV, [5], &b, |tb| k::is_equal(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(c, [0, 0, 1, 0, 0]);
}

#[test]
fn set_difference_keeps_left_only_entries() {
    let a = vec![(vec![0], 1.0), (vec![2], 2.0), (vec![3], 5.0)];
    let b = vec![(vec![2], 9), (vec![4], 1)];
    let mut c = [7.0; 5];
    with_tensor(&SV, [5], &a, |ta| {
        with_tensor(&SV, [5], &b, |tb| k::difference(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(c, [1.0, 0.0, 0.0, 5.0, 0.0]);
}

#[test]
fn structural_inversion_fills_the_complement() {
    let a = vec![(vec![1], 1.0), (vec![3], 0.0)];
    let mut c = [7i64; 5];
    with_tensor(&SV, [5], &a, |ta| k::invert(ta, &mut c)).unwrap();
    assert_eq!(c, [1, 0, 1, 0, 1]);
}

#[test]
fn select_with_an_index_predicate_keeps_the_lower_triangle() {
    let a = vec![
        (vec![0, 0], 1.0),
        (vec![1, 0], 2.0),
        (vec![1, 2], 3.0),
        (vec![2, 1], 4.0),
    ];
    let mut c = vec![7.0; 9];
    with_tensor(&CSR, [3, 3], &a, |ta| {
        k::lower(ta, sparse_core::DenseViewMut::new(&mut c, [3, 3]).unwrap())
    })
    .unwrap();
    assert_eq!(c, [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 4.0, 0.0]);
}

#[test]
fn custom_reduce_folds_implicit_zeros() {
    // Row 0 full (product 24 -> 24), row 1 has a zero (-> 0), row 2 empty
    // (-> 0: three implicit zeros), row 3 full and large (capped at 100).
    let a = vec![
        (vec![0, 0], 2.0),
        (vec![0, 1], 3.0),
        (vec![0, 2], 4.0),
        (vec![1, 0], 5.0),
        (vec![3, 0], 10.0),
        (vec![3, 1], 20.0),
        (vec![3, 2], 0.5),
    ];
    let mut x = [7.0; 4];
    with_tensor(&DCSR, [4, 3], &a, |ta| k::row_product(ta, &mut x)).unwrap();
    assert_eq!(x, [24.0, 0.0, 0.0, 50.0]);
    let b = vec![
        (vec![0, 1], -2.0),
        (vec![1, 0], 3.0),
        (vec![1, 1], -1.0),
        (vec![1, 2], 1.0),
    ];
    let mut m = [7.0; 3];
    with_tensor(&CSR, [3, 3], &b, |tb| k::row_max(tb, &mut m)).unwrap();
    // Row 0 has implicit zeros, so its maximum is 0; row 2 is empty.
    assert_eq!(m, [0.0, 3.0, 0.0]);
}
