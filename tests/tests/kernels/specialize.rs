//! `#[specialize(w = W)]`: a kernel whose sparse operand is a constant of
//! the block, its loops written out over the constant's stored entries.
//! Each specialized kernel is checked against the same kernel reading the
//! constant through its loops (bit for bit: the entries are summed in the
//! same storage order) and against a dense evaluation of the constant's
//! dense twin, over every format the compiled walk covers (CSR, CSC,
//! DCSR, BSR 2x2, 2:4, loose compressed, COO, which keeps its loops), for
//! SpMV, SpMM, an int8 layer with i32 accumulation, and a constant over the
//! `max_entries` budget.

use proptest::collection::vec;
use proptest::prelude::*;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #BSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
        }>
        #NV24 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 8
        }>

        /// The weights, dense (the reference reads this twin).
        pub static WD: tensor<6x8xf32> = dense<[
            [1.5, 0.0, 0.0, -2.0, 0.0, 0.0, 0.25, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 3.0, 0.0, 0.0, 4.5, 0.0, 0.0, -1.0],
            [0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [-0.5, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        ]>;
        pub static W: tensor<6x8xf32, #CSR> = dense<[
            [1.5, 0.0, 0.0, -2.0, 0.0, 0.0, 0.25, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 3.0, 0.0, 0.0, 4.5, 0.0, 0.0, -1.0],
            [0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [-0.5, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        ]>;
        pub static W_CSC: tensor<6x8xf32, #CSC> = sparse<
            [[0, 0], [0, 3], [0, 6], [2, 1], [2, 4], [2, 7], [3, 2], [4, 0], [4, 5]],
            [1.5, -2.0, 0.25, 3.0, 4.5, -1.0, 7.0, -0.5, 2.0]>;
        pub static W_DCSR: tensor<6x8xf32, #DCSR> = sparse<
            [[0, 0], [0, 3], [0, 6], [2, 1], [2, 4], [2, 7], [3, 2], [4, 0], [4, 5]],
            [1.5, -2.0, 0.25, 3.0, 4.5, -1.0, 7.0, -0.5, 2.0]>;
        pub static W_LOOSE: tensor<6x8xf32, #LOOSE> = sparse<
            [[0, 0], [0, 3], [0, 6], [2, 1], [2, 4], [2, 7], [3, 2], [4, 0], [4, 5]],
            [1.5, -2.0, 0.25, 3.0, 4.5, -1.0, 7.0, -0.5, 2.0]>;
        pub static W_COO: tensor<6x8xf32, #COO> = sparse<
            [[0, 0], [0, 3], [0, 6], [2, 1], [2, 4], [2, 7], [3, 2], [4, 0], [4, 5]],
            [1.5, -2.0, 0.25, 3.0, 4.5, -1.0, 7.0, -0.5, 2.0]>;

        /// Integer weights in blocks and in 2:4 groups (every group of four
        /// columns holds at most two entries).
        pub static VD: tensor<4x8xi32> = dense<[
            [3, 0, 0, -1, 0, 0, 5, 0],
            [0, 2, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, -4, 0, 6],
            [7, 0, 1, 0, 0, 0, 0, 0]
        ]>;
        pub static V_BSR: tensor<4x8xi32, #BSR> = dense<[
            [3, 0, 0, -1, 0, 0, 5, 0],
            [0, 2, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, -4, 0, 6],
            [7, 0, 1, 0, 0, 0, 0, 0]
        ]>;
        pub static V_24: tensor<4x8xi32, #NV24> = dense<[
            [3, 0, 0, -1, 0, 0, 5, 0],
            [0, 2, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, -4, 0, 6],
            [7, 0, 1, 0, 0, 0, 0, 0]
        ]>;

        /// An int8 layer's weights.
        pub static Q: tensor<4x8xi8, #CSR> = dense<[
            [127, 0, 0, -128, 0, 0, 5, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, -7, 0, 0, 100, 0, 0, 1],
            [0, 0, 64, 0, 0, 0, -3, 0]
        ]>;
        pub static QD: tensor<4x8xi8> = dense<[
            [127, 0, 0, -128, 0, 0, 5, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, -7, 0, 0, 100, 0, 0, 1],
            [0, 0, 64, 0, 0, 0, -3, 0]
        ]>;

        pub fn spmv(w: &tensor<6x8xf32, #CSR>, x: &tensor<8xf32>, y: &mut tensor<6xf32>) {
            y[i] = w[i, j] * x[j];
        }
        #[specialize(w = W)]
        pub fn spmv_w(w: &tensor<6x8xf32, #CSR>, x: &tensor<8xf32>, y: &mut tensor<6xf32>) {
            y[i] = w[i, j] * x[j];
        }
        #[specialize(w = W_CSC)]
        pub fn spmv_csc(w: &tensor<?x?xf32, #CSC>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = w[i, j] * x[j];
        }
        #[specialize(w = W_DCSR)]
        pub fn spmv_dcsr(w: &tensor<?x?xf32, #DCSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = w[i, j] * x[j];
        }
        #[specialize(w = W_LOOSE)]
        pub fn spmv_loose(w: &tensor<?x?xf32, #LOOSE>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = w[i, j] * x[j];
        }
        /// COO's first level is non-unique: the kernel keeps its loops.
        #[specialize(w = W_COO)]
        pub fn spmv_coo(w: &tensor<?x?xf32, #COO>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = w[i, j] * x[j];
        }
        /// Over the budget: the loops stay, reading `W`.
        #[specialize(w = W, max_entries = 4)]
        pub fn spmv_budget(w: &tensor<6x8xf32, #CSR>, x: &tensor<8xf32>, y: &mut tensor<6xf32>) {
            y[i] = w[i, j] * x[j];
        }
        /// Each stored entry scales a row of `b`: a loop inside every copy.
        #[specialize(w = W)]
        pub fn spmm(w: &tensor<6x8xf32, #CSR>, b: &tensor<8x3xf32>, c: &mut tensor<6x3xf32>) {
            c[i, k] = w[i, j] * b[j, k];
        }
        #[specialize(v = V_BSR)]
        pub fn spmv_bsr(v: &tensor<4x8xi32, #BSR>, x: &tensor<8xi32>, y: &mut tensor<4xi32>) {
            y[i] = v[i, j] * x[j];
        }
        #[specialize(v = V_24)]
        pub fn spmv_24(v: &tensor<4x8xi32, #NV24>, x: &tensor<8xi32>, y: &mut tensor<4xi32>) {
            y[i] = v[i, j] * x[j];
        }
        /// A run-time offset: folded out of the entries, added once per row
        /// times the row's weights summed at expansion time.
        #[specialize(q = Q)]
        pub fn layer_off(q: &tensor<4x8xi8, #CSR>, x: &tensor<8xi8>, bias: &tensor<4xi32>,
                         acc: &mut tensor<4xi32>, off: i32) {
            acc[i] = q[i, j] as i32 * (off + x[j] as i32) + bias[i];
        }
        /// The same without the bias: the statement's own sum.
        #[specialize(q = Q)]
        pub fn layer_off_sum(q: &tensor<4x8xi8, #CSR>, x: &tensor<8xi8>, acc: &mut tensor<4xi32>, off: i32) {
            acc[i] = q[i, j] as i32 * (x[j] as i32 + off);
        }
        /// CMSIS-NN's accumulation: `bias + sum w * (x + 128)`, then a
        /// second statement that does not read the weights.
        #[specialize(q = Q)]
        pub fn layer(q: &tensor<4x8xi8, #CSR>, x: &tensor<8xi8>, bias: &tensor<4xi32>,
                     acc: &mut tensor<4xi32>, out: &mut tensor<4xi32>) {
            acc[i] = q[i, j] as i32 * (x[j] as i32 + 128) + bias[i];
            out[i] = acc[i] >> 2;
        }
    }
}

