//! Generated kernels behind `#[inline(never)]`, `#[no_mangle]` wrappers, so
//! their optimised machine code can be read on the host and on thumb
//! targets. See `docs/ARCHITECTURE.md`, "Checking the generated code".
//!
//! The kernels are the codegen snapshots of `sparse-compiler` (exactly what
//! `sparse_kernel!` emits for them), included next to the encoding aliases
//! they name.
#![no_std]

use sparse_core::{Fixed, KernelError, Slices};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton), crdWidth = 32 }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
}

mod kernels {
    use super::*;
    include!("../../../sparse-macros/compiler/snapshots/spmv_csr.rs");
    include!("../../../sparse-macros/compiler/snapshots/spmv_csr_f32.rs");
    include!("../../../sparse-macros/compiler/snapshots/spmv_csr_unroll4.rs");
    include!("../../../sparse-macros/compiler/snapshots/spmv_coo.rs");
    include!("../../../sparse-macros/compiler/snapshots/vector_add.rs");
    include!("../../../sparse-macros/compiler/snapshots/binary_triangles.rs");
    include!("../../../sparse-macros/compiler/snapshots/select_lower.rs");
    include!("../../../sparse-macros/compiler/snapshots/reduce_row_product.rs");
    include!("../../../sparse-macros/compiler/snapshots/conv2d_dcsr_csr.rs");
    include!("../../../sparse-macros/compiler/snapshots/shift_mask_sv.rs");
    include!("../../../sparse-macros/compiler/snapshots/fc_s8_dual_mac.rs");
    include!("../../../sparse-macros/compiler/snapshots/spmv_gather_dot.rs");
}

/// An int8 layer over 2:4 weights with packed 2-bit coordinates: each
/// row's groups one `dot_s8_2_4` call (its own module: the snapshot's
/// kernel is also named `fc`).
mod kernels_2_4 {
    // The snapshot is included as source, so clippy reads the block-size
    // check of its prologue (`len % 4 != 0`), which the macro keeps
    // within the crate's minimum Rust version.
    #![allow(clippy::manual_is_multiple_of)]
    sparse_core::sparse_kernel! {
        #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>
    }
    include!("../../../sparse-macros/compiler/snapshots/fc_s8_2_4_dual_mac.rs");
}

/// Weights compiled into code (`#[specialize]`): an int8 layer of 16x64
/// with 16 entries per row (`data/layer_16x64.mtx`), CMSIS-NN's
/// accumulation `bias + sum w * (x + 128)` in i32.
mod specialized {
    sparse_core::sparse_kernel! {
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>

        pub static LAYER: tensor<16x64xi8, #CSR8> = file("data/layer_16x64.mtx");

        #[specialize(w = LAYER)]
        pub fn layer(w: &tensor<16x64xi8, #CSR8>, x: &tensor<64xi8>, bias: &tensor<16xi32>, acc: &mut tensor<16xi32>) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + 128) + bias[i];
        }

        /// Over the written-out budget: the rows read a stream packed at
        /// expansion time (`dot_s8_packed`, an `asm!` loop on thumbv7em).
        #[specialize(w = LAYER, max_entries = 1)]
        pub fn layer_packed(w: &tensor<16x64xi8, #CSR8>, x: &tensor<64xi8>, bias: &tensor<16xi32>, acc: &mut tensor<16xi32>) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + 128) + bias[i];
        }
    }
}

/// Integer operators: CMSIS-NN's int8 requantization written in the kernel
/// language (shifts by run-time amounts, masks, `clamp`), straight from
/// the macro.
mod quant {
    sparse_core::sparse_kernel! {
        pub fn requantize(
            acc: &tensor<?xi32>,
            d: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            d[i] = (((acc[i] * (1 << max(shift, 0))) as i64 * mult as i64 + (1 << 30)) >> 31) as i32;
            y[i] = clamp(
                (d[i] >> max(-shift, 0))
                    + (if ((1 << max(-shift, 0)) - 1 & d[i])
                        > (((1 << max(-shift, 0)) - 1 >> 1)
                            + (if d[i] >> max(-shift, 0) < 0 { 1 } else { 0 }))
                    { 1 } else { 0 })
                    + out_off,
                -128,
                127,
            ) as i8;
        }
    }
}

