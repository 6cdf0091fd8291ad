//! The two layers, 64x256 and 128x512, from `int8/gen.py`'s files in
//! `int8/data/` (run.sh writes them for the zero level it measures): the
//! weights as `sparse_kernel!` constants in every format measured (the
//! same entries in each), the input, biases, quantization parameters and
//! expected outputs, and the hand-written C kernels' packed formats (raw
//! little-endian files, read as byte strings at compile time).
//!
//! Each block also has the layer with its weights compiled in
//! (`#[specialize]`, which must be in the block of its constant): written
//! out as code when the constant is within the default budget (the 64x256
//! layer at 90% zeros), packed into a stream of words at expansion time
//! above it (64x256 at 75%, 4,096 entries; 128x512, 6,554 or 16,384).
//! Written out, the 128x512 layer took rustc more than 7 minutes per image
//! (code about 177 KB at opt-level s); packed, seconds.
//!
//! The Cortex-M0 (`small_flash`, 256 KiB of flash) holds the 64x256 layer
//! only.

use crate::hand::HandData;
use crate::{Layer, Quant};

/// A word-aligned copy of a layer's input: an int8 activation buffer
/// lives in an inference arena (TFLite Micro aligns tensors to 16 bytes),
/// and a constant's own alignment (1 for `i8`) would leave it to the
/// linker. Every variant reads the same copy.
#[repr(C, align(4))]
pub struct Arena<T>(pub T);

/// Bytes of a little-endian file as `N` values, at compile time.
macro_rules! le_array {
    ($t:ty, $path:literal) => {{
        const BYTES: &[u8] = include_bytes!($path);
        const N: usize = BYTES.len() / core::mem::size_of::<$t>();
        const A: [$t; N] = {
            let mut a = [0 as $t; N];
            let mut k = 0;
            while k < N {
                let mut v: u32 = 0;
                let mut b = 0;
                while b < core::mem::size_of::<$t>() {
                    v |= (BYTES[k * core::mem::size_of::<$t>() + b] as u32) << (8 * b);
                    b += 1;
                }
                // Truncating on purpose: the value's own width.
                a[k] = v as $t;
                k += 1;
            }
            a
        };
        &A
    }};
}

/// The 64x256 layer.
pub mod l64 {
    use super::*;

    sparse_core::sparse_kernel! {
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>
        #BSR4 = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense), posWidth = 16, crdWidth = 8 }>

        /// The weights, CSR.
        pub static CSR: tensor<64x256xi8, #CSR8> = file("int8/data/l64_w.npy");
        /// The same weights, 2:4.
        pub static NV24: tensor<64x256xi8, #NV24> = file("int8/data/l64_w.npy");
        /// The same weights, BSR 4x4.
        pub static BSR4: tensor<64x256xi8, #BSR4> = file("int8/data/l64_w.npy");
        /// The same weights, dense (CMSIS-NN's input).
        pub static DENSE: tensor<64x256xi8> = file("int8/data/l64_w.npy");
        /// The input.
        pub static X: tensor<256xi8> = file("int8/data/l64_x.npy");
        /// The measured pass's bias.
        pub static BIAS: tensor<64xi32> = file("int8/data/l64_bias.npy");
        /// The exact pass's bias.
        pub static BIAS_EXACT: tensor<64xi32> = file("int8/data/l64_bias_exact.npy");
        /// Multiplier, shift, input offset, output offset.
        pub static PARAMS: tensor<4xi32> = file("int8/data/l64_params.npy");
        /// The measured pass's expected output.
        pub static Y: tensor<64xi8> = file("int8/data/l64_y.npy");
        /// The exact pass's expected output.
        pub static Y_EXACT: tensor<64xi8> = file("int8/data/l64_y_exact.npy");

        /// The layer with the weights compiled in (`#[specialize]`): written
        /// out as code up to the default budget (2,048 entries: 90% zeros),
        /// packed into a stream above it (75% zeros).
        #[specialize(w = CSR)]
        pub fn fc_specialized(
            w: &tensor<64x256xi8, #CSR8>,
            x: &tensor<?xi8>,
            bias: &tensor<?xi32>,
            acc: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            in_off: i32,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
            y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
        }
    }

    /// The input, word-aligned.
    pub static X_ARENA: Arena<[i8; 256]> = Arena(X);

    /// The hand-written C kernels' formats.
    pub static HAND: HandData = HandData {
        csr_seg: le_array!(u16, "../../int8/data/l64_csr_seg.bin"),
        csr_col: le_array!(u8, "../../int8/data/l64_csr_col.bin"),
        csr_val: le_array!(i8, "../../int8/data/l64_csr_val.bin"),
        m24: le_array!(u8, "../../int8/data/l64_m24.bin"),
        v24: le_array!(i8, "../../int8/data/l64_v24.bin"),
        bias_folded: le_array!(i32, "../../int8/data/l64_bias_folded.bin"),
        bias_exact_folded: le_array!(i32, "../../int8/data/l64_bias_exact_folded.bin"),
    };

