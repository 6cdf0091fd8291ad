//! The pruning helpers on every value form: `prune_2_4(file(..))` gives
//! the layout `prune_2_4(dense<..>)` gives, and `prune_blocks(.., keep =
//! K)` stores the `K` blocks of largest Frobenius norm of every block row
//! of a BSR constant: hand-computed layouts, the entries against a
//! reference pruning written here (block norms in `f64`, ties to the lower
//! column), and kernels over the constants against dense products.
//! The data files are written by `data/constants/make_pruning.py`.

use sparse_core::{Encoding, SparseTensor};

sparse_core::sparse_kernel! {
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense),
        posWidth = 8,
        crdWidth = 8
    }>

    static P24_LITERAL: tensor<2x8xf32, #NV_24> = prune_2_4(dense<[
        [1.0, -3.0, 3.0, 2.0, 0.5, 0.5, 0.5, 0.5],
        [0.0, 0.0, 0.0, 0.0, -1.0, 7.0, -7.0, 2.0]
    ]>);
    static P24_NPY: tensor<2x8xf32, #NV_24> = prune_2_4(file("data/constants/prune24.npy"));
    static P24_SIZES: tensor<?x?xf32, #NV_24> = prune_2_4(file("data/constants/prune24.npy"));

    // | 1 2 | 0  3 | 2 0 |   squared block norms 5, 10, 8
    // | 0 0 | -1 0 | 0 2 |
    // | 0 0 | 4  0 | 0 0 |   squared block norms 0, 16, 16
    // | 0 0 | 0  0 | 0 -4|
    static KEEP1: tensor<4x6xf32, #BSR> = prune_blocks(dense<[
        [1.0, 2.0, 0.0, 3.0, 2.0, 0.0],
        [0.0, 0.0, -1.0, 0.0, 0.0, 2.0],
        [0.0, 0.0, 4.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, -4.0]
    ]>, keep = 1);
    static KEEP1_NPY: tensor<4x6xf32, #BSR> = prune_blocks(file("data/constants/blocks.npy"), keep = 1);
    static KEEP1_MTX: tensor<4x6xf32, #BSR> = prune_blocks(file("data/constants/blocks.mtx"), keep = 1);
    static KEEP2: tensor<?x?xf32, #BSR> = prune_blocks(file("data/constants/blocks.npy"), keep = 2);
    static KEEP3: tensor<4x6xf32, #BSR> = prune_blocks(file("data/constants/blocks.npy"), keep = 3);
    static KEEP1_I8: tensor<4x6xi8, #BSR> = prune_blocks(file("data/constants/blocks_i8.npy"), keep = 1);

    fn spmv_bsr(a: &tensor<4x6xf32, #BSR>, x: &tensor<6xf32>, y: &mut tensor<4xf32>) {
        y[i] = a[i, j] * x[j];
    }
    fn layer_bsr_i8(w: &tensor<4x6xi8, #BSR>, x: &tensor<6xi8>, y: &mut tensor<4xi32>) {
        y[i] = w[i, j] as i32 * x[j] as i32;
    }
}

const BLOCKS: [[f64; 6]; 4] = [
    [1.0, 2.0, 0.0, 3.0, 2.0, 0.0],
    [0.0, 0.0, -1.0, 0.0, 0.0, 2.0],
    [0.0, 0.0, 4.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0, 0.0, -4.0],
];

/// The reference: `m` with every 2x2 block zeroed but the `keep` of
/// largest squared norm in its block row (ties to the lower column).
fn reference_prune(m: &[[f64; 6]; 4], keep: usize) -> [[f64; 6]; 4] {
    let mut out = [[0.0; 6]; 4];
    for br in 0..2 {
        let norm = |bc: usize| -> f64 {
            (0..2)
                .flat_map(|r| (0..2).map(move |c| (r, c)))
                .map(|(r, c)| m[2 * br + r][2 * bc + c].powi(2))
                .sum()
        };
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| norm(b).total_cmp(&norm(a)).then(a.cmp(&b)));
        for &bc in order.iter().take(keep) {
            for r in 0..2 {
                for c in 0..2 {
                    out[2 * br + r][2 * bc + c] = m[2 * br + r][2 * bc + c];
                }
            }
        }
    }
    out
}

