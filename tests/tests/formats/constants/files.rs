//! `file("...")` constants: Matrix Market (coordinate and array; real,
//! integer, pattern; general, symmetric, skew-symmetric) and NumPy files,
//! relative to this crate's Cargo.toml, into several storage families.

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    static A_MTX: tensor<3x4xf32, #CSR> = file("data/constants/a.mtx");
    static A_MTX_CSC: tensor<?x?xf32, #CSC> = file("data/constants/a.mtx");
    static A_MTX_COO: tensor<3x4xf64, #COO> = file("data/constants/a.mtx");
    static A_NPY: tensor<3x4xf32, #DCSR> = file("data/constants/a.npy");
    static SYM: tensor<3x3xf64, #CSR> = file("data/constants/sym.mtx");
    static SKEW: tensor<3x3xi32, #CSR> = file("data/constants/skew.mtx");
    static PATTERN: tensor<2x3xf32, #CSR> = file("data/constants/pattern.mtx");
    static ARRAY: tensor<3x2xf64, #CSR> = file("data/constants/array.mtx");
    static I8: tensor<4xi16, #SV> = file("data/constants/i8.npy");
    static MASK: tensor<2x2xi1, #CSR> = file("data/constants/mask.npy");
    /// Without an encoding, a file is a plain array.
    static F64: tensor<3xf64> = file("data/constants/f64.npy");
    static A_DENSE: tensor<3x4xf32> = file("data/constants/a.mtx");
    /// Matrix Market has no vectors: an N×1 or 1×N file fills a rank-1 type.
    static COL: tensor<?xf64, #SV> = file("data/constants/col.mtx");
    static COL_DENSE: tensor<5xf64> = file("data/constants/col.mtx");
    static ROW: tensor<3xf32> = file("data/constants/row.mtx");
}

#[test]
fn vectors_from_n_by_1_and_1_by_n_files() {
    assert_eq!(COL.dim_sizes(), [5]);
    assert_eq!(entries(&COL), [([0], 1.5), ([2], -2.0), ([4], 4.0)]);
    assert_eq!(COL_DENSE, [1.5, 0.0, -2.0, 0.0, 4.0]);
    assert_eq!(ROW, [1.0, 0.0, 2.5]);
}

fn entries<V: Copy, E: sparse_core::Encoding, const D: usize, const L: usize>(
    t: &sparse_core::SparseTensor<'_, V, E, D, L>,
) -> Vec<([usize; D], V)> {
    let mut out = Vec::new();
    t.for_each(|d, v| out.push((d, *v)));
    out
}

#[test]
fn matrix_market_coordinate_in_three_formats() {
    let printed = "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
                   pos[1] : ( 0, 2, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\nvalues : ( 1, 2, 3, 4 )\n----";
    assert_eq!(A_MTX.to_string(), printed);
    assert_eq!(A_MTX_CSC.dim_sizes(), [3, 4]);
    assert_eq!(A_MTX_CSC.level(1).positions(), [0, 1, 2, 3, 4]);
    assert_eq!(A_MTX_CSC.level(1).coordinates(), [0, 2, 2, 0]);
    assert_eq!(A_MTX_CSC.values(), [1.0, 3.0, 4.0, 2.0]);
    assert_eq!(
        A_MTX_COO.to_string(),
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 4 )\ncrd[0] : ( 0, 0, 0, 3, 2, 1, 2, 2 )\nvalues : ( 1, 2, 3, 4 )\n----"
    );
    let dense = [[1.0, 0.0, 0.0, 2.0], [0.0; 4], [0.0, 3.0, 4.0, 0.0]];
    assert_eq!(A_DENSE, dense);
}

#[test]
fn numpy_dense_drops_zeros() {
    assert_eq!(
        A_NPY.to_string(),
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 2 )\ncrd[0] : ( 0, 2 )\npos[1] : ( 0, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\n\
         values : ( 1, 2, 3, 4 )\n----"
    );
    assert_eq!(entries(&I8), [([0], -1), ([2], 100)]);
    assert_eq!(entries(&MASK), [([0, 0], true), ([1, 1], true)]);
    assert_eq!(F64, [0.5, 0.0, -0.25]);
}

#[test]
fn symmetric_files_are_mirrored() {
    assert_eq!(
        entries(&SYM),
        [([0, 0], 2.0), ([0, 2], -1.5), ([1, 1], 4.0), ([2, 0], -1.5)]
    );
    assert_eq!(
        entries(&SKEW),
        [([0, 1], -5), ([1, 0], 5), ([1, 2], 7), ([2, 1], -7)]
    );
}

#[test]
fn pattern_and_array_files() {
    assert_eq!(entries(&PATTERN), [([0, 2], 1.0), ([1, 0], 1.0)]);
    // Column-major: 1 0 2 | 0 0 3.
    assert_eq!(
        entries(&ARRAY),
        [([0, 0], 1.0), ([2, 0], 2.0), ([2, 1], 3.0)]
    );
}
