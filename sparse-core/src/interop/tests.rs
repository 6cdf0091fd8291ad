//! Views and conversions against the other libraries' own results.

extern crate std;

use crate::levels::{compressed, d0, d1, dense};
use std::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::convert::{convert, to_dense};
use crate::output::{Owned, SparseTensorOut};

/// A random matrix as sorted CSR arrays, and its dense form.
fn csr_arrays() -> impl Strategy<Value = (usize, usize, Vec<usize>, Vec<usize>, Vec<i64>, Vec<i64>)>
{
    (0usize..6, 0usize..6).prop_flat_map(|(m, n)| {
        proptest::collection::vec(proptest::option::of(-5i64..5), m * n).prop_map(move |cells| {
            let (mut pos, mut crd, mut val) = (std::vec![0], Vec::new(), Vec::new());
            let mut dense = std::vec![0; m * n];
            for i in 0..m {
                for j in 0..n {
                    if let Some(v) = cells[i * n + j] {
                        crd.push(j);
                        val.push(v);
                        dense[i * n + j] = v;
                    }
                }
                pos.push(crd.len());
            }
            (m, n, pos, crd, val, dense)
        })
    })
}

fn dense<E: crate::Encoding>(t: &SparseTensor<'_, i64, E, 2, 2>) -> Vec<i64> {
    let [m, n] = t.dim_sizes();
    let mut d = std::vec![0; m * n];
    to_dense(t, &mut d).unwrap();
    d
}

#[cfg(feature = "sprs")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn sprs_views_and_back((m, n, pos, crd, val, expected) in csr_arrays()) {
        use super::sprs::*;
        let a = ::sprs::CsMat::new((m, n), pos, crd, val);
        let view = csr_from_sprs(&a).unwrap();
        prop_assert_eq!(view.values().as_ptr(), a.data().as_ptr());
        prop_assert_eq!(dense(&view), expected.clone());
        prop_assert_eq!(csr_to_sprs(&view).unwrap(), a.clone());
        // CSC through our transpose equals sprs' own.
        let theirs = a.to_csc();
        let mut ours = SparseTensorOut::<i64, NativeCscEnc, Owned, 2, 2>::with_dims([m, n]).unwrap();
        convert(&view, &mut ours).unwrap();
        prop_assert_eq!(csc_to_sprs(&ours.view()).unwrap(), theirs.clone());
        let csc_view = csc_from_sprs(&theirs).unwrap();
        prop_assert_eq!(dense(&csc_view), expected);
        prop_assert_eq!(into_sprs_csc(ours).unwrap(), theirs.clone());
        let mut back = SparseTensorOut::<i64, NativeCsrEnc, Owned, 2, 2>::with_dims([m, n]).unwrap();
        convert(&csc_view, &mut back).unwrap();
        prop_assert_eq!(into_sprs_csr(back).unwrap(), a.clone());
        prop_assert_eq!(csr_from_sprs(&theirs).err(), Some(InteropError::Storage { expected: "CSR" }));
        prop_assert_eq!(csc_from_sprs(&a).err(), Some(InteropError::Storage { expected: "CSC" }));
    }

    #[test]
    fn nalgebra_views_and_back((m, n, pos, crd, val, expected) in csr_arrays()) {
        use super::nalgebra::*;
        use nalgebra_sparse::{CscMatrix, CsrMatrix};
        let a = CsrMatrix::try_from_csr_data(m, n, pos, crd, val).unwrap();
        let view = csr_from_nalgebra(&a).unwrap();
        prop_assert_eq!(view.level(1).coordinates().as_ptr(), a.col_indices().as_ptr());
        prop_assert_eq!(dense(&view), expected.clone());
        prop_assert_eq!(csr_to_nalgebra(&view).unwrap(), a.clone());
        let theirs = CscMatrix::from(&a);
        let mut ours = SparseTensorOut::<i64, NativeCscEnc, Owned, 2, 2>::with_dims([m, n]).unwrap();
        convert(&view, &mut ours).unwrap();
        prop_assert_eq!(csc_to_nalgebra(&ours.view()).unwrap(), theirs.clone());
        let csc_view = csc_from_nalgebra(&theirs).unwrap();
        prop_assert_eq!(dense(&csc_view), expected);
        prop_assert_eq!(into_nalgebra_csc(ours).unwrap(), theirs);
        let mut back = SparseTensorOut::<i64, NativeCsrEnc, Owned, 2, 2>::with_dims([m, n]).unwrap();
        convert(&view, &mut back).unwrap();
        prop_assert_eq!(into_nalgebra_csr(back).unwrap(), a);
    }
}

