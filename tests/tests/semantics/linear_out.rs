//! Outputs written at affine subscripts (issue 29, item 3): the linearized
//! subscript of a `collapse_shape` (`x[4 * i + j] = a[i, j]`, and
//! `x[12 * i + 4 * j + k] = t[i, j, k]`), strides (`y[2 * i] = a[i]`), and
//! subscripts that reach an element from several points (a polynomial
//! product `c[i + j] = a[i] * b[j]`), which sum. `=` zeroes the output first,
//! `+=` adds to it; every subscript is checked against the output's size
//! before the loops.
//!
//! The reference is a dense scatter written by hand over `Dense` (the
//! operands with duplicates summed), over CSR, CSC, DCSR, COO (duplicates
//! included), CSF, sparse-vector and dense operands, with outputs
//! pre-filled with garbage (so `=` must zero them) or known values (`+=`).

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, entries_with_duplicates, Entries};

use sparse_core::output::Owned;
use sparse_tests::sparse_out::{check_output, Stored};

use super::common::{same, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        // collapse_shape of a ?x4 matrix into a vector, every format.
        pub fn flat_csr(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[4 * i + j] = a[i, j];
        }
        pub fn flat_csc(a: &tensor<?x4xf64, #CSC>, x: &mut tensor<?xf64>) {
            x[4 * i + j] = a[i, j];
        }
        pub fn flat_dcsr(a: &tensor<?x4xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[4 * i + j] = a[i, j];
        }
        pub fn flat_coo(a: &tensor<?x4xf64, #COO>, x: &mut tensor<?xf64>) {
            x[4 * i + j] = a[i, j];
        }
        // Column-major flattening of a CSR matrix: against its storage order.
        pub fn flat_columns_csr(a: &tensor<3x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i + 3 * j] = a[i, j];
        }
        // A 3-D tensor into a vector and into a matrix.
        pub fn flat_csf(t: &tensor<?x3x4xf64, #CSF>, x: &mut tensor<?xf64>) {
            x[12 * i + 4 * j + k] = t[i, j, k];
        }
        pub fn merge_csf(t: &tensor<?x3x4xf64, #CSF>, m: &mut tensor<?x?xf64>) {
            m[i, 4 * j + k] = t[i, j, k] * 2.0;
        }
        // With a reduction: a product flattened (`k` summed per element).
        pub fn flat_matmul_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x2xf64>, x: &mut tensor<?xf64>) {
            x[2 * i + j] = a[i, k] * b[k, j];
        }
        // Strided and shifted: the other elements become zero.
        pub fn spread_sv(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[2 * i + 1] = a[i];
        }
        // Overlapping points sum: polynomial products, anti-diagonals.
        pub fn poly_sv(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, c: &mut tensor<?xf64>) {
            c[i + j] = a[i] * b[j];
        }
        pub fn antidiagonals_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64>) {
            y[i + j] += a[i, j];
        }
        pub fn antidiagonals_dense(a: &tensor<?x?xf64>, y: &mut tensor<?xf64>) {
            y[i + j] -= a[i, j];
        }

        // Sparse outputs: staged in any order, sorted and summed at the end.
        pub fn flat_csr_sv(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[4 * i + j] = a[i, j];
        }
        pub fn flat_columns_csr_sv(a: &tensor<3x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
            x[i + 3 * j] = a[i, j];
        }
        pub fn flat_coo_sv(a: &tensor<?x4xf64, #COO>, x: &mut tensor<?xf64, #SV>) {
            x[4 * i + j] = a[i, j];
        }
        pub fn poly_sv_sv(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
            c[i + j] = a[i] * b[j];
        }
        pub fn antidiagonals_csc_sv(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64, #SV>) {
            y[i + j] = a[i, j];
        }
        pub fn reverse_sv(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>) {
            y[7 - i] = a[i];
        }
        // A reduction loop (`k`) enclosing the output's: every point staged.
        pub fn corr_sv(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i + j] = a[k, i] * b[k, j];
        }
        pub fn corr_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i + j] = a[k, i] * b[k, j];
        }
        pub fn merge_csf_dcsr(t: &tensor<?x3x4xf64, #CSF>, m: &mut tensor<?x?xf64, #DCSR>) {
            m[i, 4 * j + k] = t[i, j, k];
        }
    }
}

