//! The other shapes of `binary` against a presence-mask reference: `+=`
//! into dense outputs (no value leaves the old element), operands and result
//! of different element types, a dense operand (present everywhere, so
//! `left` never runs), expression operands (`a + b` is present where either
//! is stored, `e * 2.0` where `e` is, a scalar parameter everywhere), a
//! summed index without `reduce` (the produced values add up; a sparse
//! output stores the rows where something was produced), COO operands, and
//! the math functions inside closures.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::DenseViewMut;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, elem, entries, Elem, Entries};
use sparse_tests::semiring::{binary, sum_rows, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        pub fn acc_vector(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] += binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = |y| 0.5 - y);
        }
        pub fn acc_matrix(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] += binary(a[i, j], b[i, j], overlap = none, left = identity, right = |y| y * (j as f64));
        }
        pub fn mixed_sparse(a: &tensor<?xf64, #SV>, b: &tensor<?xi32, #SV>, c: &mut tensor<?xi64, #SV>) {
            c[i] = binary(a[i], b[i],
                overlap = |x, y| (x * 4.0) as i64 + y as i64,
                left = |x| (x * 4.0) as i64,
                right = |y| y as i64 * 2);
        }
        pub fn mixed_dense(a: &tensor<?x?xi32, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf32>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| x as f32 * y as f32,
                left = |x| x as f32 + (i as f32),
                right = |y| -(y as f32));
        }
        pub fn dense_operand(a: &tensor<?xf64, #SV>, d: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], d[i], overlap = |x, y| x * y, left = |x| x + 100.0, right = |y| -y);
        }
        pub fn dense_operand_no_right(a: &tensor<?xf64, #SV>, d: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], d[i], overlap = |x, y| x * y, left = |x| x + 100.0, right = none);
        }
        pub fn expressions(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, e: &tensor<?xf64, #SV>,
                           c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i] + b[i], e[i] * 2.0, overlap = |x, y| x - y, left = identity, right = |y| y + 100.0);
        }
        pub fn scaled(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, s: f64, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i] * s, b[i], overlap = |x, y| x + y * s, left = identity, right = none);
        }
        pub fn row_sums(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y, left = identity, right = none);
        }
        pub fn row_sums_dense(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y, left = identity, right = none);
        }
        pub fn row_sums_acc(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] += binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y, left = identity, right = none);
        }
        pub fn row_difference_sums(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }
        pub fn row_overlap_sums(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = binary(a[i, j], b[i, j], overlap = |x, y| x * y, left = none, right = none);
        }
        pub fn coo_csr(a: &tensor<?x?xf64, #COO>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x * y + 1.0, left = |x| x - (i as f64), right = identity);
        }
        pub fn math(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i],
                overlap = |x, y| max(x, y) + abs(x - y) * 2.0,
                left = |x| sqrt(abs(x)),
                right = |y| min(y, 1.0));
        }
    }
}

// ---- references

fn acc_vector(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, x, y| Some(x - 2.0 * y),
        |_, _| None,
        |_, y| Some(0.5 - y),
    )
}

fn acc_matrix(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, _, _| None,
        |_, x| Some(x),
        |c, y| Some(y * c[1] as f64),
    )
}

fn mixed_sparse(a: &Masked<f64>, b: &Masked<i32>) -> Masked<i64> {
    binary(
        a,
        b,
        |_, x, y| Some((x * 4.0) as i64 + i64::from(y)),
        |_, x| Some((x * 4.0) as i64),
        |_, y| Some(i64::from(y) * 2),
    )
}

fn mixed_dense(a: &Masked<i32>, b: &Masked<f64>) -> Masked<f32> {
    binary(
        a,
        b,
        |_, x, y| Some(x as f32 * y as f32),
        |c, x| Some(x as f32 + c[0] as f32),
        |_, y| Some(-(y as f32)),
    )
}

