//! SDDMM with the `k` sum first: `c[i, j] = s[i, j] * (u[i, k] * vt[j, k])`
//! computes `sum(k, ..)` into a local, then one product by `s`'s value —
//! always for integer kernels, under `#[reassociate]` for floats (where the
//! sum also runs in eight partial sums). Checked against a dense evaluation
//! and against the default kernel (the factor inside the sum, MLIR's
//! order), in every format of `s` and into dense and sparse outputs, with
//! inner sizes that run the partial sums and their remainder. The values
//! are small (quarters for floats), so every order of the sums is exact
//! and all results compare bit for bit.

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut, Owned};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR};
use sparse_tests::gen::{dense_vec, sparse, Elem, Entries};
use sparse_tests::sparse_out::read_back;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 16 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        // Floats: the default (factor in the sum) and `#[reassociate]`.
        pub fn fused_csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, vt: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }
        #[reassociate]
        pub fn csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, vt: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }
        #[reassociate]
        pub fn dcsr(s: &tensor<?x?xf64, #DCSR>, u: &tensor<?x?xf64>, vt: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = s[i, j] * sum(k, u[i, k] * vt[j, k]);
        }
        #[reassociate]
        pub fn coo_dense(s: &tensor<?x?xf64, #COO>, u: &tensor<?x?xf64>, vt: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }
        #[reassociate]
        pub fn csr_f32(s: &tensor<?x?xf32, #CSR>, u: &tensor<?x?xf32>, vt: &tensor<?x?xf32>, c: &mut tensor<?x?xf32, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }

        // Integers: the sum first without asking (the same bits).
        pub fn csr_i64(s: &tensor<?x?xi64, #CSR>, u: &tensor<?x?xi64>, vt: &tensor<?x?xi64>, c: &mut tensor<?x?xi64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }
        pub fn coo_i32_dense(s: &tensor<?x?xi32, #COO>, u: &tensor<?x?xi32>, vt: &tensor<?x?xi32>, c: &mut tensor<?x?xi32>) {
            c[i, j] = s[i, j] * (u[i, k] * vt[j, k]);
        }
    }
}

/// `[m, n]`, the inner size, `s`'s entries, `u` (`m x kk`), `vt` (`n x kk`).
type Input<V> = ([usize; 2], usize, Entries<V>, Vec<V>, Vec<V>);

/// The dense SDDMM where `s` stores an entry (zero elsewhere).
fn want<V: Elem>((dims, kk, e, u, vt): &Input<V>) -> Dense<V> {
    let [m, n] = *dims;
    let s = Dense::from_entries(&[m, n], e);
    let mut c = Dense::zeros(&[m, n]);
    for i in 0..m {
        for j in 0..n {
            let dot = (0..*kk).fold(V::ZERO, |acc, k| acc + u[i * kk + k] * vt[j * kk + k]);
            *c.at_mut(&[i, j]) = s.at(&[i, j]) * dot;
        }
    }
    c
}

fn input<V: Elem>() -> impl Strategy<Value = Input<V>> {
    // Inner sizes past 8 and 16: whole steps of partial sums and a rest.
    (sparse::<V, 2>(5), 0usize..=19).prop_flat_map(|((d, e), kk)| {
        (
            Just(d),
            Just(kk),
            Just(e),
            dense_vec(d[0] * kk),
            dense_vec(d[1] * kk),
        )
    })
}

/// Runs a kernel into a sparse output and returns the output as dense, and
/// its stored coordinates (those of `s`).
macro_rules! sparse_run {
    ($kernel:path, $out:ty, $layout:expr, $inp:expr) => {{
        let (dims, kk, e, u, vt) = $inp;
        let [m, n] = *dims;
        let mut c = <$out>::with_dims([m, n]).unwrap();
        let ok = with_tensor(&$layout, *dims, e, |s| {
            $kernel(
                s,
                DenseView::new(u, [m, *kk]).unwrap(),
                DenseView::new(vt, [n, *kk]).unwrap(),
                &mut c,
            )
        });
        prop_assert_eq!(ok, Ok(()));
        let got = read_back(&c.view()).map_err(TestCaseError::fail)?;
        let mut dense = Dense::zeros(&[m, n]);
        for (at, v) in &got {
            *dense.at_mut(at) = *v;
        }
        let coords: Vec<Vec<usize>> = got.into_iter().map(|(at, _)| at).collect();
        (dense, coords)
    }};
}

/// `s`'s distinct coordinates in order: what a sparse output stores.
fn pattern<V>(e: &Entries<V>) -> Vec<Vec<usize>> {
    let mut c: Vec<Vec<usize>> = e.iter().map(|(at, _)| at.clone()).collect();
    c.sort();
    c.dedup();
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn reassociated_floats_match_the_dense_and_the_fused_kernel(inp in input::<f64>()) {
        let want = want(&inp);
        let (fused, fused_at) = sparse_run!(k::fused_csr, k::CSROut<f64, Owned>, CSR, &inp);
        let (csr, csr_at) = sparse_run!(k::csr, k::CSROut<f64, Owned>, CSR, &inp);
        let (dcsr, dcsr_at) = sparse_run!(k::dcsr, k::DCSROut<f64, Owned>, DCSR, &inp);
        prop_assert_eq!(&fused.data, &want.data);
        prop_assert_eq!(&csr.data, &fused.data, "input {:?}", &inp);
        prop_assert_eq!(&dcsr.data, &want.data);
        prop_assert_eq!(&csr_at, &pattern(&inp.2));
        prop_assert_eq!(&fused_at, &csr_at);
        prop_assert_eq!(&dcsr_at, &csr_at);
        // COO (duplicates summed by the walk) into a dense output.
        let (dims, kk, e, u, vt) = &inp;
        let [m, n] = *dims;
        let mut c = vec![f64::GARBAGE; m * n];
        let ok = with_tensor(&COO, *dims, e, |s| {
            k::coo_dense(
                s,
                DenseView::new(u, [m, *kk]).unwrap(),
                DenseView::new(vt, [n, *kk]).unwrap(),
                DenseViewMut::new(&mut c, [m, n]).unwrap(),
            )
        });
        prop_assert_eq!(ok, Ok(()));
        prop_assert_eq!(&c, &want.data);
    }

    #[test]
    fn reassociated_f32_matches_the_dense(inp in input::<f32>()) {
        let (got, at) = sparse_run!(k::csr_f32, k::CSROut<f32, Owned>, CSR, &inp);
        prop_assert_eq!(&got.data, &want(&inp).data);
        prop_assert_eq!(&at, &pattern(&inp.2));
    }

    #[test]
    fn integers_sum_first_and_match_the_dense(inp in input::<i64>()) {
        let (got, at) = sparse_run!(k::csr_i64, k::CSROut<i64, Owned>, CSR, &inp);
        prop_assert_eq!(&got.data, &want(&inp).data);
        prop_assert_eq!(&at, &pattern(&inp.2));
    }

    #[test]
    fn integers_from_coo_into_a_dense_output(inp in input::<i32>()) {
        let (dims, kk, e, u, vt) = &inp;
        let [m, n] = *dims;
        let mut c = vec![i32::GARBAGE; m * n];
        let ok = with_tensor(&COO, *dims, e, |s| {
            k::coo_i32_dense(
                s,
                DenseView::new(u, [m, *kk]).unwrap(),
                DenseView::new(vt, [n, *kk]).unwrap(),
                DenseViewMut::new(&mut c, [m, n]).unwrap(),
            )
        });
        prop_assert_eq!(ok, Ok(()));
        prop_assert_eq!(&c, &want(&inp).data);
    }
}
