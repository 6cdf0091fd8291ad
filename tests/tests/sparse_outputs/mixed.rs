//! Sparse outputs with dense operands, reductions and less common output
//! formats (issue 4), against dense evaluations and the exact stored set:
//! `sparse * dense` stores the sparse operand's pattern, `sparse + dense`
//! everything (a dense operand is stored everywhere); a row sum into a
//! sparse vector stores every row over CSR (its row level is dense) but
//! only the non-empty rows over DCSR; a loose compressed output stores the
//! union; an output with a dense inner level (`i : compressed, j : dense`)
//! stores whole rows, the padding as zeros. Each over every buffer family,
//! each called twice into the same output.

use proptest::prelude::*;
use sparse_core::output::OutputBuffers;
use sparse_core::{DenseView, Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, CSR, DCSR};
use sparse_tests::gen::{dense_vec, dims, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::sparse_out::{check_output, intersection, stored, union, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 16 }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed), posWidth = 16 }>
        #CD = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : dense) }>

        pub fn mul_dense(a: &tensor<?x?xf64, #CSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * d[i, j];
        }
        pub fn add_dense(a: &tensor<?x?xf64, #DCSR>, d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] + d[i, j];
        }
        pub fn row_sums_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j];
        }
        pub fn row_sums_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j];
        }
        pub fn add_loose(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #LOOSE>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_rows(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CD>) {
            c[i, j] = a[i, j] + b[i, j];
        }
    }
}

type Matrix<'a, E> = SparseTensor<'a, f64, E, 2, 2>;
type Out<E, B, const D: usize, const L: usize> = SparseTensorOut<f64, E, B, D, L>;

fn fail(what: impl core::fmt::Display) -> TestCaseError {
    TestCaseError::fail(what.to_string())
}

/// Every coordinate of `dims` holding `f` of it.
fn everywhere(dims: [usize; 2], f: impl Fn(usize, usize) -> f64) -> Stored<f64> {
    (0..dims[0])
        .flat_map(|i| (0..dims[1]).map(move |j| (i, j)))
        .map(|(i, j)| (vec![i, j], f(i, j)))
        .collect()
}

/// The stored set as the dense tensor it describes.
fn as_dense(dims: &[usize], s: &Stored<f64>) -> Dense<f64> {
    let e: Entries<f64> = s.iter().map(|(c, v)| (c.clone(), *v)).collect();
    Dense::from_entries(dims, &e)
}

// ---- sparse with dense operands

fn check_with_dense<EA, EC, B>(
    layout: &[RefLevel],
    dims: [usize; 2],
    runs: [(&Entries<f64>, &[f64]); 2],
    mul: bool,
    c: &mut Out<EC, B, 2, 2>,
    kernel: impl Fn(
        &Matrix<'_, EA>,
        DenseView<'_, f64, 2>,
        &mut Out<EC, B, 2, 2>,
    ) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for (a, d) in runs {
        let view = DenseView::new(d, dims).expect("d has the matrix's size");
        let got = with_tensor(layout, dims, a, |ta| kernel(ta, view, &mut *c));
        prop_assert_eq!(got, Ok(()));
        let dd = Dense::from_data(&dims, d.to_vec());
        let da = Dense::from_entries(&dims, a);
        // The dense operand stores every coordinate.
        let all = everywhere(dims, |i, j| dd.at(&[i, j]));
        let want = if mul {
            intersection(&stored(a), &all, |x, y| x * y)
        } else {
            union(&stored(a), &all, |x, y| x + y)
        };
        let op = |x: f64, y: f64| if mul { x * y } else { x + y };
        let dense = Dense::from_data(
            &dims,
            da.data
                .iter()
                .zip(&dd.data)
                .map(|(&x, &y)| op(x, y))
                .collect(),
        );
        check_output(&c.view(), &want, &dense)
            .map_err(|e| fail(format!("mul {mul} {dims:?}: a = {a:?}, d = {d:?}: {e}")))?;
    }
    Ok(())
}

// ---- row sums

fn check_row_sums<EA, EC, B>(
    layout: &[RefLevel],
    dims: [usize; 2],
    every_row: bool,
    runs: [&Entries<f64>; 2],
    c: &mut Out<EC, B, 1, 1>,
    kernel: impl Fn(&Matrix<'_, EA>, &mut Out<EC, B, 1, 1>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for a in runs {
        let got = with_tensor(layout, dims, a, |ta| kernel(ta, &mut *c));
        prop_assert_eq!(got, Ok(()));
        let da = Dense::from_entries(&dims, a);
        let sums: Vec<f64> = (0..dims[0])
            .map(|i| (0..dims[1]).map(|j| da.at(&[i, j])).sum())
            .collect();
        let want: Stored<f64> = (0..dims[0])
            .filter(|&i| every_row || a.iter().any(|(c, _)| c[0] == i))
            .map(|i| (vec![i], sums[i]))
            .collect();
        check_output(&c.view(), &want, &Dense::from_data(&[dims[0]], sums))
            .map_err(|e| fail(format!("row sums {dims:?}: a = {a:?}: {e}")))?;
    }
    Ok(())
}

