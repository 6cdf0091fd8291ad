//! Int8 layers with the weights compiled in above the written-out budget
//! (`#[specialize(w = W, max_entries = 1)]`): each row's walk reads a
//! stream of words packed when the macro expanded, summed by sparse-core's
//! `dot_s8_packed` (one `asm!` loop of `LDM`, `PKHBT` and `SMLAD` per group
//! of four entries on the M4F, a plain loop on the others), the input
//! offset folded into the rows' weights summed. All four stream forms:
//! `u8` coordinates with `i16` weight pairs (the 8x40 layer of `int8.rs`)
//! or `i8` weights (3x16), `u16` coordinates with pairs (4x300) or `i8`
//! weights (2x300); rows of 0 to 163 entries, padded to groups of four.
//! Offsets inside and far outside CMSIS-NN's range; every result must be
//! the dense loop's over the same file, bit for bit. The M0 checks the
//! first form only (flash).

use core::hint::black_box;

use crate::report::{fail, CheckResult, Report};

sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>

    /// The 8x40 layer of `int8.rs` (its dense twin is the reference).
    pub static L40: tensor<8x40xi8, #CSR8> = file("data/int8_8x40.mtx");

    #[specialize(w = L40, max_entries = 1)]
    pub fn fc40(w: &tensor<8x40xi8, #CSR8>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                acc: &mut tensor<?xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }
}

/// The other three forms, not on the M0 (its 256 KiB of flash are full;
/// it runs the plain loop, which the host tests check too).
#[cfg(not(small_ram))]
mod more {
    sparse_core::sparse_kernel! {
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 16 }>

        pub static L16: tensor<3x16xi8, #CSR8> = file("data/int8_3x16.mtx");
        pub static L16_DENSE: tensor<3x16xi8> = file("data/int8_3x16.mtx");
        pub static L300: tensor<4x300xi8, #CSR16> = file("data/int8_4x300.mtx");
        pub static L300_DENSE: tensor<4x300xi8> = file("data/int8_4x300.mtx");
        pub static M300: tensor<2x300xi8, #CSR16> = file("data/int8_2x300.mtx");
        pub static M300_DENSE: tensor<2x300xi8> = file("data/int8_2x300.mtx");

        #[specialize(w = L16, max_entries = 1)]
        pub fn fc16(w: &tensor<3x16xi8, #CSR8>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                    acc: &mut tensor<?xi32>, off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
        }
        #[specialize(w = L300, max_entries = 1)]
        pub fn fc300(w: &tensor<4x300xi8, #CSR16>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                     acc: &mut tensor<?xi32>, off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
        }
        #[specialize(w = M300, max_entries = 1)]
        pub fn fc300_i8(w: &tensor<2x300xi8, #CSR16>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                        acc: &mut tensor<?xi32>, off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
        }
    }
}

/// A layer kernel: input, bias, accumulators, offset.
type Layer = fn(&[i8], &[i32], &mut [i32], i32) -> Result<(), sparse_core::KernelError>;

/// `kernel` against the dense loop over `dense`, `R` rows of `C` columns,
/// at every offset.
fn check<const R: usize, const C: usize>(kernel: Layer, dense: &[[i8; C]; R]) -> CheckResult {
    let mut x = [0i8; C];
    for (j, v) in x.iter_mut().enumerate() {
        *v = ((j * 53 + 7) % 256) as u8 as i8;
    }
    x[0] = -128;
    x[C - 1] = 127;
    let bias: [i32; R] = core::array::from_fn(|i| [7, i32::MAX, -70_000, i32::MIN][i % 4]);
    for off in [0, 128, -128, 127, 32640, 32641, -40_000, i32::MAX] {
        let mut acc = [0x5a5a_5a5a; R];
        if let Err(e) = kernel(black_box(&x), black_box(&bias), &mut acc, black_box(off)) {
            fail!("kernel error: {}", e);
        }
        let mut want = bias;
        for (a, row) in want.iter_mut().zip(dense) {
            for (&w, &v) in row.iter().zip(&x) {
                *a = a.wrapping_add(i32::from(w).wrapping_mul(i32::from(v).wrapping_add(off)));
            }
        }
        if acc != want {
            fail!("offset {}: {:?}, dense gives {:?}", off, acc, want);
        }
    }
    Ok(())
}

pub fn run_all(r: &mut Report) {
    r.run(
        "int8 packed stream, u8 coordinates, i16 pairs == dense",
        || check(fc40, &crate::int8::LAYER_DENSE),
    );
    #[cfg(not(small_ram))]
    {
        r.run(
            "int8 packed stream, u8 coordinates, i8 weights == dense",
            || check(more::fc16, &more::L16_DENSE),
        );
        r.run(
            "int8 packed stream, u16 coordinates, i16 pairs == dense",
            || check(more::fc300, &more::L300_DENSE),
        );
        r.run(
            "int8 packed stream, u16 coordinates, i8 weights == dense",
            || check(more::fc300_i8, &more::M300_DENSE),
        );
    }
}
