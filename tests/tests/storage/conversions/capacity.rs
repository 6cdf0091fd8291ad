//! Conversions without an allocator: `Fixed<N>` and caller slices, exact
//! capacity errors, outputs valid and reusable after an error.

use sparse_core::convert::{convert, ConvertError};
use sparse_core::{Buffer, Fixed, Owned, SliceBuffer, Slices, SparseTensorOut};
use sparse_tests::fixture::{self, with_tensor};

use super::common::*;

/// Five entries, one per column of a 2 x 5 matrix.
fn five() -> Vec<(Vec<usize>, i64)> {
    (0..5).map(|j| (vec![j % 2, j], j as i64 + 1)).collect()
}

#[test]
fn csr_to_csc_in_fixed_storage_needs_exactly_the_result() {
    with_tensor::<i64, Csr, 2, 2, _>(&fixture::CSR, [2, 5], &five(), |a| {
        // CSC of 5 columns: 6 positions, 5 coordinates, 5 values.
        let mut small = SparseTensorOut::<i64, Csc, Fixed<5>, 2, 2>::with_dims([2, 5]);
        assert!(small.is_err(), "6 positions do not fit 5");
        let _ = &mut small;
        let mut out = SparseTensorOut::<i64, Csc, Fixed<6>, 2, 2>::with_dims([2, 5]).unwrap();
        convert(a, &mut out).unwrap();
        assert_eq!(out.view().level(1).positions(), &[0, 1, 2, 3, 4, 5]);
        assert_eq!(out.view().level(1).coordinates(), &[0, 1, 0, 1, 0]);
    });
}

#[test]
fn a_failed_conversion_leaves_a_reusable_empty_output() {
    let (mut pos, mut crd, mut val) = ([0u16; 6], [0u32; 4], [0i64; 5]);
    let mut out = SparseTensorOut::<i64, Csc, Slices<'_>, 2, 2>::new(
        [2, 5],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    with_tensor::<i64, Csr, 2, 2, _>(&fixture::CSR, [2, 5], &five(), |a| {
        assert_eq!(
            convert(a, &mut out),
            Err(ConvertError::Capacity {
                level: 1,
                buffer: Buffer::Coordinates,
                needed: 5,
                capacity: 4
            })
        );
        assert_eq!(out.number_of_entries(), 0);
        assert_eq!(revalidated(&out.view()), vec![0; 10]);
    });
    // Four entries fit the same buffers.
    let four: Vec<_> = five().into_iter().take(4).collect();
    with_tensor::<i64, Csr, 2, 2, _>(&fixture::CSR, [2, 5], &four, |a| {
        convert(a, &mut out).unwrap();
        assert_eq!(out.number_of_entries(), 4);
    });
}

/// DCSR to DCSC stages one outer coordinate per entry: the error says so,
/// and the result then needs only one per stored column.
#[test]
fn staging_needs_one_slot_per_source_entry() {
    // Two entries in column 3.
    let e = vec![(vec![0, 3], 1i64), (vec![1, 3], 2)];
    with_tensor::<i64, Dcsr, 2, 2, _>(&fixture::DCSR, [2, 5], &e, |a| {
        let mut full = SparseTensorOut::<i64, Dcsc, Owned, 2, 2>::with_dims([2, 5]).unwrap();
        convert(a, &mut full).unwrap();
        assert_eq!(full.view().level(0).coordinates(), &[3]);
        let (mut p0, mut p1, mut c0, mut c1, mut v) = (
            [0usize; 2],
            [0usize; 2],
            [0usize; 1],
            [0usize; 2],
            [0i64; 2],
        );
        let mut out = SparseTensorOut::<i64, Dcsc, Slices<'_>, 2, 2>::new(
            [2, 5],
            [SliceBuffer::new(&mut p0), SliceBuffer::new(&mut p1)],
            [SliceBuffer::new(&mut c0), SliceBuffer::new(&mut c1)],
            SliceBuffer::new(&mut v),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
        .unwrap();
        assert_eq!(
            convert(a, &mut out),
            Err(ConvertError::Capacity {
                level: 0,
                buffer: Buffer::Coordinates,
                needed: 2,
                capacity: 1
            })
        );
    });
}
