//! Min and max reductions written directly (issue 29, item 10): `x[] =
//! min(x[], a[i])`, `x[i] = max(x[i], a[i, j])`, as MLIR's sparsifier reads
//! the `linalg.generic` they translate (`arith.minsi`/`maximumf` under a
//! reduction iterator): the old value of the element and `e` at *every*
//! point of the reduction indices, implicit zeros included; an empty range
//! keeps the old value.
//!
//! The reference is a plain fold over the dense tensor (`Dense`, duplicates
//! of nonunique storage summed first), independent of the sparsifier, over
//! CSR, CSC, DCSR, COO (duplicates included), CSF and dense operands and a
//! 2x2 max pooling window (`#[range]`), with outputs pre-filled with known
//! values. `mlir_reductions_min` is upstream's
//! `sparse_reductions_min.mlir` line by line, with its CHECK values (checked
//! again with the MLIR oracle for the dense-semantics kernel `min2`).

use proptest::prelude::*;
use sparse_core::DenseView;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, elem, entries, entries_with_duplicates, Entries};

use super::common::{same, sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        // Row maxima and minima, every format; the old value takes part.
        pub fn rmax_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = max(x[i], a[i, j]);
        }
        pub fn rmax_csc(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64>) {
            x[i] = max(x[i], a[i, j]);
        }
        pub fn rmin_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = min(a[i, j], x[i]);
        }
        pub fn rmin_coo(a: &tensor<?x?xf64, #COO>, x: &mut tensor<?xf64>) {
            x[i] = min(x[i], a[i, j]);
        }
        pub fn rmax_dense(a: &tensor<?x?xf64>, x: &mut tensor<?xf64>) {
            x[i] = max(x[i], a[i, j]);
        }
        // Column maxima of a CSR matrix: the reduction loop encloses the
        // output's.
        pub fn cmax_csr(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[j] = max(x[j], a[i, j]);
        }
        // Of an expression: a product with a dense vector (zero where `a`
        // stores nothing).
        pub fn rmax_product_dcsr(a: &tensor<?x?xf64, #DCSR>, v: &tensor<?xf64>, x: &mut tensor<?xf64>) {
            x[i] = max(x[i], a[i, j] * v[j]);
        }
        // Over a whole matrix and a 3-D tensor into scalars.
        pub fn min_all_csc(a: &tensor<?x?xf64, #CSC>, s: &mut tensor<f64>) {
            s[] = min(s[], a[i, j]);
        }
        pub fn max_all_csf(a: &tensor<?x?x?xf64, #CSF>, s: &mut tensor<f64>) {
            s[] = max(s[], a[i, j, k]);
        }
        // Per first index of a 3-D tensor: `j` and `k` reduced.
        pub fn max_slices_csf(a: &tensor<?x?x?xf64, #CSF>, x: &mut tensor<?xf64>) {
            x[i] = max(x[i], a[i, j, k]);
        }
        // `linalg.pooling_nhwc_max` line by line: a 2x2 max pooling from the
        // old values, the window's implicit zeros included.
        #[range(k = 2, l = 2)]
        pub fn max_pool_csr(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = max(o[i, j], a[i + k, j + l]);
        }
        pub fn min_vec_sv(a: &tensor<?xf64, #SV>, s: &mut tensor<f64>) {
            s[] = min(s[], a[i]);
        }

        // Upstream's `sparse_reductions_min.mlir`: `min1` is the custom
        // reduction (stored entries, from the old value as identity), `min2`
        // the regular one.
        #SV32 = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
        pub fn min1(a: &tensor<32xi32, #SV32>, c: i32, x: &mut tensor<i32>) {
            x[] = reduce(a[i], identity = c, |x, y| min(x, y));
        }
        pub fn min2(a: &tensor<32xi32, #SV32>, x: &mut tensor<i32>) {
            x[] = min(a[i], x[]);
        }
    }
}

/// `old[r]` folded with `f` over every element of row `r` of `m` (a dense
/// row-major `rows x (len / rows)` matrix).
fn fold_rows(old: &[f64], m: &[f64], cols: usize, f: fn(f64, f64) -> f64) -> Vec<f64> {
    old.iter()
        .enumerate()
        .map(|(r, &x)| {
            m[r * cols..(r + 1) * cols]
                .iter()
                .fold(x, |acc, &v| f(acc, v))
        })
        .collect()
}

