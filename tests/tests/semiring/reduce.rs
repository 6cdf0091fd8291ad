//! Custom reductions `x[i] = reduce(e, identity = v, |acc, v| ..)` against
//! a fold over presence masks, as MLIR's `sparse_tensor.reduce` (issue 10):
//! for every output element, the combiner applied from the identity to the
//! *present* values of the summed indices (stored entries, explicit zeros
//! included, and values a region produced) in increasing order; implicit
//! zeros are not folded. A dense output holds the identity where nothing
//! is present; a sparse output stores nothing there. Product, minimum and
//! maximum, an order-sensitive combiner (`acc * 2 + v`, which also shows a
//! value folded twice, skipped or out of order), `f64` and `i64`, CSR,
//! DCSR, CSC, COO and CSF operands, dense and sparse outputs, rows and
//! columns, scalar outputs, scalar parameters as identity, and `reduce`
//! over an expression, `binary`, `unary` and `select`; the implicit zeros
//! folded when made present with `unary(.., absent = || 0.0)` (what the
//! combiner saw before issue 10).

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::{Encoding, KernelError, SparseTensor};
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR};
use sparse_tests::gen::{dense_vec, dims, elem, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::semiring::{
    binary, fold_columns, fold_rows, reduce_columns, reduce_rows, select, unary, zeros_present,
    Masked,
};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        pub fn product_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_dcsr_sv(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn product_csr_sv(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn min_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn min_dcsr_sv(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn max_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = f64::NEG_INFINITY, |acc, v| acc.max(v));
        }
        pub fn max_csr_sv(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = f64::NEG_INFINITY, |acc, v| max(acc, v));
        }
        pub fn horner_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_dcsr_sv(a: &tensor<?x?xf64, #DCSR>, s: f64, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_coo(a: &tensor<?x?xf64, #COO>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_csc(a: &tensor<?x?xf64, #CSC>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_columns_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64>) {
            x[j] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_columns_csc_sv(a: &tensor<?x?xf64, #CSC>, s: f64, x: &mut tensor<?xf64, #SV>) {
            x[j] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_all_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<f64>) {
            x[] = reduce(a[i, j], identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_csf(a: &tensor<?x?x?xf64, #CSF>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j, k], identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn product_i64(a: &tensor<?x?xi64, #CSR>, x: &mut tensor<?xi64, #SV>) {
            x[i] = reduce(a[i, j], identity = 1, |acc, v| acc * v);
        }
        pub fn min_i64(a: &tensor<?x?xi64, #DCSR>, x: &mut tensor<?xi64>) {
            x[i] = reduce(a[i, j], identity = i64::MAX, |acc, v| min(acc, v));
        }
        pub fn max_i64(a: &tensor<?x?xi64, #CSR>, x: &mut tensor<?xi64>) {
            x[i] = reduce(a[i, j], identity = i64::MIN, |acc, v| max(acc, v));
        }
        pub fn product_scaled(a: &tensor<?x?xf64, #CSR>, d: &tensor<?xf64>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j] * d[j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn horner_of_binary(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(binary(a[i, j], b[i, j], overlap = |x, y| x * y, left = identity, right = none),
                          identity = 1.0, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_of_unary(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = reduce(unary(a[i, j], present = |x| x + 1.0, absent = || 0.5),
                          identity = 0.0, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_zeros_csr(a: &tensor<?x?xf64, #CSR>, s: f64, x: &mut tensor<?xf64>) {
            x[i] = reduce(unary(a[i, j], present = |v| v, absent = || 0.0), identity = s, |acc, v| acc * 2.0 + v);
        }
        pub fn product_of_select(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(select(a[i, j], |v| v > 0.0 || j == i), identity = 1.0, |acc, v| acc * 2.0 + v);
        }
    }
}

type Matrix<'a, V, E> = SparseTensor<'a, V, E, 2, 2>;

/// `kernel` into a dense vector pre-filled with garbage, against `want`.
fn check_dense<V: Elem, E: Encoding>(
    what: &str,
    layout: &[RefLevel],
    dims: [usize; 2],
    a: &Entries<V>,
    want: &[V],
    kernel: impl Fn(&Matrix<'_, V, E>, &mut [V]) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let mut x = vec![V::GARBAGE; want.len()];
    let r = with_tensor(layout, dims, a, |ta| kernel(ta, &mut x));
    prop_assert_eq!(r, Ok(()), "{}", what);
    prop_assert_eq!(&x, want, "{} {:?}: a = {:?}", what, dims, a);
    Ok(())
}

/// A sparse vector output must store exactly the elements where `want`
/// holds a value (some value was present to fold).
fn check_sparse<V: Elem, E: Encoding>(
    what: &str,
    got: &SparseTensor<'_, V, E, 1, 1>,
    want: &Masked<V>,
) -> Result<(), TestCaseError> {
    check_output(got, &want.stored(), &want.dense())
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))
}

fn horner(acc: f64, v: f64) -> f64 {
    acc * 2.0 + v
}

fn f64_reductions(d: [usize; 2], a: &Entries<f64>, s: f64) -> Result<(), TestCaseError> {
    let m = Masked::from_entries(&d, a);
    let product = reduce_rows(&m, 1.0, |acc, v| acc * v);
    check_dense("product_csr", &CSR, d, a, &product, k::product_csr)?;
    check_dense("product_dcsr", &DCSR, d, a, &product, k::product_dcsr)?;
    let minimum = reduce_rows(&m, f64::INFINITY, f64::min);
    check_dense("min_csr", &CSR, d, a, &minimum, k::min_csr)?;
    let maximum = reduce_rows(&m, f64::NEG_INFINITY, f64::max);
    check_dense("max_dcsr", &DCSR, d, a, &maximum, k::max_dcsr)?;
    let rows = reduce_rows(&m, s, horner);
    check_dense("horner_csr", &CSR, d, a, &rows, |t, x| {
        k::horner_csr(t, s, x)
    })?;
    check_dense("horner_coo", &COO, d, a, &rows, |t, x| {
        k::horner_coo(t, s, x)
    })?;
    check_dense("horner_csc", &CSC, d, a, &rows, |t, x| {
        k::horner_csc(t, s, x)
    })?;
    let columns = reduce_columns(&m, s, horner);
    check_dense("horner_columns_csr", &CSR, d, a, &columns, |t, x| {
        k::horner_columns_csr(t, s, x)
    })?;
    // Row-major: the loop nest of CSR; the stored values only.
    let all = m.iter().filter_map(|(_, v)| v).fold(s, horner);
    check_dense("horner_all_csr", &CSR, d, a, &[all], |t, x| {
        k::horner_all_csr(t, s, &mut x[0])
    })?;
    // The implicit zeros made present: every column folded, as before
    // issue 10.
    let zeros = reduce_rows(&zeros_present(&m), s, horner);
    check_dense("horner_zeros_csr", &CSR, d, a, &zeros, |t, x| {
        k::horner_zeros_csr(t, s, x)
    })?;

    macro_rules! sparse {
        ($name:literal, $layout:expr, $dim:expr, $want:expr, |$t:ident, $x:ident| $call:expr) => {{
            let mut $x = k::SVOut::<f64, Owned>::with_dims([$dim]).unwrap();
            let r = with_tensor(&$layout, d, a, |$t| $call);
            prop_assert_eq!(r, Ok(()), "{}", $name);
            check_sparse(&format!("{} {d:?} {a:?}", $name), &$x.view(), $want)?;
        }};
    }
    let product = fold_rows(&m, 1.0, |acc, v| acc * v);
    let minimum = fold_rows(&m, f64::INFINITY, f64::min);
    let maximum = fold_rows(&m, f64::NEG_INFINITY, f64::max);
    let rows = fold_rows(&m, s, horner);
    let columns = fold_columns(&m, s, horner);
    sparse!("product_dcsr_sv", DCSR, d[0], &product, |t, x| {
        k::product_dcsr_sv(t, &mut x)
    });
    sparse!("product_csr_sv", CSR, d[0], &product, |t, x| {
        k::product_csr_sv(t, &mut x)
    });
    sparse!("min_dcsr_sv", DCSR, d[0], &minimum, |t, x| {
        k::min_dcsr_sv(t, &mut x)
    });
    sparse!("max_csr_sv", CSR, d[0], &maximum, |t, x| {
        k::max_csr_sv(t, &mut x)
    });
    sparse!("horner_dcsr_sv", DCSR, d[0], &rows, |t, x| {
        k::horner_dcsr_sv(t, s, &mut x)
    });
    sparse!("horner_columns_csc_sv", CSC, d[1], &columns, |t, x| {
        k::horner_columns_csc_sv(t, s, &mut x)
    });
    Ok(())
}

fn i64_reductions(d: [usize; 2], a: &Entries<i64>) -> Result<(), TestCaseError> {
    let m = Masked::from_entries(&d, a);
    let product = fold_rows(&m, 1, |acc, v| acc * v);
    let mut x = k::SVOut::<i64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&CSR, d, a, |t| k::product_i64(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &product.stored(), &product.dense())
        .map_err(|e| TestCaseError::fail(format!("product_i64 {d:?} {a:?}: {e}")))?;
    let minimum = reduce_rows(&m, i64::MAX, i64::min);
    check_dense("min_i64", &DCSR, d, a, &minimum, k::min_i64)?;
    let maximum = reduce_rows(&m, i64::MIN, i64::max);
    check_dense("max_i64", &CSR, d, a, &maximum, k::max_i64)
}

/// `reduce` over an expression with a dense operand and over the results
/// of `binary`, `unary` and `select` (only produced values are folded).
fn reductions_of_operations(
    d: [usize; 2],
    (a, b): (&Entries<f64>, &Entries<f64>),
    dv: &[f64],
) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    let mb = Masked::from_entries(&d, b);
    let scaled = ma.map(|c, v| v.map(|v| v * dv[c[1]]));
    let want = reduce_rows(&scaled, 1.0, |acc, v| acc * v);
    check_dense("product_scaled", &CSR, d, a, &want, |t, x| {
        k::product_scaled(t, dv, x)
    })?;

    let produced = binary(&ma, &mb, |_, x, y| Some(x * y), |_, x| Some(x), |_, _| None);
    let want = reduce_rows(&produced, 1.0, horner);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |ta| {
        with_tensor(&DCSR, d, b, |tb| k::horner_of_binary(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &x,
        &want,
        "horner_of_binary {:?}: a = {:?}, b = {:?}",
        d,
        a,
        b
    );

    let produced = unary(&ma, |_, x| Some(x + 1.0), |_| Some(0.5));
    let want = fold_rows(&produced, 0.0, horner);
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, a, |ta| k::horner_of_unary(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_sparse(&format!("horner_of_unary {d:?} {a:?}"), &x.view(), &want)?;

    let produced = select(&ma, |c, v| v > 0.0 || c[1] == c[0]);
    let want = reduce_rows(&produced, 1.0, horner);
    check_dense("product_of_select", &CSR, d, a, &want, k::product_of_select)
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
    prop_assert_eq!(&x, &want, "horner_csf {:?}: {:?}", d, a);
    Ok(())
}

fn matrix<V: Elem>(max: usize) -> impl Strategy<Value = ([usize; 2], Entries<V>)> {
    dims::<2>(max).prop_flat_map(|d| (Just(d), entries::<V>(&d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn f64_rows_and_columns((d, a) in matrix::<f64>(6), s in elem::<f64>()) {
        f64_reductions(d, &a, s)?;
    }

    #[test]
    fn i64_rows((d, a) in matrix::<i64>(5)) {
        i64_reductions(d, &a)?;
    }

    #[test]
    fn over_operations(
        (d, a, b, dv) in dims::<2>(5).prop_flat_map(|d| {
            (Just(d), entries::<f64>(&d), entries::<f64>(&d), dense_vec::<f64>(d[1]))
        })
    ) {
        reductions_of_operations(d, (&a, &b), &dv)?;
    }

    #[test]
    fn three_dimensions(
        (d, a) in dims::<3>(4).prop_flat_map(|d| (Just(d), entries::<f64>(&d)))
    ) {
        csf(d, &a)?;
    }
}

fn full_rows(d: [usize; 2], rows: &[usize]) -> Entries<f64> {
    rows.iter()
        .flat_map(|&i| (0..d[1]).map(move |j| (vec![i, j], f64::small((i * 7 + j) as i32 % 9 - 4))))
        .collect()
}

#[test]
fn edge_cases() {
    let none = Vec::new();
    for d in [[0, 0], [0, 4], [4, 0], [3, 3], [1, 1]] {
        f64_reductions(d, &none, 1.5).unwrap();
        i64_reductions(d, &Vec::new()).unwrap();
        reductions_of_operations(d, (&none, &none), &vec![2.0; d[1]]).unwrap();
    }
    // Full rows (every value present: the plain fold) next to empty ones
    // (the identity, stored nowhere in a sparse output).
    let d = [4, 3];
    for rows in [&[0, 1, 2, 3][..], &[1, 3], &[2]] {
        let a = full_rows(d, rows);
        f64_reductions(d, &a, -0.5).unwrap();
        reductions_of_operations(d, (&a, &full_rows(d, &[0, 1])), &[1.0, -2.0, 0.5]).unwrap();
    }
    // Negative values only: the minimum and the maximum are theirs; the
    // implicit zeros count for nothing.
    let neg = vec![(vec![0, 0], -1.0), (vec![0, 1], -2.0), (vec![1, 1], -3.0)];
    f64_reductions([2, 2], &neg, 0.0).unwrap();
    let mut x = [7.0; 2];
    with_tensor(&CSR, [2, 2], &neg, |t| k::min_csr(t, &mut x)).unwrap();
    assert_eq!(x, [-2.0, -3.0]);
    with_tensor(&DCSR, [2, 2], &neg, |t| k::max_dcsr(t, &mut x)).unwrap();
    assert_eq!(x, [-1.0, -3.0]);
    // The order of the fold: row [1, ., 3] from identity 0 is (0*2+1)*2+3 = 5
    // (reversed, (0*2+3)*2+1 = 7). The unary spelling folds the implicit
    // zero too: ((0*2+1)*2+0)*2+3 = 7.
    let a = vec![(vec![0, 0], 1.0), (vec![0, 2], 3.0)];
    with_tensor(&CSR, [1, 3], &a, |t| k::horner_csr(t, 0.0, &mut x[..1])).unwrap();
    assert_eq!(x[0], 5.0);
    with_tensor(&CSR, [1, 3], &a, |t| {
        k::horner_zeros_csr(t, 0.0, &mut x[..1])
    })
    .unwrap();
    assert_eq!(x[0], 7.0);
}