/// The garbage `=` must overwrite.
const GARBAGE: f64 = -7777.0;

/// `x` zeroed (for `=`) or kept (`+=`), then `value(point)` added at
/// `at(point)` for every point of `dims`.
fn scatter(
    x: &mut [f64],
    dims: &[usize],
    at: impl Fn(&[usize]) -> usize,
    value: impl Fn(&[usize]) -> f64,
) {
    let total: usize = dims.iter().product();
    for n in 0..total {
        let p = sparse_tests::gen::unravel(dims, n);
        x[at(&p)] += value(&p);
    }
}

fn run(
    what: &str,
    want: &[f64],
    init: f64,
    len: usize,
    call: impl FnOnce(&mut [f64]) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let mut x = vec![init; len];
    match call(&mut x) {
        Ok(()) => same(what, &x, want),
        Err(e) => Err(TestCaseError::fail(format!("{what}: {e:?}"))),
    }
}

fn flatten(rows: usize, a: &Entries<f64>, coo: &Entries<f64>) -> Result<(), TestCaseError> {
    let d = [rows, 4];
    let m = Dense::from_entries(&d, a);
    let mc = Dense::from_entries(&d, coo);
    let mut rep = Report::default();
    let mut want = vec![0.0; rows * 4];
    scatter(&mut want, &d, |p| 4 * p[0] + p[1], |p| m.at(p));
    rep.add(run("flat_csr", &want, GARBAGE, rows * 4, |x| {
        with_tensor(&CSR, d, a, |t| k::flat_csr(t, x))
    }));
    rep.add(run("flat_csc", &want, GARBAGE, rows * 4, |x| {
        with_tensor(&CSC, d, a, |t| k::flat_csc(t, x))
    }));
    rep.add(run("flat_dcsr", &want, GARBAGE, rows * 4, |x| {
        with_tensor(&DCSR, d, a, |t| k::flat_dcsr(t, x))
    }));
    let mut want_coo = vec![0.0; rows * 4];
    scatter(&mut want_coo, &d, |p| 4 * p[0] + p[1], |p| mc.at(p));
    rep.add(run("flat_coo", &want_coo, GARBAGE, rows * 4, |x| {
        with_tensor(&COO, d, coo, |t| k::flat_coo(t, x))
    }));
    rep.finish()
}

fn matrices(d: [usize; 2], a: &Entries<f64>, b: &[f64], y0: &[f64]) -> Result<(), TestCaseError> {
    let m = Dense::from_entries(&d, a);
    let mut rep = Report::default();
    let len = (d[0] + d[1]).saturating_sub(1);
    let mut want = y0[..len].to_vec();
    scatter(&mut want, &d, |p| p[0] + p[1], |p| m.at(p));
    rep.add(run("antidiagonals_csc", &want, 0.0, len, |y| {
        y.copy_from_slice(&y0[..len]);
        with_tensor(&CSC, d, a, |t| k::antidiagonals_csc(t, y))
    }));
    let mut want = y0[..len].to_vec();
    scatter(&mut want, &d, |p| p[0] + p[1], |p| -m.at(p));
    rep.add(run("antidiagonals_dense", &want, 0.0, len, |y| {
        y.copy_from_slice(&y0[..len]);
        k::antidiagonals_dense(DenseView::new(&m.data, d).unwrap(), y)
    }));
    // `x[2 * i + j] = sum_k a[i, k] b[k, j]` with `b` of shape `d[1] x 2`.
    let bd = Dense::from_data(&[d[1], 2], b[..d[1] * 2].to_vec());
    let mut want = vec![0.0; d[0] * 2];
    scatter(
        &mut want,
        &[d[0], 2, d[1]],
        |p| 2 * p[0] + p[1],
        |p| m.at(&[p[0], p[2]]) * bd.at(&[p[2], p[1]]),
    );
    rep.add(run("flat_matmul_csr", &want, GARBAGE, d[0] * 2, |x| {
        with_tensor(&CSR, d, a, |t| {
            k::flat_matmul_csr(t, DenseView::new(&bd.data, [d[1], 2]).unwrap(), x)
        })
    }));
    if d[0] == 3 {
        let mut want = vec![0.0; 3 * d[1]];
        scatter(&mut want, &d, |p| p[0] + 3 * p[1], |p| m.at(p));
        rep.add(run("flat_columns_csr", &want, GARBAGE, 3 * d[1], |x| {
            with_tensor(&CSR, d, a, |t| k::flat_columns_csr(t, x))
        }));
    }
    rep.finish()
}