fn dense_operand(a: &Masked<f64>, d: &Masked<f64>, right: bool) -> Masked<f64> {
    binary(
        a,
        d,
        |_, x, y| Some(x * y),
        |_, x| Some(x + 100.0),
        |_, y| right.then_some(-y),
    )
}

/// `a + b` (present where either is), `e * 2.0` (where `e` is).
fn expressions(a: &Masked<f64>, b: &Masked<f64>, e: &Masked<f64>) -> Masked<f64> {
    let sum = a.map(|c, x| match (x, b.at(c)) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0.0) + y.unwrap_or(0.0)),
    });
    let twice = e.map(|_, y| y.map(|y| y * 2.0));
    binary(
        &sum,
        &twice,
        |_, x, y| Some(x - y),
        |_, x| Some(x),
        |_, y| Some(y + 100.0),
    )
}

fn scaled(a: &Masked<f64>, b: &Masked<f64>, s: f64) -> Masked<f64> {
    let a = a.map(|_, x| x.map(|x| x * s));
    binary(
        &a,
        b,
        |_, x, y| Some(x + y * s),
        |_, x| Some(x),
        |_, _| None,
    )
}

fn row_products(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, x, y| Some(x - 2.0 * y),
        |_, x| Some(x),
        |_, _| None,
    )
}

fn coo_csr(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, x, y| Some(x * y + 1.0),
        |c, x| Some(x - c[0] as f64),
        |_, y| Some(y),
    )
}

fn math(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, x, y| Some(x.max(y) + (x - y).abs() * 2.0),
        |_, x| Some(x.abs().sqrt()),
        |_, y| Some(y.min(1.0)),
    )
}

// ---- checks

fn fail(what: &str, e: String) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {e}"))
}

/// The vector operands of one case.
#[derive(Debug)]
struct Vectors {
    n: usize,
    a: Entries<f64>,
    b: Entries<f64>,
    e: Entries<f64>,
    bi: Entries<i32>,
    d: Vec<f64>,
    old: Vec<f64>,
    s: f64,
}

fn vector_forms(v: &Vectors) -> Result<(), TestCaseError> {
    let n = v.n;
    let dims = [n];
    let ma = Masked::from_entries(&dims, &v.a);
    let mb = Masked::from_entries(&dims, &v.b);

    let mut c = v.old.clone();
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.b, |tb| k::acc_vector(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &c,
        &acc_vector(&ma, &mb).added_to(&v.old),
        "acc_vector {:?}",
        v
    );

    let mut c = k::SVOut::<i64, Owned>::with_dims(dims).unwrap();
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.bi, |tb| k::mixed_sparse(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    let want = mixed_sparse(&ma, &Masked::from_entries(&dims, &v.bi));
    check_output(&c.view(), &want.stored(), &want.dense()).map_err(|e| fail("mixed_sparse", e))?;

    let md = Masked::full(&dims, &v.d);
    for right in [true, false] {
        let mut c = k::SVOut::<f64, Owned>::with_dims(dims).unwrap();
        let r = with_tensor(&SV, dims, &v.a, |ta| {
            if right {
                k::dense_operand(ta, &v.d, &mut c)
            } else {
                k::dense_operand_no_right(ta, &v.d, &mut c)
            }
        });
        prop_assert_eq!(r, Ok(()));
        let want = dense_operand(&ma, &md, right);
        check_output(&c.view(), &want.stored(), &want.dense())
            .map_err(|e| fail(&format!("dense_operand (right: {right}) {v:?}"), e))?;
    }

    let mut c = k::SVOut::<f64, Owned>::with_dims(dims).unwrap();
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.b, |tb| {
            with_tensor(&SV, dims, &v.e, |te| k::expressions(ta, tb, te, &mut c))
        })
    });
    prop_assert_eq!(r, Ok(()));
    let want = expressions(&ma, &mb, &Masked::from_entries(&dims, &v.e));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("expressions {v:?}"), e))?;

    let mut c = vec![f64::GARBAGE; n];
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.b, |tb| k::scaled(ta, tb, v.s, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &scaled(&ma, &mb, v.s).dense().data, "scaled {:?}", v);

    let mut c = k::SVOut::<f64, Owned>::with_dims(dims).unwrap();
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.b, |tb| k::math(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    let want = math(&ma, &mb);
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("math {v:?}"), e))?;
    Ok(())
}

