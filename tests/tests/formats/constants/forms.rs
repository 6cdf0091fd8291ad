//! The literal forms: `sparse<>`, `dense<>`, splats, `?` sizes, element
//! types as MLIR writes their literals, and constants without encoding.

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

    /// Seed 002's example.
    pub static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;
    /// An explicit zero in `sparse<>` is stored (MLIR stores it too).
    static ZERO: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2], [2, 3]], [1.0, 0.0, 5.0]>;
    /// `tests/oracle/constants.py`'s dense case: `-0.0` is a zero.
    static ORACLE_DENSE: tensor<3x4xf64, #CSR> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, -0.0, 0.0]]>;
    /// A splat of values.
    static SPLAT_VALUES: tensor<3x4xf32, #CSR> = sparse<[[0, 1], [2, 0]], 2.5>;
    /// A dense splat stores every element.
    static ONES: tensor<2x3xf32, #CSR> = dense<1.0>;
    /// A zero splat stores nothing.
    static NONE: tensor<2x3xf32, #CSR> = dense<0.0>;
    /// No entries at all.
    static EMPTY: tensor<2x3xf32, #CSR> = sparse<[], []>;
    /// `?` sizes come from the dense literal.
    static DYN: tensor<?x?xf32, #CSR> = dense<[[0.0, 1.5e1], [-2.5, 0.0], [0.0, 0.0]]>;
    /// Rank 1, bare coordinates.
    static V: tensor<8xf64, #SV> = sparse<[1, 6], [-1.0, 1.000000e+00]>;

    // Element types as MLIR writes them: hex bit patterns, signs, i1.
    static I8: tensor<4xi8, #SV> = dense<[0xFF, -128, 0, 127]>;
    static U16: tensor<3xui16, #SV> = dense<[65535, 0, 0x10]>;
    static I64: tensor<2xi64, #SV> = sparse<[[0], [1]], [-9223372036854775808, 9223372036854775807]>;
    static B: tensor<4xi1, #SV> = dense<[true, false, 1, 0]>;
    static NAN: tensor<2xf32, #SV> = dense<[0x7FC00000, 0xFF800000]>;
    static F64: tensor<3xf64, #SV> = dense<[-0.0, 1.0e-300, 0x3FF0000000000000]>;

    // Past 4096 values a buffer is emitted as a byte string.
    static BIG: tensor<64x80xf32, #CSR> = dense<1.5>;
    static BIG_USIZE: tensor<80x64xi64, #COO> = dense<-7>;

    // Dense arrays past 4096 elements are byte strings too.
    static BIG_ARRAY: tensor<80x64xi16> = dense<-300>;
    static BIG_BOOLS: tensor<5000xi1> = dense<true>;

    /// No encoding: a plain array.
    pub static X: tensor<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>;
    static M: tensor<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>;
    static MS: tensor<2x2xf64> = sparse<[[1, 0]], [7.0]>;
    static SCALAR: tensor<f32> = dense<2.0>;
    static DSPLAT: tensor<2x2xi8> = dense<-3>;

    pub fn spmv(a: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
        y[i] = a[i, j] * x[j];
    }
    pub fn spmv_dyn(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

fn entries<V: Copy, E: sparse_core::Encoding, const D: usize, const L: usize>(
    t: &sparse_core::SparseTensor<'_, V, E, D, L>,
) -> Vec<([usize; D], V)> {
    let mut out = Vec::new();
    t.for_each(|d, v| out.push((d, *v)));
    out
}

#[test]
fn sparse_literal_prints_as_mlir() {
    let expected = "\
---- Sparse Tensor ----
nse = 2
dim = ( 3, 4 )
lvl = ( 3, 4 )
pos[1] : ( 0, 1, 2, 2 )
crd[1] : ( 0, 2 )
values : ( 1, 5 )
----";
    assert_eq!(W.to_string(), expected);
    let mut y = [0.0; 3];
    spmv(&W, &X, &mut y).unwrap();
    assert_eq!(y, [1.0, 15.0, 0.0]);
}

#[test]
fn explicit_zeros_of_sparse_literals_are_stored() {
    assert_eq!(
        ZERO.to_string(),
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 1, 2, 3 )\ncrd[1] : ( 0, 2, 3 )\nvalues : ( 1, 0, 5 )\n----"
    );
}

