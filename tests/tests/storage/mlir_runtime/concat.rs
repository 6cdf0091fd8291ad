//! `concatenate_mixed`: operands of different encodings and dense ones in
//! one call (MLIR's `sparse_tensor.concatenate`).

use proptest::prelude::*;
use sparse_core::convert::{
    concatenate_mixed, concatenate_mixed_dense, concatenate_mixed_sum, ConcatInput, ConvertError,
};
use sparse_core::levels::{compressed, d0, d1, dense};
use sparse_core::{DenseView, DenseViewMut, Enc, Owned, SparseTensorOut, StoresValues};

use super::common::*;

type MatCC = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
type MatCD = Enc<usize, usize, (compressed, dense), (d0, d1)>;
type MatDC = Enc<usize, usize, (dense, compressed), (d0, d1)>;

fn f64_owned<E: StoresValues>(
    dims: [usize; 2],
    data: &[f64],
) -> SparseTensorOut<f64, E, Owned, 2, 2> {
    let mut out = SparseTensorOut::<f64, E, Owned, 2, 2>::with_dims(dims).unwrap();
    sparse_core::convert::from_dense(data, dims, &mut out).unwrap();
    out
}

/// `concatenate_dim_1.mlir`: 4x2 `#MAT_C_C`, 4x3 `#MAT_C_D` and 4x4
/// `#MAT_D_C` (and the first as a dense tensor) side by side into a 4x9
/// `#MAT_C_C` and into a dense 4x9.
#[test]
fn mlir_concatenate_dim_1() {
    let m42 = [1.0, 0.0, 3.1, 0.0, 0.0, 2.0, 0.0, 0.0];
    let m43 = [1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 0.0, 1.0, 5.0, 2.0, 0.0];
    let m44 = [
        0.0, 0.0, 1.5, 1.0, 0.0, 3.5, 0.0, 0.0, 1.0, 5.0, 2.0, 0.0, 1.0, 0.5, 0.0, 0.0,
    ];
    let (a, b, c) = (
        f64_owned::<MatCC>([4, 2], &m42),
        f64_owned::<MatCD>([4, 3], &m43),
        f64_owned::<MatDC>([4, 4], &m44),
    );
    // `#MAT_C_D` stores the zeros of its dense rows: 12 values.
    assert_eq!(b.number_of_entries(), 12);
    let dense_a = DenseView::new(&m42, [4, 2]).unwrap();
    let (va, vb, vc) = (a.view(), b.view(), c.view());
    let sparse: [&dyn ConcatInput<f64, 2>; 3] = [&va, &vb, &vc];
    let mixed: [&dyn ConcatInput<f64, 2>; 3] = [&dense_a, &vb, &vc];
    for inputs in [sparse, mixed] {
        let mut out = SparseTensorOut::<f64, MatCC, Owned, 2, 2>::with_dims([4, 9]).unwrap();
        concatenate_mixed(&inputs, 1, &mut out).unwrap();
        let v = out.view();
        assert_eq!(v.number_of_entries(), 18);
        assert_eq!(v.level(0).positions(), &[0, 4]);
        assert_eq!(v.level(0).coordinates(), &[0, 1, 2, 3]);
        assert_eq!(v.level(1).positions(), &[0, 5, 9, 14, 18]);
        assert_eq!(
            v.level(1).coordinates(),
            &[0, 2, 4, 7, 8, 0, 2, 4, 6, 1, 4, 5, 6, 7, 2, 3, 5, 6]
        );
        assert_eq!(
            v.values(),
            &[
                1.0, 1.0, 1.0, 1.5, 1.0, 3.1, 1.0, 0.5, 3.5, 2.0, 1.0, 1.0, 5.0, 2.0, 5.0, 2.0,
                1.0, 0.5
            ]
        );
        let mut data = [7.0; 36];
        let mut d = DenseViewMut::new(&mut data, [4, 9]).unwrap();
        concatenate_mixed_dense(&inputs, 1, &mut d).unwrap();
        assert_eq!(
            data,
            [
                1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.5, 1.0, //
                3.1, 0.0, 1.0, 0.0, 0.5, 0.0, 3.5, 0.0, 0.0, //
                0.0, 2.0, 0.0, 0.0, 1.0, 1.0, 5.0, 2.0, 0.0, //
                0.0, 0.0, 5.0, 2.0, 0.0, 1.0, 0.5, 0.0, 0.0,
            ]
        );
    }
}

