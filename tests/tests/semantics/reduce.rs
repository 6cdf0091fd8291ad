//! Custom `reduce` (issue 10, items 2 and 3), as MLIR's
//! `sparse_tensor.reduce`: the combiner folds the *present* values only
//! (stored entries, explicit zeros included; duplicates of nonunique
//! storage summed first, one value per coordinate; values a
//! `binary`/`unary`/`select` region produced), from the identity, in
//! increasing order of the folded index. Where nothing is present a dense
//! output holds the identity and a sparse output stores nothing (checked
//! against the MLIR sparsifier: `tests/oracle/reduce.py`). Implicit zeros
//! are folded only when made present: `unary(.., absent = || 0.0)`.
//!
//! Item 3: reductions into sparse outputs whose reduction loop encloses an
//! output loop: min-plus `reduce(binary(a[i, k], b[k, j], ..))` with CSR
//! operands into a CSR output (stored exactly where some `k` has both), row
//! products of a CSC matrix and column products of a CSR matrix into
//! sparse vectors.
//!
//! The references are plain loops over presence masks
//! (`sparse_tests::semiring`), written independently of the sparsifier.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::{DenseView, DenseViewMut, KernelError};
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR};
use sparse_tests::gen::{dense_vec, dims, elem, entries, entries_with_duplicates, Elem, Entries};
use sparse_tests::semiring::{
    binary, fold_columns, fold_rows, reduce_columns, reduce_rows, select, unary, zeros_present,
    Masked,
};
use sparse_tests::sparse_out::check_output;

