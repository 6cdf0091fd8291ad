//! Sums that overflow: every conversion path that merges repeats (stream,
//! count and scatter, staging, all-dense targets, `to_dense`) stops with
//! `SumOverflow` naming the element, in debug and release builds alike,
//! and leaves the output empty; a sum that fits is exact. No `alloc`, so
//! Miri runs these.

extern crate std;

use crate::levels::{compressed, d0, d1, dense, nonunique, singleton};
use std::string::ToString;

use super::*;
use crate::encoding::Enc;
use crate::output::{SliceBuffer, Slices};
use crate::tensor::Level;

type Coo = Enc<u8, u8, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
type Dcsc = Enc<u8, u8, (compressed, compressed), (d1, d0)>;
type DenseT = Enc<u8, u8, (dense, dense), (d1, d0)>;
type DenseRows = Enc<u8, u8, (dense, dense), (d0, d1)>;

/// A 3x4 COO holding `(1, 2)` twice (values `a` and `b`) and `(0, 0) = 5`.
fn coo_buffers(a: i8, b: i8) -> ([u8; 2], [u8; 6], [i8; 3]) {
    ([0, 3], [0, 0, 1, 2, 1, 2], [5, a, b])
}

/// Converts the COO with `convert_sum` into `E` (over stack buffers) and
/// returns the result's values or the error; the output must be the
/// empty tensor after an error.
fn sum_into<E: crate::StoresValues<Pos = u8, Crd = u8>>(
    a: i8,
    b: i8,
) -> Result<[i8; 12], ConvertError> {
    let (pos, crd, val) = coo_buffers(a, b);
    let coo = SparseTensor::<i8, Coo, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&pos, &crd), Level::fused()],
        &val,
    )
    .unwrap();
    let (mut p0, mut p1, mut c0, mut c1, mut v) =
        ([0u8; 16], [0u8; 16], [0u8; 16], [0u8; 16], [0i8; 16]);
    let mut out = SparseTensorOut::<i8, E, Slices<'_>, 2, 2>::new(
        [3, 4],
        [SliceBuffer::new(&mut p0), SliceBuffer::new(&mut p1)],
        [SliceBuffer::new(&mut c0), SliceBuffer::new(&mut c1)],
        SliceBuffer::new(&mut v),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    let r = convert_sum(&coo, &mut out);
    let mut dense = [0i8; 12];
    to_dense(&out.view(), &mut dense).unwrap();
    match r {
        Ok(()) => Ok(dense),
        Err(e) => {
            // Emptied: the empty tensor (all-dense targets hold zeros).
            assert_eq!(dense, [0; 12], "emptied after {e:?}");
            Err(e)
        }
    }
}

fn at(c: &[usize]) -> ConvertError {
    ConvertError::SumOverflow {
        at: Coordinates::new(c),
    }
}

#[test]
fn every_merging_path_refuses_an_overflowing_sum() {
    let mut fits = [0i8; 12];
    fits[0] = 5;
    fits[6] = 127;
    // Streamed (same order), count and scatter (COO -> CSC), staged
    // (DCSC), all-dense in another order, all-dense in the same order.
    assert_eq!(sum_into::<Csr>(100, 27), Ok(fits));
    assert_eq!(sum_into::<Csr>(100, 100), Err(at(&[1, 2])));
    assert_eq!(sum_into::<Csc>(100, 27), Ok(fits));
    assert_eq!(sum_into::<Csc>(100, 100), Err(at(&[1, 2])));
    assert_eq!(sum_into::<Dcsc>(100, 27), Ok(fits));
    assert_eq!(sum_into::<Dcsc>(-100, -100), Err(at(&[1, 2])));
    assert_eq!(sum_into::<DenseT>(100, 27), Ok(fits));
    assert_eq!(sum_into::<DenseT>(100, 100), Err(at(&[1, 2])));
    assert_eq!(sum_into::<DenseRows>(100, 100), Err(at(&[1, 2])));
    assert_eq!(
        at(&[1, 2]).to_string(),
        "the entries stored at (1, 2) (0-based) add up to more than the element type holds"
    );
}

