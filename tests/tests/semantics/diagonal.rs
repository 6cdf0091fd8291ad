//! Diagonal accesses (issue 10, item 7): `a[i, i]` reads the diagonal of
//! a matrix in any format (a walk over each row that keeps the entry whose
//! coordinate equals the row), in products, in a trace and in a sum with
//! other terms; writing `c[i, i]` is a compile error that names the choice
//! to write instead (UI test `kernel/diagonal-write`).

use proptest::prelude::*;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR};
use sparse_tests::gen::{dense_vec, dims, entries, entries_with_duplicates, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>

        pub fn diag_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }
        pub fn diag_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }
        pub fn diag_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }
        pub fn diag_coo(a: &tensor<?x?xf64, #COO>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }
        pub fn diag_coo_nu(a: &tensor<?x?xf64, #COO_NU>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }
        pub fn trace_csr(a: &tensor<?x?xf64, #CSR>, s: &mut tensor<f64>) { s[] = a[i, i]; }
        pub fn trace_csc(a: &tensor<?x?xf64, #CSC>, s: &mut tensor<f64>) { s[] = a[i, i]; }
        /// Jacobi's step: the diagonal divides, the rest is summed apart.
        pub fn scaled(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, i] * x[i] + b[i];
        }
    }
}

/// The diagonal of `e` (duplicates summed) over `min(rows, cols)`, 0 past
/// it.
fn diagonal(d: [usize; 2], e: &Entries<f64>) -> Vec<f64> {
    let a = Dense::from_entries(&d, e);
    (0..d[0])
        .map(|i| if i < d[1] { a.at(&[i, i]) } else { 0.0 })
        .collect()
}

proptest! {
    #[test]
    fn the_diagonal_in_every_format(
        (d, e, x, b) in dims::<2>(7).prop_flat_map(|d| {
            (Just(d), entries::<f64>(&d), dense_vec::<f64>(d[0]), dense_vec::<f64>(d[0]))
        }),
    ) {
        let want = diagonal(d, &e);
        type Run<'a> = &'a dyn Fn(&mut Vec<f64>) -> Result<(), sparse_core::KernelError>;
        let runs: [(&str, Run); 4] = [
            ("csr", &|y| with_tensor(&CSR, d, &e, |t| k::diag_csr(t, y))),
            ("csc", &|y| with_tensor(&CSC, d, &e, |t| k::diag_csc(t, y))),
            ("dcsr", &|y| with_tensor(&DCSR, d, &e, |t| k::diag_dcsr(t, y))),
            ("coo", &|y| with_tensor(&COO, d, &e, |t| k::diag_coo(t, y))),
        ];
        for (name, f) in runs {
            let mut y = vec![7.0; d[0]];
            prop_assert_eq!(f(&mut y), Ok(()));
            prop_assert_eq!(&y, &want, "{}", name);
        }
        let trace: f64 = want.iter().sum();
        let mut s = 7.0;
        with_tensor(&CSR, d, &e, |t| k::trace_csr(t, &mut s)).unwrap();
        prop_assert_eq!(s, trace);
        let mut s = 7.0;
        with_tensor(&CSC, d, &e, |t| k::trace_csc(t, &mut s)).unwrap();
        prop_assert_eq!(s, trace);
        let mut y = vec![7.0; d[0]];
        with_tensor(&CSR, d, &e, |t| k::scaled(t, &x, &b, &mut y)).unwrap();
        let scaled: Vec<f64> = (0..d[0]).map(|i| want[i] * x[i] + b[i]).collect();
        prop_assert_eq!(y, scaled);
    }

    #[test]
    fn duplicates_on_the_diagonal_are_summed(
        (d, e) in dims::<2>(6).prop_flat_map(|d| (Just(d), entries_with_duplicates::<f64>(&d, 12))),
    ) {
        let mut y = vec![7.0; d[0]];
        with_tensor(&COO, d, &e, |t| k::diag_coo_nu(t, &mut y)).unwrap();
        prop_assert_eq!(y, diagonal(d, &e));
    }
}
