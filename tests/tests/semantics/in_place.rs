//! In-place updates of sparse outputs (issue 10, item 4): `c[i, j] =
//! c[i, j] * 2.0`, `c[i, j] *= d[i]`, `c[i, j] = c[i, j] * c[i, j]` walk the
//! stored entries of `c` and overwrite their values; positions and
//! coordinates stay as they were (explicit zeros included), and a statement
//! that would change the sparsity is a compile error (UI tests
//! `kernel/in-place-*`). `x[i] = unary(x[i], present = f, absent = none)`
//! is one too: no value where `x` stores nothing.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_tests::fixture::{with_tensor, CSC, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        pub fn copy_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j]; }
        pub fn copy_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j]; }
        pub fn copy_sv(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) { c[i] = a[i]; }
        pub fn copy_csc(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSC>) { c[i, j] = a[i, j]; }
        pub fn copy_csf(a: &tensor<?x?x?xf64, #CSF>, c: &mut tensor<?x?x?xf64, #CSF>) { c[i, j, k] = a[i, j, k]; }

        // MLIR's in-place `sparse_tensor.unary` with an empty absent region.
        pub fn tanh_sv(x: &mut tensor<?xf64, #SV>) { x[i] = unary(x[i], present = |v| tanh(v), absent = none); }
        pub fn tanh_csr(c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = unary(c[i, j], present = |v| tanh(v), absent = none); }
        pub fn tanh_csc(c: &mut tensor<?x?xf64, #CSC>) { c[i, j] = unary(c[i, j], present = |v| tanh(v), absent = none); }
        pub fn tanh_dcsr(c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = unary(c[i, j], present = |v| tanh(v), absent = none); }
        pub fn tanh_csf(c: &mut tensor<?x?x?xf64, #CSF>) { c[i, j, k] = unary(c[i, j, k], present = |v| tanh(v), absent = none); }
        pub fn shifted_rows(d: &tensor<?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = unary(c[i, j] * d[i], present = |v| v + 1.0, absent = none);
        }

        pub fn double(c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = c[i, j] * 2.0; }
        pub fn square(c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = c[i, j] * c[i, j]; }
        pub fn times(s: f64, x: &mut tensor<?xf64, #SV>) { x[i] *= s; }
        pub fn scale_rows(d: &tensor<?xf64>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] *= d[i] + 1.0; }
        pub fn divide_columns(d: &tensor<?xf64>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] /= d[j]; }
        pub fn shrink(c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = if c[i, j] > 1.0 { c[i, j] * 2.0 } else { c[i, j] * 0.5 };
        }
        /// Built, then updated, in one kernel.
        pub fn mean(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
            c[i, j] *= 0.5;
        }
    }
}

/// The stored entries of a view, in storage order.
fn stored<E: sparse_core::Encoding, const D: usize, const L: usize>(
    c: &sparse_core::SparseTensorOut<f64, E, Owned, D, L>,
) -> Vec<([usize; D], f64)> {
    let mut out = Vec::new();
    c.view().for_each(|crd, v| out.push((crd, *v)));
    out
}

fn matrix() -> impl Strategy<Value = ([usize; 2], Entries<f64>, Vec<f64>, Vec<f64>)> {
    dims::<2>(7).prop_flat_map(|d| {
        (
            Just(d),
            entries::<f64>(&d),
            dense_vec::<f64>(d[0]),
            dense_vec::<f64>(d[1]),
        )
    })
}

proptest! {
    #[test]
    fn updates_keep_the_pattern_and_rewrite_the_values((d, e, dr, dc) in matrix()) {
        let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&CSR, d, &e, |a| k::copy_csr(a, &mut c)).unwrap();
        let before = stored(&c);
        k::double(&mut c).unwrap();
        let want: Vec<_> = before.iter().map(|&(p, v)| (p, v * 2.0)).collect();
        prop_assert_eq!(&stored(&c), &want);
        k::shrink(&mut c).unwrap();
        let want: Vec<_> = want
            .iter()
            .map(|&(p, v)| (p, if v > 1.0 { v * 2.0 } else { v * 0.5 }))
            .collect();
        prop_assert_eq!(&stored(&c), &want);
        // Dividing by a column's value: inf or NaN where it is zero, as
        // Rust's `/` gives.
        k::divide_columns(&dc, &mut c).unwrap();
        let want: Vec<_> = want.iter().map(|&(p, v)| (p, v / dc[p[1]])).collect();
        let got = stored(&c);
        prop_assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            prop_assert_eq!(g.0, w.0);
            prop_assert!(g.1 == w.1 || (g.1.is_nan() && w.1.is_nan()), "{:?} vs {:?}", g, w);
        }

        let mut c = k::DCSROut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&DCSR, d, &e, |a| k::copy_dcsr(a, &mut c)).unwrap();
        let before = stored(&c);
        k::square(&mut c).unwrap();
        k::scale_rows(&dr, &mut c).unwrap();
        let want: Vec<_> = before.iter().map(|&(p, v)| (p, v * v * (dr[p[0]] + 1.0))).collect();
        prop_assert_eq!(stored(&c), want);
    }

    #[test]
    fn a_vector_scaled_in_place((n, e) in dims::<1>(9).prop_flat_map(|d| (Just(d), entries::<f64>(&d))), s in -3i32..4) {
        let s = f64::from(s);
        let mut x = k::SVOut::<f64, Owned>::with_dims(n).unwrap();
        with_tensor(&SV, n, &e, |a| k::copy_sv(a, &mut x)).unwrap();
        let before = stored(&x);
        k::times(s, &mut x).unwrap();
        let want: Vec<_> = before.iter().map(|&(p, v)| (p, v * s)).collect();
        prop_assert_eq!(stored(&x), want);
    }

    #[test]
    fn built_then_updated_in_one_kernel((d, ea, _, _) in matrix(), (_, eb, _, _) in matrix()) {
        let eb: Entries<f64> = eb.into_iter().filter(|(c, _)| c[0] < d[0] && c[1] < d[1]).collect();
        let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&CSR, d, &ea, |a| with_tensor(&CSR, d, &eb, |b| k::mean(a, b, &mut c))).unwrap();
        let mut sum = std::collections::BTreeMap::new();
        for (p, v) in ea.iter().chain(&eb) {
            *sum.entry([p[0], p[1]]).or_insert(0.0) += *v;
        }
        let want: Vec<_> = sum.into_iter().map(|(p, v)| (p, v * 0.5)).collect();
        prop_assert_eq!(stored(&c), want);
    }
}

