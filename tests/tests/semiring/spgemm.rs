//! `binary` over operands that share a summed index: `x[i, k] =
//! binary(a[i, j], b[j, k], ..)`, the produced values added up over `j`
//! (SpGEMM when only `overlap` produces; with `left`/`right` also for the
//! `k` (or `i`) where only one operand is stored), into dense and sparse
//! outputs (a sparse output, through the workspace, stores the `(i, k)`
//! where some `j` produced a value), against a presence-mask reference
//! looping over every `i`, `j`, `k`. Closures read the summed index `j`.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::DenseViewMut;
use sparse_tests::fixture::{with_tensor, CSR};
use sparse_tests::gen::{dims, entries, Elem, Entries};
use sparse_tests::semiring::Masked;
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub fn overlap_only(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64, #CSR>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q + (j as f64), left = none, right = none);
        }
        pub fn overlap_only_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q + (j as f64), left = none, right = none);
        }
        pub fn with_left(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64, #CSR>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q, left = identity, right = none);
        }
        pub fn with_left_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q, left = identity, right = none);
        }
        pub fn with_right(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64, #CSR>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q, left = none, right = |q| q + 1.0);
        }
        pub fn with_right_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) {
            x[i, k] = binary(a[i, j], b[j, k], overlap = |p, q| p * q, left = none, right = |q| q + 1.0);
        }
    }
}

type Region = fn(usize, Option<f64>, Option<f64>) -> Option<f64>;

/// `x[i][k] = sum_j region(j, a[i][j], b[j][k])`, no value where no `j`
/// produced one.
fn reference(
    (m, n, p): (usize, usize, usize),
    a: &Masked<f64>,
    b: &Masked<f64>,
    f: Region,
) -> Masked<f64> {
    let mut x = Masked::empty(&[m, p]);
    for i in 0..m {
        for kk in 0..p {
            let mut s = None;
            for j in 0..n {
                if let Some(v) = f(j, a.at(&[i, j]), b.at(&[j, kk])) {
                    s = Some(s.unwrap_or(0.0) + v);
                }
            }
            x.data[i * p + kk] = s;
        }
    }
    x
}

const OVERLAP_ONLY: Region = |j, x, y| Some(x? * y? + j as f64);
const WITH_LEFT: Region = |_, x, y| match (x, y) {
    (Some(x), Some(y)) => Some(x * y),
    (Some(x), None) => Some(x),
    _ => None,
};
const WITH_RIGHT: Region = |_, x, y| match (x, y) {
    (Some(x), Some(y)) => Some(x * y),
    (None, Some(y)) => Some(y + 1.0),
    _ => None,
};

fn check(
    (m, n, p): (usize, usize, usize),
    a: &Entries<f64>,
    b: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&[m, n], a);
    let mb = Masked::from_entries(&[n, p], b);
    let what = format!("{m}x{n}x{p}: a = {a:?}, b = {b:?}");

    macro_rules! dense {
        ($name:literal, $f:expr, $kernel:path) => {{
            let want = reference((m, n, p), &ma, &mb, $f);
            let mut x = vec![<f64 as Elem>::GARBAGE; m * p];
            let r = with_tensor(&CSR, [m, n], a, |ta| {
                with_tensor(&CSR, [n, p], b, |tb| {
                    $kernel(ta, tb, DenseViewMut::new(&mut x, [m, p]).unwrap())
                })
            });
            prop_assert_eq!(r, Ok(()), "{}", $name);
            prop_assert_eq!(&x, &want.dense().data, "{} {}", $name, what);
        }};
    }
    macro_rules! sparse {
        ($name:literal, $f:expr, $kernel:path) => {{
            let want = reference((m, n, p), &ma, &mb, $f);
            let mut x = k::CSROut::<f64, Owned>::with_dims([m, p]).unwrap();
            let r = with_tensor(&CSR, [m, n], a, |ta| {
                with_tensor(&CSR, [n, p], b, |tb| $kernel(ta, tb, &mut x))
            });
            prop_assert_eq!(r, Ok(()), "{}", $name);
            check_output(&x.view(), &want.stored(), &want.dense())
                .map_err(|e| TestCaseError::fail(format!("{} {what}: {e}", $name)))?;
        }};
    }
    dense!("overlap_only_dense", OVERLAP_ONLY, k::overlap_only_dense);
    sparse!("overlap_only", OVERLAP_ONLY, k::overlap_only);
    dense!("with_left_dense", WITH_LEFT, k::with_left_dense);
    sparse!("with_left", WITH_LEFT, k::with_left);
    dense!("with_right_dense", WITH_RIGHT, k::with_right_dense);
    sparse!("with_right", WITH_RIGHT, k::with_right);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn products(
        ([m, n, p], a, b) in dims::<3>(5).prop_flat_map(|[m, n, p]| {
            (Just([m, n, p]), entries::<f64>(&[m, n]), entries::<f64>(&[n, p]))
        })
    ) {
        check((m, n, p), &a, &b)?;
    }
}

#[test]
fn by_hand() {
    // a = [[1, 2], [0, 0]], b = [[3, _], [_, _]] (b stores only (0, 0)).
    // with_left: x[0][0] = 1*3 + 2 (a[0][1] with b[1][0] absent) = 5,
    // x[0][1] = 1 + 2 = 3 (both with b absent); row 1 produces nothing.
    let a = vec![(vec![0, 0], 1.0), (vec![0, 1], 2.0)];
    let b = vec![(vec![0, 0], 3.0)];
    let mut x = k::CSROut::<f64, Owned>::with_dims([2, 2]).unwrap();
    with_tensor(&CSR, [2, 2], &a, |ta| {
        with_tensor(&CSR, [2, 2], &b, |tb| k::with_left(ta, tb, &mut x))
    })
    .unwrap();
    let mut got = Vec::new();
    x.view().for_each(|c, v| got.push((c, *v)));
    assert_eq!(got, vec![([0, 0], 5.0), ([0, 1], 3.0)]);
    for d in [(0, 0, 0), (0, 2, 2), (2, 0, 2), (2, 2, 0)] {
        check(d, &Vec::new(), &Vec::new()).unwrap();
    }
}