fn vectors(n: usize, a: &Entries<f64>, b: &[f64]) -> Result<(), TestCaseError> {
    let v = Dense::from_entries(&[n], a);
    let mut rep = Report::default();
    let mut want = vec![0.0; 2 * n + 1];
    scatter(&mut want, &[n], |p| 2 * p[0] + 1, |p| v.at(p));
    rep.add(run("spread_sv", &want, GARBAGE, 2 * n + 1, |y| {
        with_tensor(&SV, [n], a, |t| k::spread_sv(t, y))
    }));
    let m = b.len();
    let len = (n + m).saturating_sub(1);
    let mut want = vec![0.0; len];
    scatter(
        &mut want,
        &[n, m],
        |p| p[0] + p[1],
        |p| v.at(&[p[0]]) * b[p[1]],
    );
    rep.add(run("poly_sv", &want, GARBAGE, len, |c| {
        with_tensor(&SV, [n], a, |t| k::poly_sv(t, b, c))
    }));
    rep.finish()
}

fn tensors(d0: usize, t: &Entries<f64>) -> Result<(), TestCaseError> {
    let d = [d0, 3, 4];
    let dense = Dense::from_entries(&d, t);
    let mut want = vec![0.0; d0 * 12];
    scatter(
        &mut want,
        &d,
        |p| 12 * p[0] + 4 * p[1] + p[2],
        |p| dense.at(p),
    );
    run("flat_csf", &want, GARBAGE, d0 * 12, |x| {
        with_tensor(&CSF, d, t, |a| k::flat_csf(a, x))
    })?;
    let mut want = vec![0.0; d0 * 12];
    scatter(
        &mut want,
        &d,
        |p| 12 * p[0] + 4 * p[1] + p[2],
        |p| dense.at(p) * 2.0,
    );
    run("merge_csf", &want, GARBAGE, d0 * 12, |m| {
        with_tensor(&CSF, d, t, |a| {
            k::merge_csf(a, DenseViewMut::new(m, [d0, 12]).unwrap())
        })
    })
}

/// A sparse output's expected content: every coordinate some visited point
/// reaches (`at`), holding the sum of their values.
fn staged(
    dims: &[usize],
    visited: impl Fn(&[usize]) -> bool,
    at: impl Fn(&[usize]) -> Vec<usize>,
    value: impl Fn(&[usize]) -> f64,
) -> Stored<f64> {
    let mut out = Stored::new();
    let total: usize = dims.iter().product();
    for n in 0..total {
        let p = sparse_tests::gen::unravel(dims, n);
        if visited(&p) {
            *out.entry(at(&p)).or_insert(0.0) += value(&p);
        }
    }
    out
}

/// The dense form of `stored` in `dims`.
fn densify(dims: &[usize], stored: &Stored<f64>) -> Dense<f64> {
    let mut d = Dense::zeros(dims);
    for (c, &v) in stored {
        *d.at_mut(c) = v;
    }
    d
}