/// A sub-view's pointers do not start at 0: the borrowing view says so
/// with its own error (it was `PositionOutOfRange`, as if the matrix were
/// invalid), and the `_in` form views it.
#[cfg(feature = "sprs")]
#[test]
fn a_sprs_slice_whose_pointers_do_not_start_at_zero_is_viewed_rebased() {
    let a = ::sprs::CsMat::new(
        (3, 2),
        std::vec![0, 1, 2, 3],
        std::vec![0, 1, 0],
        std::vec![1, 2, 3],
    );
    let rows = a.slice_outer(1..3);
    assert_eq!(
        super::sprs::csr_from_sprs(&rows).err(),
        Some(InteropError::SubView { offset: 1 })
    );
    let mut positions = Vec::new();
    let v = super::sprs::csr_from_sprs_in(&rows, &mut positions).unwrap();
    assert_eq!(dense(&v), [0, 2, 3, 0]);
}

#[cfg(feature = "sprs")]
#[test]
fn u32_sprs_matrices_view_as_32_bit_encodings() {
    use super::sprs::{csc_view, csr_view};
    type Csr32 = crate::Enc<u32, u32, (dense, compressed), (d0, d1)>;
    type Csc32 = crate::Enc<u32, u32, (dense, compressed), (d1, d0)>;
    let m = ::sprs::CsMatI::<i64, u32>::new(
        (2, 3),
        std::vec![0, 2, 3],
        std::vec![0, 2, 1],
        std::vec![1, 2, 3],
    );
    let a: SparseTensor<'_, i64, Csr32, 2, 2> = csr_view(&m).unwrap();
    assert_eq!(
        a.level(1).positions().as_ptr(),
        m.indptr().raw_storage().as_ptr()
    );
    assert_eq!(dense(&a), [1, 0, 2, 0, 3, 0]);
    // The CSR arrays cannot be read as a CSC type, nor CSR storage as CSC.
    let wrong: Result<SparseTensor<'_, i64, Csc32, 2, 2>, _> = csr_view(&m);
    assert!(matches!(wrong, Err(InteropError::Encoding { .. })));
    let wrong: Result<SparseTensor<'_, i64, Csc32, 2, 2>, _> = csc_view(&m);
    assert_eq!(wrong.err(), Some(InteropError::Storage { expected: "CSC" }));
    let t = m.to_csc();
    let b: SparseTensor<'_, i64, Csc32, 2, 2> = csc_view(&t).unwrap();
    assert_eq!(dense(&b), [1, 0, 2, 0, 3, 0]);
}

/// `slice_outer` sub-views (pointers not starting at 0): refused with a
/// typed error by the borrowing view, viewed with rebased pointers by the
/// `_in` form, equal to the rows (columns) of the whole matrix.
#[cfg(feature = "sprs")]
#[test]
fn sprs_sub_views_are_viewed_with_rebased_pointers() {
    use super::sprs::*;
    // | 1 . . |
    // | 2 . 3 |
    // | . 4 . |
    let a = ::sprs::CsMat::new(
        (3, 3),
        std::vec![0, 1, 3, 4],
        std::vec![0, 0, 2, 1],
        std::vec![1i64, 2, 3, 4],
    );
    for (lo, hi) in [(0, 3), (1, 3), (2, 3), (1, 2), (3, 3)] {
        let rows = a.slice_outer(lo..hi);
        let mut positions = Vec::new();
        let v = csr_from_sprs_in(&rows, &mut positions).unwrap();
        let full = dense(&csr_from_sprs(&a).unwrap());
        assert_eq!(dense(&v), full[lo * 3..hi * 3].to_vec(), "rows {lo}..{hi}");
        let first = a.indptr().raw_storage()[lo];
        match csr_from_sprs(&rows) {
            Ok(_) => assert_eq!(first, 0),
            Err(e) => assert_eq!(e, InteropError::SubView { offset: first }),
        }
    }
    // CSC sub-views: columns.
    let c = a.to_csc();
    let cols = c.slice_outer(1..3);
    let mut positions = Vec::new();
    let v = csc_from_sprs_in(&cols, &mut positions).unwrap();
    assert_eq!(dense(&v), std::vec![0, 0, 0, 3, 4, 0]);
    assert_eq!(
        csr_from_sprs_in(&cols, &mut positions).err(),
        Some(InteropError::Storage { expected: "CSR" })
    );
}
