//! Semiring operations on the less common shapes, against a presence-mask
//! reference: column-major operands (CSC, DCSC: the loop nest runs `j`
//! outside, and closures must still see the right `i` and `j`), nonunique
//! COO with duplicates (an element is the sum of its duplicates: `present`
//! and `reduce`'s combiner see the sum once, folding stored coordinates
//! only), loose compressed and CSF
//! operands, one tensor as both operands of `binary`, dense and scalar
//! operands (present everywhere), index variables in a `reduce` combiner,
//! a kernel whose second statement is a `select`, and structural inversion
//! into COO and CSC outputs.

use std::collections::BTreeSet;

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::DenseViewMut;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSC, LOOSE, SV};
use sparse_tests::gen::{dense_vec, dims, elem, entries, entries_with_duplicates, Elem, Entries};
use sparse_tests::semiring::{binary, no_empty_segments, reduce_rows, select, unary, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed), crdWidth = 8 }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        pub fn columns(a: &tensor<?x?xf64, #CSC>, b: &tensor<?x?xf64, #DCSC>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| x - y + (i as f64),
                left = |x| x * (j as f64),
                right = identity);
        }
        pub fn invert_into_coo(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = unary(a[i, j], present = none, absent = || (i * 10 + j) as f64);
        }
        pub fn invert_into_csc(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = unary(a[i, j], present = |x| x - 1.0, absent = || (i * 10 + j) as f64);
        }
        pub fn lower_csc(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }
        pub fn squares_of_sums(a: &tensor<?x?xf64, #COO_NU>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = |x| x * x, absent = none);
        }
        pub fn horner_of_sums(a: &tensor<?x?xf64, #COO_NU>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn cubes(a: &tensor<?x?x?xf64, #CSF>, b: &tensor<?x?x?xf64, #CSF>, c: &mut tensor<?x?x?xf64, #CSF>) {
            c[i, j, k] = binary(a[i, j, k], b[i, j, k],
                overlap = |x, y| x * y,
                left = identity,
                right = |y| -y - (k as f64));
        }
        pub fn loose(a: &tensor<?x?xf64, #LOOSE>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = |y| y + 1.0);
        }
        pub fn itself(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], a[i], overlap = |x, y| x * y, left = |x| x + 100.0, right = |y| y - 100.0);
        }
        pub fn unary_dense(d: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(d[i], present = |x| x + 1.0, absent = || 5.0);
        }
        pub fn select_dense(d: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i] = select(d[i], |v| v > 0.0);
        }
        pub fn with_scalar(a: &tensor<?xf64, #SV>, s: f64, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], s, overlap = |x, y| x * y, left = identity, right = |y| y - 1.0);
        }
        pub fn two_statements(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            y[i] = a[i, j];
            c[i, j] = select(a[i, j], |v| v > 0.0);
        }
        pub fn of_plus_literal(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i] + 1.0, present = |x| x, absent = || -7.0);
        }
        pub fn of_scaled(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i] * 2.0, present = |x| x, absent = || -7.0);
        }
        pub fn of_negated(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(-a[i], present = |x| x, absent = || -7.0);
        }
        pub fn of_quotient(a: &tensor<?xf64, #SV>, d: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i] / d[i], present = |x| x, absent = || -7.0);
        }
        pub fn indexed_fold(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 0.0, |acc, v| acc * 2.0 + v * (j as f64) + (i as f64));
        }
    }
}

fn fail(what: &str, e: String) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {e}"))
}

/// A nonunique operand: present where any duplicate is, holding their sum.
fn summed(dims: &[usize], e: &Entries<f64>) -> Masked<f64> {
    let d = Dense::from_entries(dims, e);
    let at: BTreeSet<&Vec<usize>> = e.iter().map(|(c, _)| c).collect();
    Masked::<f64>::empty(dims).map(|c, _| at.contains(&c.to_vec()).then(|| d.at(c)))
}