/// The snapshots with sparse outputs (their own module: `sparse_vector_add`
/// and `vector_add` both define `vadd`).
mod sparse_out {
    use super::*;
    include!("../../../sparse-macros/compiler/snapshots/sparse_add_csr.rs");
    include!("../../../sparse-macros/compiler/snapshots/spgemm_csr.rs");
    include!("../../../sparse-macros/compiler/snapshots/sparse_vector_add.rs");
    include!("../../../sparse-macros/compiler/snapshots/sparse_scale.rs");
    include!("../../../sparse-macros/compiler/snapshots/transpose_csr.rs");
    include!("../../../sparse-macros/compiler/snapshots/conv1d_sv_window_skip.rs");
    include!("../../../sparse-macros/compiler/snapshots/sddmm_reassociate.rs");
}

/// Rows written into slots reserved for their bound, straight from the
/// macro: a difference (the rest of `a`'s row copied in one step, `b`'s
/// negated entry by entry) and a product (an intersection).
mod rows {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        pub fn sub(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] - b[i, j];
        }
        pub fn mul(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * b[i, j];
        }
    }
}

/// 2:4 outputs, packed 2-bit coordinates, and an ELL operand and a CSR
/// slice read through their CSR workspace copies, straight from the macro.
mod structured {
    sparse_core::sparse_kernel! {
        #NV24P = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 2
        }>
        #ELL = #sparse_tensor.encoding<{
            map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
        }>
        // The type of the ELL's workspace copy (same widths, no counting level).
        #CSRW = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        pub fn prune(d: &tensor<?x?xf32>, t: f32, c: &mut tensor<?x?xf32, #NV24P>) {
            c[i, j] = select(d[i, j], |v| v > t || v < -t);
        }
        pub fn spmv_packed(a: &tensor<?x?xf32, #NV24P>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_ell(a: &tensor<?x?xf64, #ELL>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        #CSR_SLICE = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(0, ?, ?)>) -> (i : dense, j : compressed)
        }>
        pub fn spmv_slice(a: &tensor<?x?xf64, #CSR_SLICE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
    }
}

/// Pruning a dense layer into a 2:4 output (groups padded, overflow an
/// error), caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_prune_2_4_slices(
    d: sparse_core::DenseView<'_, f32, 2>,
    t: f32,
    c: &mut structured::NV24POut<f32, Slices<'_>>,
) -> Result<(), KernelError> {
    structured::prune(d, t, c)
}

/// SpMV over 2:4 with packed 2-bit coordinates.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_2_4_packed(
    a: &structured::NV24P<'_, f32>,
    x: &[f32],
    y: &mut [f32],
) -> Result<(), KernelError> {
    structured::spmv_packed(a, x, y)
}

/// SpMV over ELL: the prologue converts it into the CSR workspace.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_ell_slices(
    a: &structured::ELL<'_, f64>,
    x: &[f64],
    y: &mut [f64],
    ws: &mut structured::CSRWOut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    structured::spmv_ell(a, x, y, ws)
}

/// SpMV over a CSR slice: the prologue checks the static slice parameters
/// and converts the slice into the CSR workspace.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_slice_slices(
    a: &structured::CSR_SLICE<'_, f64>,
    x: &[f64],
    y: &mut [f64],
    ws: &mut structured::CSRWOut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    structured::spmv_slice(a, x, y, ws)
}

/// A `staticlib` needs one; it is never reached from an `sk_*` wrapper
/// (scripts/kernel-asm-check.sh links the wrappers alone and fails if it is).
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Not a kernel: the check's canary. It indexes with a bounds check, so it
/// reaches `core::panicking::panic_bounds_check`, and
/// scripts/kernel-asm-check.sh fails unless it sees that.
#[no_mangle]
#[inline(never)]
pub fn canary_bounds_check(x: &[f64], i: usize) -> f64 {
    x[i]
}

/// Capacity of the `Fixed` outputs below (any value does: the check is about
/// code, not sizes).
const CAP: usize = 64;

/// SpMV, CSR with 16-bit positions and 8-bit coordinates, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr(a: &CSR<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), KernelError> {
    kernels::spmv_csr(a, x, y)
}