fn dense_spmv(x: &[f32; 8]) -> [f32; 6] {
    let mut y = [0.0f32; 6];
    for (i, row) in k::WD.iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            if w != 0.0 {
                y[i] += w * x[j];
            }
        }
    }
    y
}

fn dense_int(x: &[i32; 8]) -> [i32; 4] {
    let mut y = [0i32; 4];
    for (i, row) in k::VD.iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            y[i] = y[i].wrapping_add(w.wrapping_mul(x[j]));
        }
    }
    y
}

/// Small integers in `f32` keep every sum exact, so the dense order of
/// summation gives the same bits.
fn xs() -> impl Strategy<Value = [f32; 8]> {
    vec(-64i32..64, 8).prop_map(|v| core::array::from_fn(|n| v[n] as f32 / 4.0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn spmv_over_every_format_matches_the_loops_and_the_dense_product(x in xs()) {
        let want = dense_spmv(&x);
        let mut loops = [f32::NAN; 6];
        prop_assert_eq!(k::spmv(&k::W, &x, &mut loops), Ok(()));
        prop_assert_eq!(loops, want);
        let run = |f: &dyn Fn(&mut [f32; 6]) -> Result<(), sparse_core::KernelError>| {
            let mut y = [f32::NAN; 6];
            f(&mut y).map(|()| y)
        };
        prop_assert_eq!(run(&|y| k::spmv_w(&x, y)), Ok(want));
        prop_assert_eq!(run(&|y| k::spmv_csc(&x, y)), Ok(want));
        prop_assert_eq!(run(&|y| k::spmv_dcsr(&x, y)), Ok(want));
        prop_assert_eq!(run(&|y| k::spmv_loose(&x, y)), Ok(want));
        prop_assert_eq!(run(&|y| k::spmv_coo(&x, y)), Ok(want));
        prop_assert_eq!(run(&|y| k::spmv_budget(&x, y)), Ok(want));
    }

    #[test]
    fn spmm_writes_a_loop_inside_every_entry(b in vec(-64i32..64, 24)) {
        let b: [[f32; 3]; 8] = core::array::from_fn(|j| core::array::from_fn(|c| b[j * 3 + c] as f32));
        let mut want = [[0.0f32; 3]; 6];
        for (i, row) in k::WD.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                for c in 0..3 {
                    want[i][c] += w * b[j][c];
                }
            }
        }
        let mut c = [[f32::NAN; 3]; 6];
        prop_assert_eq!(k::spmm(&b, &mut c), Ok(()));
        prop_assert_eq!(c, want);
    }

    #[test]
    fn blocks_and_2_4_groups_match_the_dense_product(x in vec(any::<i32>(), 8)) {
        let x: [i32; 8] = core::array::from_fn(|n| x[n]);
        let want = dense_int(&x);
        let mut y = [0x5a5a; 4];
        prop_assert_eq!(k::spmv_bsr(&x, &mut y), Ok(()));
        prop_assert_eq!(y, want);
        let mut y = [0x5a5a; 4];
        prop_assert_eq!(k::spmv_24(&x, &mut y), Ok(()));
        prop_assert_eq!(y, want);
    }

    #[test]
    fn an_int8_layer_accumulates_in_i32(x in vec(any::<i8>(), 8), bias in vec(any::<i32>(), 4)) {
        let x: [i8; 8] = core::array::from_fn(|n| x[n]);
        let bias: [i32; 4] = core::array::from_fn(|n| bias[n]);
        let mut want = bias;
        for (i, row) in k::QD.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                want[i] = want[i].wrapping_add(i32::from(w) * (i32::from(x[j]) + 128));
            }
        }
        let (mut acc, mut out) = ([0x5a; 4], [0x5a; 4]);
        prop_assert_eq!(k::layer(&x, &bias, &mut acc, &mut out), Ok(()));
        prop_assert_eq!(acc, want);
        prop_assert_eq!(out, want.map(|a| a >> 2));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_run_time_offset_folds_into_one_term_per_row(
        x in vec(any::<i8>(), 8),
        bias in vec(any::<i32>(), 4),
        off in any::<i32>(),
    ) {
        let x: [i8; 8] = core::array::from_fn(|n| x[n]);
        let bias: [i32; 4] = core::array::from_fn(|n| bias[n]);
        let mut want = [0i32; 4];
        for (i, row) in k::QD.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                want[i] = want[i]
                    .wrapping_add(i32::from(w).wrapping_mul(off.wrapping_add(i32::from(x[j]))));
            }
        }
        let mut acc = [0x5a; 4];
        prop_assert_eq!(k::layer_off_sum(&x, &mut acc, off), Ok(()));
        prop_assert_eq!(acc, want);
        let mut acc = [0x5a; 4];
        prop_assert_eq!(k::layer_off(&x, &bias, &mut acc, off), Ok(()));
        prop_assert_eq!(acc, core::array::from_fn(|i| want[i].wrapping_add(bias[i])));
    }
}

/// What the doc comment of each kernel says its schedule is.
#[test]
fn the_schedule_says_which_loops_are_written_out() {
    // The expansion's doc comments are not visible at run time; the
    // compiled walk shows in the signature instead: no weights parameter.
    let _: fn(&[f32; 8], &mut [f32; 6]) -> Result<(), sparse_core::KernelError> = k::spmv_w;
    let _: fn(&[f32; 8], &mut [f32; 6]) -> Result<(), sparse_core::KernelError> = k::spmv_budget;
}
