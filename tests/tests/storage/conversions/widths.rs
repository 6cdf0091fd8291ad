//! Coordinates and positions at the maxima of their widths, and the typed
//! errors one past them.

use proptest::prelude::*;
use proptest::sample::select;
use sparse_core::convert::{convert, ConvertError};
use sparse_core::levels::{compressed, d0, d1, dense, nonunique, singleton};
use sparse_core::{
    AssembleError, Buffer, Enc, Encoding, Owned, SparseTensor, SparseTensorOut, StoresValues,
};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{self, with_tensor};

use super::common::*;

type Csr8 = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Csr16 = Enc<u16, u16, (dense, compressed), (d0, d1)>;
type Csc8 = Enc<u8, u8, (dense, compressed), (d1, d0)>;
type CscNarrowPos = Enc<u8, u16, (dense, compressed), (d1, d0)>;
type Dcsc8 = Enc<u8, u8, (compressed, compressed), (d1, d0)>;
type Coo8 = Enc<u8, u8, (compressed<nonunique>, singleton), (d1, d0)>;
type RowSparse8 = Enc<u8, u8, (compressed, dense), (d0, d1)>;

fn into<S: Encoding, T: StoresValues>(
    a: &SparseTensor<'_, i64, S, 2, 2>,
    expected: &[i64],
) -> Result<(), TestCaseError> {
    let mut out = SparseTensorOut::<i64, T, Owned, 2, 2>::with_dims(a.dim_sizes())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    convert(a, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(revalidated(&out.view()), expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// 256 columns: coordinate 255 is the largest a u8 holds.
    #[test]
    fn u8_coordinates_up_to_255(
        rows in 1usize..=3,
        cells in proptest::collection::btree_map(
            (0usize..3, select(vec![0usize, 1, 127, 128, 254, 255])), -9i64..=9, 0..12),
    ) {
        let dims = [rows, 256];
        let e: Vec<(Vec<usize>, i64)> = cells
            .into_iter()
            .filter(|((i, _), _)| *i < rows)
            .map(|((i, j), v)| (vec![i, j], v))
            .collect();
        let expected = Dense::from_entries(&dims, &e).data;
        with_tensor::<i64, Csr8, 2, 2, _>(&fixture::CSR, dims, &e, |a| {
            into::<Csr8, Csc8>(a, &expected)?;
            into::<Csr8, Dcsc8>(a, &expected)?;
            into::<Csr8, Coo8>(a, &expected)?;
            into::<Csr8, Dcsr>(a, &expected)
        })?;
    }
}

#[test]
fn a_coordinate_width_too_narrow_is_refused_when_the_output_is_made() {
    let err = SparseTensorOut::<i64, Csc8, Owned, 2, 2>::with_dims([257, 1]).err();
    assert_eq!(
        err,
        Some(AssembleError::WidthOverflow {
            level: 1,
            buffer: Buffer::Coordinates,
            value: 256,
            max: 255
        })
    );
}

/// 255 entries fit u8 positions, 256 do not: streaming and staging alike.
#[test]
fn u8_positions_count_up_to_255_entries() {
    for n in [255usize, 256] {
        let e: Vec<(Vec<usize>, i64)> = (0..n).map(|j| (vec![0, j], 1)).collect();
        let dims = [1, n];
        with_tensor::<i64, Csr16, 2, 2, _>(&fixture::CSR, dims, &e, |a| {
            let mut wide = SparseTensorOut::<i64, Csc, Owned, 2, 2>::with_dims(dims).unwrap();
            convert(a, &mut wide).unwrap();
            let csc = wide.view();
            for staged in [false, true] {
                let mut out =
                    SparseTensorOut::<i64, CscNarrowPos, Owned, 2, 2>::with_dims(dims).unwrap();
                let r = if staged {
                    convert(a, &mut out)
                } else {
                    convert(&csc, &mut out)
                };
                if n == 255 {
                    r.unwrap();
                    assert_eq!(out.number_of_entries(), 255);
                } else {
                    assert_eq!(
                        r,
                        Err(ConvertError::PositionOverflow {
                            level: 1,
                            entries: 256,
                            max: 255
                        })
                    );
                    assert_eq!(out.number_of_entries(), 0);
                }
            }
        });
    }
}

/// A dense level below a sparse one is staged in its coordinate buffer: its
/// size must fit `crdWidth` then, not when the source streams.
#[test]
fn a_wide_dense_level_streams_but_cannot_stage() {
    let e = vec![(vec![0, 299], 5i64), (vec![1, 0], 6)];
    let dims = [2, 300];
    let expected = Dense::from_entries(&dims, &e).data;
    with_tensor::<i64, Csr16, 2, 2, _>(&fixture::CSR, dims, &e, |a| {
        let mut out = SparseTensorOut::<i64, RowSparse8, Owned, 2, 2>::with_dims(dims).unwrap();
        convert(a, &mut out).unwrap();
        assert_eq!(revalidated(&out.view()), expected);
        let mut csc = SparseTensorOut::<i64, Csc, Owned, 2, 2>::with_dims(dims).unwrap();
        convert(a, &mut csc).unwrap();
        assert_eq!(
            convert(&csc.view(), &mut out),
            Err(ConvertError::StagingWidth {
                level: 1,
                size: 300,
                max: 255
            })
        );
        assert_eq!(out.number_of_entries(), 0);
    });
}
