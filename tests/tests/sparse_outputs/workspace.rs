//! Sparse outputs beyond element-wise (issue 4), against dense
//! evaluations and the exact stored pattern: SpGEMM through the workspace
//! (CSR x CSR -> CSR, DCSR x DCSR -> DCSR: `c[i, j]` is stored iff some `k`
//! has both `a[i, k]` and `b[k, j]` stored, cancelling sums included),
//! SDDMM into an output with the sampling matrix's pattern, a transpose
//! from a CSC operand, and a 3-D CSF sum. Every output over each buffer
//! family, each kernel called twice into the same output.

use proptest::prelude::*;
use sparse_core::output::OutputBuffers;
use sparse_core::{DenseView, Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, CSC, CSF, CSR, DCC, DCSR};
use sparse_tests::gen::{dense_vec, dims, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::sparse_out::{check_output, stored, union, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 16 }>
        #CSF = #sparse_tensor.encoding<{
            map = (i, j, k) -> (i : compressed, j : compressed, k : compressed)
        }>
        #CSF8 = #sparse_tensor.encoding<{
            map = (i, j, k) -> (i : compressed, j : compressed, k : compressed), posWidth = 8, crdWidth = 8
        }>
        #DCC = #sparse_tensor.encoding<{
            map = (i, j, k) -> (i : dense, j : compressed, k : compressed)
        }>

        pub fn spgemm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn spgemm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn spgemm_csr_dcsr_csr8(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #CSR8>) {
            c[i, j] = a[i, k] * b[k, j];
        }

        pub fn sddmm(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        pub fn sddmm_dcsr(s: &tensor<?x?xf64, #DCSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR8>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }

        pub fn transpose_csc(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j];
        }

        pub fn add_csf(a: &tensor<?x?x?xf64, #CSF>, b: &tensor<?x?x?xf64, #CSF>, c: &mut tensor<?x?x?xf64, #CSF>) {
            c[i, j, k] = a[i, j, k] + b[i, j, k];
        }
        pub fn add_csf_dcc_csf8(a: &tensor<?x?x?xf64, #CSF>, b: &tensor<?x?x?xf64, #DCC>, c: &mut tensor<?x?x?xf64, #CSF8>) {
            c[i, j, k] = a[i, j, k] + b[i, j, k];
        }
        pub fn mul_csf(a: &tensor<?x?x?xf64, #CSF>, b: &tensor<?x?x?xf64, #CSF>, c: &mut tensor<?x?x?xf64, #CSF>) {
            c[i, j, k] = a[i, j, k] * b[i, j, k];
        }
    }
}

type Matrix<'a, E> = SparseTensor<'a, f64, E, 2, 2>;
type Out<E, B, const D: usize, const L: usize> = SparseTensorOut<f64, E, B, D, L>;

fn fail(what: impl core::fmt::Display) -> TestCaseError {
    TestCaseError::fail(what.to_string())
}

// ---- SpGEMM

/// `a` (`m x kk`) times `b` (`kk x n`): the stored pattern is every
/// `(i, j)` with a `k` stored on both sides, even if the sum cancels.
fn spgemm_want(
    [m, kk, n]: [usize; 3],
    a: &Entries<f64>,
    b: &Entries<f64>,
) -> (Stored<f64>, Dense<f64>) {
    let mut want = Stored::new();
    for (ca, x) in a {
        for (cb, y) in b {
            if ca[1] == cb[0] {
                let slot = want.entry(vec![ca[0], cb[1]]).or_insert(0.0);
                *slot += x * y;
            }
        }
    }
    let da = Dense::from_entries(&[m, kk], a);
    let db = Dense::from_entries(&[kk, n], b);
    let mut dc = Dense::zeros(&[m, n]);
    for i in 0..m {
        for j in 0..n {
            *dc.at_mut(&[i, j]) = (0..kk).map(|k| da.at(&[i, k]) * db.at(&[k, j])).sum();
        }
    }
    (want, dc)
}

type Spgemm<'x> = ([usize; 3], &'x Entries<f64>, &'x Entries<f64>);