/// `old[c]` folded with `f` over every element of column `c`.
fn fold_columns(old: &[f64], m: &[f64], cols: usize, f: fn(f64, f64) -> f64) -> Vec<f64> {
    old.iter()
        .enumerate()
        .map(|(c, &x)| {
            m.iter()
                .skip(c)
                .step_by(cols.max(1))
                .fold(x, |acc, &v| f(acc, v))
        })
        .collect()
}

fn matrices(
    d: [usize; 2],
    a: &Entries<f64>,
    coo: &Entries<f64>,
    v: &[f64],
    x0: &[f64],
    s0: f64,
) -> Result<(), TestCaseError> {
    let mut rep = Report::default();
    let m = Dense::from_entries(&d, a).data;
    let mc = Dense::from_entries(&d, coo).data;
    let x0r = &x0[..d[0]];
    let x0c = &x0[..d[1]];
    macro_rules! check {
        ($what:expr, $want:expr, $x0:expr, |$x:ident| $call:expr) => {{
            let mut $x = $x0.to_vec();
            let r = $call;
            rep.add(match r {
                Ok(()) => same($what, &$x, &$want),
                Err(e) => Err(TestCaseError::fail(format!("{}: {e:?}", $what))),
            });
        }};
    }
    let rmax = fold_rows(x0r, &m, d[1], f64::max);
    let rmin = fold_rows(x0r, &m, d[1], f64::min);
    check!("rmax_csr", rmax, x0r, |x| with_tensor(&CSR, d, a, |t| {
        k::rmax_csr(t, &mut x)
    }));
    check!("rmax_csc", rmax, x0r, |x| with_tensor(&CSC, d, a, |t| {
        k::rmax_csc(t, &mut x)
    }));
    check!("rmin_dcsr", rmin, x0r, |x| with_tensor(&DCSR, d, a, |t| {
        k::rmin_dcsr(t, &mut x)
    }));
    check!("rmin_coo", fold_rows(x0r, &mc, d[1], f64::min), x0r, |x| {
        with_tensor(&COO, d, &sorted(coo.clone()), |t| k::rmin_coo(t, &mut x))
    });
    check!("rmax_dense", rmax, x0r, |x| k::rmax_dense(
        DenseView::new(&m, d).unwrap(),
        &mut x
    ));
    check!(
        "cmax_csr",
        fold_columns(x0c, &m, d[1], f64::max),
        x0c,
        |x| { with_tensor(&CSR, d, a, |t| k::cmax_csr(t, &mut x)) }
    );
    let prod: Vec<f64> = m
        .iter()
        .enumerate()
        .map(|(at, &w)| w * v[at % d[1].max(1)])
        .collect();
    check!(
        "rmax_product_dcsr",
        fold_rows(x0r, &prod, d[1], f64::max),
        x0r,
        |x| { with_tensor(&DCSR, d, a, |t| k::rmax_product_dcsr(t, &v[..d[1]], &mut x)) }
    );
    let all = m.iter().fold(s0, |acc, &w| acc.min(w));
    check!("min_all_csc", [all], [s0], |x| with_tensor(
        &CSC,
        d,
        a,
        |t| k::min_all_csc(t, &mut x[0])
    ));
    rep.finish()
}