use super::common::{same, sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        // Products of rows into dense vectors, every operand format.
        pub fn product_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_csc(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_coo(a: &tensor<?x?xf64, #COO>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_dense(a: &tensor<?x?xf64>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        // Order-sensitive: shows a value folded twice, skipped or out of order.
        pub fn horner_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_csc(a: &tensor<?x?xf64, #CSC>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_coo_nu(a: &tensor<?x?xf64, #COO_NU>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_columns_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64>) {
            x[j] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_all_dcsr(a: &tensor<?x?xf64, #DCSR>, s: f64, x: &mut tensor<f64>) {
            x[] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_csf(a: &tensor<?x?x?xf64, #CSF>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j, k], identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn max_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = f64::NEG_INFINITY, |acc, v| max(acc, v));
        }
        pub fn min_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn min_i64(a: &tensor<?x?xi64, #DCSR>, x: &mut tensor<?xi64>) {
            x[i] = reduce(a[i, j], identity = i64::MAX, |acc, v| min(acc, v));
        }

        // Into sparse vectors: a row with nothing present is not stored.
        pub fn product_csr_sv(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_dcsr_sv(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn horner_coo_nu_sv(a: &tensor<?x?xf64, #COO_NU>, s: f64, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn max_csr_sv(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = f64::NEG_INFINITY, |acc, v| max(acc, v));
        }
        pub fn product_i64_sv(a: &tensor<?x?xi64, #CSR>, x: &mut tensor<?xi64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1, |acc, v| acc * v);
        }
        // Item 3: the reduction loop encloses the output loop.
        pub fn product_csc_sv(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn horner_columns_csr_sv(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64, #SV>) {
            x[j] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }

        // Implicit zeros folded because they are made present.
        pub fn product_with_zeros(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(unary(a[i, j], present = |v| v, absent = || 0.0), identity = 1.0, |acc, v| acc * v);
        }
        pub fn horner_with_zeros_dcsr(a: &tensor<?x?xf64, #DCSR>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(unary(a[i, j], present = |v| v, absent = || 0.0), identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn max_with_zeros_sv(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(unary(a[i, j], present = |v| v, absent = || 0.0), identity = f64::NEG_INFINITY,
                          |acc, v| max(acc, v));
        }

        // Over the values regions produce.
        pub fn horner_of_binary(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(binary(a[i, j], b[i, j], overlap = |p, q| p * q, left = identity, right = none),
                          identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_of_select(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(select(a[i, j], |v| v > 0.0 || j == i), identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_of_unary_sv(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(unary(a[i, j], present = |p| p + 1.0, absent = none), identity = 0.5, |acc, v| acc * 2.0 + v);
        }
        pub fn product_scaled(a: &tensor<?x?xf64, #CSR>, d: &tensor<?xf64>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j] * d[j], identity = 1.0, |acc, v| acc * v);
        }

        // Min-plus (item 3): stored where some k has both a[i, k] and b[k, j].
        pub fn min_plus(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y, left = none, right = none),
                             identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn min_plus_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y, left = none, right = none),
                             identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        // Horner over k: the order of the fold and the pattern of the product.
        pub fn horner_product(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = reduce(a[i, k] * b[k, j], identity = 0.5, |acc, v| acc * 2.0 + v);
        }
    }
}

fn horner(acc: f64, v: f64) -> f64 {
    acc * 2.0 + v
}

/// A sparse vector output against `want` (stored exactly where `want`
/// holds a value).
fn check_sv<E: sparse_core::Encoding>(
    what: &str,
    got: &sparse_core::SparseTensor<'_, f64, E, 1, 1>,
    want: &Masked<f64>,
) -> Result<(), TestCaseError> {
    check_output(got, &want.stored(), &want.dense())
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))
}

/// Every row fold of one matrix `a` (distinct coordinates), with the
/// identity `s` of the order-sensitive fold.
fn rows(d: [usize; 2], a: &Entries<f64>, s: f64) -> Result<(), TestCaseError> {
    let m = Masked::from_entries(&d, a);
    let what = format!("{d:?} s = {s}: a = {a:?}");
    let coo = sorted(a.clone());
    let mut rep = Report::default();
    macro_rules! dense {
        ($name:literal, $want:expr, |$x:ident| $call:expr) => {{
            let want: Vec<f64> = $want;
            let mut $x = vec![f64::GARBAGE; want.len()];
            let r = $call;
            rep.add(if r == Ok(()) {
                same(&format!("{} {what}", $name), &$x, &want)
            } else {
                Err(TestCaseError::fail(format!("{}: {r:?}", $name)))
            });
        }};
    }
    macro_rules! sparse {
        ($name:literal, $n:expr, $want:expr, |$x:ident| $call:expr) => {{
            let want: Masked<f64> = $want;
            let mut $x = k::SVOut::<f64, Owned>::with_dims([$n]).unwrap();
            let r: Result<(), KernelError> = $call;
            rep.add(if r == Ok(()) {
                check_sv(&format!("{} {what}", $name), &$x.view(), &want)
            } else {
                Err(TestCaseError::fail(format!("{}: {r:?}", $name)))
            });
        }};
    }

    let product = reduce_rows(&m, 1.0, |acc, v| acc * v);
    dense!("product_csr", product.clone(), |x| with_tensor(
        &CSR,
        d,
        a,
        |t| k::product_csr(t, &mut x)
    ));
    dense!("product_csc", product.clone(), |x| with_tensor(
        &CSC,
        d,
        a,
        |t| k::product_csc(t, &mut x)
    ));
    dense!("product_dcsr", product.clone(), |x| with_tensor(
        &DCSR,
        d,
        a,
        |t| k::product_dcsr(t, &mut x)
    ));
    dense!("product_coo", product, |x| with_tensor(
        &COO,
        d,
        &coo,
        |t| k::product_coo(t, &mut x)
    ));
    // A dense operand: every element present, zeros included.
    let full = zeros_present(&m);
    let data = full.dense().data;
    dense!(
        "product_dense",
        reduce_rows(&full, 1.0, |acc, v| acc * v),
        |x| { k::product_dense(DenseView::new(&data, d).unwrap(), &mut x) }
    );

    let h = reduce_rows(&m, s, horner);
    dense!("horner_csr", h.clone(), |x| with_tensor(&CSR, d, a, |t| {
        k::horner_csr(t, s, &mut x)
    }));
    dense!("horner_csc", h, |x| with_tensor(&CSC, d, a, |t| {
        k::horner_csc(t, s, &mut x)
    }));
    dense!("horner_columns_csr", reduce_columns(&m, s, horner), |x| {
        with_tensor(&CSR, d, a, |t| k::horner_columns_csr(t, s, &mut x))
    });
    // Row-major over the whole matrix, the identity if nothing is stored.
    let all = m.data.iter().flatten().fold(s, |acc, &v| horner(acc, v));
    dense!("horner_all_dcsr", vec![all], |x| {
        with_tensor(&DCSR, d, a, |t| k::horner_all_dcsr(t, s, &mut x[0]))
    });
    dense!(
        "max_csr",
        reduce_rows(&m, f64::NEG_INFINITY, f64::max),
        |x| { with_tensor(&CSR, d, a, |t| k::max_csr(t, &mut x)) }
    );
    dense!("min_dcsr", reduce_rows(&m, f64::INFINITY, f64::min), |x| {
        with_tensor(&DCSR, d, a, |t| k::min_dcsr(t, &mut x))
    });

    sparse!(
        "product_csr_sv",
        d[0],
        fold_rows(&m, 1.0, |acc, v| acc * v),
        |x| { with_tensor(&CSR, d, a, |t| k::product_csr_sv(t, &mut x)) }
    );
    sparse!(
        "product_dcsr_sv",
        d[0],
        fold_rows(&m, 1.0, |acc, v| acc * v),
        |x| { with_tensor(&DCSR, d, a, |t| k::product_dcsr_sv(t, &mut x)) }
    );
    sparse!(
        "max_csr_sv",
        d[0],
        fold_rows(&m, f64::NEG_INFINITY, f64::max),
        |x| { with_tensor(&CSR, d, a, |t| k::max_csr_sv(t, &mut x)) }
    );
    sparse!(
        "product_csc_sv",
        d[0],
        fold_rows(&m, 1.0, |acc, v| acc * v),
        |x| { with_tensor(&CSC, d, a, |t| k::product_csc_sv(t, &mut x)) }
    );
    sparse!(
        "horner_columns_csr_sv",
        d[1],
        fold_columns(&m, s, horner),
        |x| { with_tensor(&CSR, d, a, |t| k::horner_columns_csr_sv(t, s, &mut x)) }
    );

    // The implicit zeros made present: the old semantics, spelt out.
    dense!(
        "product_with_zeros",
        reduce_rows(&full, 1.0, |acc, v| acc * v),
        |x| { with_tensor(&CSR, d, a, |t| k::product_with_zeros(t, &mut x)) }
    );
    dense!(
        "horner_with_zeros_dcsr",
        reduce_rows(&full, s, horner),
        |x| { with_tensor(&DCSR, d, a, |t| k::horner_with_zeros_dcsr(t, s, &mut x)) }
    );
    sparse!(
        "max_with_zeros_sv",
        d[0],
        fold_rows(&full, f64::NEG_INFINITY, f64::max),
        |x| { with_tensor(&DCSR, d, a, |t| k::max_with_zeros_sv(t, &mut x)) }
    );
    rep.finish()
}

/// `i64` folds: a minimum into a dense vector, a product into a sparse one.
fn rows_i64(d: [usize; 2], a: &Entries<i64>) -> Result<(), TestCaseError> {
    let m = Masked::from_entries(&d, a);
    let want = reduce_rows(&m, i64::MAX, i64::min);
    let mut x = vec![i64::GARBAGE; d[0]];
    let r = with_tensor(&DCSR, d, a, |t| k::min_i64(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "min_i64 {:?} {:?}", d, a);
    let want = fold_rows(&m, 1, |acc, v| acc.wrapping_mul(v));
    let mut x = k::SVOut::<i64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&CSR, d, a, |t| k::product_i64_sv(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want.stored(), &want.dense())
        .map_err(|e| TestCaseError::fail(format!("product_i64_sv {d:?} {a:?}: {e}")))
}

/// Nonunique COO with duplicates: one value per coordinate, their sum.
fn duplicates(d: [usize; 2], e: &Entries<f64>, s: f64) -> Result<(), TestCaseError> {
    let e = sorted(e.clone());
    // Present where any duplicate is, holding their sum.
    let mut m = Masked::<f64>::empty(&d);
    for (c, v) in &e {
        let at = m.offset(c);
        m.data[at] = Some(m.data[at].unwrap_or(0.0) + v);
    }
    let want = reduce_rows(&m, s, horner);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&COO, d, &e, |t| k::horner_coo_nu(t, s, &mut x));
    prop_assert_eq!(r, Ok(()));
    same(&format!("horner_coo_nu {d:?} s = {s}: {e:?}"), &x, &want)?;
    let want = fold_rows(&m, s, horner);
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&COO, d, &e, |t| k::horner_coo_nu_sv(t, s, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_sv(
        &format!("horner_coo_nu_sv {d:?} s = {s}: {e:?}"),
        &x.view(),
        &want,
    )
}

/// `reduce` over what `binary`, `select`, `unary` and a product produce.
fn over_regions(
    d: [usize; 2],
    a: &Entries<f64>,
    b: &Entries<f64>,
    dv: &[f64],
) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    let mb = Masked::from_entries(&d, b);
    let what = format!("{d:?}: a = {a:?}, b = {b:?}, d = {dv:?}");
    let mut rep = Report::default();

    let produced = binary(&ma, &mb, |_, x, y| Some(x * y), |_, x| Some(x), |_, _| None);
    let want = reduce_rows(&produced, 1.0, horner);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| {
        with_tensor(&DCSR, d, b, |tb| k::horner_of_binary(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    rep.add(same(&format!("horner_of_binary {what}"), &x, &want));

    let produced = select(&ma, |c, v| v > 0.0 || c[0] == c[1]);
    let want = reduce_rows(&produced, 1.0, horner);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| k::horner_of_select(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    rep.add(same(&format!("horner_of_select {what}"), &x, &want));

    let produced = unary(&ma, |_, p| Some(p + 1.0), |_| None);
    let want = fold_rows(&produced, 0.5, horner);
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, a, |ta| k::horner_of_unary_sv(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    rep.add(check_sv(
        &format!("horner_of_unary_sv {what}"),
        &x.view(),
        &want,
    ));

    // `a[i, j] * d[j]` is present where `a` is (a dense operand is present
    // everywhere; `*` intersects).
    let produced = ma.map(|c, v| v.map(|v| v * dv[c[1]]));
    let want = reduce_rows(&produced, 1.0, |acc, v| acc * v);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| k::product_scaled(ta, dv, &mut x));
    prop_assert_eq!(r, Ok(()));
    rep.add(same(&format!("product_scaled {what}"), &x, &want));
    rep.finish()
}

fn csf(d: [usize; 3], a: &Entries<f64>) -> Result<(), TestCaseError> {
    let m = Masked::from_entries(&d, a);
    let want: Vec<f64> = (0..d[0])
        .map(|i| {
            m.iter()
                .filter(|(c, _)| c[0] == i)
                .filter_map(|(_, v)| v)
                .fold(1.0, horner)
        })
        .collect();
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSF, d, a, |t| k::horner_csf(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    same(&format!("horner_csf {d:?}: {a:?}"), &x, &want)
}

/// `c[i, j]` folded over the `k` where `f` produces a value, in
/// increasing `k`; no value where none does.
fn fold_product(
    (m, n, p): (usize, usize, usize),
    identity: f64,
    g: impl Fn(f64, f64) -> f64,
    f: impl Fn(usize, usize, usize) -> Option<f64>,
) -> Masked<f64> {
    let mut c = Masked::empty(&[m, p]);
    for i in 0..m {
        for j in 0..p {
            c.data[i * p + j] = (0..n)
                .filter_map(|k| f(i, k, j))
                .fold(None, |acc: Option<f64>, v| {
                    Some(g(acc.unwrap_or(identity), v))
                });
        }
    }
    c
}

/// Min-plus and a Horner fold of a product, CSR x CSR into CSR (every
/// buffer family, each output used twice) and into a dense matrix.
fn products(
    (m, n, p): (usize, usize, usize),
    a: &Entries<f64>,
    b: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&[m, n], a);
    let mb = Masked::from_entries(&[n, p], b);
    let what = format!("{m}x{n}x{p}: a = {a:?}, b = {b:?}");
    let both = |i: usize, k: usize, j: usize| match (ma.at(&[i, k]), mb.at(&[k, j])) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => None,
    };
    let min_plus = fold_product((m, n, p), f64::INFINITY, f64::min, |i, k, j| {
        both(i, k, j).map(|(x, y)| x + y)
    });
    let horner_product = fold_product((m, n, p), 0.5, horner, |i, k, j| {
        both(i, k, j).map(|(x, y)| x * y)
    });
    let none = Vec::new();
    each_family!([m, p], |c| {
        for (x, want) in [(&none, Masked::empty(&[m, p])), (a, min_plus.clone())] {
            let r = with_tensor(&CSR, [m, n], x, |ta| {
                with_tensor(&CSR, [n, p], b, |tb| k::min_plus(ta, tb, &mut c))
            });
            prop_assert_eq!(r, Ok(()), "min_plus {}", what);
            check_output(&c.view(), &want.stored(), &want.dense())
                .map_err(|e| TestCaseError::fail(format!("min_plus {what}: {e}")))?;
        }
    });
    let mut c = k::CSROut::<f64, Owned>::with_dims([m, p]).unwrap();
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&CSR, [n, p], b, |tb| k::horner_product(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()), "horner_product {}", what);
    check_output(&c.view(), &horner_product.stored(), &horner_product.dense())
        .map_err(|e| TestCaseError::fail(format!("horner_product {what}: {e}")))?;

    // Dense output: the identity where no k has both.
    let want: Vec<f64> = min_plus
        .data
        .iter()
        .map(|v| v.unwrap_or(f64::INFINITY))
        .collect();
    let mut c = vec![f64::GARBAGE; m * p];
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&CSR, [n, p], b, |tb| {
            k::min_plus_dense(ta, tb, DenseViewMut::new(&mut c, [m, p]).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()), "min_plus_dense {}", what);
    same(&format!("min_plus_dense {what}"), &c, &want)
}

fn matrix(max: usize) -> impl Strategy<Value = ([usize; 2], Entries<f64>)> {
    dims::<2>(max).prop_flat_map(|d| (Just(d), entries::<f64>(&d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn rows_random((d, a) in matrix(6), s in elem::<f64>()) {
        rows(d, &a, s)?;
    }

    #[test]
    fn rows_i64_random((d, a) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries::<i64>(&d)))) {
        rows_i64(d, &a)?;
    }

    #[test]
    fn duplicates_random(
        (d, e) in dims::<2>(4).prop_flat_map(|d| (Just(d), entries_with_duplicates::<f64>(&d, 12))),
        s in elem::<f64>(),
    ) {
        duplicates(d, &e, s)?;
    }

    #[test]
    fn over_regions_random(
        (d, a, b, dv) in dims::<2>(5).prop_flat_map(|d| {
            (Just(d), entries::<f64>(&d), entries::<f64>(&d), dense_vec::<f64>(d[1]))
        })
    ) {
        over_regions(d, &a, &b, &dv)?;
    }

    #[test]
    fn three_dimensions_random((d, a) in dims::<3>(4).prop_flat_map(|d| (Just(d), entries::<f64>(&d)))) {
        csf(d, &a)?;
    }

    #[test]
    fn min_plus_random(
        ([m, n, p], a, b) in dims::<3>(4).prop_flat_map(|[m, n, p]| {
            (Just([m, n, p]), entries::<f64>(&[m, n]), entries::<f64>(&[n, p]))
        })
    ) {
        products((m, n, p), &a, &b)?;
    }
}

// ---- named edge cases

#[test]
fn edge_cases() {
    let none = Vec::new();
    for d in [[0, 0], [0, 4], [4, 0], [3, 3], [1, 1]] {
        rows(d, &none, 1.5).unwrap();
        rows_i64(d, &Vec::new()).unwrap();
        over_regions(d, &none, &none, &vec![2.0; d[1]]).unwrap();
        duplicates(d, &none, -0.5).unwrap();
    }
    // Explicit zeros are present: a row holding only a stored 0 has
    // product 0, maximum 0; empty rows next to full ones.
    let a = vec![
        (vec![0, 0], 2.0),
        (vec![0, 1], 3.0),
        (vec![0, 2], 4.0),
        (vec![2, 1], 0.0),
        (vec![3, 0], -1.0),
        (vec![3, 2], -2.0),
    ];
    rows([4, 3], &a, -0.5).unwrap();
    let mut x = [7.0; 4];
    with_tensor(&CSR, [4, 3], &a, |t| k::product_csr(t, &mut x)).unwrap();
    assert_eq!(x, [24.0, 1.0, 0.0, 2.0]);
    with_tensor(&CSR, [4, 3], &a, |t| k::max_csr(t, &mut x)).unwrap();
    assert_eq!(x, [4.0, f64::NEG_INFINITY, 0.0, -1.0]);
    with_tensor(&CSR, [4, 3], &a, |t| k::product_with_zeros(t, &mut x)).unwrap();
    assert_eq!(x, [24.0, 0.0, 0.0, 0.0]);
    // The order of the fold: row [1, ., 3] from 0 is (0*2+1)*2+3 = 5 (7 if
    // the implicit zero were folded, 13 reversed).
    let r = vec![(vec![0, 0], 1.0), (vec![0, 2], 3.0)];
    with_tensor(&CSR, [1, 3], &r, |t| k::horner_csr(t, 0.0, &mut x[..1])).unwrap();
    assert_eq!(x[0], 5.0);
    with_tensor(&CSC, [1, 3], &r, |t| k::horner_csc(t, 0.0, &mut x[..1])).unwrap();
    assert_eq!(x[0], 5.0);
    // Duplicates summed before folding: (0, 1) twice is one value 3.
    let dup = vec![(vec![0, 1], 1.0), (vec![0, 1], 2.0), (vec![0, 2], 1.0)];
    with_tensor(&COO, [1, 3], &dup, |t| {
        k::horner_coo_nu(t, 0.0, &mut x[..1])
    })
    .unwrap();
    assert_eq!(x[0], 7.0);
    duplicates([1, 3], &dup, 0.0).unwrap();
    // Min-plus with nothing to multiply, and full operands.
    for d in [(0, 0, 0), (0, 2, 2), (2, 0, 2), (2, 2, 0), (2, 2, 2)] {
        products(d, &none, &none).unwrap();
    }
    let full = |r: usize, c: usize| -> Entries<f64> {
        (0..r * c)
            .map(|q| (vec![q / c, q % c], (q % 5) as f64 - 2.0))
            .collect()
    };
    products((3, 2, 3), &full(3, 2), &full(2, 3)).unwrap();
    // Coordinates at the maximum of the 8-bit DCSR width.
    let wide = vec![(vec![0, 255], 3.0), (vec![1, 0], 0.0), (vec![1, 255], 2.0)];
    rows([2, 256], &wide, 1.0).unwrap();
}