/// The tensor's elements as a dense matrix (repeats summed).
fn dense<V: Copy + Into<f64>, E: Encoding, const L: usize>(
    t: &SparseTensor<'_, V, E, 2, L>,
) -> Vec<Vec<f64>> {
    let [m, n] = t.dim_sizes();
    let mut d = vec![vec![0.0; n]; m];
    t.for_each(|[i, j], v| d[i][j] += (*v).into());
    d
}

/// The printed layout, and the validating `assemble` accepts the buffers.
fn check<V: std::fmt::Display, E: Encoding, const L: usize>(
    t: &'static SparseTensor<'static, V, E, 2, L>,
    printed: &str,
) {
    assert_eq!(t.to_string(), printed);
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<V, E, 2, L>::assemble(dims, levels, values)
        .expect("assemble accepts a constant's buffers");
    assert_eq!(again.to_string(), printed);
}

#[test]
fn prune_2_4_of_a_file_is_prune_2_4_of_its_literal() {
    let printed = "---- Sparse Tensor ----\nnse = 8\ndim = ( 2, 8 )\nlvl = ( 2, 2, 4 )\n\
                   crd[2] : ( 1, 2, 0, 1, 0, 1, 1, 2 )\nvalues : ( -3, 3, 0.5, 0.5, 0, 0, 7, -7 )\n----";
    check(&P24_LITERAL, printed);
    check(&P24_NPY, printed);
    // `?` sizes come from the file.
    assert_eq!(P24_SIZES.to_string(), printed);
}

#[test]
fn prune_blocks_keeps_the_blocks_of_largest_norm_per_block_row() {
    // keep = 1: block (0, 1) (norm² 10) and, of the tie 16 = 16 in block
    // row 1, the lower column (1, 1).
    let keep1 = "---- Sparse Tensor ----\nnse = 8\ndim = ( 4, 6 )\nlvl = ( 2, 3, 2, 2 )\n\
                 pos[1] : ( 0, 1, 2 )\ncrd[1] : ( 1, 1 )\n\
                 values : ( 0, 3, -1, 0, 4, 0, 0, 0 )\n----";
    check(&KEEP1, keep1);
    check(&KEEP1_NPY, keep1);
    check(&KEEP1_MTX, keep1);
    check(&KEEP1_I8, keep1);
    // keep = 2: blocks (0, 1), (0, 2) and (1, 1), (1, 2); the zero block
    // (1, 0) is never stored.
    check(
        &KEEP2,
        "---- Sparse Tensor ----\nnse = 16\ndim = ( 4, 6 )\nlvl = ( 2, 3, 2, 2 )\n\
         pos[1] : ( 0, 2, 4 )\ncrd[1] : ( 1, 2, 1, 2 )\n\
         values : ( 0, 3, -1, 0, 2, 0, 0, 2, 4, 0, 0, 0, 0, 0, 0, -4 )\n----",
    );
    for (t, keep) in [(&KEEP1, 1), (&KEEP2, 2), (&KEEP3, 3)] {
        let want: Vec<Vec<f64>> = reference_prune(&BLOCKS, keep)
            .iter()
            .map(|r| r.to_vec())
            .collect();
        assert_eq!(dense(t), want, "keep = {keep}");
    }
    // keep = 3 keeps every nonzero block: the whole matrix.
    assert_eq!(dense(&KEEP3), BLOCKS.map(|r| r.to_vec()).to_vec());
    assert_eq!(dense(&KEEP1_I8), dense(&KEEP1));
}

#[test]
fn kernels_read_pruned_block_constants() {
    let x = [1.0, -2.0, 0.5, 4.0, 0.25, -1.0];
    let mut y = [f32::NAN; 4];
    spmv_bsr(&KEEP1, &x, &mut y).unwrap();
    let pruned = reference_prune(&BLOCKS, 1);
    let want: Vec<f32> = pruned
        .iter()
        .map(|row| {
            row.iter()
                .zip(&x)
                .map(|(a, &b)| a * f64::from(b))
                .sum::<f64>() as f32
        })
        .collect();
    assert_eq!(y.to_vec(), want);

    let x8 = [100i8, -100, 100, 100, -128, 127];
    let mut y8 = [i32::MIN; 4];
    layer_bsr_i8(&KEEP1_I8, &x8, &mut y8).unwrap();
    let want8: Vec<i32> = pruned
        .iter()
        .map(|row| {
            row.iter()
                .zip(&x8)
                .map(|(&a, &b)| a as i32 * i32::from(b))
                .sum()
        })
        .collect();
    assert_eq!(y8.to_vec(), want8);
}
