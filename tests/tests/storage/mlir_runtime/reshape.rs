//! `collapse_shape` / `expand_shape` / `reshape`: zero-copy views where the
//! storage allows, conversions otherwise; both against the dense
//! row-major reshape, which leaves the data array as it is.

use proptest::prelude::*;
use sparse_core::convert::{collapse_shape, expand_shape, reshape};
use sparse_core::levels::{compressed, d0, d1, d2, dense, nonunique, singleton};
use sparse_core::reshape::ReshapeError;
use sparse_core::{Enc, Encoding, Level, Owned, SparseTensor, SparseTensorOut, StoresValues};

use super::common::*;

type SpVec = Enc<usize, usize, (compressed,), (d0,)>;
type SpMat = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
type Sp3 = Enc<usize, usize, (compressed, compressed, compressed), (d0, d1, d2)>;
/// A batch of CSR matrices: `(b : dense, i : dense, j : compressed)`.
type Batch = Enc<u8, u8, (dense, dense, compressed), (d0, d1, d2)>;
/// CSR with `Batch`'s widths, and a sparse vector and a 1-row matrix.
type Csr8 = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Sv8 = Enc<u8, u8, (compressed,), (d0,)>;

/// `sparse_reshape.mlir`: a 3x4 DCSR reshaped to 2x6, 12 and 2x3x2.
#[test]
fn mlir_sparse_reshape() {
    let (pos0, crd0, pos1, crd1) = ([0, 3], [0, 1, 2], [0, 2, 4, 6], [0, 2, 0, 2, 0, 2]);
    let vals = [1.1, 1.3, 2.1, 2.3, 3.1, 3.3];
    let sm = SparseTensor::<f64, SpMat, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&pos0, &crd0),
            Level::compressed(&pos1, &crd1),
        ],
        &vals,
    )
    .unwrap();
    let mut r0 = SparseTensorOut::<f64, SpMat, Owned, 2, 2>::with_dims([2, 6]).unwrap();
    reshape(&sm, &mut r0).unwrap();
    let v = r0.view();
    assert_eq!(v.number_of_entries(), 6);
    assert_eq!(v.level(0).positions(), &[0, 2]);
    assert_eq!(v.level(0).coordinates(), &[0, 1]);
    assert_eq!(v.level(1).positions(), &[0, 3, 6]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 4, 0, 2, 4]);
    assert_eq!(v.values(), &vals);
    let mut r1 = SparseTensorOut::<f64, SpVec, Owned, 1, 1>::with_dims([12]).unwrap();
    reshape(&sm, &mut r1).unwrap();
    assert_eq!(r1.view().level(0).positions(), &[0, 6]);
    assert_eq!(r1.view().level(0).coordinates(), &[0, 2, 4, 6, 8, 10]);
    assert_eq!(r1.view().values(), &vals);
    let mut r2 = SparseTensorOut::<f64, Sp3, Owned, 3, 3>::with_dims([2, 3, 2]).unwrap();
    reshape(&sm, &mut r2).unwrap();
    let v = r2.view();
    assert_eq!(v.level(0).positions(), &[0, 2]);
    assert_eq!(v.level(0).coordinates(), &[0, 1]);
    assert_eq!(v.level(1).positions(), &[0, 3, 6]);
    assert_eq!(v.level(1).coordinates(), &[0, 1, 2, 0, 1, 2]);
    assert_eq!(v.level(2).positions(), &[0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(v.level(2).coordinates(), &[0, 0, 0, 0, 0, 0]);
    assert_eq!(v.values(), &vals);
    // The 12-vector is the 3x4 matrix collapsed, and expands back.
    let mut back = SparseTensorOut::<f64, SpMat, Owned, 2, 2>::with_dims([3, 4]).unwrap();
    expand_shape(&r1.view(), &[&[0, 1]], &mut back).unwrap();
    assert_eq!(back.view().level(1).coordinates(), &crd1);
    let mut flat = SparseTensorOut::<f64, SpVec, Owned, 1, 1>::with_dims([12]).unwrap();
    collapse_shape(&sm, &[&[0, 1]], &mut flat).unwrap();
    assert_eq!(
        flat.view().level(0).coordinates(),
        r1.view().level(0).coordinates()
    );
}

/// Views of a batch of CSR matrices as one CSR matrix and back, and of a
/// vector as a 1-row matrix: no copy (the same slices), the same values
/// as the dense reshape.
#[test]
fn views_share_the_buffers() {
    let data = [0, 1, 0, 2, 0, 0, 3, 0, 4, 5, 0, 0];
    let batch = owned::<Batch, 3, 3>([2, 2, 3], &data);
    let b = batch.view();
    let m: SparseTensor<'_, i64, Csr8, 2, 2> = b.collapse_shape(&[&[0, 1], &[2]]).unwrap();
    assert_eq!(m.dim_sizes(), [4, 3]);
    assert_eq!(dense_of(&m), data);
    assert!(core::ptr::eq(m.values(), b.values()));
    assert!(core::ptr::eq(
        m.level(1).coordinates(),
        b.level(2).coordinates()
    ));
    let again: SparseTensor<'_, i64, Batch, 3, 3> =
        m.expand_shape(&[&[0, 1], &[2]], [2, 2, 3]).unwrap();
    assert_eq!(dense_of(&again), data);
    // Split the other way: 4 = 1 x 4 (a unit dense level).
    let four: SparseTensor<'_, i64, Batch, 3, 3> =
        m.expand_shape(&[&[0, 1], &[2]], [1, 4, 3]).unwrap();
    assert_eq!(dense_of(&four), data);

    let row = owned::<Csr8, 2, 2>([1, 5], &[0, 7, 0, 0, 8]);
    let r = row.view();
    let v: SparseTensor<'_, i64, Sv8, 1, 1> = r.collapse_shape(&[&[0, 1]]).unwrap();
    assert_eq!(v.level(0).coordinates(), &[1, 4]);
    let r2: SparseTensor<'_, i64, Csr8, 2, 2> = v.expand_shape(&[&[0, 1]], [1, 5]).unwrap();
    assert_eq!(dense_of(&r2), [0, 7, 0, 0, 8]);
}

#[test]
fn not_a_view_and_malformed_reassociations() {
    let data = [0, 1, 0, 2, 0, 0, 3, 0, 4, 5, 0, 0];
    let csf = owned::<Csf, 3, 3>([2, 2, 3], &data);
    // CSF's outer levels store coordinates: collapsing them moves them.
    let r = csf
        .view()
        .collapse_shape::<Enc<u8, u8, (dense, compressed), (d0, d1)>, 2, 2>(&[&[0, 1], &[2]]);
    assert!(matches!(r, Err(ReshapeError::NotAView { .. })), "{r:?}");
    // CSR of two rows is no sparse vector.
    let csr = owned::<Csr8, 2, 2>([2, 6], &data);
    let r = csr.view().collapse_shape::<Sv8, 1, 1>(&[&[0, 1]]);
    assert!(matches!(r, Err(ReshapeError::NotAView { .. })), "{r:?}");
    // Column-major storage does not merge with row-major linearization.
    let csc =
        owned::<Enc<u8, u8, (dense, dense, compressed), (d1, d0, d2)>, 3, 3>([2, 2, 3], &data);
    let r = csc.view().collapse_shape::<Csr8, 2, 2>(&[&[0, 1], &[2]]);
    assert!(matches!(r, Err(ReshapeError::NotAView { .. })), "{r:?}");

    let b = owned::<Batch, 3, 3>([2, 2, 3], &data);
    assert_eq!(
        b.view().collapse_shape::<Csr8, 2, 2>(&[&[0], &[2]]).err(),
        Some(ReshapeError::Reassociation { group: 1 })
    );
    assert_eq!(
        b.view().collapse_shape::<Csr8, 2, 2>(&[&[0, 1], &[]]).err(),
        Some(ReshapeError::Reassociation { group: 1 })
    );
    assert_eq!(
        csr.view()
            .expand_shape::<Batch, 3, 3>(&[&[0, 1], &[2]], [2, 2, 6])
            .err(),
        Some(ReshapeError::Size {
            dim: 0,
            size: 2,
            expected: 4
        })
    );
    let mut out = SparseTensorOut::<i64, Dcsr, Owned, 2, 2>::with_dims([5, 2]).unwrap();
    assert_eq!(
        reshape(&csr.view(), &mut out),
        Err(ReshapeError::Size {
            dim: 0,
            size: 10,
            expected: 12
        })
    );
    let mut out = SparseTensorOut::<i64, Dcsr, Owned, 2, 2>::with_dims([3, 4]).unwrap();
    assert_eq!(
        collapse_shape(&csf.view(), &[&[0, 1], &[2]], &mut out),
        Err(ReshapeError::Size {
            dim: 0,
            size: 3,
            expected: 4
        })
    );
    assert_eq!(out.number_of_entries(), 0);
}

/// Collapses a 3-D tensor of format `S` into the 2-D target `T` by
/// conversion.
fn collapse_into<S: StoresValues, T: StoresValues, const LS: usize, const LT: usize>(
    dims: [usize; 3],
    data: &[i64],
    groups: &[&[usize]; 2],
) -> Result<(), TestCaseError> {
    let src = owned::<S, 3, LS>(dims, data);
    let sizes: Vec<usize> = groups
        .iter()
        .map(|g| g.iter().map(|&d| dims[d]).product())
        .collect();
    let to = [sizes[0], sizes[1]];
    let mut out = SparseTensorOut::<i64, T, Owned, 2, LT>::with_dims(to).unwrap();
    collapse_shape(&src.view(), groups, &mut out)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(dense_of(&out.view()), data);
    prop_assert_eq!(out.number_of_entries(), visits(&src.view()));
    Ok(())
}

/// Whenever the view of `S` as `T` exists, it holds the dense reshape.
fn view_if_any<
    S: StoresValues,
    T: Encoding<Pos = S::Pos, Crd = S::Crd>,
    const LS: usize,
    const LT: usize,
>(
    dims: [usize; 3],
    data: &[i64],
    groups: &[&[usize]; 2],
) -> Result<(), TestCaseError> {
    let src = owned::<S, 3, LS>(dims, data);
    if let Ok(v) = src.view().collapse_shape::<T, 2, LT>(groups) {
        prop_assert_eq!(dense_of(&v), data);
    }
    Ok(())
}

fn expand_into<S: StoresValues, T: StoresValues, const LS: usize, const LT: usize>(
    dims: [usize; 3],
    data: &[i64],
) -> Result<(), TestCaseError> {
    // [a, b, c] seen as [a * b, c], expanded back.
    let src = owned::<S, 2, LS>([dims[0] * dims[1], dims[2]], data);
    let mut out = SparseTensorOut::<i64, T, Owned, 3, LT>::with_dims(dims).unwrap();
    expand_shape(&src.view(), &[&[0, 1], &[2]], &mut out)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(dense_of(&out.view()), data);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn reshapes_against_the_dense_reshape(
        (dims, data) in dims::<3>(3).prop_flat_map(|d| (Just(d), data(&d)))
    ) {
        // Collapse by conversion from every 3-D format into every 2-D one.
        collapse_into::<Csf, Csr, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        collapse_into::<Csf, Enc<u8, u8, (dense, compressed), (d1, d0)>, 3, 2>(dims, &data, &[&[0], &[1, 2]])?;
        collapse_into::<Dcc, Dcsr, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        collapse_into::<Coo3, Coo, 3, 2>(dims, &data, &[&[0], &[1, 2]])?;
        collapse_into::<Coo3, Enc<usize, u8, (dense, compressed), (d0, d1)>, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        // Views exist only where a level of size 1 or dense levels merge.
        view_if_any::<Csf, Csr, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        view_if_any::<Csf, Enc<u8, u8, (compressed, compressed), (d0, d1)>, 3, 2>(dims, &data, &[&[0], &[1, 2]])?;
        view_if_any::<Dcc, Dcsr, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        view_if_any::<Coo3, Enc<usize, u8, (compressed<nonunique>, singleton), (d0, d1)>, 3, 2>(dims, &data, &[&[0], &[1, 2]])?;
        // The batch of CSR matrices always collapses as a view.
        let batch = owned::<Batch, 3, 3>(dims, &data);
        let v = batch.view().collapse_shape::<Csr8, 2, 2>(&[&[0, 1], &[2]]);
        prop_assert!(v.is_ok(), "{:?}", v.err());
        prop_assert_eq!(dense_of(&v.unwrap()), data.clone());
        collapse_into::<Batch, Csr8, 3, 2>(dims, &data, &[&[0, 1], &[2]])?;
        // And CSR expands into it as a view.
        let csr = owned::<Csr8, 2, 2>([dims[0] * dims[1], dims[2]], &data);
        let e = csr.view().expand_shape::<Batch, 3, 3>(&[&[0, 1], &[2]], dims);
        prop_assert!(e.is_ok(), "{:?}", e.err());
        prop_assert_eq!(dense_of(&e.unwrap()), data.clone());
        // Expand by conversion.
        expand_into::<Csr, Csf, 2, 3>(dims, &data)?;
        expand_into::<Csc, Dcc, 2, 3>(dims, &data)?;
        expand_into::<Dcsr, Coo3, 2, 3>(dims, &data)?;
        expand_into::<Coo, Csf, 2, 3>(dims, &data)?;
        // A general reshape: the 3-D tensor as a vector and back.
        let csf = owned::<Csf, 3, 3>(dims, &data);
        let n = data.len();
        let mut vec = SparseTensorOut::<i64, SpVec, Owned, 1, 1>::with_dims([n]).unwrap();
        reshape(&csf.view(), &mut vec).unwrap();
        prop_assert_eq!(dense_of(&vec.view()), data.clone());
        let mut back = SparseTensorOut::<i64, Dcc, Owned, 3, 3>::with_dims(dims).unwrap();
        reshape(&vec.view(), &mut back).unwrap();
        prop_assert_eq!(dense_of(&back.view()), data);
    }
}
