//! In-place updates of sparse outputs (issue 10, item 4): `c[i, j] =
//! c[i, j] * 2.0`, `c[i, j] *= d[i]`, `c[i, j] = c[i, j] * c[i, j]` walk the
//! stored entries of `c` and overwrite their values; positions and
//! coordinates stay as they were (explicit zeros included), and a statement
//! that would change the sparsity is a compile error (UI tests
//! `kernel/in-place-*`).

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_tests::fixture::{with_tensor, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        pub fn copy_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j]; }
        pub fn copy_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j]; }
        pub fn copy_sv(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) { c[i] = a[i]; }

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
