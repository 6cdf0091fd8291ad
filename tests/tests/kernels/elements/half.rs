//! `f16`/`bf16` kernels over CSR, CSC, DCSR, COO and CSF against a widened
//! reference: the exact result in `f64` of the same inputs, within the
//! rounding bound of the half type (arithmetic rounds every operation, as
//! MLIR's `arith` on `f16`); math functions, casts and regions; and MLIR's
//! `dense_output_f16.mlir`/`dense_output_bf16.mlir` with their inputs as
//! compile-time constants.

use proptest::prelude::*;
use sparse_core::half::{bf16, f16};
use sparse_core::{DenseViewMut, SparseTensor};
use sparse_tests::dense::Dense;
use sparse_tests::elements::{assert_close, Half};
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR};
use sparse_tests::gen::{dense_vec, sparse, Elem, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
        #SparseVector = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

        pub fn spmv_csr(a: &tensor<?x?xf16, #CSR>, x: &tensor<?xf16>, y: &mut tensor<?xf16>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_csc(a: &tensor<?x?xf16, #CSC>, x: &tensor<?xf16>, y: &mut tensor<?xf16>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr(a: &tensor<?x?xbf16, #DCSR>, x: &tensor<?xbf16>, y: &mut tensor<?xbf16>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_coo(a: &tensor<?x?xbf16, #COO>, x: &tensor<?xbf16>, y: &mut tensor<?xbf16>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn ttv_csf(a: &tensor<?x?x?xf16, #CSF>, v: &tensor<?xf16>, c: &mut tensor<?x?xf16>) {
            c[i, j] = a[i, j, k] * v[k];
        }
        /// Literals, math, casts in and out of the half type.
        pub fn mixed(a: &tensor<?x?xf16, #CSR>, y: &mut tensor<?x?xf32>, z: &mut tensor<?x?xf16>) {
            y[i, j] = (sqrt(abs(a[i, j])) * 2.0) as f32;
            z[i, j] = max(a[i, j], 0.5) - (i as f16);
        }
        // dense_output_f16.mlir: the minimum where both store a value.
        pub fn vector_min(a: &tensor<?xf16, #SparseVector>, b: &tensor<?xf16, #SparseVector>, x: &mut tensor<?xf16>) {
            x[i] = binary(a[i], b[i], overlap = |a0, b0| if a0 < b0 { a0 } else { b0 }, left = identity, right = identity);
        }
        pub fn vector_min_bf16(a: &tensor<?xbf16, #SparseVector>, b: &tensor<?xbf16, #SparseVector>, x: &mut tensor<?xbf16>) {
            x[i] = binary(a[i], b[i], overlap = |a0, b0| if a0 < b0 { a0 } else { b0 }, left = identity, right = identity);
        }

        pub static V1: tensor<32xf16, #SparseVector> = sparse<
            [ [0], [3], [11], [17], [20], [21], [28], [29], [31] ],
            [ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0 ]>;
        pub static V2: tensor<32xf16, #SparseVector> = sparse<
            [ [1], [3], [4], [10], [16], [18], [21], [28], [29], [31] ],
            [ 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0 ]>;
        pub static W1: tensor<32xbf16, #SparseVector> = sparse<
            [ [0], [3], [11], [17], [20], [21], [28], [29], [31] ],
            [ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0 ]>;
        pub static W2: tensor<32xbf16, #SparseVector> = sparse<
            [ [1], [3], [4], [10], [16], [18], [21], [28], [29], [31] ],
            [ 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0 ]>;
        // 0x3C00 is 1.0 in f16; 0.1 rounds to nearest even.
        pub static D: tensor<2x2xf16> = dense<[[0x3C00, 0.1], [-2.5, 65504.0]]>;
    }
}

/// Checks `y = a x` row by row against the exact products.
fn check_spmv<H: Half>(dims: [usize; 2], e: &Entries<H>, x: &[H], y: &[H]) {
    let a = Dense::from_entries(&dims, e);
    for (i, &yi) in y.iter().enumerate().take(dims[0]) {
        let terms: Vec<f64> = (0..dims[1])
            .map(|j| a.at(&[i, j]).wide() * x[j].wide())
            .collect();
        assert_close(yi, &terms, &format!("row {i}"));
    }
}

fn matrix_and_x<V: Elem>() -> impl Strategy<Value = ([usize; 2], Entries<V>, Vec<V>)> {
    sparse::<V, 2>(8).prop_flat_map(|(d, e)| (Just(d), Just(e), dense_vec::<V>(d[1])))
}