/// Runs `kernel` on `prior` then on `now`, into the same `c`.
fn check_spgemm<EA, EB, EC, B, const L: usize>(
    (la, lb): (&[RefLevel], &[RefLevel]),
    [prior, now]: [Spgemm<'_>; 2],
    c: &mut Out<EC, B, 2, L>,
    kernel: impl Fn(&Matrix<'_, EA>, &Matrix<'_, EB>, &mut Out<EC, B, 2, L>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for (sizes, a, b) in [prior, now] {
        let [m, kk, n] = sizes;
        let got = with_tensor(la, [m, kk], a, |ta| {
            with_tensor(lb, [kk, n], b, |tb| kernel(ta, tb, &mut *c))
        });
        prop_assert_eq!(got, Ok(()), "{:?}: a = {:?}, b = {:?}", sizes, a, b);
        let (want, dense) = spgemm_want(sizes, a, b);
        check_output(&c.view(), &want, &dense)
            .map_err(|e| fail(format!("spgemm {sizes:?}: a = {a:?}, b = {b:?}: {e}")))?;
    }
    Ok(())
}

fn every_spgemm(now: Spgemm<'_>, prior_b: &Entries<f64>) -> Result<(), TestCaseError> {
    let [m, _, n] = now.0;
    // Another product first, into the same output (its sizes are fixed).
    let runs = [(now.0, now.1, prior_b), now];
    each_family!([m, n], |c| {
        check_spgemm((&CSR, &CSR), runs, &mut c, k::spgemm_csr)?;
    });
    each_family!([m, n], |c| {
        check_spgemm((&DCSR, &DCSR), runs, &mut c, k::spgemm_dcsr)?;
    });
    each_family!([m, n], |c| {
        check_spgemm((&CSR, &DCSR), runs, &mut c, k::spgemm_csr_dcsr_csr8)?;
    });
    Ok(())
}

fn spgemm_input() -> impl Strategy<Value = ([usize; 3], Entries<f64>, Entries<f64>, Entries<f64>)> {
    dims::<3>(5).prop_flat_map(|[m, kk, n]| {
        (
            Just([m, kk, n]),
            entries(&[m, kk]),
            entries(&[kk, n]),
            entries(&[kk, n]),
        )
    })
}

// ---- SDDMM

/// `[m, n, kk]`, `s`'s entries, `u` (`m x kk`), `v` (`kk x n`).
type Sddmm = ([usize; 3], Entries<f64>, Vec<f64>, Vec<f64>);

fn sddmm_want(([m, n, kk], s, u, v): &Sddmm) -> (Stored<f64>, Dense<f64>) {
    let (m, n, kk) = (*m, *n, *kk);
    let u = Dense::from_data(&[m, kk], u.clone());
    let v = Dense::from_data(&[kk, n], v.clone());
    let dot = |i: usize, j: usize| -> f64 { (0..kk).map(|k| u.at(&[i, k]) * v.at(&[k, j])).sum() };
    let want = stored(s)
        .into_iter()
        .map(|(c, x)| {
            let d = dot(c[0], c[1]);
            (c, x * d)
        })
        .collect();
    let ds = Dense::from_entries(&[m, n], s);
    let mut dc = Dense::zeros(&[m, n]);
    for i in 0..m {
        for j in 0..n {
            *dc.at_mut(&[i, j]) = ds.at(&[i, j]) * dot(i, j);
        }
    }
    (want, dc)
}

fn check_sddmm<ES, EC, B, const L: usize>(
    layout: &[RefLevel],
    runs: [&Sddmm; 2],
    c: &mut Out<EC, B, 2, L>,
    kernel: impl Fn(
        &Matrix<'_, ES>,
        DenseView<'_, f64, 2>,
        DenseView<'_, f64, 2>,
        &mut Out<EC, B, 2, L>,
    ) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    ES: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for input in runs {
        let ([m, n, kk], s, u, v) = input;
        let vu = DenseView::new(&u[..], [*m, *kk]).expect("u is m x kk");
        let vv = DenseView::new(&v[..], [*kk, *n]).expect("v is kk x n");
        let got = with_tensor(layout, [*m, *n], s, |ts| kernel(ts, vu, vv, &mut *c));
        prop_assert_eq!(got, Ok(()), "{:?}", input);
        let (want, dense) = sddmm_want(input);
        check_output(&c.view(), &want, &dense)
            .map_err(|e| fail(format!("sddmm {input:?}: {e}")))?;
    }
    Ok(())
}

fn every_sddmm(prior: &Sddmm, now: &Sddmm) -> Result<(), TestCaseError> {
    let [m, n, _] = now.0;
    each_family!([m, n], |c| {
        check_sddmm(&CSR, [prior, now], &mut c, k::sddmm)?;
    });
    each_family!([m, n], |c| {
        check_sddmm(&DCSR, [prior, now], &mut c, k::sddmm_dcsr)?;
    });
    Ok(())
}

fn sddmm_for([m, n, kk]: [usize; 3]) -> impl Strategy<Value = Sddmm> {
    (
        Just([m, n, kk]),
        entries(&[m, n]),
        dense_vec(m * kk),
        dense_vec(kk * n),
    )
}

/// Two SDDMM inputs with the same output sizes (the inner size may differ).
fn sddmm_pair() -> impl Strategy<Value = (Sddmm, Sddmm)> {
    (dims::<2>(5), 0usize..=4, 0usize..=4)
        .prop_flat_map(|([m, n], k0, k1)| (sddmm_for([m, n, k0]), sddmm_for([m, n, k1])))
}

// ---- transpose and 3-D

fn check_transpose<EA, EC, B>(
    [m, n]: [usize; 2],
    runs: [&Entries<f64>; 2],
    c: &mut Out<EC, B, 2, 2>,
    kernel: impl Fn(&Matrix<'_, EA>, &mut Out<EC, B, 2, 2>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for a in runs {
        let got = with_tensor(&CSC, [m, n], a, |ta| kernel(ta, &mut *c));
        prop_assert_eq!(got, Ok(()));
        let t: Entries<f64> = a.iter().map(|(x, v)| (vec![x[1], x[0]], *v)).collect();
        let want = stored(&t);
        let da = Dense::from_entries(&[m, n], a);
        let mut dc = Dense::zeros(&[n, m]);
        for i in 0..m {
            for j in 0..n {
                *dc.at_mut(&[j, i]) = da.at(&[i, j]);
            }
        }
        check_output(&c.view(), &want, &dc)
            .map_err(|e| fail(format!("transpose {:?}: a = {a:?}: {e}", [m, n])))?;
    }
    Ok(())
}

fn every_transpose(
    dims: [usize; 2],
    prior: &Entries<f64>,
    a: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let [m, n] = dims;
    each_family!([n, m], |c| {
        check_transpose(dims, [prior, a], &mut c, k::transpose_csc)?;
    });
    Ok(())
}

type In3<'a, E> = SparseTensor<'a, f64, E, 3, 3>;

#[derive(Clone, Copy, Debug)]
enum Op3 {
    Add,
    Mul,
}

#[allow(clippy::type_complexity)]
fn check_3d<EA, EB, EC, B>(
    lb: &[RefLevel],
    dims: [usize; 3],
    op: Op3,
    runs: [(&Entries<f64>, &Entries<f64>); 2],
    c: &mut Out<EC, B, 3, 3>,
    kernel: impl Fn(&In3<'_, EA>, &In3<'_, EB>, &mut Out<EC, B, 3, 3>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for (a, b) in runs {
        let got = with_tensor(&CSF, dims, a, |ta| {
            with_tensor(lb, dims, b, |tb| kernel(ta, tb, &mut *c))
        });
        prop_assert_eq!(got, Ok(()));
        let (sa, sb) = (stored(a), stored(b));
        let (want, f): (Stored<f64>, fn(f64, f64) -> f64) = match op {
            Op3::Add => (union(&sa, &sb, |x, y| x + y), |x, y| x + y),
            Op3::Mul => (
                sparse_tests::sparse_out::intersection(&sa, &sb, |x, y| x * y),
                |x, y| x * y,
            ),
        };
        let (da, db) = (Dense::from_entries(&dims, a), Dense::from_entries(&dims, b));
        let dense = Dense::from_data(
            &dims,
            da.data
                .iter()
                .zip(&db.data)
                .map(|(&x, &y)| f(x, y))
                .collect(),
        );
        check_output(&c.view(), &want, &dense)
            .map_err(|e| fail(format!("{op:?} {dims:?}: a = {a:?}, b = {b:?}: {e}")))?;
    }
    Ok(())
}

fn every_3d(
    dims: [usize; 3],
    a: &Entries<f64>,
    b: &Entries<f64>,
    prior: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let runs = [(prior, b), (a, b)];
    each_family!(dims, 80, |c| {
        check_3d(&CSF, dims, Op3::Add, runs, &mut c, k::add_csf)?;
    });
    each_family!(dims, 80, |c| {
        check_3d(&DCC, dims, Op3::Add, runs, &mut c, k::add_csf_dcc_csf8)?;
    });
    each_family!(dims, 80, |c| {
        check_3d(&CSF, dims, Op3::Mul, runs, &mut c, k::mul_csf)?;
    });
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn spgemm((sizes, a, b, prior_b) in spgemm_input()) {
        every_spgemm((sizes, &a, &b), &prior_b)?;
    }

    #[test]
    fn sddmm_keeps_the_sampling_pattern((prior, now) in sddmm_pair()) {
        every_sddmm(&prior, &now)?;
    }

    #[test]
    fn transpose_from_csc((d, a, prior) in dims::<2>(5).prop_flat_map(|d| (Just(d), entries(&d), entries(&d)))) {
        every_transpose(d, &prior, &a)?;
    }

    #[test]
    fn csf_3d((d, a, b, p) in dims::<3>(4).prop_flat_map(|d| (Just(d), entries(&d), entries(&d), entries(&d)))) {
        every_3d(d, &a, &b, &p)?;
    }
}

fn at<const R: usize>(entries: &[([usize; R], i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (c.to_vec(), f64::small(k)))
        .collect()
}

#[test]
fn spgemm_edge_cases() {
    let none = Vec::new();
    for sizes in [[0, 0, 0], [0, 3, 2], [2, 0, 3], [3, 2, 0], [3, 3, 3]] {
        every_spgemm((sizes, &none, &none), &none).unwrap();
    }
    let a = at(&[([0, 1], 4), ([2, 0], -2), ([2, 2], 1)]);
    let b = at(&[([0, 2], 3), ([1, 0], 1), ([1, 2], 5), ([2, 2], 8)]);
    // Row 1 of `a` is empty (an all-zero output row), row 2 merges two
    // products into column 2; then products that cancel to a stored zero.
    every_spgemm(([3, 3, 3], &a, &b), &b).unwrap();
    every_spgemm(([3, 3, 3], &a, &none), &b).unwrap();
    let cancel_a = at(&[([0, 0], 4), ([0, 1], 4)]);
    let cancel_b = at(&[([0, 1], 1), ([1, 1], -1)]);
    let (want, _) = spgemm_want([1, 2, 2], &cancel_a, &cancel_b);
    assert_eq!(
        want.get(&vec![0, 1]),
        Some(&0.0),
        "the pattern keeps the cancelled sum"
    );
    every_spgemm(([1, 2, 2], &cancel_a, &cancel_b), &cancel_b).unwrap();
    // A single product; explicit zeros in the operands.
    every_spgemm(([4, 4, 4], &at(&[([3, 3], 2)]), &at(&[([3, 0], 3)])), &none).unwrap();
    let zeros = at(&[([0, 0], 0), ([1, 1], 0)]);
    every_spgemm(([2, 2, 2], &zeros, &zeros), &none).unwrap();
}

#[test]
fn spgemm_output_at_the_maximum_of_8_bit_widths() {
    // `CSR8` output: 256 columns (coordinate 255) and 255 entries in a row.
    let a = at(&[([0, 0], 1), ([1, 1], 2)]);
    // 254 + 1 entries: the last position is 255, the most `u8` holds.
    let b: Entries<f64> = (0..254)
        .map(|j| (vec![0, j + 1], f64::small(j as i32 % 7 - 3)))
        .chain([(vec![1, 255], 3.0)])
        .collect();
    let before = at(&[([0, 255], 1), ([1, 0], 2)]);
    let runs = [([2, 2, 256], &a, &before), ([2, 2, 256], &a, &b)];
    each_family!([2, 256], 300, |c| {
        check_spgemm((&CSR, &DCSR), runs, &mut c, k::spgemm_csr_dcsr_csr8).unwrap();
    });
}

#[test]
fn sddmm_edge_cases() {
    let ramp = |n: usize| {
        (0..n)
            .map(|p| f64::small(p as i32 % 9 - 4))
            .collect::<Vec<_>>()
    };
    let none: Entries<f64> = Vec::new();
    let make = |m: usize, n: usize, kk: usize, s: &Entries<f64>| -> Sddmm {
        ([m, n, kk], s.clone(), ramp(m * kk), ramp(kk * n))
    };
    let s = at(&[([0, 0], 1), ([0, 3], 0), ([2, 1], -3)]);
    // An empty sampling matrix after a full one; a zero inner size (the
    // pattern stays, every value is a computed zero); explicit zeros.
    let full: Entries<f64> = (0..12).map(|p| (vec![p / 4, p % 4], 1.0)).collect();
    every_sddmm(&make(3, 4, 2, &full), &make(3, 4, 2, &none)).unwrap();
    every_sddmm(&make(3, 4, 2, &full), &make(3, 4, 0, &s)).unwrap();
    every_sddmm(&make(3, 4, 3, &none), &make(3, 4, 3, &s)).unwrap();
    every_sddmm(&make(0, 4, 3, &none), &make(0, 4, 1, &none)).unwrap();
    every_sddmm(&make(1, 1, 1, &none), &make(1, 1, 2, &at(&[([0, 0], 5)]))).unwrap();
}

#[test]
fn transpose_edge_cases() {
    let none = Vec::new();
    for dims in [[0, 0], [0, 3], [3, 0], [2, 5]] {
        every_transpose(dims, &none, &none).unwrap();
    }
    let a = at(&[([0, 4], 1), ([1, 0], 0), ([1, 4], -2)]);
    every_transpose([2, 5], &none, &a).unwrap();
    every_transpose([2, 5], &a, &none).unwrap();
    every_transpose([1, 1], &none, &at(&[([0, 0], 3)])).unwrap();
}

#[test]
fn csf_3d_edge_cases() {
    let none = Vec::new();
    for dims in [[0, 0, 0], [0, 2, 2], [2, 0, 2], [2, 2, 0], [2, 3, 2]] {
        every_3d(dims, &none, &none, &none).unwrap();
    }
    let a = at(&[([0, 0, 1], 2), ([0, 2, 0], 0), ([2, 1, 1], -1)]);
    let b = at(&[([0, 0, 1], -2), ([1, 1, 1], 4), ([2, 1, 0], 1)]);
    every_3d([3, 3, 2], &a, &b, &none).unwrap();
    every_3d([3, 3, 2], &a, &none, &b).unwrap();
    every_3d([3, 3, 2], &none, &b, &a).unwrap();
    every_3d([3, 3, 2], &at(&[([2, 2, 1], 7)]), &a, &none).unwrap();
    // CSF8: coordinate 255 on the first and last levels.
    let far = at(&[([255, 0, 255], 3), ([0, 0, 0], 1)]);
    each_family!([256, 1, 256], |c| {
        check_3d(
            &DCC,
            [256, 1, 256],
            Op3::Add,
            [(&far, &far), (&far, &a[..1].to_vec())],
            &mut c,
            k::add_csf_dcc_csf8,
        )
        .unwrap();
    });
}