fn sparse_outputs(
    d: [usize; 2],
    a: &Entries<f64>,
    coo: &Entries<f64>,
    b: &[f64],
    v: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let mut rep = Report::default();
    let stored = |e: &Entries<f64>| -> std::collections::BTreeSet<Vec<usize>> {
        e.iter().map(|(c, _)| c.clone()).collect()
    };
    let m = Dense::from_entries(&d, a);
    let sa = stored(a);
    macro_rules! sv {
        ($what:expr, $len:expr, $want:expr, |$x:ident| $call:expr) => {{
            let want = $want;
            let mut $x = k::SVOut::<f64, Owned>::with_dims([$len]).unwrap();
            let r = $call;
            rep.add(match r {
                Ok(()) => check_output(&$x.view(), &want, &densify(&[$len], &want))
                    .map_err(|e| TestCaseError::fail(format!("{}: {e}", $what))),
                Err(e) => Err(TestCaseError::fail(format!("{}: {e:?}", $what))),
            });
        }};
    }
    // `x[4 * i + j] = a[i, j]` over a `rows x 4` corner of `a`.
    let rows = d[0];
    let d4 = [rows, 4];
    let a4: Entries<f64> = a.iter().filter(|(c, _)| c[1] < 4).cloned().collect();
    let m4 = Dense::from_entries(&d4, &a4);
    let s4 = stored(&a4);
    sv!(
        "flat_csr_sv",
        rows * 4,
        staged(
            &d4,
            |p| s4.contains(p),
            |p| vec![4 * p[0] + p[1]],
            |p| m4.at(p)
        ),
        |x| { with_tensor(&CSR, d4, &a4, |t| k::flat_csr_sv(t, &mut x)) }
    );
    let coo4: Entries<f64> = coo.iter().filter(|(c, _)| c[1] < 4).cloned().collect();
    let mc = Dense::from_entries(&d4, &coo4);
    let sc = stored(&coo4);
    sv!(
        "flat_coo_sv",
        rows * 4,
        staged(
            &d4,
            |p| sc.contains(p),
            |p| vec![4 * p[0] + p[1]],
            |p| mc.at(p)
        ),
        |x| { with_tensor(&COO, d4, &coo4, |t| k::flat_coo_sv(t, &mut x)) }
    );
    let len = (d[0] + d[1]).saturating_sub(1);
    sv!(
        "antidiagonals_csc_sv",
        len,
        staged(&d, |p| sa.contains(p), |p| vec![p[0] + p[1]], |p| m.at(p)),
        |y| { with_tensor(&CSC, d, a, |t| k::antidiagonals_csc_sv(t, &mut y)) }
    );
    if d[0] == 3 {
        sv!(
            "flat_columns_csr_sv",
            3 * d[1],
            staged(
                &d,
                |p| sa.contains(p),
                |p| vec![p[0] + 3 * p[1]],
                |p| m.at(p)
            ),
            |x| { with_tensor(&CSR, d, a, |t| k::flat_columns_csr_sv(t, &mut x)) }
        );
    }
    // Vectors: a polynomial product and a reversal.
    let n = 8;
    let vd = Dense::from_entries(&[n], v);
    let sv = stored(v);
    let mb = b.len();
    let plen = (n + mb).saturating_sub(1);
    sv!(
        "poly_sv_sv",
        plen,
        staged(
            &[n, mb],
            |p| sv.contains(&vec![p[0]]),
            |p| vec![p[0] + p[1]],
            |p| vd.at(&[p[0]]) * b[p[1]]
        ),
        |c| { with_tensor(&SV, [n], v, |t| k::poly_sv_sv(t, b, &mut c)) }
    );
    sv!(
        "reverse_sv",
        n,
        staged(&[n], |p| sv.contains(p), |p| vec![7 - p[0]], |p| vd.at(p)),
        |y| { with_tensor(&SV, [n], v, |t| k::reverse_sv(t, &mut y)) }
    );
    rep.finish()
}