    /// The layer as the runner sees it.
    pub static LAYER: Layer = Layer {
        name: "64x256",
        rows: 64,
        cols: 256,
        x: &X_ARENA.0,
        dense: DENSE.as_flattened(),
        nnz: HAND.csr_val.len(),
        in_off: PARAMS[2],
        out_off: PARAMS[3],
        measured: Quant {
            bias: &BIAS,
            bias_folded: HAND.bias_folded,
            mult: PARAMS[0],
            shift: PARAMS[1],
            expected: &Y,
        },
        exact: Quant {
            bias: &BIAS_EXACT,
            bias_folded: HAND.bias_exact_folded,
            // Scale 1.0: every output is the accumulator plus a small
            // number, so any accumulator error shows.
            mult: 1 << 30,
            shift: 1,
            expected: &Y_EXACT,
        },
        hand: &HAND,
    };
}

/// The 128x512 layer.
#[cfg(not(small_flash))]
pub mod l128 {
    use super::*;

    sparse_core::sparse_kernel! {
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16 }>
        #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>
        #BSR4 = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense), posWidth = 16, crdWidth = 8 }>

        /// The weights, CSR.
        pub static CSR: tensor<128x512xi8, #CSR16> = file("int8/data/l128_w.npy");
        /// The same weights, 2:4.
        pub static NV24: tensor<128x512xi8, #NV24> = file("int8/data/l128_w.npy");
        /// The same weights, BSR 4x4.
        pub static BSR4: tensor<128x512xi8, #BSR4> = file("int8/data/l128_w.npy");
        /// The same weights, dense (CMSIS-NN's input).
        pub static DENSE: tensor<128x512xi8> = file("int8/data/l128_w.npy");
        /// The input.
        pub static X: tensor<512xi8> = file("int8/data/l128_x.npy");
        /// The measured pass's bias.
        pub static BIAS: tensor<128xi32> = file("int8/data/l128_bias.npy");
        /// The exact pass's bias.
        pub static BIAS_EXACT: tensor<128xi32> = file("int8/data/l128_bias_exact.npy");
        /// Multiplier, shift, input offset, output offset.
        pub static PARAMS: tensor<4xi32> = file("int8/data/l128_params.npy");
        /// The measured pass's expected output.
        pub static Y: tensor<128xi8> = file("int8/data/l128_y.npy");
        /// The exact pass's expected output.
        pub static Y_EXACT: tensor<128xi8> = file("int8/data/l128_y_exact.npy");

        /// The layer with the weights compiled in (`#[specialize]`): above
        /// the written-out budget at both zero levels, so packed.
        #[specialize(w = CSR)]
        pub fn fc_specialized(
            w: &tensor<128x512xi8, #CSR16>,
            x: &tensor<?xi8>,
            bias: &tensor<?xi32>,
            acc: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            in_off: i32,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
            y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
        }
    }

    /// The input, word-aligned.
    pub static X_ARENA: Arena<[i8; 512]> = Arena(X);

    /// The hand-written C kernels' formats.
    pub static HAND: HandData = HandData {
        csr_seg: le_array!(u16, "../../int8/data/l128_csr_seg.bin"),
        csr_col: le_array!(u8, "../../int8/data/l128_csr_col.bin"),
        csr_val: le_array!(i8, "../../int8/data/l128_csr_val.bin"),
        m24: le_array!(u8, "../../int8/data/l128_m24.bin"),
        v24: le_array!(i8, "../../int8/data/l128_v24.bin"),
        bias_folded: le_array!(i32, "../../int8/data/l128_bias_folded.bin"),
        bias_exact_folded: le_array!(i32, "../../int8/data/l128_bias_exact_folded.bin"),
    };

    /// The layer as the runner sees it.
    pub static LAYER: Layer = Layer {
        name: "128x512",
        rows: 128,
        cols: 512,
        x: &X_ARENA.0,
        dense: DENSE.as_flattened(),
        nnz: HAND.csr_val.len(),
        in_off: PARAMS[2],
        out_off: PARAMS[3],
        measured: Quant {
            bias: &BIAS,
            bias_folded: HAND.bias_folded,
            mult: PARAMS[0],
            shift: PARAMS[1],
            expected: &Y,
        },
        exact: Quant {
            bias: &BIAS_EXACT,
            bias_folded: HAND.bias_exact_folded,
            // Scale 1.0: every output is the accumulator plus a small
            // number, so any accumulator error shows.
            mult: 1 << 30,
            shift: 1,
            expected: &Y_EXACT,
        },
        hand: &HAND,
    };
}

/// Bytes of a generated variant's weight constant (positions,
/// coordinates, values; `usize` buffers counted as 4 bytes).
pub fn generated_bytes(variant: &str, rows: usize) -> usize {
    fn bytes<V, E: sparse_core::Encoding, const D: usize, const L: usize>(
        t: &sparse_core::SparseTensor<'_, V, E, D, L>,
    ) -> usize {
        let mut n = core::mem::size_of_val(t.values());
        for l in 0..L {
            n += core::mem::size_of_val(t.level(l).positions());
            n += core::mem::size_of_val(t.level(l).coordinates());
        }
        n
    }
    match (variant, rows) {
        ("gen_csr", 64) => bytes(&l64::CSR),
        ("gen_24", 64) => bytes(&l64::NV24),
        ("gen_bsr4", 64) => bytes(&l64::BSR4),
        #[cfg(not(small_flash))]
        ("gen_csr", 128) => bytes(&l128::CSR),
        #[cfg(not(small_flash))]
        ("gen_24", 128) => bytes(&l128::NV24),
        #[cfg(not(small_flash))]
        ("gen_bsr4", 128) => bytes(&l128::BSR4),
        _ => 0,
    }
}