/// SpMV, CSR, each row one call to `dot_gather` (`#[reassociate]`).
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr_gather_dot(
    a: &CSR<'_, f64>,
    x: &[f64],
    y: &mut [f64],
) -> Result<(), KernelError> {
    kernels::spmv(a, x, y)
}

/// SpMV, CSR, the row walk unrolled by 4 (`#[unroll(4)]`).
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr_unroll4(a: &CSR<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), KernelError> {
    kernels::spmv_csr_unroll4(a, x, y)
}

/// A 2-D convolution with affine subscripts, `o[i, j] = a[i + k, j + l] *
/// f[k, l]`: a DCSR image walked by windows (binary search) co-iterated
/// with a CSR filter, after the subscripts' range check.
#[no_mangle]
#[inline(never)]
pub fn sk_conv2d_dcsr_csr(
    a: &DCSR<'_, f64>,
    f: &CSR<'_, f64>,
    o: sparse_core::DenseViewMut<'_, f64, 2>,
) -> Result<(), KernelError> {
    kernels::conv2d_dcsr_csr(a, f, o)
}

/// SpMV, CSR with 16-bit positions and 8-bit coordinates, f32.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_csr_f32(a: &CSR<'_, f32>, x: &[f32], y: &mut [f32]) -> Result<(), KernelError> {
    kernels::spmv_csr_f32(a, x, y)
}

/// SpMV, sorted AoS COO with duplicate row segments, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_spmv_coo(a: &COO<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), KernelError> {
    kernels::spmv_coo(a, x, y)
}

/// Sparse vector union into a dense vector, f64.
#[no_mangle]
#[inline(never)]
pub fn sk_vector_add(c: &mut [f64], a: &SV<'_, f64>, b: &SV<'_, f64>) -> Result<(), KernelError> {
    kernels::vadd(c, a, b)
}

/// `binary` with index-dependent overlap and right regions (seed 000's
/// upper/lower triangle example), into a dense view.
#[no_mangle]
#[inline(never)]
pub fn sk_binary_triangles(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: sparse_core::DenseViewMut<'_, f64, 2>,
) -> Result<(), KernelError> {
    kernels::triangles(a, b, c)
}

/// `select` with an index predicate (the lower triangle).
#[no_mangle]
#[inline(never)]
pub fn sk_select_lower(
    a: &CSR<'_, f64>,
    c: sparse_core::DenseViewMut<'_, f64, 2>,
) -> Result<(), KernelError> {
    kernels::select_lower(a, c)
}

/// A custom `reduce` (row products capped at 100, implicit zeros folded).
#[no_mangle]
#[inline(never)]
pub fn sk_reduce_row_product(a: &DCSR<'_, f64>, x: &mut [f64]) -> Result<(), KernelError> {
    kernels::row_product(a, x)
}

/// Sparse + sparse into a CSR output (co-iteration, appended in order),
/// `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_add_csr_fixed(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    sparse_out::add(a, b, c)
}

/// Sparse + sparse into a CSR output over caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_add_csr_slices(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::add(a, b, c)
}

/// Sparse - sparse into a CSR output: a row's slots reserved once, one
/// operand's rest of the row copied, the other's negated; `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_sub_csr_fixed(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    rows::sub(a, b, c)
}

/// Sparse * sparse (an intersection) into a CSR output over caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_mul_csr_slices(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    rows::mul(a, b, c)
}

/// SDDMM under `#[reassociate]`: the `k` sum first in eight partial sums,
/// then one product by `s`'s value, into a CSR output over caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_sddmm_reassociate_slices(
    s: &CSR<'_, f64>,
    u: sparse_core::DenseView<'_, f64, 2>,
    vt: sparse_core::DenseView<'_, f64, 2>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::sddmm_reassociate(s, u, vt, c)
}

/// SpGEMM into CSR through the workspace (expand/compress), `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_spgemm_csr_fixed(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    sparse_out::spgemm(a, b, c)
}

/// SpGEMM into CSR through the workspace, caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_spgemm_csr_slices(
    a: &CSR<'_, f64>,
    b: &CSR<'_, f64>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::spgemm(a, b, c)
}