/// `x[i + j] = sum over k of a[k, i] * b[k, j]`, the points where both
/// store an entry staged into a sparse vector, and into a dense one.
fn correlation(d: [usize; 2], a: &Entries<f64>, b: &Entries<f64>) -> Result<(), TestCaseError> {
    let (ma, mb) = (Dense::from_entries(&d, a), Dense::from_entries(&d, b));
    let sa: std::collections::BTreeSet<Vec<usize>> = a.iter().map(|(c, _)| c.clone()).collect();
    let sb: std::collections::BTreeSet<Vec<usize>> = b.iter().map(|(c, _)| c.clone()).collect();
    let len = (2 * d[1]).saturating_sub(1);
    let pts = [d[0], d[1], d[1]];
    let want = staged(
        &pts,
        |p| sa.contains(&vec![p[0], p[1]]) && sb.contains(&vec![p[0], p[2]]),
        |p| vec![p[1] + p[2]],
        |p| ma.at(&[p[0], p[1]]) * mb.at(&[p[0], p[2]]),
    );
    let mut x = k::SVOut::<f64, Owned>::with_dims([len]).unwrap();
    let r = with_tensor(&CSR, d, a, |ta| {
        with_tensor(&DCSR, d, b, |tb| k::corr_sv(ta, tb, &mut x))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want, &densify(&[len], &want)).map_err(TestCaseError::fail)?;
    let mut dense = vec![0.0; len];
    scatter(
        &mut dense,
        &pts,
        |p| p[1] + p[2],
        |p| ma.at(&[p[0], p[1]]) * mb.at(&[p[0], p[2]]),
    );
    run("corr_dense", &dense, GARBAGE, len, |y| {
        with_tensor(&CSR, d, a, |ta| {
            with_tensor(&DCSR, d, b, |tb| k::corr_dense(ta, tb, y))
        })
    })
}

fn sparse_tensor_output(d0: usize, t: &Entries<f64>) -> Result<(), TestCaseError> {
    let d = [d0, 3, 4];
    let dense = Dense::from_entries(&d, t);
    let st: std::collections::BTreeSet<Vec<usize>> = t.iter().map(|(c, _)| c.clone()).collect();
    let want = staged(
        &d,
        |p| st.contains(p),
        |p| vec![p[0], 4 * p[1] + p[2]],
        |p| dense.at(p),
    );
    let mut m = k::DCSROut::<f64, Owned>::with_dims([d0, 12]).unwrap();
    prop_assert_eq!(
        with_tensor(&CSF, d, t, |a| k::merge_csf_dcsr(a, &mut m)),
        Ok(())
    );
    check_output(&m.view(), &want, &densify(&[d0, 12], &want)).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn collapsing_a_matrix_writes_every_element_once(
        (rows, a, coo) in (0usize..=5).prop_flat_map(|r| (Just(r), entries::<f64>(&[r, 4]), entries_with_duplicates::<f64>(&[r, 4], 12))),
    ) {
        flatten(rows, &a, &coo)?;
    }

    #[test]
    fn matrix_subscripts_scatter_and_sum(
        (d, a) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries::<f64>(&d))),
        b in dense_vec::<f64>(10),
        y0 in dense_vec::<f64>(9),
    ) {
        matrices(d, &a, &b, &y0)?;
    }

    #[test]
    fn column_major_flattening_against_the_storage_order(
        (d, a) in (0usize..=5).prop_flat_map(|n| (Just([3, n]), entries::<f64>(&[3, n]))),
        b in dense_vec::<f64>(10),
        y0 in dense_vec::<f64>(9),
    ) {
        matrices(d, &a, &b, &y0)?;
    }

    #[test]
    fn vector_subscripts_stride_and_sum(
        (n, a) in (0usize..=8).prop_flat_map(|n| (Just(n), entries::<f64>(&[n]))),
        b in (0usize..=5).prop_flat_map(dense_vec::<f64>),
    ) {
        vectors(n, &a, &b)?;
    }

    #[test]
    fn sparse_outputs_are_staged_sorted_and_summed(
        (d, a, coo) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries_with_duplicates::<f64>(&d, 12))),
        b in (0usize..=4).prop_flat_map(dense_vec::<f64>),
        v in entries::<f64>(&[8]),
    ) {
        sparse_outputs(d, &a, &coo, &b, &v)?;
    }

    #[test]
    fn sparse_outputs_from_columns(
        (d, a) in (0usize..=5).prop_flat_map(|n| (Just([3, n]), entries::<f64>(&[3, n]))),
        v in entries::<f64>(&[8]),
    ) {
        sparse_outputs(d, &a, &a, &[], &v)?;
    }

    #[test]
    fn a_reduction_outside_the_output_loops(
        (d, a, b) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries::<f64>(&d))),
    ) {
        correlation(d, &a, &b)?;
    }

    #[test]
    fn a_3d_tensor_into_a_sparse_matrix(
        (d0, t) in (0usize..=3).prop_flat_map(|n| (Just(n), entries::<f64>(&[n, 3, 4]))),
    ) {
        sparse_tensor_output(d0, &t)?;
    }

    #[test]
    fn collapsing_a_3d_tensor(
        (d0, t) in (0usize..=3).prop_flat_map(|n| (Just(n), entries::<f64>(&[n, 3, 4]))),
    ) {
        tensors(d0, &t)?;
    }
}

