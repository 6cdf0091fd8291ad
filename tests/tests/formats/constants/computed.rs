//! Constants computed from other constants when the macro expands
//! (`compute(|i| ..)`): an int8 layer's input offset folded into its bias
//! from the weights' row sums, norms, a transpose stored in CSR, index
//! values, and integer arithmetic at the edges (wrapping, shifts modulo
//! the width, division by zero, saturating casts). Each value is checked
//! by hand and against a kernel that computes the same expression at run
//! time over the same constants: the macro's arithmetic is the kernels'.

use proptest::prelude::*;

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    // An int8 layer: weights, bias, and the input's zero point 128 folded
    // into the bias (`b[i] + 128 * sum(j, w[i, j])`).
    static W: tensor<3x5xi8, #CSR> = dense<[
        [5, 0, 0, -3, 127],
        [0, 0, 0, 0, 0],
        [-128, 7, 0, 0, 2]
    ]>;
    static BIAS: tensor<3xi32> = dense<[10, -20, 30]>;
    /// The bias with the input offset folded in.
    pub static BIAS_FOLDED: tensor<3xi32> = compute(|i| BIAS[i] + 128 * sum(j, W[i, j] as i32));
    /// The same with the sum implicit (TACO's scope: `j` is summed where it
    /// is used, inside the product).
    static BIAS_IMPLICIT: tensor<3xi32> = compute(|i| BIAS[i] + 128 * (W[i, j] as i32));

    static A: tensor<3x4xf64, #COO> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2], [2, 2]], [1.5, -2.0, 3.0, 0.25, 0.5]>;
    /// Squared row norms (`A`'s repeated entry at (2, 2) is summed first).
    static NORMS: tensor<3xf64> = compute(|i| sum(j, A[i, j] * A[i, j]));
    /// `A` transposed, stored in CSR: only the nonzeros are kept.
    static AT: tensor<4x3xf64, #CSR> = compute(|i, j| A[j, i]);
    /// The identity from index values.
    static EYE: tensor<3x3xf32, #CSR> = compute(|i, j| if i == j { 1.0 } else { 0.0 });
    /// Index arithmetic through casts.
    static DIFF: tensor<2x3xi32> = compute(|i, j| i as i32 - 2 * j as i32);

    static BLOCKS: tensor<4x4xf32, #BSR> = dense<[
        [1.0, 2.0, 0.0, 0.0],
        [0.0, 3.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 4.0, 5.0]
    ]>;
    /// Column sums of a BSR constant (its zeros inside blocks included).
    static COLS: tensor<4xf32> = compute(|j| sum(i, BLOCKS[i, j]));

    static V: tensor<7xi32> = dense<[2147483647, -2147483648, -7, 100, 0, 65536, -2147483648]>;
    static SHIFT: tensor<7xi32> = dense<[1, 33, -1, 2, 5, 16, 0]>;
    /// Wrapping, shifts modulo the width, division by zero, saturation.
    static WRAPPED: tensor<7xi32> = compute(|i| V[i] + 1);
    static SHIFTED: tensor<7xi32> = compute(|i| (V[i] << SHIFT[i]) ^ (V[i] >> 3));
    static QUOTIENT: tensor<7xi32> = compute(|i| V[i] / (V[i] - V[i] + SHIFT[i] - 1));
    static NARROW: tensor<7xi8> = compute(|i| clamp(V[i] >> 2, -128, 127) as i8);
    static FLOATS: tensor<7xf32> = compute(|i| V[i] as f32 * 0.5 - 1.0);
    static BACK: tensor<7xu8> = compute(|i| (V[i] as f32 * 0.5) as u8);

    fn layer_offset(w: &tensor<3x5xi8, #CSR>, x: &tensor<5xi8>, b: &tensor<3xi32>, y: &mut tensor<3xi32>) {
        y[i] = w[i, j] as i32 * (x[j] as i32 + 128) + b[i];
    }
    fn layer_folded(w: &tensor<3x5xi8, #CSR>, x: &tensor<5xi8>, b: &tensor<3xi32>, y: &mut tensor<3xi32>) {
        y[i] = w[i, j] as i32 * x[j] as i32 + b[i];
    }
    fn fold_at_run_time(w: &tensor<3x5xi8, #CSR>, b: &tensor<3xi32>, y: &mut tensor<3xi32>) {
        y[i] = b[i] + 128 * sum(j, w[i, j] as i32);
    }
    fn norms_at_run_time(a: &tensor<3x4xf64, #COO>, y: &mut tensor<3xf64>) {
        y[i] = sum(j, a[i, j] * a[i, j]);
    }
    fn edges_at_run_time(v: &tensor<7xi32>, s: &tensor<7xi32>, wrapped: &mut tensor<7xi32>,
                         shifted: &mut tensor<7xi32>, quotient: &mut tensor<7xi32>,
                         narrow: &mut tensor<7xi8>, floats: &mut tensor<7xf32>, back: &mut tensor<7xu8>) {
        wrapped[i] = v[i] + 1;
        shifted[i] = (v[i] << s[i]) ^ (v[i] >> 3);
        quotient[i] = v[i] / (v[i] - v[i] + s[i] - 1);
        narrow[i] = clamp(v[i] >> 2, -128, 127) as i8;
        floats[i] = v[i] as f32 * 0.5 - 1.0;
        back[i] = (v[i] as f32 * 0.5) as u8;
    }
}