fn tensors(d: [usize; 3], a: &Entries<f64>, x0: &[f64], s0: f64) -> Result<(), TestCaseError> {
    let m = Dense::from_entries(&d, a).data;
    let x0 = &x0[..d[0]];
    let mut s = s0;
    prop_assert_eq!(
        with_tensor(&CSF, d, a, |t| k::max_all_csf(t, &mut s)),
        Ok(())
    );
    same(
        "max_all_csf",
        &[s],
        &[m.iter().fold(s0, |acc, &w| acc.max(w))],
    )?;
    let mut x = x0.to_vec();
    prop_assert_eq!(
        with_tensor(&CSF, d, a, |t| k::max_slices_csf(t, &mut x)),
        Ok(())
    );
    same(
        "max_slices_csf",
        &x,
        &fold_rows(x0, &m, d[1] * d[2], f64::max),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn matrix_reductions_fold_every_element_from_the_old_value(
        (d, a, coo) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries_with_duplicates::<f64>(&d, 12))),
        v in dense_vec::<f64>(5),
        x0 in dense_vec::<f64>(5),
        s0 in elem::<f64>(),
    ) {
        matrices(d, &a, &coo, &v, &x0, s0)?;
    }

    #[test]
    fn tensor_reductions_fold_every_element_from_the_old_value(
        (d, a) in dims::<3>(4).prop_flat_map(|d| (Just(d), entries::<f64>(&d))),
        x0 in dense_vec::<f64>(4),
        s0 in elem::<f64>(),
    ) {
        tensors(d, &a, &x0, s0)?;
    }

    #[test]
    fn max_pooling_from_the_old_values(
        (d, a) in dims::<2>(6).prop_flat_map(|d| (Just(d), entries::<f64>(&d))),
        o0 in dense_vec::<f64>(25),
    ) {
        let m = Dense::from_entries(&d, &a);
        let od = [d[0].saturating_sub(1), d[1].saturating_sub(1)];
        let mut want = o0[..od[0] * od[1]].to_vec();
        for i in 0..od[0] {
            for j in 0..od[1] {
                for (k, l) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let w = &mut want[i * od[1] + j];
                    *w = w.max(m.at(&[i + k, j + l]));
                }
            }
        }
        let mut o = o0[..od[0] * od[1]].to_vec();
        let r = with_tensor(&CSR, d, &a, |t| {
            k::max_pool_csr(t, sparse_core::DenseViewMut::new(&mut o, od).unwrap())
        });
        prop_assert_eq!(r, Ok(()));
        same("max_pool_csr", &o, &want)?;
    }

    #[test]
    fn a_vector_minimum_counts_implicit_zeros(
        (d, a) in dims::<1>(8).prop_flat_map(|d| (Just(d), entries::<f64>(&d))),
        s0 in elem::<f64>(),
    ) {
        let want = Dense::from_entries(&d, &a).data.iter().fold(s0, |acc, &w| acc.min(w));
        let mut s = s0;
        prop_assert_eq!(with_tensor(&SV, d, &a, |t| k::min_vec_sv(t, &mut s)), Ok(()));
        prop_assert_eq!(s, want);
    }
}

/// Upstream's `sparse_reductions_min.mlir`, with its inputs and CHECK
/// values: 1, 1, 0 for the custom reduction over stored entries, 0, 1, 0
/// for the regular one (implicit zeros count), all from 999.
#[test]
fn mlir_reductions_min() {
    let c0: [i32; 32] = [
        2, 2, 7, 2, 2, 2, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 0, 9, 2, 2, 2, 2, 0, 5, 1,
        7, 3,
    ];
    let c1: [i32; 32] = [
        2, 2, 7, 2, 2, 2, 2, 2, 2, 2, 2, 4, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 7, 2, 2, 2, 2, 2, 2, 1,
        7, 3,
    ];
    // `sparse_tensor.convert` of a dense constant stores the nonzeros only.
    let nonzeros = |c: &[i32; 32]| -> Entries<i32> {
        c.iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(i, &v)| (vec![i], v))
            .collect()
    };
    // `sparse< [ [1], [7] ], [ 0, 22 ] >`: an explicit zero.
    let sv2: Entries<i32> = vec![(vec![1], 0), (vec![7], 22)];
    let inputs = [nonzeros(&c0), nonzeros(&c1), sv2];
    let mut got = Vec::new();
    for e in &inputs {
        let mut x = 999;
        with_tensor(&SV, [32], e, |t| k::min1(t, 999, &mut x)).unwrap();
        got.push(x);
    }
    for e in &inputs {
        let mut x = 999;
        with_tensor(&SV, [32], e, |t| k::min2(t, &mut x)).unwrap();
        got.push(x);
    }
    assert_eq!(got, [1, 1, 0, 0, 1, 0]);
}
