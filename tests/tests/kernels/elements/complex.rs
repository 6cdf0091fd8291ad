//! `complex<f64>`/`complex<f32>` kernels over CSR, CSC, DCSR, COO and CSF
//! against dense complex evaluations (exact: the values have dyadic parts).

use proptest::prelude::*;
use sparse_core::num_complex::Complex;
use sparse_core::{DenseViewMut, SparseTensor};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR};
use sparse_tests::gen::{dense_vec, sparse, Elem, Entries};

type C64 = Complex<f64>;
type C32 = Complex<f32>;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        pub fn spmv_csr(a: &tensor<?x?xcomplex<f64>, #CSR>, x: &tensor<?xcomplex<f64>>, y: &mut tensor<?xcomplex<f64>>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_csc(a: &tensor<?x?xcomplex<f64>, #CSC>, x: &tensor<?xcomplex<f64>>, y: &mut tensor<?xcomplex<f64>>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr(a: &tensor<?x?xcomplex<f64>, #DCSR>, x: &tensor<?xcomplex<f64>>, y: &mut tensor<?xcomplex<f64>>) {
            y[i] += a[i, j] * x[j];
        }
        pub fn spmv_coo(a: &tensor<?x?xcomplex<f32>, #COO>, x: &tensor<?xcomplex<f32>>, y: &mut tensor<?xcomplex<f32>>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn ttv_csf(a: &tensor<?x?x?xcomplex<f64>, #CSF>, v: &tensor<?xcomplex<f64>>, c: &mut tensor<?x?xcomplex<f64>>) {
            c[i, j] = a[i, j, k] * v[k];
        }
        /// Hermitian-style product with literals: `(2 - a) * conj(x) / 2`.
        pub fn scaled_conj(a: &tensor<?x?xcomplex<f64>, #CSR>, x: &tensor<?xcomplex<f64>>, y: &mut tensor<?xcomplex<f64>>) {
            y[i] = (a[i, j] * 2.0 - a[i, j]) * conj(x[j]) / 2.0;
        }
        /// The moduli and parts are real.
        pub fn parts(a: &tensor<?x?xcomplex<f64>, #DCSR>, re_: &mut tensor<?x?xf64>, im_: &mut tensor<?x?xf64>, m: &mut tensor<?x?xf64>) {
            re_[i, j] = re(a[i, j]);
            im_[i, j] = im(a[i, j]) * 2.0;
            m[i, j] = abs(a[i, j]);
        }
    }
}

fn spmv_ref<V: Elem>(dims: [usize; 2], e: &Entries<V>, x: &[V]) -> Vec<V> {
    let a = Dense::from_entries(&dims, e);
    (0..dims[0])
        .map(|i| (0..dims[1]).fold(V::ZERO, |s, j| s + a.at(&[i, j]) * x[j]))
        .collect()
}

fn matrix_and_x<V: Elem>() -> impl Strategy<Value = ([usize; 2], Entries<V>, Vec<V>)> {
    sparse::<V, 2>(6).prop_flat_map(|(d, e)| (Just(d), Just(e), dense_vec::<V>(d[1])))
}

proptest! {
    #[test]
    fn spmv_over_every_format((dims, e, x) in matrix_and_x::<C64>()) {
        let want = spmv_ref(dims, &e, &x);
        for f in [0, 1, 2] {
            let mut y = vec![C64::GARBAGE; dims[0]];
            if f == 2 {
                y.fill(C64::ZERO);
            }
            match f {
                0 => with_tensor(&CSR, dims, &e, |a| k::spmv_csr(a, &x, &mut y)),
                1 => with_tensor(&CSC, dims, &e, |a| k::spmv_csc(a, &x, &mut y)),
                _ => with_tensor(&DCSR, dims, &e, |a| k::spmv_dcsr(a, &x, &mut y)),
            }
            .unwrap();
            prop_assert_eq!(&y, &want, "format {}", f);
        }
    }

    #[test]
    fn spmv_coo_complex_f32((dims, e, x) in matrix_and_x::<C32>()) {
        let mut y = vec![C32::GARBAGE; dims[0]];
        with_tensor(&COO, dims, &e, |a| k::spmv_coo(a, &x, &mut y)).unwrap();
        prop_assert_eq!(y, spmv_ref(dims, &e, &x));
    }

    #[test]
    fn ttv_over_csf((dims, e) in sparse::<C64, 3>(4), seed in 0i32..50) {
        let v: Vec<C64> = (0..dims[2]).map(|k| C64::small(k as i32 + seed)).collect();
        let a = Dense::from_entries(&dims, &e);
        let [m, n, kk] = dims;
        let mut want = vec![C64::ZERO; m * n];
        for i in 0..m {
            for j in 0..n {
                for (k, vk) in v.iter().enumerate().take(kk) {
                    want[i * n + j] += a.at(&[i, j, k]) * vk;
                }
            }
        }
        let mut c = vec![C64::GARBAGE; m * n];
        with_tensor(&CSF, dims, &e, |a: &SparseTensor<'_, C64, _, 3, 3>| {
            k::ttv_csf(a, &v, DenseViewMut::new(&mut c, [m, n]).unwrap())
        })
        .unwrap();
        prop_assert_eq!(c, want);
    }

    #[test]
    fn literals_and_conj((dims, e, x) in matrix_and_x::<C64>()) {
        let a = Dense::from_entries(&dims, &e);
        let want: Vec<C64> = (0..dims[0])
            .map(|i| {
                (0..dims[1]).fold(C64::ZERO, |s, j| {
                    let v = a.at(&[i, j]);
                    s + (v * 2.0 - v) * x[j].conj() / 2.0
                })
            })
            .collect();
        let mut y = vec![C64::GARBAGE; dims[0]];
        with_tensor(&CSR, dims, &e, |a| k::scaled_conj(a, &x, &mut y)).unwrap();
        prop_assert_eq!(y, want);
    }

    #[test]
    fn parts_and_moduli_are_real((dims, e) in sparse::<C64, 2>(6)) {
        let a = Dense::from_entries(&dims, &e);
        let n = dims[0] * dims[1];
        let (mut r, mut i_, mut m) = (vec![7.0; n], vec![7.0; n], vec![7.0; n]);
        with_tensor(&DCSR, dims, &e, |t| {
            k::parts(
                t,
                DenseViewMut::new(&mut r, dims).unwrap(),
                DenseViewMut::new(&mut i_, dims).unwrap(),
                DenseViewMut::new(&mut m, dims).unwrap(),
            )
        })
        .unwrap();
        let want_re: Vec<f64> = a.data.iter().map(|z| z.re).collect();
        let want_im: Vec<f64> = a.data.iter().map(|z| z.im * 2.0).collect();
        let want_abs: Vec<f64> = a.data.iter().map(|z| z.norm()).collect();
        prop_assert_eq!(r, want_re);
        prop_assert_eq!(i_, want_im);
        prop_assert_eq!(m, want_abs);
    }
}
