//! An int8 layer's accumulation, `bias + sum w * (x + off)` in `i32`, as
//! CMSIS-NN computes it, three ways on one pruned 8x40 layer in flash
//! (`data/int8_8x40.mtx`, rows of 0 to 14 entries): the CSR walk summed by
//! sparse-core's `dot_s8` (SMLAD pairs on the M4F, a plain loop on the
//! others), the same kernel with the weights compiled into the code
//! (`#[specialize]`), and a dense loop over the same file. Offsets inside
//! and far outside CMSIS-NN's range; every result must be the dense one,
//! bit for bit.

use core::hint::black_box;

use crate::report::{fail, CheckResult, Report};

sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// The layer's weights, pruned.
    pub static LAYER: tensor<8x40xi8, #CSR8> = file("data/int8_8x40.mtx");
    /// The same weights, dense (the reference reads these).
    pub static LAYER_DENSE: tensor<8x40xi8> = file("data/int8_8x40.mtx");

    /// One `dot_s8` call per row.
    pub fn fc(w: &tensor<8x40xi8, #CSR8>, x: &tensor<40xi8>, bias: &tensor<8xi32>,
              acc: &mut tensor<8xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }

    /// The weights written into the code.
    #[specialize(w = LAYER)]
    pub fn fc_specialized(w: &tensor<8x40xi8, #CSR8>, x: &tensor<40xi8>, bias: &tensor<8xi32>,
                          acc: &mut tensor<8xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }
}

fn input() -> [i8; 40] {
    let mut x = [0i8; 40];
    for (j, v) in x.iter_mut().enumerate() {
        *v = ((j * 53 + 7) % 256) as u8 as i8;
    }
    x[0] = -128;
    x[1] = 127;
    x
}

const BIAS: [i32; 8] = [0, -1, 1000, -70_000, 5, i32::MAX, i32::MIN, 12345];

fn dense(x: &[i8; 40], off: i32) -> [i32; 8] {
    let mut acc = BIAS;
    for (a, row) in acc.iter_mut().zip(&LAYER_DENSE) {
        for (&w, &v) in row.iter().zip(x) {
            *a = a.wrapping_add(i32::from(w).wrapping_mul(i32::from(v).wrapping_add(off)));
        }
    }
    acc
}

/// A layer kernel: input, bias, accumulators, offset.
type Layer = fn(&[i8; 40], &[i32; 8], &mut [i32; 8], i32) -> Result<(), sparse_core::KernelError>;

fn check(kernel: Layer) -> CheckResult {
    let x = input();
    for off in [0, 128, -128, 127, 32640, 32641, -40_000, i32::MAX] {
        let mut acc = [0x5a5a_5a5a; 8];
        if let Err(e) = kernel(black_box(&x), black_box(&BIAS), &mut acc, black_box(off)) {
            fail!("kernel error: {}", e);
        }
        let want = dense(&x, off);
        if acc != want {
            fail!("offset {}: {:?}, dense gives {:?}", off, acc, want);
        }
    }
    Ok(())
}

/// Runs the int8 checks.
pub fn run_all(r: &mut Report) {
    r.run("int8 layer, one dot_s8 call per row == dense", || {
        check(|x, bias, acc, off| fc(black_box(&LAYER), x, bias, acc, off))
    });
    r.run("int8 layer, weights compiled into code == dense", || {
        check(fc_specialized)
    });
}