/// The dense concatenation of `parts` (row-major data of `dims`) along
/// `dim`.
fn dense_concat<const D: usize>(
    parts: &[([usize; D], Vec<i64>)],
    dim: usize,
) -> ([usize; D], Vec<i64>) {
    let mut dims = parts[0].0;
    dims[dim] = parts.iter().map(|p| p.0[dim]).sum();
    let mut out = vec![0; dims.iter().product()];
    let mut shift = 0;
    for (pd, data) in parts {
        for (at, &v) in data.iter().enumerate() {
            let mut c = unravel(pd, at);
            c[dim] += shift;
            out[offset(&dims, &c)] = v;
        }
        shift += pd[dim];
    }
    (dims, out)
}

fn into_target<T: StoresValues, const D: usize, const L: usize>(
    inputs: &[&dyn ConcatInput<i64, D>],
    dim: usize,
    dims: [usize; D],
    expected: &[i64],
    padded: bool,
) -> Result<(), TestCaseError> {
    let mut out = SparseTensorOut::<i64, T, Owned, D, L>::with_dims(dims).unwrap();
    concatenate_mixed(inputs, dim, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(dense_of(&out.view()), expected);
    if !padded {
        // The nonzeros, nothing else.
        prop_assert_eq!(
            out.number_of_entries(),
            expected.iter().filter(|&&x| x != 0).count()
        );
    }
    let mut again = SparseTensorOut::<i64, T, Owned, D, L>::with_dims(dims).unwrap();
    concatenate_mixed_sum(inputs, dim, &mut again).unwrap();
    prop_assert_eq!(dense_of(&again.view()), expected);
    let mut data = vec![-1; expected.len()];
    let mut d = DenseViewMut::new(&mut data, dims).unwrap();
    concatenate_mixed_dense(inputs, dim, &mut d).unwrap();
    prop_assert_eq!(data, expected);
    Ok(())
}

/// The concatenated dimension and the operands (sizes, row-major data).
type Parts<const D: usize> = (usize, Vec<([usize; D], Vec<i64>)>);

fn parts2() -> impl Strategy<Value = Parts<2>> {
    (
        0usize..2,
        0usize..5,
        proptest::collection::vec(0usize..4, 3),
    )
        .prop_flat_map(|(dim, n, along)| {
            let shapes: Vec<[usize; 2]> = along
                .iter()
                .map(|&k| if dim == 0 { [k, n] } else { [n, k] })
                .collect();
            let datas: Vec<_> = shapes.iter().map(|s| data(s)).collect();
            (Just(dim), Just(shapes), datas)
                .prop_map(|(dim, shapes, datas)| (dim, shapes.into_iter().zip(datas).collect()))
        })
}

fn parts3() -> impl Strategy<Value = Parts<3>> {
    (
        0usize..3,
        dims::<3>(3),
        proptest::collection::vec(0usize..3, 3),
    )
        .prop_flat_map(|(dim, base, along)| {
            let shapes: Vec<[usize; 3]> = along
                .iter()
                .map(|&k| {
                    let mut s = base;
                    s[dim] = k;
                    s
                })
                .collect();
            let datas: Vec<_> = shapes.iter().map(|s| data(s)).collect();
            (Just(dim), Just(shapes), datas)
                .prop_map(|(dim, shapes, datas)| (dim, shapes.into_iter().zip(datas).collect()))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn mixed_2d((dim, parts) in parts2()) {
        let (dims, expected) = dense_concat(&parts, dim);
        let a = owned::<Csr, 2, 2>(parts[0].0, &parts[0].1);
        let b = owned::<Coo, 2, 2>(parts[1].0, &parts[1].1);
        let c = DenseView::new(&parts[2].1, parts[2].0).unwrap();
        let a2 = owned::<Csc, 2, 2>(parts[0].0, &parts[0].1);
        let b2 = owned::<Dcsr, 2, 2>(parts[1].0, &parts[1].1);
        let c2 = owned::<RowSparse, 2, 2>(parts[2].0, &parts[2].1);
        let (va, vb, va2, vb2, vc2) = (a.view(), b.view(), a2.view(), b2.view(), c2.view());
        let one: [&dyn ConcatInput<i64, 2>; 3] = [&va, &vb, &c];
        let two: [&dyn ConcatInput<i64, 2>; 3] = [&va2, &vb2, &vc2];
        for inputs in [one, two] {
            into_target::<Csr, 2, 2>(&inputs, dim, dims, &expected, false)?;
            into_target::<Csc, 2, 2>(&inputs, dim, dims, &expected, false)?;
            into_target::<Dcsr, 2, 2>(&inputs, dim, dims, &expected, false)?;
            into_target::<Coo, 2, 2>(&inputs, dim, dims, &expected, false)?;
            into_target::<CooSoa, 2, 2>(&inputs, dim, dims, &expected, false)?;
            into_target::<RowSparse, 2, 2>(&inputs, dim, dims, &expected, true)?;
        }
    }

    #[test]
    fn mixed_3d((dim, parts) in parts3()) {
        let (dims, expected) = dense_concat(&parts, dim);
        let a = owned::<Csf, 3, 3>(parts[0].0, &parts[0].1);
        let b = owned::<Dcc, 3, 3>(parts[1].0, &parts[1].1);
        let c = DenseView::new(&parts[2].1, parts[2].0).unwrap();
        let (va, vb) = (a.view(), b.view());
        let inputs: [&dyn ConcatInput<i64, 3>; 3] = [&va, &vb, &c];
        into_target::<Csf, 3, 3>(&inputs, dim, dims, &expected, false)?;
        into_target::<Dcc, 3, 3>(&inputs, dim, dims, &expected, false)?;
        into_target::<Coo3, 3, 3>(&inputs, dim, dims, &expected, false)?;
    }
}

#[test]
fn sizes_are_checked_and_the_output_left_valid() {
    let a = owned::<Csr, 2, 2>([2, 2], &[1, 0, 0, 2]);
    let b = DenseView::new(&[3, 4, 5], [1, 3]).unwrap();
    let va = a.view();
    let inputs: [&dyn ConcatInput<i64, 2>; 2] = [&va, &b];
    let mut out = SparseTensorOut::<i64, Dcsr, Owned, 2, 2>::with_dims([3, 2]).unwrap();
    assert_eq!(
        concatenate_mixed(&inputs, 0, &mut out),
        Err(ConvertError::DimensionMismatch {
            dim: 1,
            size: 2,
            expected: 3
        })
    );
    assert_eq!(
        concatenate_mixed(&inputs, 2, &mut out),
        Err(ConvertError::ConcatDimension { dim: 2, rank: 2 })
    );
    let c = DenseView::new(&[3, 4], [1, 2]).unwrap();
    let inputs: [&dyn ConcatInput<i64, 2>; 2] = [&va, &c];
    let mut short = SparseTensorOut::<i64, Dcsr, Owned, 2, 2>::with_dims([4, 2]).unwrap();
    assert_eq!(
        concatenate_mixed(&inputs, 0, &mut short),
        Err(ConvertError::DimensionMismatch {
            dim: 0,
            size: 4,
            expected: 3
        })
    );
    assert_eq!(short.number_of_entries(), 0);
    concatenate_mixed(&inputs, 0, &mut out).unwrap();
    assert_eq!(dense_of(&out.view()), [1, 0, 0, 2, 3, 4]);
}

/// `tests/oracle/concatenate.py`: CSR operands storing explicit zeros,
/// concatenated by rows and by columns; upstream keeps the nonzeros only.
#[test]
fn oracle_explicit_zeros() {
    type CsrF = Enc<usize, usize, (dense, compressed), (d0, d1)>;
    let a = sparse_core::SparseTensor::<f64, CsrF, 2, 2>::assemble(
        [2, 3],
        [
            sparse_core::Level::dense(),
            sparse_core::Level::compressed(&[0, 2, 2], &[1, 2]),
        ],
        &[0.0, 5.0],
    )
    .unwrap();
    let b = sparse_core::SparseTensor::<f64, CsrF, 2, 2>::assemble(
        [2, 3],
        [
            sparse_core::Level::dense(),
            sparse_core::Level::compressed(&[0, 0, 2], &[0, 1]),
        ],
        &[0.0, 7.0],
    )
    .unwrap();
    let inputs: [&dyn ConcatInput<f64, 2>; 2] = [&a, &b];
    let mut rows = SparseTensorOut::<f64, CsrF, Owned, 2, 2>::with_dims([4, 3]).unwrap();
    concatenate_mixed(&inputs, 0, &mut rows).unwrap();
    assert_eq!(rows.view().level(1).positions(), &[0, 1, 1, 1, 2]);
    assert_eq!(rows.view().level(1).coordinates(), &[2, 1]);
    assert_eq!(rows.view().values(), &[5.0, 7.0]);
    let mut cols = SparseTensorOut::<f64, CsrF, Owned, 2, 2>::with_dims([2, 6]).unwrap();
    concatenate_mixed(&inputs, 1, &mut cols).unwrap();
    assert_eq!(cols.view().level(1).positions(), &[0, 1, 2]);
    assert_eq!(cols.view().level(1).coordinates(), &[2, 4]);
    assert_eq!(cols.view().values(), &[5.0, 7.0]);
}

/// `concatenate_dim_0_permute.mlir`: operands and results in permuted
/// encodings (`#MAT_C_C_P = (d1 : compressed, d0 : compressed)`,
/// `#MAT_C_D_P = (d1 : compressed, d0 : dense)`, `#MAT_D_C_P = (d1 :
/// dense, d0 : compressed)`) stacked by rows.
#[test]
fn mlir_concatenate_dim_0_permute() {
    type MatCCP = Enc<usize, usize, (compressed, compressed), (d1, d0)>;
    type MatCDP = Enc<usize, usize, (compressed, dense), (d1, d0)>;
    type MatDCP = Enc<usize, usize, (dense, compressed), (d1, d0)>;
    let m24 = [1.0, 0.0, 3.0, 0.0, 0.0, 2.0, 0.0, 0.0];
    let m34 = [1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 0.0, 1.0, 5.0, 2.0, 0.0];
    let m44 = [
        0.0, 0.0, 1.5, 1.0, 0.0, 3.5, 0.0, 0.0, 1.0, 5.0, 2.0, 0.0, 1.0, 0.5, 0.0, 0.0,
    ];
    let expected = [
        1.0, 0.0, 3.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 0.0, 1.0, 5.0,
        2.0, 0.0, 0.0, 0.0, 1.5, 1.0, 0.0, 3.5, 0.0, 0.0, 1.0, 5.0, 2.0, 0.0, 1.0, 0.5, 0.0, 0.0,
    ];
    let sm24ccp = f64_owned::<MatCCP>([2, 4], &m24);
    let sm34cd = f64_owned::<MatCD>([3, 4], &m34);
    let sm34cdp = f64_owned::<MatCDP>([3, 4], &m34);
    let sm44dc = f64_owned::<MatDC>([4, 4], &m44);
    let sm44dcp = f64_owned::<MatDCP>([4, 4], &m44);
    let d24 = DenseView::new(&m24, [2, 4]).unwrap();
    let (a, b, bp, c, cp) = (
        sm24ccp.view(),
        sm34cd.view(),
        sm34cdp.view(),
        sm44dc.view(),
        sm44dcp.view(),
    );

    let inputs: [&dyn ConcatInput<f64, 2>; 3] = [&a, &b, &c];
    let mut out = SparseTensorOut::<f64, MatCCP, Owned, 2, 2>::with_dims([9, 4]).unwrap();
    concatenate_mixed(&inputs, 0, &mut out).unwrap();
    let v = out.view();
    assert_eq!((v.number_of_entries(), v.lvl_sizes()), (18, [4, 9]));
    assert_eq!(v.level(0).positions(), &[0, 4]);
    assert_eq!(v.level(0).coordinates(), &[0, 1, 2, 3]);
    assert_eq!(v.level(1).positions(), &[0, 5, 11, 16, 18]);
    assert_eq!(
        v.level(1).coordinates(),
        &[0, 2, 4, 7, 8, 1, 3, 4, 6, 7, 8, 0, 2, 4, 5, 7, 2, 5]
    );
    assert_eq!(
        v.values(),
        &[
            1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.5, 5.0, 3.5, 5.0, 0.5, 3.0, 1.0, 2.0, 1.5, 2.0, 1.0,
            1.0
        ]
    );

    let inputs: [&dyn ConcatInput<f64, 2>; 3] = [&a, &bp, &c];
    let mut data = [9.0; 36];
    concatenate_mixed_dense(
        &inputs,
        0,
        &mut DenseViewMut::new(&mut data, [9, 4]).unwrap(),
    )
    .unwrap();
    assert_eq!(data, expected);

    let inputs: [&dyn ConcatInput<f64, 2>; 3] = [&d24, &bp, &c];
    let mut out = SparseTensorOut::<f64, MatCC, Owned, 2, 2>::with_dims([9, 4]).unwrap();
    concatenate_mixed(&inputs, 0, &mut out).unwrap();
    let v = out.view();
    assert_eq!(v.number_of_entries(), 18);
    assert_eq!(v.level(0).coordinates(), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(v.level(1).positions(), &[0, 2, 3, 6, 7, 10, 12, 13, 16, 18]);
    assert_eq!(
        v.level(1).coordinates(),
        &[0, 2, 1, 0, 2, 3, 1, 0, 1, 2, 2, 3, 1, 0, 1, 2, 0, 1]
    );
    assert_eq!(
        v.values(),
        &[
            1.0, 3.0, 2.0, 1.0, 1.0, 1.0, 0.5, 1.0, 5.0, 2.0, 1.5, 1.0, 3.5, 1.0, 5.0, 2.0, 1.0,
            0.5
        ]
    );

    let inputs: [&dyn ConcatInput<f64, 2>; 3] = [&d24, &b, &cp];
    let mut data = [9.0; 36];
    concatenate_mixed_dense(
        &inputs,
        0,
        &mut DenseViewMut::new(&mut data, [9, 4]).unwrap(),
    )
    .unwrap();
    assert_eq!(data, expected);
}
