//! Every measured (variant, layer) pair, one line each. A line names the
//! symbol of its wrapper (`#[no_mangle]`, `#[inline(never)]`: run.sh
//! reads its code size and the instructions between the call's markers),
//! the variant's name in the tables, the layer and the call. Every
//! variant's output is checked against the layer's expected output in
//! both passes, bit for bit; a new kernel is one more line here.
//!
//! The call gets the layer `l`, the pass's quantization `q`, an `i32`
//! scratch row `acc` and the output `y`, and says whether the kernel
//! reported success.

#[cfg(not(small_flash))]
use crate::layers::l128;
use crate::layers::l64;
use crate::{kernels as k, Layer, Quant, Variant};

/// Declares the wrappers and [`VARIANTS`].
macro_rules! variants {
    ($($(#[$cfg:meta])* $sym:ident $name:literal $layer:expr => |$l:ident, $q:ident, $acc:ident, $y:ident| $call:expr;)*) => {
        $(
            $(#[$cfg])*
            #[no_mangle]
            #[inline(never)]
            #[allow(unused_variables)]
            fn $sym($l: &Layer, $q: &Quant, $acc: &mut [i32], $y: &mut [i8]) -> bool {
                $call
            }
        )*
        /// The measured variants, in table order.
        pub static VARIANTS: &[Variant] = &[
            $(
                $(#[$cfg])*
                Variant { name: $name, layer: $layer, run: $sym },
            )*
        ];
    };
}

variants! {
    // CMSIS-NN and the hand-written C kernels (with CMSIS_NN_GIT).
    #[cfg(cmsis_nn)] int8_cmsis_nn_l64 "cmsis_nn" &l64::LAYER => |l, q, acc, y| crate::hand::cmsis(l, q, y);
    #[cfg(cmsis_nn)] int8_c_csr_l64 "c_csr" &l64::LAYER => |l, q, acc, y| crate::hand::hand("csr", l, q, y);
    #[cfg(cmsis_nn)] int8_c_csr_unroll4_l64 "c_csr_unroll4" &l64::LAYER => |l, q, acc, y| crate::hand::hand("csr_unroll4", l, q, y);
    #[cfg(all(cmsis_nn, dsp))] int8_c_csr_smlad_l64 "c_csr_smlad" &l64::LAYER => |l, q, acc, y| crate::hand::hand("csr_smlad", l, q, y);
    #[cfg(cmsis_nn)] int8_c_24_l64 "c_24" &l64::LAYER => |l, q, acc, y| crate::hand::hand("24", l, q, y);
    // The generated kernels.
    int8_gen_csr_l64 "gen_csr" &l64::LAYER => |l, q, acc, y| k::fc_csr8(&l64::CSR, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    int8_gen_24_l64 "gen_24" &l64::LAYER => |l, q, acc, y| k::fc_nv24(&l64::NV24, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    int8_gen_bsr4_l64 "gen_bsr4" &l64::LAYER => |l, q, acc, y| k::fc_bsr4(&l64::BSR4, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    int8_gen_specialized_l64 "gen_specialized" &l64::LAYER => |l, q, acc, y| l64::fc_specialized(l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();

    #[cfg(all(cmsis_nn, not(small_flash)))] int8_cmsis_nn_l128 "cmsis_nn" &l128::LAYER => |l, q, acc, y| crate::hand::cmsis(l, q, y);
    #[cfg(all(cmsis_nn, not(small_flash)))] int8_c_csr_l128 "c_csr" &l128::LAYER => |l, q, acc, y| crate::hand::hand("csr", l, q, y);
    #[cfg(all(cmsis_nn, not(small_flash)))] int8_c_csr_unroll4_l128 "c_csr_unroll4" &l128::LAYER => |l, q, acc, y| crate::hand::hand("csr_unroll4", l, q, y);
    #[cfg(all(cmsis_nn, dsp, not(small_flash)))] int8_c_csr_smlad_l128 "c_csr_smlad" &l128::LAYER => |l, q, acc, y| crate::hand::hand("csr_smlad", l, q, y);
    #[cfg(all(cmsis_nn, not(small_flash)))] int8_c_24_l128 "c_24" &l128::LAYER => |l, q, acc, y| crate::hand::hand("24", l, q, y);
    #[cfg(not(small_flash))] int8_gen_csr_l128 "gen_csr" &l128::LAYER => |l, q, acc, y| k::fc_csr16(&l128::CSR, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    #[cfg(not(small_flash))] int8_gen_24_l128 "gen_24" &l128::LAYER => |l, q, acc, y| k::fc_nv24(&l128::NV24, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    #[cfg(not(small_flash))] int8_gen_bsr4_l128 "gen_bsr4" &l128::LAYER => |l, q, acc, y| k::fc_bsr4(&l128::BSR4, l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
    #[cfg(not(small_flash))] int8_gen_specialized_l128 "gen_specialized" &l128::LAYER => |l, q, acc, y| l128::fc_specialized(l.x, q.bias, acc, y, l.in_off, q.mult, q.shift, l.out_off).is_ok();
}
