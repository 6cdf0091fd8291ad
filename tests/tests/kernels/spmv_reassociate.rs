//! SpMV under `#[reassociate]`: each row's walk is one call to
//! sparse-core's `dot_gather` (8 partial sums, in AVX-512 or AVX2 vectors
//! where the machine has them, the kernel compiled once per extension;
//! the same bits on every path). Checked on random rows of 0..40 entries
//! with values of every magnitude (so the orders of the sums round
//! apart):
//!
//! - bit for bit against the partial-sum order written out here (entry
//!   `p` of the row into sum `p % 8`, then the halves tree), which is the
//!   contract;
//! - against the dense product and the default (in-order) kernel within
//!   the error bound of a float sum of `n` products, `n * eps * sum |a x|`
//!   (each is within half of it of the exact sum);
//! - in CSR (8, 16 and `usize` coordinates), loose CSR, DCSR, CSC read as
//!   the transposed product (`y[j] = a[i, j] * x[i]`), `f32` and `f64`.

use proptest::prelude::*;
use proptest::sample::subsequence;
use sparse_tests::fixture::{with_tensor, CSC, CSR, DCSR, LOOSE};
use sparse_tests::gen::Entries;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 16 }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 32 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

        /// The default: each row summed in order.
        pub fn in_order(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #[reassociate]
        pub fn csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #[reassociate]
        pub fn csr8(a: &tensor<?x?xf64, #CSR8>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #[reassociate]
        pub fn csr16_f32(a: &tensor<?x?xf32, #CSR16>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = x[j] * a[i, j];
        }
        pub fn in_order_f32(a: &tensor<?x?xf32, #CSR16>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = a[i, j] * x[j];
        }
        #[reassociate]
        pub fn loose(a: &tensor<?x?xf64, #LOOSE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #[reassociate]
        pub fn dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        /// `A^T x` over CSC: the walk down column `j` is the row of `A^T`.
        #[reassociate]
        pub fn csc_transposed(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[j] = a[i, j] * x[i];
        }
    }
}

/// Columns of the matrix (and length of `x`).
const N: usize = 64;

/// A matrix of up to 5 rows of 0..=40 entries each, values of every
/// magnitude from 2^-20 to 2^20 and both signs, and `x`.
fn input() -> impl Strategy<Value = (usize, Entries<f64>, Vec<f64>)> {
    let value = (-20i32..=20, 1u32..1024, any::<bool>()).prop_map(
        |(e, m, neg)| if neg { -1.0 } else { 1.0 } * f64::from(m) * 2f64.powi(e) / 1024.0,
    );
    let row = (
        subsequence((0..N).collect::<Vec<_>>(), 0..=40),
        proptest::collection::vec(value.clone(), 40),
    );
    (
        proptest::collection::vec(row, 0..=5),
        proptest::collection::vec(value, N),
    )
        .prop_map(|(rows, x)| {
            let mut e = Vec::new();
            for (i, (cols, vals)) in rows.iter().enumerate() {
                for (&j, &v) in cols.iter().zip(vals) {
                    e.push((vec![i, j], v));
                }
            }
            (rows.len(), e, x)
        })
}

/// The products of row `i` in stored (column) order.
fn row<V: Copy + core::ops::Mul<Output = V>>(e: &Entries<V>, i: usize, x: &[V]) -> Vec<V> {
    e.iter()
        .filter(|(at, _)| at[0] == i)
        .map(|(at, v)| *v * x[at[1]])
        .collect()
}

/// The partial-sum order of `dot_gather`, written out.
macro_rules! partial_sums {
    ($t:ty, $products:expr) => {{
        let p: &[$t] = $products;
        let mut s = [0.0 as $t; 8];
        for (q, v) in p.iter().enumerate() {
            s[q % 8] += *v;
        }
        // The kernel adds the call's result to the row's zero.
        0.0 + (((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7])))
    }};
}

/// The partial-sum result of every row, and for each the bound
/// `n * eps * sum |a x|` with the exact (f64-accumulated) dense sum.
fn reference(m: usize, e: &Entries<f64>, x: &[f64]) -> (Vec<f64>, Vec<(f64, f64)>) {
    (0..m)
        .map(|i| {
            let p = row(e, i, x);
            let bound = p.len() as f64 * f64::EPSILON * p.iter().map(|v| v.abs()).sum::<f64>();
            (partial_sums!(f64, &p), (p.iter().sum::<f64>(), bound))
        })
        .unzip()
}

