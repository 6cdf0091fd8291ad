//! Custom reductions over products of two operands, where the folded index
//! sits between the output's: `x[i, k] = reduce(a[i, j] * b[j, k], ..)`
//! (CSR with CSR, with CSC, and `a[i, j] + b[j, k]` with a dense `b`: the
//! min-plus shape), and matrix-vector folds `y[i] = reduce(a[i, j] * x[j],
//! ..)` and over a `binary` of the two, against a fold over the `j` in
//! increasing order where the operand expression is present (issue 10,
//! MLIR's `sparse_tensor.reduce`): `*` is present where both factors are,
//! `+` with a dense operand everywhere, `binary` where a region produced a
//! value; the identity where nothing is present (a sparse output stores
//! nothing there). The order-sensitive combiner `acc * 2 + v` shows a fold
//! out of order, one that skips a present value or one that folds an
//! absent one.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::DenseViewMut;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSC, CSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, Elem, Entries};
use sparse_tests::semiring::{binary, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

        pub fn min_plus(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64>, x: &mut tensor<?x?xf64>) {
            x[i, k] = reduce(a[i, j] + b[j, k], identity = f64::INFINITY, |acc, v| min(acc, v));
        }
        pub fn horner_csr_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) {
            x[i, k] = reduce(a[i, j] * b[j, k], identity = 0.0, |acc, v| acc * 2.0 + v);
        }
        pub fn horner_csr_csc(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, x: &mut tensor<?x?xf64>) {
            x[i, k] = reduce(a[i, j] * b[j, k], identity = 0.0, |acc, v| acc * 2.0 + v);
        }
        pub fn product_matvec(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = reduce(a[i, j] * x[j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn horner_binary(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>) {
            y[i] = reduce(binary(a[i, j], x[j], overlap = |p, q| p * q, left = none, right = |q| q),
                          identity = 0.0, |acc, v| acc * 2.0 + v);
        }
    }
}

/// `x[i, k]` folded over the `j` where `value(i, j, k)` is present, in
/// increasing order; the identity where none is.
fn fold3(
    (m, n, p): (usize, usize, usize),
    identity: f64,
    f: impl Fn(f64, f64) -> f64,
    value: impl Fn(usize, usize, usize) -> Option<f64>,
) -> Vec<f64> {
    let mut x = Vec::with_capacity(m * p);
    for i in 0..m {
        for k in 0..p {
            x.push((0..n).filter_map(|j| value(i, j, k)).fold(identity, &f));
        }
    }
    x
}

fn horner(acc: f64, v: f64) -> f64 {
    acc * 2.0 + v
}

fn matrix_products(
    (m, n, p): (usize, usize, usize),
    a: &Entries<f64>,
    b: &Entries<f64>,
    bd: &[f64],
) -> Result<(), TestCaseError> {
    let da = Dense::from_entries(&[m, n], a);
    let ma = Masked::from_entries(&[m, n], a);
    let mb = Masked::from_entries(&[n, p], b);
    let what = format!("{m}x{n}x{p}: a = {a:?}, b = {b:?}");

    // `a + b` with a dense `b` is present for every `j` (an implicit zero
    // of `a` adds 0).
    let want = fold3((m, n, p), f64::INFINITY, f64::min, |i, j, k| {
        Some(da.at(&[i, j]) + bd[j * p + k])
    });
    let mut x = vec![<f64 as Elem>::GARBAGE; m * p];
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        k::min_plus(
            ta,
            sparse_core::DenseView::new(bd, [n, p]).unwrap(),
            DenseViewMut::new(&mut x, [m, p]).unwrap(),
        )
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "min_plus {} bd = {:?}", what, bd);

    let want = fold3((m, n, p), 0.0, horner, |i, j, k| {
        Some(ma.at(&[i, j])? * mb.at(&[j, k])?)
    });
    let mut x = vec![<f64 as Elem>::GARBAGE; m * p];
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&CSR, [n, p], b, |tb| {
            k::horner_csr_csr(ta, tb, DenseViewMut::new(&mut x, [m, p]).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "horner_csr_csr {}", what);
    let mut x = vec![<f64 as Elem>::GARBAGE; m * p];
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&CSC, [n, p], b, |tb| {
            k::horner_csr_csc(ta, tb, DenseViewMut::new(&mut x, [m, p]).unwrap())
        })
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "horner_csr_csc {}", what);
    Ok(())
}

