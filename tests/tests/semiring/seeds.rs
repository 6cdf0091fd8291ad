//! Seed 000's examples of `sparse_tensor.binary`, `unary`, `select` and
//! `reduce`, written with `sparse_kernel!`'s closures, against a reference
//! written here with plain loops over presence masks (`Masked`: each element
//! a value or none): which region runs where, and what a sparse output must
//! store (exactly the produced values, zeros included). Each example has a
//! hand-checked case from the seed's description, random inputs, and a
//! dense-output variant (no value is 0, the output pre-filled with garbage).
//! Sparse outputs run on every buffer family and are called twice (the
//! second result replaces the first).

use proptest::prelude::*;
use sparse_core::{DenseViewMut, Encoding, SparseTensor};
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, CSR, DCSR, SV};
use sparse_tests::gen::{dims, entries, Elem, Entries};
use sparse_tests::semiring::Masked;
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SparseVector = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #SparseMatrix = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        // isEqual applied to intersecting elements only.
        pub fn is_equal(a: &tensor<?xf64, #SparseVector>, b: &tensor<?xf64, #SparseVector>,
                        c: &mut tensor<?xi8, #SparseVector>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none);
        }
        pub fn is_equal_dense(a: &tensor<?xf64, #SparseVector>, b: &tensor<?xf64, #SparseVector>,
                              c: &mut tensor<?xi8>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none);
        }

        // A + B in the upper triangle, A - B in the lower.
        pub fn triangles(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| if j >= i { x + y } else { x - y },
                left = identity,
                right = |y| if j >= i { y } else { -y });
        }
        pub fn triangles_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| if j >= i { x + y } else { x - y },
                left = identity,
                right = |y| if j >= i { y } else { -y });
        }

        // Set difference with a B of another element type.
        pub fn difference(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xi32, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }
        pub fn difference_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xi32, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }

        // A + 1 restricted to the stored elements.
        pub fn plus_one(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64, #SparseVector>) {
            c[i] = unary(a[i], present = |x| x + 1.0, absent = none);
        }
        pub fn plus_one_dense(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = |x| x + 1.0, absent = none);
        }

        // +1 for stored values, -1 for missing ones.
        pub fn plus_minus(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi32, #SparseVector>) {
            c[i] = unary(a[i], present = |_| 1, absent = || -1);
        }
        pub fn plus_minus_dense(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi32>) {
            c[i] = unary(a[i], present = |_| 1, absent = || -1);
        }

        // Structural inversion.
        pub fn invert(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi64, #SparseVector>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn invert_dense(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xi64>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }

        // select A >= 4.0.
        pub fn threshold(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64, #SparseVector>) {
            c[i] = select(a[i], |v| v >= 4.0);
        }
        pub fn threshold_dense(a: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64>) {
            c[i] = select(a[i], |v| v >= 4.0);
        }

        // The lower triangle of a matrix.
        pub fn lower(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }
        pub fn lower_dense(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }

        // Matrix -> vector: the product of each row, capped at 100 after
        // every step (the seed's `select(cmpf ogt(p, 100), 100, p)`).
        pub fn capped_product(a: &tensor<?x?xf64, #SparseMatrix>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| if acc * v > 100.0 { 100.0 } else { acc * v });
        }
        pub fn capped_product_dense(a: &tensor<?x?xf64, #SparseMatrix>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| min(acc * v, 100.0));
        }
        pub fn capped_product_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| if acc * v > 100.0 { 100.0 } else { acc * v });
        }
    }
}

// ---- the references: plain loops over presence masks

fn is_equal(a: &Masked<f64>, b: &Masked<f64>) -> Masked<i8> {
    let mut c = Masked::empty(&a.dims);
    for i in 0..a.dims[0] {
        if let (Some(x), Some(y)) = (a.data[i], b.data[i]) {
            c.data[i] = Some(i8::from(x == y));
        }
    }
    c
}

fn triangles(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    let (m, n) = (a.dims[0], a.dims[1]);
    let mut c = Masked::empty(&a.dims);
    for i in 0..m {
        for j in 0..n {
            let upper = j >= i;
            c.data[i * n + j] = match (a.data[i * n + j], b.data[i * n + j]) {
                (Some(x), Some(y)) => Some(if upper { x + y } else { x - y }),
                (Some(x), None) => Some(x),
                (None, Some(y)) => Some(if upper { y } else { -y }),
                (None, None) => None,
            };
        }
    }
    c
}

