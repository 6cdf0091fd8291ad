//! Parallel SpMV `y[i] = a[i, j] * x[j]` in every format whose outer loop
//! runs in chunks, and CSC (sequential), against the sequential kernels
//! (bit for bit) and a dense product (exact values).

use proptest::prelude::*;
use sparse_core::{Encoding, KernelError, SparseTensor};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, COO_SOA, CSC, CSR, DCSR, LOOSE};
use sparse_tests::gen::{sparse_with_duplicates, Entries};
use sparse_tests::reference::RefLevel;

use super::common::{bits, on_threads, random, rough, roughen, shapes, small, vector};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 16 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)), posWidth = 32 }>
        #COO_SOA = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)), crdWidth = 32 }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

        pub fn csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn acc_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        #[parallel]
        pub fn par_acc_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }

        pub fn dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn acc_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        #[parallel]
        pub fn par_acc_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }

        pub fn coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn acc_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        #[parallel]
        pub fn par_acc_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }

        pub fn coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn acc_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        #[parallel]
        pub fn par_acc_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        pub fn coo_soa(a: &tensor<?x?xf64, #COO_SOA>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_coo_soa(a: &tensor<?x?xf64, #COO_SOA>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }

        pub fn loose(a: &tensor<?x?xf64, #LOOSE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_loose(a: &tensor<?x?xf64, #LOOSE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }

        // Stride-1 slices walked in place: CSR rows in chunks, DCSR (rows
        // through a window) in chunks of rows narrowing the window.
        #CSR_U = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense, j : compressed), posWidth = 16 }>
        #DCSR_U = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : compressed, j : compressed), crdWidth = 16 }>
        pub fn csr_u(a: &tensor<?x?xf64, #CSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_csr_u(a: &tensor<?x?xf64, #CSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn dcsr_u(a: &tensor<?x?xf64, #DCSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_dcsr_u(a: &tensor<?x?xf64, #DCSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }

        pub fn csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
    }
}

type Matrix<'a, E> = SparseTensor<'a, f64, E, 2, 2>;
type Kernel<E> = fn(&Matrix<'_, E>, &[f64], &mut [f64]) -> Result<(), KernelError>;

/// `y0 + a x` computed densely (`y0` zero for `=`).
fn product(dims: [usize; 2], e: &Entries<f64>, x: &[f64], y0: &[f64]) -> Vec<f64> {
    let a = Dense::from_entries(&dims, e);
    let mut y = y0.to_vec();
    for (i, yi) in y.iter_mut().enumerate() {
        for (j, &xj) in x.iter().enumerate() {
            *yi += a.at(&[i, j]) * xj;
        }
    }
    y
}

/// One format: the parallel kernel against the sequential one (bit for
/// bit) and, when `exact`, against the dense product; `=` over garbage and
/// `+=` over a start vector.
#[allow(clippy::too_many_arguments)]
fn check<E>(
    layout: &[RefLevel],
    dims: [usize; 2],
    e: &Entries<f64>,
    exact: bool,
    (seq, par): (Kernel<E>, Kernel<E>),
    acc: Option<(Kernel<E>, Kernel<E>)>,
    what: &str,
) where
    E: Encoding + Sync,
    E::Pos: Sync,
    E::Crd: Sync,
{
    let value = if exact { super::common::small } else { rough };
    let x = vector(dims[1], value);
    let y0 = vector(dims[0], |n| value(n + 7));
    let acc = acc.map(|(s, p)| (s, p, Some(&y0)));
    for (s, p, start) in [Some((seq, par, None)), acc].into_iter().flatten() {
        let fill = |v: f64| start.map_or_else(|| vec![v; dims[0]], |y0| y0.clone());
        let (mut want, mut got) = (fill(777.25), fill(-555.5));
        with_tensor(layout, dims, e, |a| {
            assert_eq!(s(a, &x, &mut want), Ok(()));
            assert_eq!(on_threads(|| p(a, &x, &mut got)), Ok(()));
        });
        assert_eq!(
            bits(&got),
            bits(&want),
            "{what}: parallel {got:?} vs sequential {want:?}"
        );
        if exact {
            let zero = vec![0.0; dims[0]];
            let dense = product(dims, e, &x, start.unwrap_or(&zero));
            assert_eq!(got, dense, "{what}: against the dense product");
        }
    }
}

/// Every format on one matrix.
fn every_format(dims: [usize; 2], e: &Entries<f64>, exact: bool, what: &str) {
    check(
        &CSR,
        dims,
        e,
        exact,
        (k::csr, k::par_csr),
        Some((k::acc_csr, k::par_acc_csr)),
        what,
    );
    check(
        &DCSR,
        dims,
        e,
        exact,
        (k::dcsr, k::par_dcsr),
        Some((k::acc_dcsr, k::par_acc_dcsr)),
        what,
    );
    check(
        &COO,
        dims,
        e,
        exact,
        (k::coo, k::par_coo),
        Some((k::acc_coo, k::par_acc_coo)),
        what,
    );
    check(
        &COO_SOA,
        dims,
        e,
        exact,
        (k::coo_soa, k::par_coo_soa),
        None,
        what,
    );
    check(&LOOSE, dims, e, exact, (k::loose, k::par_loose), None, what);
    check(&CSC, dims, e, exact, (k::csc, k::par_csc), None, what);
}

#[test]
fn every_shape_matches_the_sequential_kernel_and_the_dense_product() {
    for shape in shapes(small) {
        every_format(shape.dims, &shape.entries, true, shape.name);
    }
    for shape in shapes(rough) {
        every_format(shape.dims, &shape.entries, false, shape.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_matrices((dims, e) in random()) {
        every_format(dims, &e, true, "random");
        every_format(dims, &roughen(&e), false, "random, rough values");
    }

    /// Repeated coordinates (nonunique COO): a row's duplicates are one
    /// segment, never cut between chunks, and summed as the sequential
    /// kernel sums them.
    #[test]
    fn coo_with_duplicates((dims, e) in sparse_with_duplicates::<f64, 2>(6, 20)) {
        for (entries, exact) in [(e.clone(), true), (roughen(&e), false)] {
            check(&COO, dims, &entries, exact, (k::coo_nu, k::par_coo_nu), Some((k::acc_coo_nu, k::par_acc_coo_nu)), "duplicates");
        }
    }
}

/// The size checks come first, as in the sequential kernel.
#[test]
fn size_mismatch_is_the_sequential_error() {
    let e = vec![(vec![0, 0], 1.0)];
    with_tensor(&CSR, [2, 3], &e, |a| {
        let mut y = [9.0; 2];
        let want = k::csr(a, &[1.0; 4], &mut y);
        assert!(matches!(want, Err(KernelError::DimensionMismatch { .. })));
        assert_eq!(on_threads(|| k::par_csr(a, &[1.0; 4], &mut y)), want);
        assert_eq!(y, [9.0; 2], "the output is untouched");
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Stride-1 slices walked in place, parallel against sequential (bit
    /// for bit) and against the dense product of the slice (exact values).
    #[test]
    fn slices_walked_in_place(
        (dims, e) in random(),
        corner in (0usize..16, 0usize..16),
        extent in (1usize..=16, 1usize..=16),
    ) {
        prop_assume!(dims[0] > 0 && dims[1] > 0);
        let off = [corner.0 % dims[0], corner.1 % dims[1]];
        let size = [1 + (extent.0 - 1) % (dims[0] - off[0]), 1 + (extent.1 - 1) % (dims[1] - off[1])];
        let e: Entries<f64> = e.iter().enumerate().map(|(n, (c, _))| (c.clone(), small(n))).collect();
        let x = vector(size[1], small);
        let full = Dense::from_entries(&dims, &e);
        let dense: Vec<f64> = (0..size[0])
            .map(|i| (0..size[1]).map(|j| full.at(&[off[0] + i, off[1] + j]) * x[j]).sum())
            .collect();
        let (mut want, mut got) = (vec![777.25; size[0]], vec![-555.5; size[0]]);
        with_tensor(&CSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, [1, 1]).unwrap();
            assert_eq!(k::csr_u(&s, &x, &mut want), Ok(()));
            assert_eq!(on_threads(|| k::par_csr_u(&s, &x, &mut got)), Ok(()));
        });
        prop_assert_eq!(bits(&got), bits(&want));
        prop_assert_eq!(&got, &dense);
        let (mut want, mut got) = (vec![777.25; size[0]], vec![-555.5; size[0]]);
        with_tensor(&DCSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, [1, 1]).unwrap();
            assert_eq!(k::dcsr_u(&s, &x, &mut want), Ok(()));
            assert_eq!(on_threads(|| k::par_dcsr_u(&s, &x, &mut got)), Ok(()));
        });
        prop_assert_eq!(bits(&got), bits(&want));
        prop_assert_eq!(&got, &dense);
    }
}