#[test]
fn to_dense_refuses_an_overflowing_sum_and_leaves_zeros() {
    let (pos, crd, val) = coo_buffers(100, 100);
    let coo = SparseTensor::<i8, Coo, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&pos, &crd), Level::fused()],
        &val,
    )
    .unwrap();
    let mut dense = [7i8; 12];
    assert_eq!(to_dense(&coo, &mut dense), Err(at(&[1, 2])));
    assert_eq!(dense, [0; 12]);
    let (pos, crd, val) = coo_buffers(100, 27);
    let coo = SparseTensor::<i8, Coo, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&pos, &crd), Level::fused()],
        &val,
    )
    .unwrap();
    assert_eq!(to_dense(&coo, &mut dense), Ok(()));
    assert_eq!(dense[6], 127);
}

/// Concatenation and reshape sum with the same rule: the overflowing
/// element named in the result's coordinates, the output emptied (a dense
/// one all zeros).
#[test]
fn concatenations_and_reshapes_refuse_an_overflowing_sum() {
    use crate::dense::DenseViewMut;
    use crate::reshape::ReshapeError;
    let (pos, crd, val) = coo_buffers(100, 100);
    let coo = SparseTensor::<i8, Coo, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&pos, &crd), Level::fused()],
        &val,
    )
    .unwrap();
    let (pos2, crd2, val2) = coo_buffers(100, 27);
    let fits = SparseTensor::<i8, Coo, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&pos2, &crd2), Level::fused()],
        &val2,
    )
    .unwrap();
    // Along dimension 0: the second operand's (1, 2) is the result's (4, 2).
    let mut data = [7i8; 24];
    let mut out = DenseViewMut::new(&mut data, [6, 4]).unwrap();
    assert_eq!(
        concatenate_mixed_dense(&[&fits, &coo], 0, &mut out),
        Err(at(&[4, 2]))
    );
    assert_eq!(data, [0; 24]);
    let mut out = DenseViewMut::new(&mut data, [6, 4]).unwrap();
    assert_eq!(
        concatenate_mixed_dense(&[&fits, &fits], 0, &mut out),
        Ok(())
    );
    assert_eq!((data[6], data[18]), (127, 127));

    let (mut p0, mut p1, mut c0, mut c1, mut v) =
        ([0u8; 16], [0u8; 16], [0u8; 16], [0u8; 16], [0i8; 16]);
    let mut out = SparseTensorOut::<i8, Dcsc, Slices<'_>, 2, 2>::new(
        [6, 4],
        [SliceBuffer::new(&mut p0), SliceBuffer::new(&mut p1)],
        [SliceBuffer::new(&mut c0), SliceBuffer::new(&mut c1)],
        SliceBuffer::new(&mut v),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    assert_eq!(
        concatenate_mixed_sum(&[&coo, &fits], 0, &mut out),
        Err(at(&[1, 2]))
    );
    assert_eq!(out.view().number_of_entries(), 0);

    // 3x4 into 2x6: element (1, 2) is number 6, the result's (1, 0).
    let mut out = SparseTensorOut::<i8, Dcsc, Slices<'_>, 2, 2>::new(
        [2, 6],
        [SliceBuffer::new(&mut p0), SliceBuffer::new(&mut p1)],
        [SliceBuffer::new(&mut c0), SliceBuffer::new(&mut c1)],
        SliceBuffer::new(&mut v),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    assert_eq!(
        reshape_sum(&coo, &mut out),
        Err(ReshapeError::Convert(at(&[1, 0])))
    );
    assert_eq!(out.view().number_of_entries(), 0);
    assert_eq!(reshape_sum(&fits, &mut out), Ok(()));
    let mut dense = [0i8; 12];
    to_dense(&out.view(), &mut dense).unwrap();
    assert_eq!((dense[0], dense[6]), (5, 127));
}