fn difference(a: &Masked<f64>, b: &Masked<i32>) -> Masked<f64> {
    let mut c = Masked::empty(&a.dims);
    for p in 0..a.data.len() {
        if b.data[p].is_none() {
            c.data[p] = a.data[p];
        }
    }
    c
}

fn plus_one(a: &Masked<f64>) -> Masked<f64> {
    Masked {
        dims: a.dims.clone(),
        data: a.data.iter().map(|v| v.map(|x| x + 1.0)).collect(),
    }
}

fn plus_minus(a: &Masked<f64>) -> Masked<i32> {
    Masked {
        dims: a.dims.clone(),
        data: a
            .data
            .iter()
            .map(|v| Some(if v.is_some() { 1 } else { -1 }))
            .collect(),
    }
}

fn invert(a: &Masked<f64>) -> Masked<i64> {
    Masked {
        dims: a.dims.clone(),
        data: a
            .data
            .iter()
            .map(|v| if v.is_some() { None } else { Some(1) })
            .collect(),
    }
}

fn threshold(a: &Masked<f64>) -> Masked<f64> {
    Masked {
        dims: a.dims.clone(),
        data: a.data.iter().map(|v| v.filter(|&x| x >= 4.0)).collect(),
    }
}

fn lower(a: &Masked<f64>) -> Masked<f64> {
    let (m, n) = (a.dims[0], a.dims[1]);
    let mut c = Masked::empty(&a.dims);
    for i in 0..m {
        for j in 0..i.min(n) {
            c.data[i * n + j] = a.data[i * n + j];
        }
    }
    c
}

/// Every row folded over its stored values (MLIR's `sparse_tensor.reduce`
/// "reduces all stored values"), capped; no value for a row with none (a
/// sparse output stores nothing there).
fn capped_product(a: &Masked<f64>) -> Masked<f64> {
    let (m, n) = (a.dims[0], a.dims[1]);
    let mut x = Masked::empty(&[m]);
    for i in 0..m {
        let mut acc = None;
        for j in 0..n {
            if let Some(v) = a.data[i * n + j] {
                let p = acc.unwrap_or(1.0) * v;
                acc = Some(if p > 100.0 { 100.0 } else { p });
            }
        }
        x.data[i] = acc;
    }
    x
}

/// [`capped_product`] into a dense output: the identity 1 for a row with
/// no stored value.
fn capped_product_dense(a: &Masked<f64>) -> Masked<f64> {
    capped_product(a).map(|_, v| Some(v.unwrap_or(1.0)))
}

// ---- running the kernels

/// A sparse output against the reference: stored set and dense values.
fn check<V: Elem, E: Encoding, const D: usize, const L: usize>(
    got: &SparseTensor<'_, V, E, D, L>,
    want: &Masked<V>,
    what: String,
) -> Result<(), TestCaseError> {
    check_output(got, &want.stored(), &want.dense())
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))
}

/// A dense output (pre-filled with garbage) against the reference.
fn check_dense<V: Elem>(got: &[V], want: &Masked<V>, what: String) -> Result<(), TestCaseError> {
    if got != want.dense().data.as_slice() {
        return Err(TestCaseError::fail(format!(
            "{what}: got {got:?}, want {:?}",
            want.dense().data
        )));
    }
    Ok(())
}

type Pair = (Entries<f64>, Entries<f64>);

