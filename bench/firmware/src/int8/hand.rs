//! The C columns: CMSIS-NN's `arm_fully_connected_s8` (dense, the SMLAD
//! path on DSP cores) and the hand-written sparse kernels of
//! `int8/c/sparse.c`, on the same weights as the generated kernels
//! (built by build.rs only when `CMSIS_NN_GIT` names a CMSIS-NN checkout;
//! cfg `cmsis_nn`).

/// The hand-written kernels' storage of one layer's weights (formats in
/// `int8/c/kernels.h`): CSR in panels of 256 columns (u16 segment starts,
/// u8 columns), 2:4 with a nibble of positions per group, and the biases
/// with the input offset folded in (`bias + in_off * row sum`; the
/// weights are constants).
pub struct HandData {
    pub csr_seg: &'static [u16],
    pub csr_col: &'static [u8],
    pub csr_val: &'static [i8],
    pub m24: &'static [u8],
    pub v24: &'static [i8],
    pub bias_folded: &'static [i32],
    pub bias_exact_folded: &'static [i32],
}

#[cfg(cmsis_nn)]
pub use c::*;

#[cfg(cmsis_nn)]
mod c {
    use crate::{Layer, Quant};
    use core::ffi::c_void;

    /// `fc_sparse_q` of `kernels.h`.
    #[repr(C)]
    struct FcSparseQ {
        rows: i32,
        cols: i32,
        bias: *const i32,
        output_offset: i32,
        multiplier: i32,
        shift: i32,
        act_min: i32,
        act_max: i32,
    }

    /// CMSIS-NN's `cmsis_nn_context`.
    #[repr(C)]
    struct Context {
        buf: *mut c_void,
        size: i32,
    }

    /// CMSIS-NN's `cmsis_nn_activation` inside `cmsis_nn_fc_params`.
    #[repr(C)]
    struct FcParams {
        input_offset: i32,
        filter_offset: i32,
        output_offset: i32,
        act_min: i32,
        act_max: i32,
    }

    /// `cmsis_nn_per_tensor_quant_params`.
    #[repr(C)]
    struct PerTensor {
        multiplier: i32,
        shift: i32,
    }

    /// `cmsis_nn_dims` (n, h, w, c).
    #[repr(C)]
    struct Dims {
        n: i32,
        h: i32,
        w: i32,
        c: i32,
    }

    extern "C" {
        fn arm_fully_connected_s8(
            ctx: *const Context,
            fc_params: *const FcParams,
            quant_params: *const PerTensor,
            input_dims: *const Dims,
            input: *const i8,
            filter_dims: *const Dims,
            filter: *const i8,
            bias_dims: *const Dims,
            bias: *const i32,
            output_dims: *const Dims,
            output: *mut i8,
        ) -> i32;
        fn fc_csr_s8(
            q: *const FcSparseQ,
            seg: *const u16,
            col: *const u8,
            val: *const i8,
            x: *const i8,
            y: *mut i8,
        );
        fn fc_csr_s8_unroll4(
            q: *const FcSparseQ,
            seg: *const u16,
            col: *const u8,
            val: *const i8,
            x: *const i8,
            y: *mut i8,
        );
        #[cfg(dsp)]
        fn fc_csr_s8_smlad(
            q: *const FcSparseQ,
            seg: *const u16,
            col: *const u8,
            val: *const i8,
            x: *const i8,
            y: *mut i8,
        );
        fn fc_24_s8(q: *const FcSparseQ, meta: *const u8, val: *const i8, x: *const i8, y: *mut i8);
    }

    fn sparse_q(l: &Layer, q: &Quant) -> FcSparseQ {
        FcSparseQ {
            rows: l.rows as i32,
            cols: l.cols as i32,
            bias: q.bias_folded.as_ptr(),
            output_offset: l.out_off,
            multiplier: q.mult,
            shift: q.shift,
            act_min: -128,
            act_max: 127,
        }
    }

    /// `arm_fully_connected_s8` on the dense weights; `false` unless it
    /// reports success.
    #[inline(always)]
    pub fn cmsis(l: &Layer, q: &Quant, y: &mut [i8]) -> bool {
        let (rows, cols) = (l.rows as i32, l.cols as i32);
        let ctx = Context {
            buf: core::ptr::null_mut(),
            size: 0,
        };
        let params = FcParams {
            input_offset: l.in_off,
            filter_offset: 0,
            output_offset: l.out_off,
            act_min: -128,
            act_max: 127,
        };
        let quant = PerTensor {
            multiplier: q.mult,
            shift: q.shift,
        };
        let input = Dims {
            n: 1,
            h: 1,
            w: 1,
            c: cols,
        };
        let filter = Dims {
            n: cols,
            h: 1,
            w: 1,
            c: rows,
        };
        let bias = Dims {
            n: 1,
            h: 1,
            w: 1,
            c: rows,
        };
        let output = Dims {
            n: 1,
            h: 1,
            w: 1,
            c: rows,
        };
        if y.len() < l.rows || q.bias.len() < l.rows || l.dense.len() < l.rows * l.cols {
            return false;
        }
        // SAFETY: every pointer is to a live buffer of the size the dims
        // give (checked above), the output is exclusively borrowed, and
        // the DSP path needs no scratch buffer (size 0).
        let status = unsafe {
            arm_fully_connected_s8(
                &ctx,
                &params,
                &quant,
                &input,
                l.x.as_ptr(),
                &filter,
                l.dense.as_ptr(),
                &bias,
                q.bias.as_ptr(),
                &output,
                y.as_mut_ptr(),
            )
        };
        status == 0
    }

    /// The hand-written kernel `kind` (`csr`, `csr_unroll4`, `csr_smlad`,
    /// `24`) on the layer's packed weights. Inlined, so that each
    /// wrapper calls (and its code size counts) one kernel only.
    #[inline(always)]
    pub fn hand(kind: &str, l: &Layer, q: &Quant, y: &mut [i8]) -> bool {
        let h = l.hand;
        if y.len() < l.rows || q.bias_folded.len() < l.rows || !l.cols.is_multiple_of(32) {
            return false;
        }
        let sq = sparse_q(l, q);
        let (x, out) = (l.x.as_ptr(), y.as_mut_ptr());
        // SAFETY: the packed arrays are gen.py's for this layer's shape
        // (checked against the expected output afterwards), the output has
        // `rows` elements and is exclusively borrowed.
        unsafe {
            match kind {
                "csr" => fc_csr_s8(
                    &sq,
                    h.csr_seg.as_ptr(),
                    h.csr_col.as_ptr(),
                    h.csr_val.as_ptr(),
                    x,
                    out,
                ),
                "csr_unroll4" => fc_csr_s8_unroll4(
                    &sq,
                    h.csr_seg.as_ptr(),
                    h.csr_col.as_ptr(),
                    h.csr_val.as_ptr(),
                    x,
                    out,
                ),
                #[cfg(dsp)]
                "csr_smlad" => fc_csr_s8_smlad(
                    &sq,
                    h.csr_seg.as_ptr(),
                    h.csr_col.as_ptr(),
                    h.csr_val.as_ptr(),
                    x,
                    out,
                ),
                "24" => fc_24_s8(&sq, h.m24.as_ptr(), h.v24.as_ptr(), x, out),
                _ => return false,
            }
        }
        true
    }
}