// ---- other output formats

/// `a + b` with `a` in CSR and `b` in DCSR (or the other way round, as the
/// layouts say) into `c`; `whole_rows`: the output pads every stored row
/// with zeros.
#[allow(clippy::type_complexity)]
fn check_add<EA, EB, EC, B>(
    (la, lb): (&[RefLevel], &[RefLevel]),
    dims: [usize; 2],
    whole_rows: bool,
    runs: [(&Entries<f64>, &Entries<f64>); 2],
    c: &mut Out<EC, B, 2, 2>,
    kernel: impl Fn(&Matrix<'_, EA>, &Matrix<'_, EB>, &mut Out<EC, B, 2, 2>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for (a, b) in runs {
        let got = with_tensor(la, dims, a, |ta| {
            with_tensor(lb, dims, b, |tb| kernel(ta, tb, &mut *c))
        });
        prop_assert_eq!(got, Ok(()));
        let sum = union(&stored(a), &stored(b), |x, y| x + y);
        let want = if whole_rows {
            everywhere(dims, |i, j| sum.get(&vec![i, j]).copied().unwrap_or(0.0))
                .into_iter()
                .filter(|(c, _)| sum.keys().any(|s| s[0] == c[0]))
                .collect()
        } else {
            sum.clone()
        };
        let dense = as_dense(&dims, &sum);
        check_output(&c.view(), &want, &dense)
            .map_err(|e| fail(format!("{dims:?}: a = {a:?}, b = {b:?}: {e}")))?;
    }
    Ok(())
}

fn every_kernel(
    dims: [usize; 2],
    (a, b, prior): (&Entries<f64>, &Entries<f64>, &Entries<f64>),
    d: &[f64],
) -> Result<(), TestCaseError> {
    let zeros = vec![0.0; d.len()];
    let with_d = [(prior, &zeros[..]), (a, d)];
    each_family!(dims, |c| {
        check_with_dense(&CSR, dims, with_d, true, &mut c, k::mul_dense)?;
    });
    each_family!(dims, |c| {
        check_with_dense(&DCSR, dims, with_d, false, &mut c, k::add_dense)?;
    });
    each_family!([dims[0]], |c| {
        check_row_sums(&CSR, dims, true, [prior, a], &mut c, k::row_sums_csr)?;
    });
    each_family!([dims[0]], |c| {
        check_row_sums(&DCSR, dims, false, [prior, a], &mut c, k::row_sums_dcsr)?;
    });
    let runs = [(prior, b), (a, b)];
    each_family!(dims, |c| {
        check_add((&CSR, &DCSR), dims, false, runs, &mut c, k::add_loose)?;
    });
    each_family!(dims, |c| {
        check_add((&DCSR, &CSR), dims, true, runs, &mut c, k::add_rows)?;
    });
    Ok(())
}

type Input = (
    [usize; 2],
    Entries<f64>,
    Entries<f64>,
    Entries<f64>,
    Vec<f64>,
);

fn input() -> impl Strategy<Value = Input> {
    dims::<2>(5).prop_flat_map(|d| {
        (
            Just(d),
            entries(&d),
            entries(&d),
            entries(&d),
            dense_vec(d[0] * d[1]),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mixed((d, a, b, p, dd) in input()) {
        every_kernel(d, (&a, &b, &p), &dd)?;
    }
}

fn at(entries: &[([usize; 2], i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (c.to_vec(), f64::small(k)))
        .collect()
}

#[test]
fn edge_cases() {
    let none = Vec::new();
    for dims in [[0, 0], [0, 3], [3, 0], [3, 4]] {
        let d = vec![1.0; dims[0] * dims[1]];
        every_kernel(dims, (&none, &none, &none), &d).unwrap();
    }
    let a = at(&[([1, 0], 4), ([1, 3], -2), ([3, 3], 0)]);
    let full: Entries<f64> = (0..16).map(|p| (vec![p / 4, p % 4], 1.0)).collect();
    let ramp: Vec<f64> = (0..16).map(|p| f64::small(p - 8)).collect();
    // All-zero rows, explicit zeros, a dense operand of zeros (the
    // products are stored zeros), sums that cancel, after a full result.
    every_kernel([4, 4], (&a, &none, &full), &ramp).unwrap();
    every_kernel([4, 4], (&none, &a, &full), &[0.0; 16]).unwrap();
    let minus_a = at(&[([1, 0], -4), ([1, 3], 2)]);
    every_kernel([4, 4], (&a, &minus_a, &none), &ramp).unwrap();
    every_kernel([4, 4], (&at(&[([2, 2], 1)]), &none, &a), &ramp).unwrap();
}