#[test]
fn zeros_as_the_mlir_oracle_stores_them() {
    // MLIR (tests/oracle/constants.py): pos [0, 2, 2, 3], crd [0, 3, 1],
    // values [1, 2, 3] for the dense constant; [0, 1, 2, 3], [0, 2, 3],
    // [1, 0, 5] for the sparse one with an explicit zero (ZERO above).
    assert_eq!(ORACLE_DENSE.level(1).positions(), [0, 2, 2, 3]);
    assert_eq!(ORACLE_DENSE.level(1).coordinates(), [0, 3, 1]);
    assert_eq!(ORACLE_DENSE.values(), [1.0, 2.0, 3.0]);
    assert_eq!(ZERO.level(1).positions(), [0, 1, 2, 3]);
    assert_eq!(ZERO.level(1).coordinates(), [0, 2, 3]);
    assert_eq!(ZERO.values(), [1.0, 0.0, 5.0]);
}

#[test]
fn splats() {
    assert_eq!(entries(&SPLAT_VALUES), [([0, 1], 2.5), ([2, 0], 2.5)]);
    assert_eq!(
        ONES.to_string(),
        "---- Sparse Tensor ----\nnse = 6\ndim = ( 2, 3 )\nlvl = ( 2, 3 )\n\
         pos[1] : ( 0, 3, 6 )\ncrd[1] : ( 0, 1, 2, 0, 1, 2 )\nvalues : ( 1, 1, 1, 1, 1, 1 )\n----"
    );
    for t in [&NONE, &EMPTY] {
        assert_eq!(t.number_of_entries(), 0);
        assert_eq!(t.level(1).positions(), [0, 0, 0]);
    }
    assert_eq!(DSPLAT, [[-3, -3], [-3, -3]]);
    assert_eq!(SCALAR, 2.0);
}

#[test]
fn dynamic_sizes_come_from_the_literal() {
    assert_eq!(DYN.dim_sizes(), [3, 2]);
    assert_eq!(entries(&DYN), [([0, 1], 15.0), ([1, 0], -2.5)]);
    let mut y = [0.0; 3];
    spmv_dyn(&DYN, &[2.0, 3.0], &mut y).unwrap();
    assert_eq!(y, [45.0, -5.0, 0.0]);
}

#[test]
fn element_literals_read_as_in_mlir() {
    assert_eq!(entries(&V), [([1], -1.0), ([6], 1.0)]);
    assert_eq!(entries(&I8), [([0], -1), ([1], -128), ([3], 127)]);
    assert_eq!(entries(&U16), [([0], 65535), ([2], 16)]);
    assert_eq!(entries(&I64), [([0], i64::MIN), ([1], i64::MAX)]);
    assert_eq!(entries(&B), [([0], true), ([2], true)]);
    let nan = entries(&NAN);
    assert_eq!(nan[0].1.to_bits(), 0x7FC0_0000);
    assert_eq!(nan[1].1, f32::NEG_INFINITY);
    // -0.0 is zero: dropped, as MLIR's conversion drops it.
    assert_eq!(entries(&F64), [([1], 1.0e-300), ([2], 1.0)]);
}

#[test]
fn constants_without_encoding_are_arrays() {
    let x: &[f32; 4] = &X;
    assert_eq!(x, &[1.0, 2.0, 3.0, 4.0]);
    let m: &[[i32; 3]; 2] = &M;
    assert_eq!(m, &[[1, 2, 3], [4, 5, 6]]);
    assert_eq!(MS, [[0.0, 0.0], [7.0, 0.0]]);
}

#[test]
fn large_buffers_decode_exactly() {
    assert_eq!(BIG.number_of_entries(), 64 * 80);
    assert!(BIG.values().iter().all(|&v| v == 1.5));
    let crd = BIG.level(1).coordinates();
    assert!(crd
        .iter()
        .enumerate()
        .all(|(p, &j)| usize::from(j) == p % 80));
    assert_eq!(BIG.level(1).positions()[64], 64 * 80);
    // AoS tuples of native width: (i, j) for every element, row-major.
    let tuples = BIG_USIZE.level(0).coordinates();
    assert_eq!(tuples.len(), 2 * 80 * 64);
    assert!(tuples
        .chunks(2)
        .enumerate()
        .all(|(p, t)| t == [p / 64, p % 64]));
    assert!(BIG_USIZE.values().iter().all(|&v| v == -7));
    let array: &[[i16; 64]; 80] = &BIG_ARRAY;
    assert!(array.iter().flatten().all(|&v| v == -300));
    assert!(BIG_BOOLS.iter().all(|&b| b));
}
