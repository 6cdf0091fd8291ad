//! Kernels reading n:m structured operands (NVIDIA's 2:4, `block2_4`),
//! with 8- and 2-bit in-group coordinates, and batch levels, against dense
//! references. The kernels are `block.rs`'s (one macro invocation for all
//! the block and structured encodings); the layouts are built by
//! `two_of_four` (`block_layout.rs`), independently of sparse-core.

use proptest::prelude::*;
use sparse_core::{KernelError, Level};
use sparse_tests::dense::close;

use super::block::more;
use super::block_layout::{matrix_2_4, matvec, two_of_four};

#[test]
fn nvidia_2_of_4_spmv() {
    // The 2:4 worked layout: row 0 [0 1 0 2 | 3 0 0 4], row 1 [5 6 0 0 | 0 0 7 8].
    let m: Vec<Vec<f64>> = vec![
        vec![0., 1., 0., 2., 3., 0., 0., 4.],
        vec![5., 6., 0., 0., 0., 0., 7., 8.],
    ];
    let crd = [1u8, 3, 0, 3, 0, 1, 2, 3];
    let val = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let a = more::NV24::<f64>::assemble(
        [2, 8],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &val,
    )
    .unwrap();
    let x = [1.0, -2.0, 3.0, 0.5, 2.0, -1.0, 4.0, 0.25];
    let mut y = [0.0; 2];
    more::spmv_24(&a, &x, &mut y).unwrap();
    assert_eq!(y.to_vec(), matvec(&m, &x));
    // A width not a multiple of 4 is refused before anything is written.
    let a = more::NV24::<f64>::assemble(
        [1, 6],
        [
            Level::dense(),
            Level::dense(),
            Level::structured(&[0, 1, 0, 1]),
        ],
        &[1.0, 2.0, 3.0, 4.0],
    )
    .unwrap();
    let mut y = [5.0; 1];
    assert_eq!(
        more::spmv_24(&a, &[1.0; 6], &mut y),
        Err(KernelError::PartialBlock {
            tensor: "a",
            dim: 1,
            size: 6,
            block: 4
        })
    );
    assert_eq!(y, [5.0]);
}

#[test]
fn two_bit_coordinates_and_batch_levels() {
    // crdWidth = 2: the in-group coordinates packed four per byte.
    use sparse_core::Packed2;
    let crd = [Packed2::new([1, 3, 0, 3]), Packed2::new([0, 1, 2, 3])];
    let val = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let a = more::NV24_2::<f64>::assemble(
        [2, 8],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &val,
    )
    .unwrap();
    let x = [1.0, -2.0, 3.0, 0.5, 2.0, -1.0, 4.0, 0.25];
    let mut y = [0.0; 2];
    more::spmv_24_2(&a, &x, &mut y).unwrap();
    let m: Vec<Vec<f64>> = vec![
        vec![0., 1., 0., 2., 3., 0., 0., 4.],
        vec![5., 6., 0., 0., 0., 0., 7., 8.],
    ];
    assert_eq!(y.to_vec(), matvec(&m, &x));

    // Two batches of a 2x3 CSR: batch 0 [[1 0 2] [0 0 0]], batch 1 [[0 3 0] [4 0 5]].
    // A batch level, like a dense one, has no buffers (`Level::dense()`).
    let pos = [0usize, 2, 2, 3, 5];
    let crd = [0usize, 2, 1, 0, 2];
    let val = [1.0, 2.0, 3.0, 4.0, 5.0];
    let a = more::BATCH::<f64>::assemble(
        [2, 2, 3],
        [
            Level::dense(),
            Level::dense(),
            Level::compressed(&pos, &crd),
        ],
        &val,
    )
    .unwrap();
    let x = [1.0, 2.0, 3.0, -1.0, 0.5, 2.0];
    let mut y = vec![0.0; 4];
    more::batched_spmv(
        &a,
        sparse_core::DenseView::new(&x, [2, 3]).unwrap(),
        sparse_core::DenseViewMut::new(&mut y, [2, 2]).unwrap(),
    )
    .unwrap();
    assert_eq!(y, [1.0 + 2.0 * 3.0, 0.0, 3.0 * 0.5, -4.0 + 5.0 * 2.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn two_of_four_products_and_masks(
        m in matrix_2_4(3, 8),
        xs in proptest::collection::vec(-3i32..=3, 16),
        d in proptest::collection::vec(-3i32..=3, 24),
    ) {
        let (crd, val) = two_of_four(&m);
        let a = more::NV24::<f64>::assemble(
            [3, 8],
            [Level::dense(), Level::dense(), Level::structured(&crd)],
            &val,
        )
        .unwrap();
        let xm: Vec<f64> = xs.into_iter().map(f64::from).collect();
        let mut y = vec![0.0; 6];
        more::spmm_24(
            &a,
            sparse_core::DenseView::new(&xm, [8, 2]).unwrap(),
            sparse_core::DenseViewMut::new(&mut y, [3, 2]).unwrap(),
        )
        .unwrap();
        let want: Vec<f64> = (0..6)
            .map(|p| (0..8).map(|j| m[p / 2][j] * xm[j * 2 + p % 2]).sum())
            .collect();
        prop_assert!(close(&y, &want), "2:4 spmm {y:?} {want:?}");

        let d: Vec<f64> = d.into_iter().map(f64::from).collect();
        let mut y = vec![7.0; 24];
        more::mask_24(
            &a,
            sparse_core::DenseView::new(&d, [3, 8]).unwrap(),
            sparse_core::DenseViewMut::new(&mut y, [3, 8]).unwrap(),
        )
        .unwrap();
        let want: Vec<f64> = (0..24).map(|p| m[p / 8][p % 8] * d[p]).collect();
        prop_assert_eq!(y, want);
    }
}