/// `is_equal` on `(a, b)` after a first call on `(b, a)`, sparse and dense.
fn run_is_equal(n: usize, (a, b): &Pair) -> Result<(), TestCaseError> {
    let (ma, mb) = (Masked::from_entries(&[n], a), Masked::from_entries(&[n], b));
    each_family!([n], |c| {
        for (x, y, mx, my) in [(b, a, &mb, &ma), (a, b, &ma, &mb)] {
            let r = with_tensor(&SV, [n], x, |tx| {
                with_tensor(&SV, [n], y, |ty| k::is_equal(tx, ty, &mut c))
            });
            prop_assert_eq!(r, Ok(()));
            check(
                &c.view(),
                &is_equal(mx, my),
                format!("is_equal {x:?} {y:?}"),
            )?;
        }
    });
    let mut c = vec![i8::GARBAGE; n];
    let r = with_tensor(&SV, [n], a, |ta| {
        with_tensor(&SV, [n], b, |tb| k::is_equal_dense(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_dense(
        &c,
        &is_equal(&ma, &mb),
        format!("is_equal_dense {a:?} {b:?}"),
    )
}

fn run_triangles(d: [usize; 2], (a, b): &Pair) -> Result<(), TestCaseError> {
    let (ma, mb) = (Masked::from_entries(&d, a), Masked::from_entries(&d, b));
    each_family!(d, |c| {
        for (x, y, mx, my) in [(b, a, &mb, &ma), (a, b, &ma, &mb)] {
            let r = with_tensor(&CSR, d, x, |tx| {
                with_tensor(&CSR, d, y, |ty| k::triangles(tx, ty, &mut c))
            });
            prop_assert_eq!(r, Ok(()));
            check(
                &c.view(),
                &triangles(mx, my),
                format!("triangles {d:?} {x:?} {y:?}"),
            )?;
        }
    });
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSR, d, a, |ta| {
        with_tensor(&CSR, d, b, |tb| {
            k::triangles_dense(ta, tb, DenseViewMut::new(&mut c, d).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    check_dense(
        &c,
        &triangles(&ma, &mb),
        format!("triangles_dense {d:?} {a:?} {b:?}"),
    )
}

fn run_difference(d: [usize; 2], a: &Entries<f64>, b: &Entries<i32>) -> Result<(), TestCaseError> {
    let (ma, mb) = (Masked::from_entries(&d, a), Masked::from_entries(&d, b));
    let none = Vec::new();
    let mnone = Masked::empty(&d);
    each_family!(d, |c| {
        // First everything of `a` (nothing subtracted), then `a \ b`.
        for (y, my) in [(&none, &mnone), (b, &mb)] {
            let r = with_tensor(&CSR, d, a, |ta| {
                with_tensor(&CSR, d, y, |ty| k::difference(ta, ty, &mut c))
            });
            prop_assert_eq!(r, Ok(()));
            check(
                &c.view(),
                &difference(&ma, my),
                format!("difference {d:?} {a:?} {y:?}"),
            )?;
        }
    });
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSR, d, a, |ta| {
        with_tensor(&CSR, d, b, |tb| {
            k::difference_dense(ta, tb, DenseViewMut::new(&mut c, d).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    check_dense(
        &c,
        &difference(&ma, &mb),
        format!("difference_dense {d:?} {a:?} {b:?}"),
    )
}

/// The four one-operand vector examples on `a`, after a first call on
/// `prior`.
fn run_unary_vector(n: usize, (a, prior): &Pair) -> Result<(), TestCaseError> {
    macro_rules! sparse {
        ($kernel:path, $reference:ident) => {
            each_family!([n], |c| {
                for x in [prior, a] {
                    let r = with_tensor(&SV, [n], x, |tx| $kernel(tx, &mut c));
                    prop_assert_eq!(r, Ok(()));
                    let want = $reference(&Masked::from_entries(&[n], x));
                    check(&c.view(), &want, format!("{} {x:?}", stringify!($kernel)))?;
                }
            });
        };
    }
    macro_rules! dense {
        ($kernel:path, $reference:ident) => {{
            let mut c = vec![Elem::GARBAGE; n];
            let r = with_tensor(&SV, [n], a, |ta| $kernel(ta, &mut c));
            prop_assert_eq!(r, Ok(()));
            let want = $reference(&Masked::from_entries(&[n], a));
            check_dense(&c, &want, format!("{} {a:?}", stringify!($kernel)))?;
        }};
    }
    sparse!(k::plus_one, plus_one);
    sparse!(k::plus_minus, plus_minus);
    sparse!(k::invert, invert);
    sparse!(k::threshold, threshold);
    dense!(k::plus_one_dense, plus_one);
    dense!(k::plus_minus_dense, plus_minus);
    dense!(k::invert_dense, invert);
    dense!(k::threshold_dense, threshold);
    Ok(())
}

fn run_matrix_one_operand(d: [usize; 2], (a, prior): &Pair) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    each_family!(d, |c| {
        for x in [prior, a] {
            let r = with_tensor(&CSR, d, x, |tx| k::lower(tx, &mut c));
            prop_assert_eq!(r, Ok(()));
            let want = lower(&Masked::from_entries(&d, x));
            check(&c.view(), &want, format!("lower {d:?} {x:?}"))?;
        }
    });
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSR, d, a, |ta| {
        k::lower_dense(ta, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    check_dense(&c, &lower(&ma), format!("lower_dense {d:?} {a:?}"))?;

    each_family!([d[0]], |x| {
        for y in [prior, a] {
            let r = with_tensor(&DCSR, d, y, |ty| k::capped_product(ty, &mut x));
            prop_assert_eq!(r, Ok(()));
            let want = capped_product(&Masked::from_entries(&d, y));
            check(&x.view(), &want, format!("capped_product {d:?} {y:?}"))?;
        }
    });
    let want = capped_product_dense(&ma);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&DCSR, d, a, |ta| k::capped_product_dense(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_dense(&x, &want, format!("capped_product_dense {d:?} {a:?}"))?;
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| k::capped_product_csr(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_dense(&x, &want, format!("capped_product_csr {d:?} {a:?}"))
}

// ---- hand-checked cases from the seed's descriptions

fn at<V: Elem, const R: usize>(entries: &[([usize; R], V)]) -> Entries<V> {
    entries.iter().map(|&(c, v)| (c.to_vec(), v)).collect()
}

fn entries_of<V: Elem, E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, V, E, D, L>,
) -> Vec<([usize; D], V)> {
    let mut got = Vec::new();
    t.for_each(|c, v| got.push((c, *v)));
    got
}

#[test]
fn is_equal_only_on_the_overlap() {
    let a = at(&[([0], 1.0), ([2], 2.0), ([3], 5.0), ([5], 0.0)]);
    let b = at(&[([2], 2.0), ([3], 4.0), ([4], 1.0), ([5], 0.0)]);
    let mut c = k::SparseVectorOut::<i8, sparse_core::output::Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| {
        with_tensor(&SV, [6], &b, |tb| k::is_equal(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(entries_of(&c.view()), vec![([2], 1), ([3], 0), ([5], 1)]);
    run_is_equal(6, &(a, b)).unwrap();
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
    let mut c = k::CSROut::<f64, sparse_core::output::Owned>::with_dims([3, 3]).unwrap();
    with_tensor(&CSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| k::triangles(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(
        entries_of(&c.view()),
        vec![
            ([0, 1], 11.0),
            ([0, 2], 5.0),
            ([1, 0], -18.0),
            ([1, 1], 5.0),
            ([2, 0], -30.0),
            ([2, 2], 3.0)
        ]
    );
    run_triangles([3, 3], &(a, b)).unwrap();
}

#[test]
fn set_difference_ignores_the_values_of_b() {
    let a = at(&[([0, 0], 1.0), ([0, 3], 2.0), ([1, 1], 3.0), ([2, 2], 4.0)]);
    // B's explicit zero at (2, 2) is stored: it removes A's entry there.
    let b = at(&[([0, 3], 7), ([1, 0], 1), ([2, 2], 0)]);
    let mut c = k::CSROut::<f64, sparse_core::output::Owned>::with_dims([3, 4]).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::difference(ta, tb, &mut c))
    })
    .unwrap();
    assert_eq!(entries_of(&c.view()), vec![([0, 0], 1.0), ([1, 1], 3.0)]);
    run_difference([3, 4], &a, &b).unwrap();
}

#[test]
fn unary_examples_by_hand() {
    type Owned = sparse_core::output::Owned;
    let a = at(&[([1], 2.0), ([3], 0.0), ([4], -1.0)]);
    let mut c = k::SparseVectorOut::<f64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::plus_one(ta, &mut c)).unwrap();
    // A computed zero (-1 + 1) is stored.
    assert_eq!(
        entries_of(&c.view()),
        vec![([1], 3.0), ([3], 1.0), ([4], 0.0)]
    );
    let mut c = k::SparseVectorOut::<i32, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::plus_minus(ta, &mut c)).unwrap();
    assert_eq!(
        entries_of(&c.view()),
        vec![
            ([0], -1),
            ([1], 1),
            ([2], -1),
            ([3], 1),
            ([4], 1),
            ([5], -1)
        ]
    );
    let mut c = k::SparseVectorOut::<i64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &a, |ta| k::invert(ta, &mut c)).unwrap();
    assert_eq!(entries_of(&c.view()), vec![([0], 1), ([2], 1), ([5], 1)]);
    let t = at(&[([0], 4.0), ([1], 3.75), ([2], 10.0), ([4], -5.0)]);
    let mut c = k::SparseVectorOut::<f64, Owned>::with_dims([6]).unwrap();
    with_tensor(&SV, [6], &t, |ta| k::threshold(ta, &mut c)).unwrap();
    assert_eq!(entries_of(&c.view()), vec![([0], 4.0), ([2], 10.0)]);
    run_unary_vector(6, &(a, t)).unwrap();
}

#[test]
fn lower_triangle_by_hand() {
    let a = at(&[
        ([0, 0], 1.0),
        ([0, 3], 9.0),
        ([1, 0], 2.0),
        ([1, 1], 8.0),
        ([2, 1], 4.0),
        ([3, 0], 0.0),
        ([3, 2], 5.0),
    ]);
    let mut c = k::CSROut::<f64, sparse_core::output::Owned>::with_dims([4, 4]).unwrap();
    with_tensor(&CSR, [4, 4], &a, |ta| k::lower(ta, &mut c)).unwrap();
    assert_eq!(
        entries_of(&c.view()),
        vec![([1, 0], 2.0), ([2, 1], 4.0), ([3, 0], 0.0), ([3, 2], 5.0)]
    );
    run_matrix_one_operand([4, 4], &(a, Vec::new())).unwrap();
}

#[test]
fn capped_product_by_hand() {
    let a = at(&[
        // 2 * 3 * 4 = 24.
        ([0, 0], 2.0),
        ([0, 1], 3.0),
        ([0, 2], 4.0),
        // One stored value: 5 (implicit zeros are not folded).
        ([1, 0], 5.0),
        // Row 2 empty: nothing stored.
        // 10, 200 -> 100, 50.
        ([3, 0], 10.0),
        ([3, 1], 20.0),
        ([3, 2], 0.5),
        // -10, 200 -> 100, 200 -> 100: the cap applies after every step.
        ([4, 0], -10.0),
        ([4, 1], -20.0),
        ([4, 2], 2.0),
        // -200, -200, -200: only values above 100 are capped.
        ([5, 0], -200.0),
        ([5, 1], 1.0),
        ([5, 2], 1.0),
    ]);
    let mut x = k::SparseVectorOut::<f64, sparse_core::output::Owned>::with_dims([6]).unwrap();
    with_tensor(&DCSR, [6, 3], &a, |ta| k::capped_product(ta, &mut x)).unwrap();
    // Every row with a stored value is stored; the empty one is not.
    assert_eq!(
        entries_of(&x.view()),
        vec![
            ([0], 24.0),
            ([1], 5.0),
            ([3], 50.0),
            ([4], 100.0),
            ([5], -200.0)
        ]
    );
    let mut y = [7.0; 6];
    with_tensor(&DCSR, [6, 3], &a, |ta| k::capped_product_dense(ta, &mut y)).unwrap();
    assert_eq!(y, [24.0, 5.0, 1.0, 50.0, 100.0, -200.0]);
    run_matrix_one_operand([6, 3], &(a, Vec::new())).unwrap();
}

#[test]
fn capped_product_of_rows_without_columns_is_the_identity() {
    // Nothing is present: a sparse output stores nothing, a dense one holds
    // the identity.
    let mut x = k::SparseVectorOut::<f64, sparse_core::output::Owned>::with_dims([3]).unwrap();
    with_tensor(&DCSR, [3, 0], &Vec::new(), |ta| {
        k::capped_product(ta, &mut x)
    })
    .unwrap();
    assert_eq!(entries_of(&x.view()), vec![]);
    let mut y = [7.0; 3];
    with_tensor(&CSR, [3, 0], &Vec::new(), |ta| {
        k::capped_product_csr(ta, &mut y)
    })
    .unwrap();
    assert_eq!(y, [1.0; 3]);
}

// ---- random inputs

/// Values in {0, 1, 2}, so that `x == y` holds often.
fn coarse(e: Entries<f64>) -> Entries<f64> {
    e.into_iter()
        .map(|(c, v)| (c, (v * 4.0).rem_euclid(3.0)))
        .collect()
}

fn two<const R: usize>(max: usize) -> impl Strategy<Value = ([usize; R], Pair)> {
    dims::<R>(max).prop_flat_map(|d| (Just(d), (entries(&d), entries(&d))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn is_equal_random(([n], (a, b)) in two::<1>(10)) {
        run_is_equal(n, &(coarse(a), coarse(b)))?;
    }

    #[test]
    fn triangles_random((d, ab) in two::<2>(6)) {
        run_triangles(d, &ab)?;
    }

    #[test]
    fn difference_random((d, a, b) in dims::<2>(6).prop_flat_map(|d| {
        (Just(d), entries::<f64>(&d), entries::<i32>(&d))
    })) {
        run_difference(d, &a, &b)?;
    }

    #[test]
    fn unary_and_threshold_random(([n], pair) in two::<1>(10)) {
        run_unary_vector(n, &pair)?;
    }

    #[test]
    fn lower_and_capped_product_random((d, pair) in two::<2>(6)) {
        run_matrix_one_operand(d, &pair)?;
    }
}