/// Whether `got` is within `bound` of `want` for every row.
fn close(got: &[f64], want: &[(f64, f64)]) -> bool {
    got.iter().zip(want).all(|(g, (w, b))| (g - w).abs() <= *b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn every_f64_format_sums_in_partial_sums((m, e, x) in input()) {
        let (exact, dense) = reference(m, &e, &x);
        let run = |f: &dyn Fn(&mut [f64])| {
            let mut y = vec![777.25; m];
            f(&mut y);
            y
        };
        let csr = run(&|y| with_tensor(&CSR, [m, N], &e, |a| k::csr(a, &x, y)).unwrap());
        let csr8 = run(&|y| with_tensor(&CSR, [m, N], &e, |a| k::csr8(a, &x, y)).unwrap());
        let loose = run(&|y| with_tensor(&LOOSE, [m, N], &e, |a| k::loose(a, &x, y)).unwrap());
        let dcsr = run(&|y| with_tensor(&DCSR, [m, N], &e, |a| k::dcsr(a, &x, y)).unwrap());
        let in_order = run(&|y| with_tensor(&CSR, [m, N], &e, |a| k::in_order(a, &x, y)).unwrap());
        for got in [&csr, &csr8, &loose, &dcsr] {
            let bits: Vec<u64> = got.iter().map(|v| v.to_bits()).collect();
            let want: Vec<u64> = exact.iter().map(|v| v.to_bits()).collect();
            prop_assert_eq!(bits, want);
            prop_assert!(close(got, &dense), "{:?} vs dense {:?}", got, dense);
        }
        prop_assert!(close(&in_order, &dense));
        // The reassociated and in-order kernels each within half the bound
        // of the exact sum, so within the bound of each other.
        let default: Vec<(f64, f64)> = in_order.iter().zip(&dense).map(|(v, (_, b))| (*v, *b)).collect();
        prop_assert!(close(&csr, &default));
    }

    #[test]
    fn csc_read_as_the_transposed_product((m, e, x) in input()) {
        // `A^T` stored as CSC: entry (i, j) of `e` is (j, i) of `A`.
        let t: Entries<f64> = e.iter().map(|(at, v)| (vec![at[1], at[0]], *v)).collect();
        let (exact, dense) = reference(m, &e, &x);
        let mut y = vec![777.25; m];
        with_tensor(&CSC, [N, m], &t, |a| k::csc_transposed(a, &x, &mut y)).unwrap();
        let bits: Vec<u64> = y.iter().map(|v| v.to_bits()).collect();
        prop_assert_eq!(bits, exact.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        prop_assert!(close(&y, &dense));
    }

    #[test]
    fn f32_sums_in_partial_sums((m, e, x) in input()) {
        let e32: Entries<f32> = e.iter().map(|(at, v)| (at.clone(), *v as f32)).collect();
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let mut y = vec![777.25f32; m];
        with_tensor(&CSR, [m, N], &e32, |a| k::csr16_f32(a, &x32, &mut y)).unwrap();
        let mut in_order = vec![777.25f32; m];
        with_tensor(&CSR, [m, N], &e32, |a| k::in_order_f32(a, &x32, &mut in_order)).unwrap();
        for i in 0..m {
            let p = row(&e32, i, &x32);
            let want: f32 = partial_sums!(f32, &p);
            prop_assert_eq!(y[i].to_bits(), want.to_bits(), "row {}", i);
            // Within the f32 bound of the sum of the same products in f64.
            let exact: f64 = p.iter().map(|&v| f64::from(v)).sum();
            let bound = p.len() as f64 * f64::from(f32::EPSILON) * p.iter().map(|v| f64::from(v.abs())).sum::<f64>();
            prop_assert!((f64::from(y[i]) - exact).abs() <= bound);
            prop_assert!((f64::from(in_order[i]) - exact).abs() <= bound);
        }
    }
}

/// Rows longer than one step whose in-order and partial sums differ: the
/// kernel really reassociates (and the bit-exact checks above can fail).
#[test]
fn the_reassociated_sum_rounds_apart_from_the_in_order_one() {
    let mut e: Entries<f64> = vec![(vec![0, 0], 2f64.powi(53))];
    e.extend((1..9).map(|j| (vec![0, j], 1.0)));
    let x = vec![1.0; N];
    let (mut y, mut z) = (vec![0.0], vec![0.0]);
    with_tensor(&CSR, [1, N], &e, |a| k::csr(a, &x, &mut y)).unwrap();
    with_tensor(&CSR, [1, N], &e, |a| k::in_order(a, &x, &mut z)).unwrap();
    assert_eq!(z[0], 2f64.powi(53));
    // Sum 0 takes entries 0 and 8: 2^53 + 1 rounds to 2^53; sums 1..7
    // hold 1 each; ((2^53 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1)).
    assert_eq!(y[0], 2f64.powi(53) + 6.0);
}