/// A subscript that would leave the output is an error before any write.
#[test]
fn an_output_too_short_is_an_error() {
    let a: Entries<f64> = vec![(vec![0, 1], 1.0), (vec![2, 3], 2.0)];
    let mut x = [GARBAGE; 11];
    let r = with_tensor(&CSR, [3, 4], &a, |t| k::flat_csr(t, &mut x));
    assert!(
        matches!(
            r,
            Err(KernelError::SubscriptRange {
                tensor: "x",
                max: 11,
                size: 11,
                ..
            })
        ),
        "{r:?}"
    );
    assert_eq!(x, [GARBAGE; 11]);
    // A longer output is fine: its tail is zeroed.
    let mut x = [GARBAGE; 13];
    with_tensor(&CSR, [3, 4], &a, |t| k::flat_csr(t, &mut x)).unwrap();
    let mut want = [0.0; 13];
    want[1] = 1.0;
    want[11] = 2.0;
    assert_eq!(x, want);
}

/// A sparse output at an affine subscript in caller buffers (`Slices`, no
/// allocator): the staged points need the workspace, one value and two
/// added coordinates (level coordinate, sequence number) per point; too
/// small a workspace is `KernelError::Capacity` naming it, with the output
/// left a valid empty tensor, and one large enough gives the sums.
#[test]
fn a_staged_output_in_caller_buffers() {
    use sparse_core::{Buffer, SliceBuffer, Slices};
    // (1 + 2t) (3 + t + t²): 6 points, 4 coordinates.
    let a: Entries<f64> = vec![(vec![0], 1.0), (vec![1], 2.0)];
    let b = [3.0, 1.0, 1.0];
    let run = |ws: usize| {
        let (mut pos, mut crd, mut val) = ([0usize; 2], [0usize; 4], [0.0f64; 4]);
        let (mut ws_val, mut ws_added) = (vec![0.0f64; ws], vec![0usize; 2 * ws]);
        let mut c = k::SVOut::<f64, Slices<'_>>::new(
            [4],
            [SliceBuffer::new(&mut pos)],
            [SliceBuffer::new(&mut crd)],
            SliceBuffer::new(&mut val),
            SliceBuffer::new(&mut ws_val),
            SliceBuffer::default(),
            SliceBuffer::new(&mut ws_added),
        )
        .unwrap();
        let r = with_tensor(&SV, [2], &a, |t| k::poly_sv_sv(t, &b, &mut c));
        let v = c.view();
        (r, v.level(0).coordinates().to_vec(), v.values().to_vec())
    };
    let (r, crd, val) = run(5);
    assert!(
        matches!(
            r,
            Err(KernelError::Capacity {
                tensor: "c",
                buffer: Buffer::Workspace,
                needed: 6,
                ..
            })
        ),
        "{r:?}"
    );
    assert!(crd.is_empty() && val.is_empty());
    let (r, crd, val) = run(6);
    assert_eq!(r, Ok(()));
    assert_eq!(crd, [0, 1, 2, 3]);
    assert_eq!(val, [3.0, 7.0, 3.0, 2.0]);
}