#[test]
fn the_input_offset_folds_into_the_bias() {
    // Row sums of W: 129, 0, -119.
    assert_eq!(BIAS_FOLDED, [10 + 128 * 129, -20, 30 - 128 * 119]);
    assert_eq!(BIAS_IMPLICIT, BIAS_FOLDED);
    let mut at_run_time = [0i32; 3];
    fold_at_run_time(&W, &BIAS, &mut at_run_time).unwrap();
    assert_eq!(BIAS_FOLDED, at_run_time);
}

proptest! {
    #[test]
    fn a_folded_layer_equals_the_layer_with_the_offset(x in prop::array::uniform5(any::<i8>())) {
        let mut with_offset = [0i32; 3];
        layer_offset(&W, &x, &BIAS, &mut with_offset).unwrap();
        let mut folded = [0i32; 3];
        layer_folded(&W, &x, &BIAS_FOLDED, &mut folded).unwrap();
        prop_assert_eq!(folded, with_offset);
        // And against the dense sum.
        let dense = [[5i32, 0, 0, -3, 127], [0; 5], [-128, 7, 0, 0, 2]];
        for i in 0..3 {
            let expected: i32 = BIAS[i] + (0..5).map(|j| dense[i][j] * (x[j] as i32 + 128)).sum::<i32>();
            prop_assert_eq!(folded[i], expected);
        }
    }
}

#[test]
fn float_sums_and_a_transpose_into_csr() {
    assert_eq!(NORMS, [1.5 * 1.5 + 4.0, 0.0, 9.0 + 0.75 * 0.75]);
    let mut at_run_time = [0.0f64; 3];
    norms_at_run_time(&A, &mut at_run_time).unwrap();
    assert_eq!(NORMS, at_run_time);
    // A^T = [[1.5, 0, 0], [0, 0, 3], [0, 0, 0.75], [-2, 0, 0]] in CSR.
    assert_eq!(
        AT.to_string(),
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 4, 3 )\nlvl = ( 4, 3 )\n\
         pos[1] : ( 0, 1, 2, 3, 4 )\ncrd[1] : ( 0, 2, 2, 0 )\nvalues : ( 1.5, 3, 0.75, -2 )\n----"
    );
}

#[test]
fn index_values() {
    assert_eq!(
        EYE.to_string(),
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 3 )\nlvl = ( 3, 3 )\n\
         pos[1] : ( 0, 1, 2, 3 )\ncrd[1] : ( 0, 1, 2 )\nvalues : ( 1, 1, 1 )\n----"
    );
    assert_eq!(DIFF, [[0, -2, -4], [1, -1, -3]]);
}

#[test]
fn a_block_constant_reads_by_dimension_coordinates() {
    assert_eq!(COLS, [1.0, 5.0, 4.0, 5.0]);
}

#[test]
fn integer_edges_match_the_kernels() {
    let (mut wrapped, mut shifted, mut quotient) = ([0i32; 7], [0i32; 7], [0i32; 7]);
    let (mut narrow, mut floats, mut back) = ([0i8; 7], [0f32; 7], [0u8; 7]);
    edges_at_run_time(
        &V,
        &SHIFT,
        &mut wrapped,
        &mut shifted,
        &mut quotient,
        &mut narrow,
        &mut floats,
        &mut back,
    )
    .unwrap();
    assert_eq!(WRAPPED, wrapped);
    assert_eq!(SHIFTED, shifted);
    assert_eq!(QUOTIENT, quotient);
    assert_eq!(NARROW, narrow);
    assert_eq!(FLOATS.map(f32::to_bits), floats.map(f32::to_bits));
    assert_eq!(BACK, back);
    // By hand: MAX + 1 wraps; `<< 33` is `<< 1`; `/ 0` is 0; MIN / -1 wraps.
    assert_eq!(WRAPPED[0], i32::MIN);
    assert_eq!(SHIFTED[1], i32::MIN >> 3, "MIN << 33 is MIN << 1, 0");
    assert_eq!(
        SHIFTED[2],
        i32::MAX,
        "-7 << -1 is -7 << 31, MIN; ^ (-7 >> 3) = -1"
    );
    assert_eq!(SHIFTED[3], (100 << 2) ^ (100 >> 3));
    assert_eq!(QUOTIENT[0], 0);
    assert_eq!(QUOTIENT[1], i32::MIN / 32);
    assert_eq!(QUOTIENT[2], -7 / -2);
    assert_eq!(QUOTIENT[6], i32::MIN);
    assert_eq!(NARROW, [127, -128, -2, 25, 0, 127, -128]);
    assert_eq!(BACK, [255, 0, 0, 50, 0, 255, 0]);
}
