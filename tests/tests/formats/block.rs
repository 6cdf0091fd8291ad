//! Kernels over block maps (BSR and relatives) against dense references.
//!
//! The tensors are built by `Blocked` (`block_layout.rs`), an independent
//! builder of MLIR's block layout from a dense matrix. Random matrices come
//! from proptest. The n:m structured operands are `structured_in.rs`'s.

use proptest::prelude::*;
use sparse_core::{KernelError, Level};
use sparse_tests::dense::close;

use super::block_layout::{matrix, matrix_2_4, matvec, two_of_four, Blocked, Layout, BSR};

mod k {
    sparse_core::sparse_kernel! {
        #BSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
        }>
        #BSR_INV = #sparse_tensor.encoding<{
            map = {ib, jb, ii, jj} (i = ib * 2 + ii, j = jb * 2 + jj) -> (ib = i floordiv 2 : dense, jb = j floordiv 2 : compressed, ii = i mod 2 : dense, jj = j mod 2 : dense)
        }>
        #BSC = #sparse_tensor.encoding<{
            map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, j mod 2 : dense, i mod 2 : dense)
        }>
        #DCSR_B = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : compressed, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense),
            posWidth = 16,
            crdWidth = 8
        }>
        #B41 = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 4 : dense, j floordiv 1 : compressed, i mod 4 : dense, j mod 1 : dense)
        }>
        #B18 = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 1 : dense, j floordiv 8 : compressed, i mod 1 : dense, j mod 8 : dense)
        }>
        #B23 = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense)
        }>

        pub fn spmv_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_bsr_inv(a: &tensor<?x?xf64, #BSR_INV>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_bsc(a: &tensor<?x?xf64, #BSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr_b(a: &tensor<?x?xf64, #DCSR_B>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_b41(a: &tensor<?x?xf64, #B41>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_b18(a: &tensor<?x?xf64, #B18>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_b23(a: &tensor<?x?xf64, #B23>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        /// A fully connected layer: bias once per row, then ReLU is the caller's.
        pub fn affine_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j] * 2.0 + b[i];
        }
        pub fn spmm_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, k] = a[i, j] * x[j, k];
        }
        pub fn total_bsr(a: &tensor<?x?xf64, #BSR>, s: &mut tensor<f64>) {
            s[] += a[i, j];
        }
        pub fn weighted_bsc(a: &tensor<?x?xf64, #BSC>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * ((i as f64) - (j as f64));
        }
        pub fn static_bsr(a: &tensor<4x6xf64, #BSR>, x: &tensor<6xf64>, y: &mut tensor<4xf64>) {
            y[i] = a[i, j] * x[j];
        }
    }
}

