//! Conformance with the worked layouts of seeds 000 and 001: MLIR's
//! `sparse_tensor.print` text, seed 001's BSR "Stored as:" block, and the
//! dense matrices the seeds draw.

use sparse_core::levels::{compressed, d0};
use sparse_core::{AssembleError, Level, SparseTensor};
use sparse_tests::reference::{Bsr22, Coo, Csr};

/// Seed 000's assemble example: 3x4 sorted COO, AoS coordinates.
fn seed_000_coo() -> SparseTensor<'static, f64, Coo<usize, usize>, 2, 2> {
    static POS: [usize; 2] = [0, 3];
    static CRD: [usize; 6] = [0, 0, 1, 2, 1, 3];
    static VAL: [f64; 3] = [1.1, 2.2, 3.3];
    SparseTensor::assemble(
        [3, 4],
        [Level::compressed(&POS, &CRD), Level::fused()],
        &VAL,
    )
    .expect("seed 000's example is valid")
}

/// MLIR's 4x8 CSR documentation matrix.
fn csr_4x8() -> SparseTensor<'static, f64, Csr<usize, usize>, 2, 2> {
    static POS: [usize; 5] = [0, 2, 2, 3, 5];
    static CRD: [usize; 5] = [0, 2, 1, 2, 7];
    static VAL: [f64; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];
    SparseTensor::assemble(
        [4, 8],
        [Level::dense(), Level::compressed(&POS, &CRD)],
        &VAL,
    )
    .expect("the CSR example is valid")
}

/// Seed 001's BSR example: 4x6 matrix in 2x2 blocks.
fn seed_001_bsr() -> SparseTensor<'static, f64, Bsr22<u8, u8>, 2, 4> {
    static POS: [u8; 3] = [0, 2, 3];
    static CRD: [u8; 3] = [0, 2, 1];
    static VAL: [f64; 12] = [1., 2., 0., 3., 4., 0., 0., 5., 6., 7., 8., 0.];
    SparseTensor::assemble(
        [4, 6],
        [
            Level::dense(),
            Level::compressed(&POS, &CRD),
            Level::dense(),
            Level::dense(),
        ],
        &VAL,
    )
    .expect("seed 001's BSR example is valid")
}

#[test]
fn seed_000_coo_prints_as_mlir_does() {
    let expected = "\
---- Sparse Tensor ----
nse = 3
dim = ( 3, 4 )
lvl = ( 3, 4 )
pos[0] : ( 0, 3 )
crd[0] : ( 0, 0, 1, 2, 1, 3 )
values : ( 1.1, 2.2, 3.3 )
----";
    assert_eq!(seed_000_coo().to_string(), expected);
}

#[test]
fn seed_000_coo_is_the_matrix_the_seed_draws() {
    // |1.1, 0.0, 0.0, 0.0|
    // |0.0, 0.0, 2.2, 3.3|
    // |0.0, 0.0, 0.0, 0.0|
    let mut got = Vec::new();
    seed_000_coo().for_each(|d, v| got.push((d, *v)));
    assert_eq!(got, [([0, 0], 1.1), ([1, 2], 2.2), ([1, 3], 3.3)]);
}

#[test]
fn csr_prints_as_mlir_does() {
    let expected = "\
---- Sparse Tensor ----
nse = 5
dim = ( 4, 8 )
lvl = ( 4, 8 )
pos[1] : ( 0, 2, 2, 3, 5 )
crd[1] : ( 0, 2, 1, 2, 7 )
values : ( 1, 2, 3, 4, 5 )
----";
    assert_eq!(csr_4x8().to_string(), expected);
}

#[test]
fn seed_001_bsr_prints_the_stored_as_block() {
    // Seed 001, "Stored as:", without the block's three-space indent.
    let expected = "\
positions[1]   : 0 2 3
coordinates[1] : 0 2 1
values         : 1.000000 2.000000 0.000000 3.000000
                 4.000000 0.000000 0.000000 5.000000
                 6.000000 7.000000 8.000000 0.000000";
    assert_eq!(format!("{:#}", seed_001_bsr()), expected);
}

#[test]
fn seed_001_bsr_prints_in_mlir_layout_too() {
    let expected = "\
---- Sparse Tensor ----
nse = 12
dim = ( 4, 6 )
lvl = ( 2, 3, 2, 2 )
pos[1] : ( 0, 2, 3 )
crd[1] : ( 0, 2, 1 )
values : ( 1, 2, 0, 3, 4, 0, 0, 5, 6, 7, 8, 0 )
----";
    assert_eq!(seed_001_bsr().to_string(), expected);
}

#[test]
fn seed_001_bsr_for_each_gives_back_the_dense_matrix() {
    // | 1 2 | . . | 4 . |
    // | . 3 | . . | . 5 |
    // | . . | 6 7 | . . |
    // | . . | 8 . | . . |
    let want = [
        [1., 2., 0., 0., 4., 0.],
        [0., 3., 0., 0., 0., 5.],
        [0., 0., 6., 7., 0., 0.],
        [0., 0., 8., 0., 0., 0.],
    ];
    let mut got = [[0.0f64; 6]; 4];
    let mut stored = 0;
    seed_001_bsr().for_each(|[i, j], v| {
        got[i][j] = *v;
        stored += 1;
    });
    assert_eq!(got, want);
    // Three 2x2 blocks, explicit zeros included.
    assert_eq!(stored, 12);
}

#[test]
fn bsr_block_coordinates_translate_both_ways() {
    let t = seed_001_bsr();
    // Element (3, 2) is in block (1, 1), at (1, 0) inside it.
    assert_eq!(t.dim_to_lvl([3, 2]), [1, 1, 1, 0]);
    assert_eq!(t.lvl_to_dim([1, 1, 1, 0]), [3, 2]);
}

#[test]
fn empty_buffers_print_as_empty_tuples() {
    static POS: [u16; 3] = [0, 0, 0];
    let t = SparseTensor::<i32, Csr<u16, u8>, 2, 2>::assemble(
        [2, 3],
        [Level::dense(), Level::compressed(&POS, &[])],
        &[],
    )
    .expect("an empty CSR is valid");
    let expected = "\
---- Sparse Tensor ----
nse = 0
dim = ( 2, 3 )
lvl = ( 2, 3 )
pos[1] : ( 0, 0, 0 )
crd[1] : ( )
values : ( )
----";
    assert_eq!(t.to_string(), expected);
    assert_eq!(
        format!("{t:#}"),
        "positions[1]   : 0 0 0\ncoordinates[1] :\nvalues         :"
    );
}

#[test]
fn integers_ignore_the_six_decimals() {
    static POS: [u8; 2] = [0, 5];
    static CRD: [u8; 5] = [0, 1, 2, 3, 4];
    static VAL: [i8; 5] = [-1, 2, -3, 4, -5];
    type Vector = sparse_core::Enc<u8, u8, (compressed,), (d0,)>;
    let t = SparseTensor::<i8, Vector, 1, 1>::assemble([5], [Level::compressed(&POS, &CRD)], &VAL)
        .map_err(|e: AssembleError| e.to_string())
        .expect("a full sparse vector is valid");
    assert_eq!(
        format!("{t:#}"),
        "positions[0]   : 0 5\ncoordinates[0] : 0 1 2 3 4\nvalues         : -1 2 -3 4\n                 -5"
    );
}