fn matrices(d: [usize; 2], a: &Entries<f64>, b: &Entries<f64>) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    let mb = Masked::from_entries(&d, b);
    let what = format!("{d:?}: a = {a:?}, b = {b:?}");

    let want = binary(
        &ma,
        &mb,
        |c, x, y| Some(x - y + c[0] as f64),
        |c, x| Some(x * c[1] as f64),
        |_, y| Some(y),
    );
    let mut c = k::CSCOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSC, d, a, |ta| {
        with_tensor(&DCSC, d, b, |tb| k::columns(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("columns {what}"), e))?;

    let want = unary(&ma, |_, _| None, |c| Some((c[0] * 10 + c[1]) as f64));
    let mut c = k::COOOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSR, d, a, |ta| k::invert_into_coo(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("invert_into_coo {what}"), e))?;
    let want = unary(
        &ma,
        |_, x| Some(x - 1.0),
        |c| Some((c[0] * 10 + c[1]) as f64),
    );
    let mut c = k::CSCOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSC, d, a, |ta| k::invert_into_csc(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("invert_into_csc {what}"), e))?;

    let want = select(&ma, |c, _| c[1] < c[0]);
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSC, d, a, |ta| {
        k::lower_csc(ta, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "lower_csc {}", what);

    let want = binary(
        &ma,
        &mb,
        |_, _, _| None,
        |_, x| Some(x),
        |_, y| Some(y + 1.0),
    );
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&LOOSE, d, a, |ta| {
        with_tensor(&CSR, d, b, |tb| k::loose(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("loose {what}"), e))?;

    let sums = Masked::from_entries(&d, a).dense();
    let want_rows: Vec<f64> = (0..d[0])
        .map(|i| (0..d[1]).map(|j| sums.at(&[i, j])).sum())
        .collect();
    let want = select(&ma, |_, v| v > 0.0);
    let mut y = vec![f64::GARBAGE; d[0]];
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSR, d, a, |ta| k::two_statements(ta, &mut y, &mut c));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&y, &want_rows, "two_statements (sums) {}", what);
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("two_statements (select) {what}"), e))?;

    // Stored values only, in increasing `j`; the identity 0 for an empty row.
    let want: Vec<f64> = (0..d[0])
        .map(|i| {
            (0..d[1])
                .filter_map(|j| ma.at(&[i, j]).map(|v| (j, v)))
                .fold(0.0, |acc, (j, v)| acc * 2.0 + v * j as f64 + i as f64)
        })
        .collect();
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| k::indexed_fold(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "indexed_fold {}", what);
    Ok(())
}

