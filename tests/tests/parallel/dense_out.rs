//! Parallel kernels whose output rows hold several elements (each chunk
//! owns whole rows): SpMM, SDDMM into a dense matrix, sparse + dense into
//! dense, and a kernel with a parallel and a sequential statement; against
//! the sequential kernels (bit for bit) and dense evaluations (exact
//! values).

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR};
use sparse_tests::gen::Entries;

use super::common::{bits, on_threads, random, rough, roughen, shapes, small, vector};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 32 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        pub fn spmm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, k] * b[k, j]; }
        #[parallel]
        pub fn par_spmm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, k] * b[k, j]; }
        pub fn spmm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] += a[i, k] * b[k, j]; }
        #[parallel]
        pub fn par_spmm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] += a[i, k] * b[k, j]; }

        pub fn sddmm_csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        #[parallel]
        pub fn par_sddmm_csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        pub fn sddmm_coo(s: &tensor<?x?xf64, #COO>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] += s[i, j] * (u[i, k] * v[k, j]);
        }
        #[parallel]
        pub fn par_sddmm_coo(s: &tensor<?x?xf64, #COO>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] += s[i, j] * (u[i, k] * v[k, j]);
        }

        pub fn add_dense(a: &tensor<?x?xf64, #DCSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + d[i, j]; }
        #[parallel]
        pub fn par_add_dense(a: &tensor<?x?xf64, #DCSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + d[i, j]; }

        /// The row products run in chunks; the total stays sequential.
        pub fn two(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>, s: &mut tensor<f64>) {
            y[i] = a[i, j] * x[j];
            s[] = a[i, j] * x[j];
        }
        #[parallel]
        pub fn par_two(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>, s: &mut tensor<f64>) {
            y[i] = a[i, j] * x[j];
            s[] = a[i, j] * x[j];
        }
    }
}

/// Runs `seq` and `par` on outputs of `len` elements (garbage, or `start`
/// for `+=`) and compares them bit for bit; returns the parallel result.
fn both(
    len: usize,
    start: Option<&[f64]>,
    seq: impl FnOnce(&mut [f64]),
    par: impl FnOnce(&mut [f64]) + Send,
    what: &str,
) -> Vec<f64> {
    let fill = |v: f64| start.map_or_else(|| vec![v; len], <[f64]>::to_vec);
    let (mut want, mut got) = (fill(777.25), fill(-555.5));
    seq(&mut want);
    on_threads(|| par(&mut got));
    assert_eq!(bits(&got), bits(&want), "{what}: parallel vs sequential");
    got
}

/// `c0 + a b` densely (`a` m x kk, `b` kk x n).
fn matmul(a: &Dense<f64>, b: &Dense<f64>, c0: &[f64], [m, kk, n]: [usize; 3]) -> Vec<f64> {
    let mut c = c0.to_vec();
    for i in 0..m {
        for j in 0..n {
            for k in 0..kk {
                c[i * n + j] += a.at(&[i, k]) * b.at(&[k, j]);
            }
        }
    }
    c
}

