//! Dense arrays into every format and back.

use proptest::prelude::*;
use sparse_core::convert::{from_dense, from_dense_view, to_dense, to_dense_view, ConvertError};
use sparse_core::{DenseView, DenseViewMut, Owned, SparseTensorOut, StoresValues};
use sparse_tests::dense::Dense;
use sparse_tests::gen::sparse;

use super::common::*;

/// `data` into `T` and back; the stored entries are exactly the non-zeros
/// (apart from dense padding).
fn round_trip<T: StoresValues, const LT: usize>(
    dims: [usize; 2],
    data: &[i64],
) -> Result<(), TestCaseError> {
    let mut out = SparseTensorOut::<i64, T, Owned, 2, LT>::with_dims(dims)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    from_dense(data, dims, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(revalidated(&out.view()), data);
    let dense_levels = (0..LT).any(|l| T::level_type(l).is_some_and(|t| t.is_dense()));
    if !dense_levels {
        prop_assert_eq!(
            out.number_of_entries(),
            data.iter().filter(|&&x| x != 0).count()
        );
        let mut zero = false;
        out.view().for_each(|_, v| zero |= *v == 0);
        prop_assert!(!zero, "a zero was stored");
    }
    let view = DenseView::new(data, dims).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut again = SparseTensorOut::<i64, T, Owned, 2, LT>::with_dims(dims)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    from_dense_view(&view, &mut again).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(buffers(&again.view()), buffers(&out.view()));
    let mut back = vec![-1i64; data.len()];
    let mut back_view =
        DenseViewMut::new(&mut back, dims).map_err(|e| TestCaseError::fail(e.to_string()))?;
    to_dense_view(&out.view(), &mut back_view).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back[..], data);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn dense_into_every_format_and_back((dims, e) in sparse::<i64, 2>(7)) {
        let data = Dense::from_entries(&dims, &e).data;
        round_trip::<Csr, 2>(dims, &data)?;
        round_trip::<Csc, 2>(dims, &data)?;
        round_trip::<Dcsr, 2>(dims, &data)?;
        round_trip::<Dcsc, 2>(dims, &data)?;
        round_trip::<Coo, 2>(dims, &data)?;
        round_trip::<CooSoa, 2>(dims, &data)?;
        round_trip::<CooCol, 2>(dims, &data)?;
        round_trip::<LooseRows, 2>(dims, &data)?;
        round_trip::<LooseCols, 2>(dims, &data)?;
        round_trip::<Dense2, 2>(dims, &data)?;
        round_trip::<Dense2Col, 2>(dims, &data)?;
        round_trip::<RowSparse, 2>(dims, &data)?;
        round_trip::<Bsr22, 4>(dims, &data)?;
        round_trip::<Bsr23Dcsr, 4>(dims, &data)?;
    }
}

#[test]
fn dense_sizes_are_checked() {
    let mut out = SparseTensorOut::<i64, Csr, Owned, 2, 2>::with_dims([2, 3]).unwrap();
    assert_eq!(
        from_dense(&[1, 2, 3], [2, 3], &mut out),
        Err(ConvertError::ViewLength {
            len: 3,
            expected: Some(6)
        })
    );
    assert_eq!(
        from_dense(&[0; 4], [2, 2], &mut out),
        Err(ConvertError::DimensionMismatch {
            dim: 1,
            size: 3,
            expected: 2
        })
    );
    from_dense(&[0, 5, 0, 0, 0, 6], [2, 3], &mut out).unwrap();
    let mut wrong = [0i64; 6];
    let mut view = DenseViewMut::new(&mut wrong, [3, 2]).unwrap();
    assert_eq!(
        to_dense_view(&out.view(), &mut view),
        Err(ConvertError::DimensionMismatch {
            dim: 0,
            size: 3,
            expected: 2
        })
    );
    let mut d = [9i64; 6];
    to_dense(&out.view(), &mut d).unwrap();
    assert_eq!(d, [0, 5, 0, 0, 0, 6]);
}
