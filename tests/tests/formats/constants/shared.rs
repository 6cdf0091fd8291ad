//! Constants that share another constant's levels (`levels_of`): an int8
//! copy of an `f32` layer reads the layer's position and coordinate
//! buffers (the same addresses) with values of its own, laid out on the
//! layer's stored entries (explicit zeros and BSR padding included), in
//! CSR, AoS COO and BSR, chained once; kernels over them against dense
//! products. And scalar constants from a bare literal, from 0-d,
//! 1-element and 1x1 arrays and from a 1x1 Matrix Market file. Data:
//! `data/constants/make_pruning.py`.

use sparse_core::{Encoding, SparseTensor};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    /// `CSR` spelt another way: the same encoding, so the same levels.
    #CSR_AGAIN = #sparse_tensor.encoding<{ map = (r, c) -> (r : dense, c : compressed), crdWidth = 8, posWidth = 8 }>

    // | 1 0 0 2 |
    // | 0 0 0 0 |
    // | 0 3 4 0 |
    static W: tensor<3x4xf32, #CSR> = file("data/constants/a.mtx");
    /// Quantized by 10.
    static W8: tensor<3x4xi8, #CSR> = levels_of(W, values = file("data/constants/a_i8.npy"));
    /// Two weights quantized to zero: stored as explicit zeros.
    static W8_ZEROS: tensor<?x?xi8, #CSR_AGAIN> = levels_of(W, values = sparse<[[0, 3], [2, 2]], [20, 40]>);
    /// Sharing a constant that shares: the same buffers again.
    static W16: tensor<3x4xi16, #CSR> = levels_of(W8, values = dense<[[-1, 0, 0, 1000], [0, 0, 0, 0], [0, 300, -300, 0]]>);

    static C: tensor<3x4xf64, #COO> = sparse<[[2, 1], [0, 0], [2, 2], [0, 3]], [3.0, 1.0, 4.0, 2.0]>;
    static C32: tensor<3x4xi32, #COO> = levels_of(C, values = dense<[[7, 0, 0, 8], [0, 0, 0, 0], [0, 9, 10, 0]]>);

    // The blocks (0, 1) and (1, 1) of `blocks.npy`, with zeros inside.
    static B: tensor<4x6xf32, #BSR> = prune_blocks(file("data/constants/blocks.npy"), keep = 1);
    /// A value where `B` stores a zero inside a block: stored.
    static B8: tensor<4x6xi8, #BSR> = levels_of(B, values = dense<[
        [0, 0, 5, 30, 0, 0],
        [0, 0, -10, 0, 0, 0],
        [0, 0, 40, 0, 0, 0],
        [0, 0, 0, 0, 0, 0]
    ]>);

    static S_NPY0: tensor<f32> = file("data/constants/scalar0.npy");
    static S_NPY1: tensor<f32> = file("data/constants/scalar1.npy");
    static S_NPY11: tensor<i32> = file("data/constants/scalar11.npy");
    static S_MTX: tensor<f64> = file("data/constants/scalar.mtx");
    static S_LITERAL: tensor<f64> = -0.5;
    static S_BOOL: tensor<i1> = true;
    /// A bare literal splats as `dense<1.5>` does.
    static SPLAT: tensor<2x3xf32> = 1.5;

    fn layer(w: &tensor<3x4xi8, #CSR>, x: &tensor<4xi8>, y: &mut tensor<3xi32>) {
        y[i] = w[i, j] as i32 * x[j] as i32;
    }
    fn spmv(w: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
        y[i] = w[i, j] * x[j];
    }
    fn scaled(w: &tensor<3x4xf32, #CSR>, s: &tensor<f32>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
        y[i] = w[i, j] * x[j] * s[];
    }
}

/// Every level buffer of `a` is the one of `b` (the same address).
fn same_levels<U, V, E: Encoding, const D: usize, const L: usize>(
    a: &SparseTensor<'_, U, E, D, L>,
    b: &SparseTensor<'_, V, E, D, L>,
) -> bool {
    (0..L).all(|l| {
        core::ptr::eq(a.level(l).positions(), b.level(l).positions())
            && core::ptr::eq(a.level(l).coordinates(), b.level(l).coordinates())
    })
}

/// The printed layout, and the validating `assemble` accepts the buffers.
fn check<V: std::fmt::Display, E: Encoding, const L: usize>(
    t: &'static SparseTensor<'static, V, E, 2, L>,
    printed: &str,
) {
    assert_eq!(t.to_string(), printed);
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<V, E, 2, L>::assemble(dims, levels, values)
        .expect("assemble accepts a shared constant's buffers");
    assert_eq!(again.to_string(), printed);
}

#[test]
fn an_int8_copy_reads_the_layers_levels_with_its_own_values() {
    let layout = |values: &str| {
        format!(
            "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
             pos[1] : ( 0, 2, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\nvalues : ( {values} )\n----"
        )
    };
    check(&W, &layout("1, 2, 3, 4"));
    check(&W8, &layout("10, 20, 30, 40"));
    check(&W8_ZEROS, &layout("0, 20, 0, 40"));
    check(&W16, &layout("-1, 1000, 300, -300"));
    assert!(same_levels(&W, &W8));
    assert!(same_levels(&W, &W8_ZEROS));
    assert!(same_levels(&W, &W16));

    // The layer and its copy against dense products.
    let x = [3i8, -1, 2, 5];
    let mut y = [i32::MIN; 3];
    layer(&W8, &x, &mut y).unwrap();
    assert_eq!(y, [10 * 3 + 20 * 5, 0, -30 + 40 * 2]);
    let xf = x.map(f32::from);
    let mut yf = [f32::NAN; 3];
    spmv(&W, &xf, &mut yf).unwrap();
    assert_eq!(yf, [3.0 + 10.0, 0.0, -3.0 + 8.0]);
}

#[test]
fn aos_coo_and_bsr_levels_are_shared_padding_included() {
    check(
        &C32,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 4 )\ncrd[0] : ( 0, 0, 0, 3, 2, 1, 2, 2 )\nvalues : ( 7, 8, 9, 10 )\n----",
    );
    assert!(same_levels(&C, &C32));
    check(
        &B8,
        "---- Sparse Tensor ----\nnse = 8\ndim = ( 4, 6 )\nlvl = ( 2, 3, 2, 2 )\n\
         pos[1] : ( 0, 1, 2 )\ncrd[1] : ( 1, 1 )\nvalues : ( 5, 30, -10, 0, 40, 0, 0, 0 )\n----",
    );
    assert!(same_levels(&B, &B8));
    let mut d = [[0i8; 6]; 4];
    B8.for_each(|[i, j], v| d[i][j] += *v);
    assert_eq!(
        d,
        [
            [0, 0, 5, 30, 0, 0],
            [0, 0, -10, 0, 0, 0],
            [0, 0, 40, 0, 0, 0],
            [0; 6]
        ]
    );
}

#[test]
fn scalars_from_literals_and_one_element_arrays() {
    assert_eq!((S_NPY0, S_NPY1, S_NPY11, S_MTX), (2.5, 2.5, -7, -0.25));
    assert_eq!(S_LITERAL, -0.5);
    assert!(S_BOOL);
    assert_eq!(SPLAT, [[1.5; 3]; 2]);
    let x = [1.0, 1.0, 1.0, 1.0];
    let mut y = [f32::NAN; 3];
    scaled(&W, &S_NPY1, &x, &mut y).unwrap();
    assert_eq!(y, [3.0 * 2.5, 0.0, 7.0 * 2.5]);
}