/// Sparse vector union into a sparse vector, `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_vector_add_fixed(
    a: &SV<'_, f64>,
    b: &SV<'_, f64>,
    c: &mut SVOut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    sparse_out::vadd(a, b, c)
}

/// A 1-D convolution into a sparse vector whose loop over the output jumps
/// between the offsets whose windows hold stored entries, `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_conv1d_sv_window_skip(
    x: &SV<'_, f64>,
    f: &[f64],
    y: &mut SVOut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    sparse_out::conv1d_sv(x, f, y)
}

/// Sparse vector union into a sparse vector, caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_vector_add_slices(
    a: &SV<'_, f64>,
    b: &SV<'_, f64>,
    c: &mut SVOut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::vadd(a, b, c)
}

/// Scaling into a CSR output (same pattern as the input), caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_sparse_scale_slices(
    a: &CSR<'_, f64>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::scale(a, c)
}

/// CSR transpose (a conversion into the output), `Fixed` buffers.
#[no_mangle]
#[inline(never)]
pub fn sk_transpose_csr_fixed(
    a: &CSR<'_, f64>,
    c: &mut CSROut<f64, Fixed<CAP>>,
) -> Result<(), KernelError> {
    sparse_out::transpose_csr(a, c)
}

/// CSR transpose, caller slices.
#[no_mangle]
#[inline(never)]
pub fn sk_transpose_csr_slices(
    a: &CSR<'_, f64>,
    c: &mut CSROut<f64, Slices<'_>>,
) -> Result<(), KernelError> {
    sparse_out::transpose_csr(a, c)
}

/// Shifts by run-time amounts and bitwise operators over a sparse vector.
#[no_mangle]
#[inline(never)]
pub fn sk_shift_mask_sv(a: &SV<'_, i32>, n: &[u8], y: &mut [i32]) -> Result<(), KernelError> {
    kernels::shift_mask_sv(a, n, y)
}

/// CMSIS-NN's `arm_nn_requantize` plus the output offset and the int8
/// clamp, per element.
#[no_mangle]
#[inline(never)]
pub fn sk_requantize(
    acc: &[i32],
    d: &mut [i32],
    y: &mut [i8],
    mult: i32,
    shift: i32,
    out_off: i32,
) -> Result<(), KernelError> {
    quant::requantize(acc, d, y, mult, shift, out_off)
}

/// An int8 layer whose weights are compiled into the code
/// (`#[specialize]`): loads of `x` at constant offsets, weights as
/// immediates.
#[no_mangle]
#[inline(never)]
pub fn sk_layer_specialized(
    x: &[i8; 64],
    bias: &[i32; 16],
    acc: &mut [i32; 16],
) -> Result<(), KernelError> {
    specialized::layer(x, bias, acc)
}

/// The same layer above the written-out budget: each row one
/// `dot_s8_packed` call over the stream packed at expansion time.
#[no_mangle]
#[inline(never)]
pub fn sk_layer_packed(
    x: &[i8; 64],
    bias: &[i32; 16],
    acc: &mut [i32; 16],
) -> Result<(), KernelError> {
    specialized::layer_packed(x, bias, acc)
}

/// An int8 layer's accumulation, each row one `dot_s8` call (SMLAD pairs
/// on thumbv7em).
#[no_mangle]
#[inline(never)]
pub fn sk_fc_s8_dual_mac(
    w: &CSR<'_, i8>,
    x: &[i8],
    bias: &[i32],
    acc: &mut [i32],
    in_off: i32,
) -> Result<(), KernelError> {
    kernels::fc(w, x, bias, acc, in_off)
}

/// An int8 layer's accumulation over 2:4 weights, each row one
/// `dot_s8_2_4` call (eight groups' packed coordinates per word and one
/// SMLAD per group in one `asm!` loop on thumbv7em).
#[no_mangle]
#[inline(never)]
pub fn sk_fc_s8_2_4_dual_mac(
    w: &kernels_2_4::NV24<'_, i8>,
    x: &[i8],
    bias: &[i32],
    acc: &mut [i32],
    in_off: i32,
) -> Result<(), KernelError> {
    kernels_2_4::fc(w, x, bias, acc, in_off)
}