/// `v.tanh()`, to the last bits the math backend may differ in.
fn near_tanh(got: &[(Vec<usize>, f64)], before: &[(Vec<usize>, f64)]) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.len(), before.len());
    for (g, b) in got.iter().zip(before) {
        prop_assert_eq!(&g.0, &b.0);
        prop_assert!(
            (g.1 - b.1.tanh()).abs() <= 1e-12,
            "{:?} vs tanh of {:?}",
            g,
            b
        );
    }
    Ok(())
}

/// The stored entries of a view, coordinates as vectors.
fn listed<E: sparse_core::Encoding, const D: usize, const L: usize>(
    c: &sparse_core::SparseTensorOut<f64, E, Owned, D, L>,
) -> Vec<(Vec<usize>, f64)> {
    stored(c)
        .into_iter()
        .map(|(p, v)| (p.to_vec(), v))
        .collect()
}

proptest! {
    /// The unary's present region rewrites every stored entry, in every
    /// format, and stores nothing new.
    #[test]
    fn unary_with_an_empty_absent_region_updates_in_place(
        (d, e, dr, _) in matrix(),
        (d3, e3) in dims::<3>(5).prop_flat_map(|d| (Just(d), entries::<f64>(&d))),
    ) {
        let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&CSR, d, &e, |a| k::copy_csr(a, &mut c)).unwrap();
        let before = listed(&c);
        k::tanh_csr(&mut c).unwrap();
        near_tanh(&listed(&c), &before)?;
        let before = listed(&c);
        k::shifted_rows(&dr, &mut c).unwrap();
        let want: Vec<_> = before.iter().map(|(p, v)| (p.clone(), v * dr[p[0]] + 1.0)).collect();
        prop_assert_eq!(listed(&c), want);

        let mut c = k::CSCOut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&CSC, d, &e, |a| k::copy_csc(a, &mut c)).unwrap();
        let before = listed(&c);
        k::tanh_csc(&mut c).unwrap();
        near_tanh(&listed(&c), &before)?;

        let mut c = k::DCSROut::<f64, Owned>::with_dims(d).unwrap();
        with_tensor(&DCSR, d, &e, |a| k::copy_dcsr(a, &mut c)).unwrap();
        let before = listed(&c);
        k::tanh_dcsr(&mut c).unwrap();
        near_tanh(&listed(&c), &before)?;

        let mut c = k::CSFOut::<f64, Owned>::with_dims(d3).unwrap();
        with_tensor(&CSF, d3, &e3, |a| k::copy_csf(a, &mut c)).unwrap();
        let before = listed(&c);
        k::tanh_csf(&mut c).unwrap();
        near_tanh(&listed(&c), &before)?;

        let n = [d[1]];
        let ev: Entries<f64> = e.iter().filter(|(p, _)| p[0] == 0).map(|(p, v)| (vec![p[1]], *v)).collect();
        let mut x = k::SVOut::<f64, Owned>::with_dims(n).unwrap();
        with_tensor(&SV, n, &ev, |a| k::copy_sv(a, &mut x)).unwrap();
        let before = listed(&x);
        k::tanh_sv(&mut x).unwrap();
        near_tanh(&listed(&x), &before)?;
    }
}
