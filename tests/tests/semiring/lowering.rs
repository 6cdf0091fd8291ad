//! End-to-end smoke tests of the semiring operations' lowering (issue 5),
//! one kernel per lattice shape, against hand-computed dense results: the
//! intersection `binary` with `none` sides, set difference (a `none`
//! overlap kept to exclude coordinates), structural inversion (a `none`
//! present region next to a universal `absent`), `select` with an index
//! predicate, and a custom `reduce` that folds the stored values only (the
//! identity where a row has none).

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
        pub fn triangles(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| if j >= i { x + y } else { x - y },
                left = identity,
                right = |y| if j >= i { y } else { -y });
        }
        pub fn invert_sparse(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64, #SV>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn product_sparse(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
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
fn custom_reduce_folds_stored_values_only() {
    // Row 0 full (product 24 -> 24), row 1 one stored value (-> 5), row 2
    // empty (-> the identity 1), row 3 full and large (capped at 100).
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
    assert_eq!(x, [24.0, 5.0, 1.0, 50.0]);
    let b = vec![
        (vec![0, 1], -2.0),
        (vec![1, 0], 3.0),
        (vec![1, 1], -1.0),
        (vec![1, 2], 1.0),
    ];
    let mut m = [7.0; 3];
    with_tensor(&CSR, [3, 3], &b, |tb| k::row_max(tb, &mut m)).unwrap();
    // Row 0's maximum is its one stored value; row 2 is empty: the
    // identity.
    assert_eq!(m, [-2.0, 3.0, f64::NEG_INFINITY]);
}

type Out<V, E, const D: usize, const L: usize> =
    sparse_core::SparseTensorOut<V, E, sparse_core::output::Owned, D, L>;

/// The stored entries of an output, in dimension coordinates.
fn stored<V: Copy, E: sparse_core::Encoding, const D: usize, const L: usize>(
    c: &Out<V, E, D, L>,
) -> Vec<([usize; D], V)> {
    let mut out = Vec::new();
    c.view().for_each(|crd, v| out.push((crd, *v)));
    out
}

#[test]
fn binary_regions_into_a_sparse_output_store_exactly_the_produced_entries() {
    let a = vec![(vec![0, 1], 1.0), (vec![1, 0], 2.0), (vec![2, 2], 3.0)];
    let b = vec![(vec![0, 1], 10.0), (vec![1, 0], 20.0), (vec![2, 0], 30.0)];
    let mut c = k::CSROut::<f64, sparse_core::output::Owned>::with_dims([3, 3]).unwrap();
    with_tensor(&CSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| k::triangles(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        stored(&c),
        vec![
            ([0, 1], 11.0),
            ([1, 0], -18.0),
            ([2, 0], -30.0),
            ([2, 2], 3.0)
        ]
    );
}

#[test]
fn structural_inversion_into_a_sparse_output_stores_the_complement() {
    let a = vec![(vec![1], 1.0), (vec![3], 0.0)];
    let mut c = k::SVOut::<i64, sparse_core::output::Owned>::with_dims([5]).unwrap();
    with_tensor(&SV, [5], &a, |ta| k::invert_sparse(ta, &mut c)).unwrap();
    assert_eq!(stored(&c), vec![([0], 1), ([2], 1), ([4], 1)]);
}

#[test]
fn custom_reduce_into_a_sparse_output_stores_the_rows_with_values() {
    let a = vec![(vec![0, 0], 2.0), (vec![0, 1], 3.0), (vec![2, 1], 5.0)];
    let mut x = k::SVOut::<f64, sparse_core::output::Owned>::with_dims([3]).unwrap();
    with_tensor(&DCSR, [3, 2], &a, |ta| k::product_sparse(ta, &mut x)).unwrap();
    assert_eq!(stored(&x), vec![([0], 6.0), ([2], 5.0)]);
}