/// The matrix operands of one case.
#[derive(Debug)]
struct Matrices {
    dims: [usize; 2],
    a: Entries<f64>,
    b: Entries<f64>,
    ai: Entries<i32>,
    old: Vec<f64>,
    old_rows: Vec<f64>,
}

fn matrix_forms(m: &Matrices) -> Result<(), TestCaseError> {
    let d = m.dims;
    let ma = Masked::from_entries(&d, &m.a);
    let mb = Masked::from_entries(&d, &m.b);

    let mut c = m.old.clone();
    let r = with_tensor(&CSR, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| {
            k::acc_matrix(ta, tb, DenseViewMut::new(&mut c, d).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &c,
        &acc_matrix(&ma, &mb).added_to(&m.old),
        "acc_matrix {:?}",
        m
    );

    let mut c = vec![f32::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSR, d, &m.ai, |ta| {
        with_tensor(&DCSR, d, &m.b, |tb| {
            k::mixed_dense(ta, tb, DenseViewMut::new(&mut c, d).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    let want = mixed_dense(&Masked::from_entries(&d, &m.ai), &mb);
    prop_assert_eq!(&c, &want.dense().data, "mixed_dense {:?}", m);

    let sums = sum_rows(&row_products(&ma, &mb));
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| k::row_sums(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &sums.stored(), &sums.dense())
        .map_err(|e| fail(&format!("row_sums {m:?}"), e))?;
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&DCSR, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| k::row_sums_dense(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &sums.dense().data, "row_sums_dense {:?}", m);
    let mut x = m.old_rows.clone();
    let r = with_tensor(&DCSR, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| k::row_sums_acc(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &sums.added_to(&m.old_rows), "row_sums_acc {:?}", m);

    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&COO, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| k::coo_csr(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    let want = coo_csr(&ma, &mb);
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("coo_csr {m:?}"), e))?;
    Ok(())
}

/// A summed index into a sparse output, which must store exactly the rows
/// where some value was produced: set difference (a row whose entries of `a`
/// are all also in `b` produces none) and intersection (a row stored in
/// both without a common column produces none).
fn summed_rows_with_none_regions(m: &Matrices) -> Result<(), TestCaseError> {
    let d = m.dims;
    let ma = Masked::from_entries(&d, &m.a);
    let mb = Masked::from_entries(&d, &m.b);
    let want = sum_rows(&binary(
        &ma,
        &mb,
        |_, _, _| None,
        |_, x| Some(x),
        |_, _| None,
    ));
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, &m.a, |ta| {
        with_tensor(&CSR, d, &m.b, |tb| k::row_difference_sums(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("row_difference_sums {m:?}"), e))?;
    let want = sum_rows(&binary(
        &ma,
        &mb,
        |_, x, y| Some(x * y),
        |_, _| None,
        |_, _| None,
    ));
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, &m.a, |ta| {
        with_tensor(&DCSR, d, &m.b, |tb| k::row_overlap_sums(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("row_overlap_sums {m:?}"), e))
}

fn vectors() -> impl Strategy<Value = Vectors> {
    (0usize..=10).prop_flat_map(|n| {
        let d = [n];
        (
            entries::<f64>(&d),
            entries::<f64>(&d),
            entries::<f64>(&d),
            entries::<i32>(&d),
            dense_vec::<f64>(n),
            dense_vec::<f64>(n),
            elem::<f64>(),
        )
            .prop_map(move |(a, b, e, bi, d, old, s)| Vectors {
                n,
                a,
                b,
                e,
                bi,
                d,
                old,
                s,
            })
    })
}

fn matrices() -> impl Strategy<Value = Matrices> {
    dims::<2>(6).prop_flat_map(|d| {
        (
            entries::<f64>(&d),
            entries::<f64>(&d),
            entries::<i32>(&d),
            dense_vec::<f64>(d[0] * d[1]),
            dense_vec::<f64>(d[0]),
        )
            .prop_map(move |(a, b, ai, old, old_rows)| Matrices {
                dims: d,
                a,
                b,
                ai,
                old,
                old_rows,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn vector_forms_random(v in vectors()) {
        vector_forms(&v)?;
    }

    #[test]
    fn matrix_forms_random(m in matrices()) {
        matrix_forms(&m)?;
    }

    #[test]
    fn summed_rows_with_none_regions_random(m in matrices()) {
        summed_rows_with_none_regions(&m)?;
    }
}

#[test]
fn a_dense_operand_is_present_everywhere() {
    // `a` stored at 1 and 3: overlap there, `right` (of the dense operand)
    // everywhere else, `left` nowhere.
    let a = vec![(vec![1], 2.0), (vec![3], 0.0)];
    let d = [1.0, 2.0, 3.0, 4.0, 5.0];
    let mut c = k::SVOut::<f64, Owned>::with_dims([5]).unwrap();
    with_tensor(&SV, [5], &a, |ta| k::dense_operand(ta, &d, &mut c)).unwrap();
    let mut got = Vec::new();
    c.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(
        got,
        vec![(0, -1.0), (1, 4.0), (2, -3.0), (3, 0.0), (4, -5.0)]
    );
}

#[test]
fn summed_binary_stores_only_rows_with_a_produced_value() {
    // Row 0: a only (left = identity) -> 3; row 1: b only (right = none) ->
    // nothing; row 2: both -> 1 - 2 * 4 = -7, plus a's 0.5 -> -6.5.
    let a = vec![(vec![0, 1], 3.0), (vec![2, 0], 1.0), (vec![2, 2], 0.5)];
    let b = vec![(vec![1, 1], 9.0), (vec![2, 0], 4.0)];
    let mut x = k::SVOut::<f64, Owned>::with_dims([3]).unwrap();
    with_tensor(&DCSR, [3, 3], &a, |ta| {
        with_tensor(&CSR, [3, 3], &b, |tb| k::row_sums(ta, tb, &mut x))
    })
    .unwrap();
    let mut got = Vec::new();
    x.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(got, vec![(0, 3.0), (2, -6.5)]);
}

#[test]
fn summed_set_difference_stores_only_rows_with_a_produced_value() {
    // Row 0: a's only entry is also in b -> nothing produced, not stored;
    // row 1: a's (1, 2) survives -> 5.
    let a = vec![(vec![0, 1], 3.0), (vec![1, 2], 5.0)];
    let b = vec![(vec![0, 1], 1.0), (vec![1, 0], 1.0)];
    let mut x = k::SVOut::<f64, Owned>::with_dims([2]).unwrap();
    with_tensor(&DCSR, [2, 3], &a, |ta| {
        with_tensor(&CSR, [2, 3], &b, |tb| {
            k::row_difference_sums(ta, tb, &mut x)
        })
    })
    .unwrap();
    let mut got = Vec::new();
    x.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(got, vec![(1, 5.0)]);
}

#[test]
fn summed_intersection_stores_only_rows_with_a_produced_value() {
    // Row 0 is stored in both without a common column: nothing produced,
    // not stored; row 1 overlaps at (1, 1): 2 * 3.
    let a = vec![(vec![0, 0], 3.0), (vec![1, 1], 2.0)];
    let b = vec![(vec![0, 1], 1.0), (vec![1, 1], 3.0)];
    let mut x = k::SVOut::<f64, Owned>::with_dims([2]).unwrap();
    with_tensor(&DCSR, [2, 2], &a, |ta| {
        with_tensor(&DCSR, [2, 2], &b, |tb| k::row_overlap_sums(ta, tb, &mut x))
    })
    .unwrap();
    let mut got = Vec::new();
    x.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(got, vec![(1, 6.0)]);
}