fn duplicates(d: [usize; 2], e: &Entries<f64>) -> Result<(), TestCaseError> {
    let mut e = e.clone();
    e.sort_by(|x, y| x.0.cmp(&y.0));
    let m = summed(&d, &e);
    let want = unary(&m, |_, x| Some(x * x), |_| None);
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&COO, d, &e, |t| {
        k::squares_of_sums(t, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "squares_of_sums {:?} {:?}", d, e);

    let want = reduce_rows(&m, 1.0, |acc, v| acc * 2.0 + v);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&COO, d, &e, |t| k::horner_of_sums(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "horner_of_sums {:?} {:?}", d, e);
    Ok(())
}

fn cubes(d: [usize; 3], a: &Entries<f64>, b: &Entries<f64>) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    let mb = Masked::from_entries(&d, b);
    let want = binary(
        &ma,
        &mb,
        |_, x, y| Some(x * y),
        |_, x| Some(x),
        |c, y| Some(-y - c[2] as f64),
    );
    let mut c = k::CSFOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSF, d, a, |ta| {
        with_tensor(&CSF, d, b, |tb| k::cubes(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("cubes {d:?}: a = {a:?}, b = {b:?}"), e))?;
    no_empty_segments(&c.view()).map_err(|e| fail(&format!("cubes {d:?}: a = {a:?}, b = {b:?}"), e))
}

fn vectors(n: usize, a: &Entries<f64>, dv: &[f64], s: f64) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&[n], a);
    let md = Masked::full(&[n], dv);
    let what = format!("n = {n}, a = {a:?}, d = {dv:?}, s = {s}");
    macro_rules! sparse {
        ($name:literal, $want:expr, |$c:ident| $call:expr) => {{
            let want = $want;
            let mut $c = k::SVOut::<f64, Owned>::with_dims([n]).unwrap();
            let r = $call;
            prop_assert_eq!(r, Ok(()), "{}", $name);
            check_output(&$c.view(), &want.stored(), &want.dense())
                .map_err(|e| fail(&format!("{} {what}", $name), e))?;
        }};
    }
    sparse!(
        "itself",
        binary(&ma, &ma, |_, x, y| Some(x * y), |_, _| None, |_, _| None),
        |c| with_tensor(&SV, [n], a, |t| k::itself(t, &mut c))
    );
    sparse!(
        "unary_dense",
        unary(&md, |_, x| Some(x + 1.0), |_| Some(5.0)),
        |c| k::unary_dense(dv, &mut c)
    );
    sparse!("select_dense", select(&md, |_, v| v > 0.0), |c| {
        k::select_dense(dv, &mut c)
    });
    let ms = Masked::full(&[n], &vec![s; n]);
    sparse!(
        "with_scalar",
        binary(
            &ma,
            &ms,
            |_, x, y| Some(x * y),
            |_, x| Some(x),
            |_, y| Some(y - 1.0)
        ),
        |c| with_tensor(&SV, [n], a, |t| k::with_scalar(t, s, &mut c))
    );
    // Operand expressions: `a + 1.0` is present everywhere (a literal is),
    // `a * 2.0`, `-a` and `a / d` where `a` is stored.
    let absent = |_: &[usize]| Some(-7.0);
    let plus = ma.map(|_, x| Some(x.unwrap_or(0.0) + 1.0));
    sparse!(
        "of_plus_literal",
        unary(&plus, |_, x| Some(x), absent),
        |c| with_tensor(&SV, [n], a, |t| k::of_plus_literal(t, &mut c))
    );
    sparse!("of_scaled", unary(&ma, |_, x| Some(x * 2.0), absent), |c| {
        with_tensor(&SV, [n], a, |t| k::of_scaled(t, &mut c))
    });
    sparse!("of_negated", unary(&ma, |_, x| Some(-x), absent), |c| {
        with_tensor(&SV, [n], a, |t| k::of_negated(t, &mut c))
    });
    // Nonzero divisors only: the quarters of `dv` shifted away from 0.
    let dz: Vec<f64> = dv
        .iter()
        .map(|&v| if v >= 0.0 { v + 0.5 } else { v })
        .collect();
    sparse!(
        "of_quotient",
        unary(&ma, |c, x| Some(x / dz[c[0]]), absent),
        |c| with_tensor(&SV, [n], a, |t| k::of_quotient(t, &dz, &mut c))
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn matrices_random(
        (d, a, b) in dims::<2>(6).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries::<f64>(&d)))
    ) {
        matrices(d, &a, &b)?;
    }

    #[test]
    fn duplicates_random(
        (d, e) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries_with_duplicates::<f64>(&d, 14)))
    ) {
        duplicates(d, &e)?;
    }

    #[test]
    fn cubes_random(
        (d, a, b) in dims::<3>(4).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries::<f64>(&d)))
    ) {
        cubes(d, &a, &b)?;
    }

    #[test]
    fn vectors_random(
        (n, a, dv) in (0usize..=10).prop_flat_map(|n| (Just(n), entries::<f64>(&[n]), dense_vec::<f64>(n))),
        s in elem::<f64>(),
    ) {
        vectors(n, &a, &dv, s)?;
    }
}

#[test]
fn duplicates_are_summed_before_the_closures() {
    // (0, 1) twice: 1.5 + 2.5 = 4 -> 16 (not 1.5² + 2.5² = 8.5).
    let e = vec![(vec![0, 1], 1.5), (vec![0, 1], 2.5), (vec![1, 0], -3.0)];
    let mut c = vec![7.0; 4];
    with_tensor(&COO, [2, 2], &e, |t| {
        k::squares_of_sums(t, DenseViewMut::new(&mut c, [2, 2]).unwrap())
    })
    .unwrap();
    assert_eq!(c, [0.0, 16.0, 9.0, 0.0]);
    // Only present values are folded, each duplicate run once, as its sum:
    // row 0: 1 * 2 + 4 = 6; row 1: 1 * 2 - 3 = -1.
    let mut x = [7.0; 2];
    with_tensor(&COO, [2, 2], &e, |t| k::horner_of_sums(t, &mut x)).unwrap();
    assert_eq!(x, [6.0, -1.0]);
    for d in [[0, 0], [0, 3], [3, 0]] {
        duplicates(d, &Vec::new()).unwrap();
        matrices(d, &Vec::new(), &Vec::new()).unwrap();
    }
}