proptest! {
    #[test]
    fn f16_spmv_csr_and_csc((dims, e, x) in matrix_and_x::<f16>()) {
        let mut y = vec![f16::GARBAGE; dims[0]];
        with_tensor(&CSR, dims, &e, |a| k::spmv_csr(a, &x, &mut y)).unwrap();
        check_spmv(dims, &e, &x, &y);
        let mut y = vec![f16::GARBAGE; dims[0]];
        with_tensor(&CSC, dims, &e, |a| k::spmv_csc(a, &x, &mut y)).unwrap();
        check_spmv(dims, &e, &x, &y);
    }

    #[test]
    fn bf16_spmv_dcsr_and_coo((dims, e, x) in matrix_and_x::<bf16>()) {
        let mut y = vec![bf16::GARBAGE; dims[0]];
        with_tensor(&DCSR, dims, &e, |a| k::spmv_dcsr(a, &x, &mut y)).unwrap();
        check_spmv(dims, &e, &x, &y);
        let mut y = vec![bf16::GARBAGE; dims[0]];
        with_tensor(&COO, dims, &e, |a| k::spmv_coo(a, &x, &mut y)).unwrap();
        check_spmv(dims, &e, &x, &y);
    }

    #[test]
    fn f16_ttv_csf((dims, e) in sparse::<f16, 3>(4), seed in 0i32..50) {
        let v: Vec<f16> = (0..dims[2]).map(|k| f16::small(k as i32 * 7 - seed)).collect();
        let a = Dense::from_entries(&dims, &e);
        let [m, n, kk] = dims;
        let mut c = vec![f16::GARBAGE; m * n];
        with_tensor(&CSF, dims, &e, |t: &SparseTensor<'_, f16, _, 3, 3>| {
            k::ttv_csf(t, &v, DenseViewMut::new(&mut c, [m, n]).unwrap())
        })
        .unwrap();
        for i in 0..m {
            for j in 0..n {
                let terms: Vec<f64> =
                    (0..kk).map(|k| a.at(&[i, j, k]).wide() * v[k].wide()).collect();
                assert_close(c[i * n + j], &terms, &format!("c[{i}, {j}]"));
            }
        }
    }

    #[test]
    fn math_literals_and_casts((dims, e) in sparse::<f16, 2>(6)) {
        let a = Dense::from_entries(&dims, &e);
        let n = dims[0] * dims[1];
        let (mut y, mut z) = (vec![7.0f32; n], vec![f16::GARBAGE; n]);
        with_tensor(&CSR, dims, &e, |t| {
            k::mixed(
                t,
                DenseViewMut::new(&mut y, dims).unwrap(),
                DenseViewMut::new(&mut z, dims).unwrap(),
            )
        })
        .unwrap();
        for i in 0..dims[0] {
            for j in 0..dims[1] {
                let v = a.at(&[i, j]);
                // sqrt in f32 rounded to f16, then `* 2.0` in f16 (exact).
                let s = f16::from_f32(v.to_f32().abs().sqrt());
                prop_assert_eq!(y[i * dims[1] + j], (s * f16::from_f32(2.0)).to_f32());
                let m = if v > f16::from_f32(0.5) { v } else { f16::from_f32(0.5) };
                prop_assert_eq!(z[i * dims[1] + j], m - f16::from_f64(i as f64));
            }
        }
    }
}

/// `dump_vec`'s CHECK line of both upstream tests.
const CHECK: [f32; 32] = [
    1.0, 11.0, 0.0, 2.0, 13.0, 0.0, 0.0, 0.0, 0.0, 0.0, 14.0, 3.0, 0.0, 0.0, 0.0, 0.0, 15.0, 4.0,
    16.0, 0.0, 5.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0, 8.0, 0.0, 9.0,
];

#[test]
fn dense_output_f16() {
    let mut x = [f16::GARBAGE; 32];
    k::vector_min(&k::V1, &k::V2, &mut x).unwrap();
    assert_eq!(x.map(f16::to_f32), CHECK);
}

#[test]
fn dense_output_bf16() {
    let mut x = [bf16::GARBAGE; 32];
    k::vector_min_bf16(&k::W1, &k::W2, &mut x).unwrap();
    assert_eq!(x.map(bf16::to_f32), CHECK);
}

#[test]
fn dense_constants_round_as_mlir_reads_them() {
    assert_eq!(
        k::D,
        [
            [f16::ONE, f16::from_f64(0.1)],
            [f16::from_f32(-2.5), f16::MAX]
        ]
    );
    assert_eq!(f16::from_f64(0.1).to_bits(), 0x2E66);
}