fn matrix_vector(
    (m, n): (usize, usize),
    a: &Entries<f64>,
    v: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&[m, n], a);
    let mv = Masked::from_entries(&[n], v);
    let what = format!("{m}x{n}: a = {a:?}, x = {v:?}");

    let want: Vec<f64> = (0..m)
        .map(|i| {
            (0..n)
                .filter_map(|j| Some(ma.at(&[i, j])? * mv.at(&[j])?))
                .fold(1.0, |acc, v| acc * v)
        })
        .collect();
    let mut y = vec![<f64 as Elem>::GARBAGE; m];
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&SV, [n], v, |tv| k::product_matvec(ta, tv, &mut y))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&y, &want, "product_matvec {}", what);

    // Row i of `a` against `x`, each broadcast over the other's index.
    let want: Vec<Option<f64>> = (0..m)
        .map(|i| {
            let row = Masked::from_entries(
                &[n],
                &a.iter()
                    .filter(|(c, _)| c[0] == i)
                    .map(|(c, x)| (vec![c[1]], *x))
                    .collect(),
            );
            let produced = binary(
                &row,
                &mv,
                |_, p, q| Some(p * q),
                |_, _| None,
                |_, q| Some(q),
            );
            (0..n)
                .filter_map(|j| produced.at(&[j]))
                .fold(None, |acc: Option<f64>, v| {
                    Some(horner(acc.unwrap_or(0.0), v))
                })
        })
        .collect();
    // Stored where the row produced something.
    let full = Masked {
        dims: vec![m],
        data: want,
    };
    let mut y = k::SVOut::<f64, Owned>::with_dims([m]).unwrap();
    let r = with_tensor(&CSR, [m, n], a, |ta| {
        with_tensor(&SV, [n], v, |tv| k::horner_binary(ta, tv, &mut y))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&y.view(), &full.stored(), &full.dense())
        .map_err(|e| TestCaseError::fail(format!("horner_binary {what}: {e}")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn products_of_matrices(
        ([m, n, p], a, b, bd) in dims::<3>(4).prop_flat_map(|[m, n, p]| {
            (Just([m, n, p]), entries::<f64>(&[m, n]), entries::<f64>(&[n, p]), dense_vec::<f64>(n * p))
        })
    ) {
        matrix_products((m, n, p), &a, &b, &bd)?;
    }

    #[test]
    fn matrix_times_vector(
        ([m, n], a, v) in dims::<2>(6).prop_flat_map(|[m, n]| {
            (Just([m, n]), entries::<f64>(&[m, n]), entries::<f64>(&[n]))
        })
    ) {
        matrix_vector((m, n), &a, &v)?;
    }
}

#[test]
fn by_hand() {
    // a = [[1, .], [., 2]], b = [[1, 1], [., 3]]: x[i][k] folds the j where
    // both a[i, j] and b[j, k] are stored:
    // x[0][0] = 0*2 + 1 = 1 (j = 0); x[0][1] = 0*2 + 1 = 1 (j = 0);
    // x[1][0] = 0, the identity (no j); x[1][1] = 0*2 + 6 = 6 (j = 1).
    let a = vec![(vec![0, 0], 1.0), (vec![1, 1], 2.0)];
    let b = vec![(vec![0, 0], 1.0), (vec![0, 1], 1.0), (vec![1, 1], 3.0)];
    let mut x = vec![7.0; 4];
    with_tensor(&CSR, [2, 2], &a, |ta| {
        with_tensor(&CSR, [2, 2], &b, |tb| {
            k::horner_csr_csr(ta, tb, DenseViewMut::new(&mut x, [2, 2]).unwrap())
        })
    })
    .unwrap();
    assert_eq!(x, [1.0, 1.0, 0.0, 6.0]);
    for d in [(0, 0, 0), (0, 2, 2), (2, 0, 2), (2, 2, 0)] {
        matrix_products(d, &Vec::new(), &Vec::new(), &vec![1.0; d.1 * d.2]).unwrap();
    }
}