fn check(dims: [usize; 2], e: &Entries<f64>, exact: bool, what: &str) {
    let value = if exact { small } else { rough };
    let [m, kk] = dims;
    let n = 3;
    let dense_a = Dense::from_entries(&dims, e);
    let b = vector(kk * n, value);
    let c0 = vector(m * n, |x| value(x + 5));
    let zero = vec![0.0; m * n];
    let bv = || DenseView::new(&b, [kk, n]).unwrap();

    // SpMM, `=` (CSR) and `+=` (DCSR).
    let want = matmul(
        &dense_a,
        &Dense::from_data(&[kk, n], b.clone()),
        &zero,
        [m, kk, n],
    );
    with_tensor(&CSR, dims, e, |a| {
        let got = both(
            m * n,
            None,
            |c| k::spmm_csr(a, bv(), DenseViewMut::new(c, [m, n]).unwrap()).unwrap(),
            |c| k::par_spmm_csr(a, bv(), DenseViewMut::new(c, [m, n]).unwrap()).unwrap(),
            what,
        );
        if exact {
            assert_eq!(got, want, "{what}: SpMM against dense");
        }
    });
    let want_acc = matmul(
        &dense_a,
        &Dense::from_data(&[kk, n], b.clone()),
        &c0,
        [m, kk, n],
    );
    with_tensor(&DCSR, dims, e, |a| {
        let got = both(
            m * n,
            Some(&c0),
            |c| k::spmm_dcsr(a, bv(), DenseViewMut::new(c, [m, n]).unwrap()).unwrap(),
            |c| k::par_spmm_dcsr(a, bv(), DenseViewMut::new(c, [m, n]).unwrap()).unwrap(),
            what,
        );
        if exact {
            assert_eq!(got, want_acc, "{what}: SpMM += against dense");
        }
    });

    // SDDMM: `s` is the matrix (m x kk), `u` m x 2, `v` 2 x kk.
    let r = 2;
    let u = vector(m * r, value);
    let v = vector(r * kk, |x| value(x + 3));
    let s0 = vector(m * kk, |x| value(x + 9));
    let uv = matmul(
        &Dense::from_data(&[m, r], u.clone()),
        &Dense::from_data(&[r, kk], v.clone()),
        &vec![0.0; m * kk],
        [m, r, kk],
    );
    let sddmm = |start: &[f64]| -> Vec<f64> {
        (0..m * kk)
            .map(|x| start[x] + dense_a.at(&[x / kk, x % kk]) * uv[x])
            .collect()
    };
    let (uv_, vv_) = (
        || DenseView::new(&u, [m, r]).unwrap(),
        || DenseView::new(&v, [r, kk]).unwrap(),
    );
    with_tensor(&CSR, dims, e, |s| {
        let got = both(
            m * kk,
            None,
            |c| k::sddmm_csr(s, uv_(), vv_(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            |c| k::par_sddmm_csr(s, uv_(), vv_(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            what,
        );
        if exact {
            assert_eq!(
                got,
                sddmm(&vec![0.0; m * kk]),
                "{what}: SDDMM against dense"
            );
        }
    });
    with_tensor(&COO, dims, e, |s| {
        let got = both(
            m * kk,
            Some(&s0),
            |c| k::sddmm_coo(s, uv_(), vv_(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            |c| k::par_sddmm_coo(s, uv_(), vv_(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            what,
        );
        if exact {
            assert_eq!(got, sddmm(&s0), "{what}: SDDMM += against dense");
        }
    });

    // Sparse + dense into dense: every element, in chunks of rows.
    let d = vector(m * kk, |x| value(x + 11));
    with_tensor(&DCSR, dims, e, |a| {
        let dv = || DenseView::new(&d, [m, kk]).unwrap();
        let got = both(
            m * kk,
            None,
            |c| k::add_dense(a, dv(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            |c| k::par_add_dense(a, dv(), DenseViewMut::new(c, [m, kk]).unwrap()).unwrap(),
            what,
        );
        if exact {
            let want: Vec<f64> = (0..m * kk)
                .map(|x| dense_a.at(&[x / kk, x % kk]) + d[x])
                .collect();
            assert_eq!(got, want, "{what}: sparse + dense against dense");
        }
    });

    // A parallel statement, then a sequential scalar one.
    let x = vector(kk, value);
    with_tensor(&CSR, dims, e, |a| {
        let (mut s_seq, mut s_par) = (7.0, -7.0);
        let y = both(
            m,
            None,
            |y| k::two(a, &x, y, &mut s_seq).unwrap(),
            |y| k::par_two(a, &x, y, &mut s_par).unwrap(),
            what,
        );
        assert_eq!(s_par.to_bits(), s_seq.to_bits(), "{what}: the total");
        if exact {
            let want = matmul(
                &dense_a,
                &Dense::from_data(&[kk, 1], x.clone()),
                &vec![0.0; m],
                [m, kk, 1],
            );
            assert_eq!(y, want, "{what}: y against dense");
            assert_eq!(
                s_par,
                want.iter().sum::<f64>(),
                "{what}: the total against dense"
            );
        }
    });
}

#[test]
fn every_shape_matches_the_sequential_kernels_and_dense() {
    for shape in shapes(small) {
        check(shape.dims, &shape.entries, true, shape.name);
    }
    for shape in shapes(rough) {
        check(shape.dims, &shape.entries, false, shape.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_matrices((dims, e) in random()) {
        check(dims, &e, true, "random");
        check(dims, &roughen(&e), false, "random, rough values");
    }
}
