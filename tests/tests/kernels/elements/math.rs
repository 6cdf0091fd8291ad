//! The math functions of kernels (`tanh`, `exp2`, `log1p`, `erf`,
//! `sigmoid`, `rsqrt`, `floor`, `ceil`, `round`, `copysign`, ...) over
//! CSR, DCSR and COO operands, in `f64`, `f32` and `f16` kernels and in
//! regions, against the standard library's functions (and `libm`'s `erf`)
//! evaluated on the dense operand. With `std` the kernels call exactly
//! these, so `f64`/`f32` results are equal bit for bit; `f16` computes in
//! `f32` and rounds once.

use proptest::prelude::*;
use sparse_core::half::f16;
use sparse_core::DenseViewMut;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR};
use sparse_tests::gen::{sparse, Elem, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        /// Zero-preserving functions: only stored entries are visited.
        pub fn rounding(a: &tensor<?x?xf64, #CSR>, f: &mut tensor<?x?xf64>, c: &mut tensor<?x?xf64>, r: &mut tensor<?x?xf64>, t: &mut tensor<?x?xf64>) {
            f[i, j] = floor(a[i, j] * 1.5);
            c[i, j] = ceil(a[i, j] * 1.5);
            r[i, j] = round(a[i, j] * 1.5);
            t[i, j] = tanh(a[i, j]) + log1p(abs(a[i, j])) + expm1(a[i, j]);
        }
        /// Functions with `f(0) != 0`: every element of the output.
        pub fn dense_ones(a: &tensor<?x?xf32, #DCSR>, s: &mut tensor<?x?xf32>, e: &mut tensor<?x?xf32>, q: &mut tensor<?x?xf32>, g: &mut tensor<?x?xf32>) {
            s[i, j] = sigmoid(a[i, j]);
            e[i, j] = exp2(a[i, j]) + log2(abs(a[i, j]) + 1.0) + log10(abs(a[i, j]) + 2.0);
            q[i, j] = rsqrt(abs(a[i, j]) + 0.5) + atan(a[i, j]) + tan(a[i, j] * 0.25);
            g[i, j] = copysign(2.0, a[i, j]) + trunc(a[i, j] * 2.5) + erf(a[i, j]);
        }
        pub fn half_fns(a: &tensor<?x?xf16, #COO>, y: &mut tensor<?xf16>) {
            y[i] = sigmoid(a[i, j]) * tanh(a[i, j]);
        }
        pub fn in_region(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] = unary(a[i, j], present = |v| erf(v) + v.floor() + copysign(1.0, v), absent = none);
        }
    }
}

fn matrix<V: Elem>() -> impl Strategy<Value = ([usize; 2], Entries<V>)> {
    sparse::<V, 2>(6)
}

/// A row-major view of `o`.
fn view<V>(o: &mut [V], dims: [usize; 2]) -> DenseViewMut<'_, V, 2> {
    DenseViewMut::new(o, dims).unwrap()
}

proptest! {
    #[test]
    fn rounding_and_zero_preserving((dims, e) in matrix::<f64>()) {
        let a = Dense::from_entries(&dims, &e);
        let n = dims[0] * dims[1];
        let mut out = [vec![7.0; n], vec![7.0; n], vec![7.0; n], vec![7.0; n]];
        let [f, c, r, t] = &mut out;
        with_tensor(&CSR, dims, &e, |x| k::rounding(x, view(f, dims), view(c, dims), view(r, dims), view(t, dims))).unwrap();
        for (p, &v) in a.data.iter().enumerate() {
            prop_assert_eq!(out[0][p], (v * 1.5).floor());
            prop_assert_eq!(out[1][p], (v * 1.5).ceil());
            prop_assert_eq!(out[2][p], (v * 1.5).round());
            prop_assert_eq!(out[3][p], v.tanh() + v.abs().ln_1p() + v.exp_m1());
        }
    }

    #[test]
    fn functions_of_nonzero_zero((dims, e) in matrix::<f32>()) {
        let a = Dense::from_entries(&dims, &e);
        let n = dims[0] * dims[1];
        let mut out = [vec![7.0f32; n], vec![7.0; n], vec![7.0; n], vec![7.0; n]];
        let [s, x, q, g] = &mut out;
        with_tensor(&DCSR, dims, &e, |t| k::dense_ones(t, view(s, dims), view(x, dims), view(q, dims), view(g, dims))).unwrap();
        for (p, &v) in a.data.iter().enumerate() {
            prop_assert_eq!(out[0][p], 1.0 / (1.0 + (-v).exp()));
            prop_assert_eq!(out[1][p], v.exp2() + (v.abs() + 1.0).log2() + (v.abs() + 2.0).log10());
            prop_assert_eq!(out[2][p], 1.0 / (v.abs() + 0.5).sqrt() + v.atan() + (v * 0.25).tan());
            prop_assert_eq!(out[3][p], 2f32.copysign(v) + (v * 2.5).trunc() + libm::erff(v));
        }
    }

    #[test]
    fn half_functions_round_once((dims, e) in matrix::<f16>()) {
        let a = Dense::from_entries(&dims, &e);
        let mut y = vec![f16::GARBAGE; dims[0]];
        with_tensor(&COO, dims, &e, |t| k::half_fns(t, &mut y)).unwrap();
        for (i, got) in y.iter().enumerate() {
            // Stored entries only: COO repeats were summed by the builder.
            let mut want = f16::ZERO;
            for j in 0..dims[1] {
                if e.iter().any(|(c, _)| c[0] == i && c[1] == j) {
                    let v = a.at(&[i, j]).to_f32();
                    let s = f16::from_f32(1.0 / (1.0 + (-v).exp()));
                    want += s * f16::from_f32(v.tanh());
                }
            }
            prop_assert_eq!(*got, want, "row {}", i);
        }
    }

    #[test]
    fn functions_in_regions((dims, e) in matrix::<f64>()) {
        let a = Dense::from_entries(&dims, &e);
        let n = dims[0] * dims[1];
        let mut y = vec![7.0; n];
        with_tensor(&CSR, dims, &e, |t| k::in_region(t, DenseViewMut::new(&mut y, dims).unwrap())).unwrap();
        let stored: std::collections::BTreeSet<(usize, usize)> =
            e.iter().map(|(c, _)| (c[0], c[1])).collect();
        for i in 0..dims[0] {
            for j in 0..dims[1] {
                let v = a.at(&[i, j]);
                let want = if stored.contains(&(i, j)) {
                    libm::erf(v) + v.floor() + 1f64.copysign(v)
                } else {
                    0.0
                };
                prop_assert_eq!(y[i * dims[1] + j], want);
            }
        }
    }
}