#[test]
fn the_seed_bsr_example() {
    // MLIR's BSR example: a 6x6 matrix with three 2x2 blocks.
    let m: Vec<Vec<f64>> = vec![
        vec![1., 2., 0., 0., 0., 0.],
        vec![3., 4., 0., 0., 0., 0.],
        vec![0., 0., 5., 6., 0., 0.],
        vec![0., 0., 7., 8., 0., 0.],
        vec![0., 0., 0., 0., 9., 10.],
        vec![0., 0., 0., 0., 11., 12.],
    ];
    let b = Blocked::new(&m, 6, BSR, &|_, _| false);
    assert_eq!(b.pos1, [0, 1, 2, 3]);
    assert_eq!(b.crd1, [0, 1, 2]);
    assert_eq!(b.values, (1..=12).map(f64::from).collect::<Vec<_>>());
    let a = k::BSR::<f64>::assemble([6, 6], b.levels_dense_outer(), &b.values).unwrap();
    let x = [1.0, -1.0, 2.0, 0.5, -3.0, 1.0];
    let mut y = [0.0; 6];
    k::spmv_bsr(&a, &x, &mut y).unwrap();
    assert_eq!(y.to_vec(), matvec(&m, &x));
    let a = k::BSR_INV::<f64>::assemble([6, 6], b.levels_dense_outer(), &b.values).unwrap();
    let mut y2 = [0.0; 6];
    k::spmv_bsr_inv(&a, &x, &mut y2).unwrap();
    assert_eq!(y2, y);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn spmv_over_every_block_layout(
        m in matrix(8, 8),
        x in proptest::collection::vec(-3i32..=3, 8),
        keep_zero_blocks in any::<bool>(),
    ) {
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let want = matvec(&m, &x);
        let keep = move |rb: usize, cb: usize| keep_zero_blocks && (rb + cb) % 3 == 0;
        let mut y = vec![7.0; 8];

        let b = Blocked::new(&m, 8, BSR, &keep);
        let a = k::BSR::<f64>::assemble([8, 8], b.levels_dense_outer(), &b.values).unwrap();
        k::spmv_bsr(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "BSR {y:?} {want:?}");

        let bsc = Layout { by_cols: true, inner_cols_first: true, ..BSR };
        let b = Blocked::new(&m, 8, bsc, &keep);
        let a = k::BSC::<f64>::assemble([8, 8], b.levels_dense_outer(), &b.values).unwrap();
        k::spmv_bsc(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "BSC {y:?} {want:?}");

        let dcsr = Layout { compressed_outer: true, ..BSR };
        let b = Blocked::new(&m, 8, dcsr, &keep);
        let pos0: Vec<u16> = b.pos0.iter().map(|&p| p as u16).collect();
        let crd0: Vec<u8> = b.crd0.iter().map(|&c| c as u8).collect();
        let pos1: Vec<u16> = b.pos1.iter().map(|&p| p as u16).collect();
        let crd1: Vec<u8> = b.crd1.iter().map(|&c| c as u8).collect();
        let a = k::DCSR_B::<f64>::assemble(
            [8, 8],
            [
                Level::compressed(&pos0, &crd0),
                Level::compressed(&pos1, &crd1),
                Level::dense(),
                Level::dense(),
            ],
            &b.values,
        )
        .unwrap();
        k::spmv_dcsr_b(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "DCSR of blocks {y:?} {want:?}");

        let b41 = Layout { br: 4, bc: 1, ..BSR };
        let b = Blocked::new(&m, 8, b41, &keep);
        let a = k::B41::<f64>::assemble([8, 8], b.levels_dense_outer(), &b.values).unwrap();
        k::spmv_b41(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "4x1 {y:?} {want:?}");

        let b18 = Layout { br: 1, bc: 8, ..BSR };
        let b = Blocked::new(&m, 8, b18, &keep);
        let a = k::B18::<f64>::assemble([8, 8], b.levels_dense_outer(), &b.values).unwrap();
        k::spmv_b18(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "1x8 {y:?} {want:?}");
    }

    #[test]
    fn non_square_blocks_affine_spmm_and_sums(
        m in matrix(4, 6),
        x in proptest::collection::vec(-3i32..=3, 6),
        xs in proptest::collection::vec(-3i32..=3, 18),
        bias in proptest::collection::vec(-3i32..=3, 4),
    ) {
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let bias: Vec<f64> = bias.into_iter().map(f64::from).collect();
        let want = matvec(&m, &x);
        let b23 = Layout { br: 2, bc: 3, ..BSR };
        let b = Blocked::new(&m, 6, b23, &|_, _| false);
        let a = k::B23::<f64>::assemble([4, 6], b.levels_dense_outer(), &b.values).unwrap();
        let mut y = vec![0.0; 4];
        k::spmv_b23(&a, &x, &mut y).unwrap();
        prop_assert!(close(&y, &want), "2x3 {y:?} {want:?}");

        let b = Blocked::new(&m, 6, BSR, &|_, _| false);
        let a = k::BSR::<f64>::assemble([4, 6], b.levels_dense_outer(), &b.values).unwrap();
        k::affine_bsr(&a, &x, &bias, &mut y).unwrap();
        let affine: Vec<f64> = want.iter().zip(&bias).map(|(v, b)| v * 2.0 + b).collect();
        prop_assert!(close(&y, &affine), "affine {y:?} {affine:?}");

        // y = a X with X 6x3, row-major.
        let xm: Vec<f64> = xs.into_iter().map(f64::from).collect();
        let mut ym = vec![0.0; 12];
        k::spmm_bsr(
            &a,
            sparse_core::DenseView::new(&xm, [6, 3]).unwrap(),
            sparse_core::DenseViewMut::new(&mut ym, [4, 3]).unwrap(),
        )
        .unwrap();
        let mut want_m = vec![0.0; 12];
        for i in 0..4 {
            for kk in 0..3 {
                want_m[i * 3 + kk] = (0..6).map(|j| m[i][j] * xm[j * 3 + kk]).sum();
            }
        }
        prop_assert!(close(&ym, &want_m), "spmm {ym:?} {want_m:?}");

        let mut s = 1.5;
        k::total_bsr(&a, &mut s).unwrap();
        let total: f64 = m.iter().flatten().sum::<f64>() + 1.5;
        prop_assert!((s - total).abs() < 1e-9, "sum {s} {total}");

        let bsc = Layout { by_cols: true, inner_cols_first: true, ..BSR };
        let b = Blocked::new(&m, 6, bsc, &|_, _| false);
        let a = k::BSC::<f64>::assemble([4, 6], b.levels_dense_outer(), &b.values).unwrap();
        k::weighted_bsc(&a, &mut y).unwrap();
        let weighted: Vec<f64> = (0..4)
            .map(|i| (0..6).map(|j| m[i][j] * (i as f64 - j as f64)).sum())
            .collect();
        prop_assert!(close(&y, &weighted), "index values {y:?} {weighted:?}");
    }
}

#[test]
fn static_shapes_and_partial_blocks() {
    let m: Vec<Vec<f64>> = vec![
        vec![1., 0., 0., 2., 0., 0.],
        vec![0., 0., 0., 0., 0., 3.],
        vec![0., 0., 0., 0., 0., 0.],
        vec![4., 5., 0., 0., 0., 0.],
    ];
    let b = Blocked::new(&m, 6, BSR, &|_, _| false);
    let a = k::BSR::<f64>::assemble([4, 6], b.levels_dense_outer(), &b.values).unwrap();
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let mut y = [0.0; 4];
    k::static_bsr(&a, &x, &mut y).unwrap();
    assert_eq!(y.to_vec(), matvec(&m, &x));

    // A 5x6 BSR has a partial last block row: the kernel refuses it
    // before touching the output.
    let pos = [0usize, 0, 0, 0];
    let a = k::BSR::<f64>::assemble(
        [5, 6],
        [
            Level::dense(),
            Level::compressed(&pos, &[]),
            Level::dense(),
            Level::dense(),
        ],
        &[],
    )
    .unwrap();
    let mut y = [9.0; 5];
    let err = k::spmv_bsr(&a, &x, &mut y).unwrap_err();
    assert_eq!(
        err,
        KernelError::PartialBlock {
            tensor: "a",
            dim: 0,
            size: 5,
            block: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "dimension 0 of `a` has size 5, not a multiple of the block size 2 the kernel walks it in"
    );
    assert_eq!(y, [9.0; 5]);
    // A vector whose length disagrees with the matrix.
    let b = Blocked::new(&m, 6, BSR, &|_, _| false);
    let a = k::BSR::<f64>::assemble([4, 6], b.levels_dense_outer(), &b.values).unwrap();
    let mut y = [0.0; 6];
    assert!(matches!(
        k::spmv_bsr(&a, &x, &mut y),
        Err(KernelError::DimensionMismatch { tensor: "y", .. })
    ));
}

pub(super) mod more {
    sparse_core::sparse_kernel! {
        #BSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
        }>
        #NV24 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 8
        }>
        pub fn add_bsr(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn scale_into_bsr(a: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = a[i, j] * 2.0;
        }
        pub fn spmv_24(a: &tensor<?x?xf64, #NV24>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #NV24_2 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 2
        }>
        #BATCH = #sparse_tensor.encoding<{ map = (b, i, j) -> (b : batch, i : dense, j : compressed) }>
        pub fn spmv_24_2(a: &tensor<?x?xf64, #NV24_2>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn vec_mat_bsr(x: &tensor<?xf64>, a: &tensor<?x?xf64, #BSR>, y: &mut tensor<?xf64>) {
            y[j] = x[i] * a[i, j];
        }
        pub fn add_into_bsr(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn sddmm_bsr(s: &tensor<?x?xf64, #BSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        pub fn spmm_24(a: &tensor<?x?xf64, #NV24>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, k] = a[i, j] * x[j, k];
        }
        pub fn mask_24(a: &tensor<?x?xf64, #NV24>, d: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, j] = a[i, j] * d[i, j];
        }
        pub fn positive_bsr(a: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = select(a[i, j], |v| v > 0.0);
        }
        pub fn min_plus_bsr(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| if x < y { x } else { y }, left = identity, right = |y| -y);
        }
        pub fn row_max_bsr(a: &tensor<?x?xf64, #BSR>, y: &mut tensor<?xf64>) {
            y[i] = reduce(a[i, j], identity = -1000.0, |acc, v| if v > acc { v } else { acc });
        }
        pub fn count_24(a: &tensor<?x?xf64, #NV24>, y: &mut tensor<?xf64>) {
            // `sum(j, ..)` around the region: a sum written inside an
            // operand would be summed first (the sum-scope rule).
            y[i] = sum(j, unary(a[i, j], present = |_x| 1.0, absent = none));
        }
        pub fn spgemm_bsr(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn double_in_place(c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] *= 2.0;
        }
        pub fn transpose_bsr(a: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64>) {
            c[j, i] = a[i, j];
        }
        pub fn batched_spmv(a: &tensor<?x?x?xf64, #BATCH>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[b, i] = a[b, i, j] * x[b, j];
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn block_operands_co_iterate_and_fill_block_outputs(
        ma in matrix(6, 4),
        mb in matrix(6, 4),
    ) {
        let ba = Blocked::new(&ma, 4, BSR, &|_, _| false);
        let bb = Blocked::new(&mb, 4, BSR, &|_, _| false);
        let a = more::BSR::<f64>::assemble([6, 4], ba.levels_dense_outer(), &ba.values).unwrap();
        let b = more::BSR::<f64>::assemble([6, 4], bb.levels_dense_outer(), &bb.values).unwrap();
        let mut c = vec![-1.0; 24];
        more::add_bsr(&a, &b, sparse_core::DenseViewMut::new(&mut c, [6, 4]).unwrap()).unwrap();
        let want: Vec<f64> = ma.iter().flatten().zip(mb.iter().flatten()).map(|(x, y)| x + y).collect();
        prop_assert_eq!(&c, &want);

        // c = 2a into a BSR output: the same blocks, values doubled.
        let mut out = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([6, 4]).unwrap();
        more::scale_into_bsr(&a, &mut out).unwrap();
        let view = out.view();
        let mut got = vec![0.0; 24];
        view.for_each(|[i, j], v| got[i * 4 + j] = *v);
        let doubled: Vec<f64> = ma.iter().flatten().map(|x| 2.0 * x).collect();
        prop_assert_eq!(&got, &doubled);
        prop_assert_eq!(view.level(1).coordinates().to_vec(), ba.crd1.clone());
        prop_assert_eq!(view.values().len(), ba.values.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn transposed_products_unions_and_sampling_over_bsr(
        ma in matrix(4, 6),
        mb in matrix(4, 6),
        x in proptest::collection::vec(-3i32..=3, 4),
        u in proptest::collection::vec(-3i32..=3, 12),
        v in proptest::collection::vec(-3i32..=3, 18),
    ) {
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let ba = Blocked::new(&ma, 6, BSR, &|_, _| false);
        let bb = Blocked::new(&mb, 6, BSR, &|_, _| false);
        let a = more::BSR::<f64>::assemble([4, 6], ba.levels_dense_outer(), &ba.values).unwrap();
        let b = more::BSR::<f64>::assemble([4, 6], bb.levels_dense_outer(), &bb.values).unwrap();

        // y = x^T a: the output indexed by the block operand's columns.
        let mut y = vec![9.0; 6];
        more::vec_mat_bsr(&x, &a, &mut y).unwrap();
        let want: Vec<f64> = (0..6).map(|j| (0..4).map(|i| x[i] * ma[i][j]).sum()).collect();
        prop_assert!(close(&y, &want), "x^T a {y:?} {want:?}");

        // c = a + b into BSR: the union of the stored blocks.
        let mut c = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([4, 6]).unwrap();
        more::add_into_bsr(&a, &b, &mut c).unwrap();
        let mut got = vec![0.0; 24];
        c.view().for_each(|[i, j], v| got[i * 6 + j] = *v);
        let sum: Vec<f64> = ma.iter().flatten().zip(mb.iter().flatten()).map(|(p, q)| p + q).collect();
        prop_assert_eq!(&got, &sum);
        let mut blocks: Vec<usize> = Vec::new();
        for (r, w) in ba.pos1.windows(2).zip(bb.pos1.windows(2)) {
            let mut row: Vec<usize> = ba.crd1[r[0]..r[1]].iter().chain(&bb.crd1[w[0]..w[1]]).copied().collect();
            row.sort();
            row.dedup();
            blocks.extend(row);
        }
        prop_assert_eq!(c.view().level(1).coordinates().to_vec(), blocks);

        // c = s .* (u v): sampled at the stored blocks of s.
        let u: Vec<f64> = u.into_iter().map(f64::from).collect();
        let v: Vec<f64> = v.into_iter().map(f64::from).collect();
        let mut c = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([4, 6]).unwrap();
        more::sddmm_bsr(
            &a,
            sparse_core::DenseView::new(&u, [4, 3]).unwrap(),
            sparse_core::DenseView::new(&v, [3, 6]).unwrap(),
            &mut c,
        )
        .unwrap();
        let mut got = vec![0.0; 24];
        c.view().for_each(|[i, j], val| got[i * 6 + j] = *val);
        let want: Vec<f64> = (0..24)
            .map(|p| {
                let (i, j) = (p / 6, p % 6);
                ma[i][j] * (0..3).map(|k| u[i * 3 + k] * v[k * 6 + j]).sum::<f64>()
            })
            .collect();
        prop_assert!(close(&got, &want), "sddmm {got:?} {want:?}");
        prop_assert_eq!(c.view().level(1).coordinates().to_vec(), ba.crd1.clone());
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn semiring_operations_over_block_operands(
        ma in matrix(4, 6),
        mb in matrix(4, 6),
        m24 in matrix_2_4(3, 8),
    ) {
        let ba = Blocked::new(&ma, 6, BSR, &|_, _| false);
        let bb = Blocked::new(&mb, 6, BSR, &|_, _| false);
        let a = more::BSR::<f64>::assemble([4, 6], ba.levels_dense_outer(), &ba.values).unwrap();
        let b = more::BSR::<f64>::assemble([4, 6], bb.levels_dense_outer(), &bb.values).unwrap();
        let stored = |t: &more::BSROut<f64, sparse_core::output::Owned>| {
            let mut got = Vec::new();
            t.view().for_each(|[i, j], v| got.push((i, j, *v)));
            got
        };

        // select keeps the stored values that pass, in any block.
        let mut c = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([4, 6]).unwrap();
        more::positive_bsr(&a, &mut c).unwrap();
        let mut want = Vec::new();
        a.for_each(|[i, j], v| if *v > 0.0 { want.push((i, j, *v)) });
        let mut got = stored(&c);
        got.retain(|e| e.2 != 0.0 || want.iter().any(|w| (w.0, w.1) == (e.0, e.1)));
        // Stored entries of a are visited in block order; compare as sets.
        let mut got_sorted = got.clone();
        got_sorted.sort_by_key(|e| (e.0, e.1));
        want.sort_by_key(|e| (e.0, e.1));
        prop_assert_eq!(got_sorted, want);

        // binary: min where both store, a where only a, -b where only b.
        let mut c = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([4, 6]).unwrap();
        more::min_plus_bsr(&a, &b, &mut c).unwrap();
        let mut dense = vec![None; 24];
        a.for_each(|[i, j], v| dense[i * 6 + j] = Some(*v));
        let mut db = vec![None; 24];
        b.for_each(|[i, j], v| db[i * 6 + j] = Some(*v));
        let mut want: Vec<(usize, usize, f64)> = Vec::new();
        for p in 0..24 {
            let v = match (dense[p], db[p]) {
                (Some(x), Some(y)) => Some(if x < y { x } else { y }),
                (Some(x), None) => Some(x),
                (None, Some(y)) => Some(-y),
                (None, None) => None,
            };
            if let Some(v) = v {
                want.push((p / 6, p % 6, v));
            }
        }
        let mut got = stored(&c);
        got.sort_by_key(|e| (e.0, e.1));
        prop_assert_eq!(got, want);

        // reduce folds the stored values of each row (explicit zeros of a
        // stored block included), its identity where a row stores none.
        let mut y = vec![0.0; 4];
        more::row_max_bsr(&a, &mut y).unwrap();
        let want: Vec<f64> = (0..4)
            .map(|i| {
                (0..6)
                    .filter_map(|j| dense[i * 6 + j])
                    .fold(-1000.0, |acc: f64, v| if v > acc { v } else { acc })
            })
            .collect();
        prop_assert_eq!(y, want);

        // unary over 2:4: every stored coordinate counts, explicit zeros too.
        let (crd, val) = two_of_four(&m24);
        let t = more::NV24::<f64>::assemble(
            [3, 8],
            [Level::dense(), Level::dense(), Level::structured(&crd)],
            &val,
        )
        .unwrap();
        let mut y = vec![0.0; 3];
        more::count_24(&t, &mut y).unwrap();
        prop_assert_eq!(y, vec![4.0; 3]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn block_products_transposes_and_in_place_updates(
        ma in matrix(4, 6),
        mb in matrix(6, 4),
    ) {
        let ba = Blocked::new(&ma, 6, BSR, &|_, _| false);
        let bb = Blocked::new(&mb, 4, BSR, &|_, _| false);
        let a = more::BSR::<f64>::assemble([4, 6], ba.levels_dense_outer(), &ba.values).unwrap();
        let b = more::BSR::<f64>::assemble([6, 4], bb.levels_dense_outer(), &bb.values).unwrap();

        let mut c = vec![3.0; 16];
        more::spgemm_bsr(&a, &b, sparse_core::DenseViewMut::new(&mut c, [4, 4]).unwrap()).unwrap();
        let want: Vec<f64> = (0..16)
            .map(|p| (0..6).map(|k| ma[p / 4][k] * mb[k][p % 4]).sum())
            .collect();
        prop_assert!(close(&c, &want), "BSR x BSR {c:?} {want:?}");

        let mut t = vec![3.0; 24];
        more::transpose_bsr(&a, sparse_core::DenseViewMut::new(&mut t, [6, 4]).unwrap()).unwrap();
        let want: Vec<f64> = (0..24).map(|p| ma[p % 4][p / 4]).collect();
        prop_assert_eq!(t, want);

        // In place: the blocks stay, every stored value doubles.
        let mut out = more::BSROut::<f64, sparse_core::output::Owned>::with_dims([4, 6]).unwrap();
        more::positive_bsr(&a, &mut out).unwrap();
        let before: Vec<f64> = out.view().values().to_vec();
        let blocks: Vec<usize> = out.view().level(1).coordinates().to_vec();
        more::double_in_place(&mut out).unwrap();
        let after: Vec<f64> = out.view().values().to_vec();
        prop_assert_eq!(out.view().level(1).coordinates().to_vec(), blocks);
        prop_assert_eq!(after, before.iter().map(|v| v * 2.0).collect::<Vec<_>>());
    }
}
