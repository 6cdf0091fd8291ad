//! The model: weights as compile-time constants and the layer as a
//! generated kernel. `no_std`, no heap, no panics: the same crate is
//! tested on the host (`cargo test` in the template's root) and linked
//! into every board binary (`qemu/`, and yours).
#![no_std]

use sparse_core::{sparse_kernel, KernelError};

sparse_kernel! {
    /// Rows dense, columns compressed, in the narrowest widths that fit
    /// (the macro refuses a constant that does not fit them).
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8
    }>

    /// The pruned weights, read from the file when this crate builds
    /// (rebuilt when it changes) and stored in flash in CSR.
    pub static W1: tensor<8x16xf32, #CSR> = file("weights/layer1.mtx");

    /// The bias: without an encoding, a plain `[f32; 8]` in flash.
    pub static B1: tensor<8xf32> = dense<[0.5, -1.0, 0.0, -10.0, 1.0, 0.25, 0.0, -20.0]>;

    /// y = relu(W x + b): the sum over `j` covers `w * x` only (the
    /// smallest subexpression holding every use of `j`).
    pub fn dense_relu(w: &tensor<8x16xf32, #CSR>, x: &tensor<16xf32>, b: &tensor<8xf32>, y: &mut tensor<8xf32>) {
        y[i] = max(w[i, j] * x[j] + b[i], 0.0);
    }
}

/// One inference: the layer over `x`, into `y`.
pub fn infer(x: &[f32; 16], y: &mut [f32; 8]) -> Result<(), KernelError> {
    dense_relu(&W1, x, &B1, y)
}

/// A test input, and the output `infer` must give for it (worked out by
/// hand from `weights/layer1.mtx`; the host tests check it against a
/// dense evaluation too). Board binaries use them as a self-test.
pub const TEST_INPUT: [f32; 16] = [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0,
];
/// See [`TEST_INPUT`].
pub const TEST_OUTPUT: [f32; 8] = [0.0, 3.5, 20.5, 0.0, 17.5, 0.25, 0.0, 3.0];

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    /// The weights as a dense matrix, straight from the file's lines.
    fn dense_weights() -> [[f32; 16]; 8] {
        let mut w = [[0.0f32; 16]; 8];
        let text = include_str!("../weights/layer1.mtx");
        let mut lines = text.lines().filter(|l| !l.starts_with('%')).skip(1);
        for line in lines.by_ref() {
            let f: std::vec::Vec<&str> = line.split_whitespace().collect();
            let (i, j): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            w[i - 1][j - 1] = f[2].parse().unwrap();
        }
        w
    }

    #[test]
    fn infer_matches_a_dense_evaluation() {
        let w = dense_weights();
        let x = TEST_INPUT;
        let mut want = [0.0f32; 8];
        for i in 0..8 {
            let s: f32 = (0..16).map(|j| w[i][j] * x[j]).sum();
            want[i] = (s + B1[i]).max(0.0);
        }
        let mut y = [f32::NAN; 8];
        infer(&x, &mut y).unwrap();
        assert_eq!(y, want);
        assert_eq!(y, TEST_OUTPUT);
    }

    #[test]
    fn the_constant_keeps_only_the_stored_weights() {
        assert_eq!(W1.number_of_entries(), 14);
        // Rows 0..8 by pairs of columns: the diagonal, row 3's single
        // weight, row 4's three, the empty row 5.
        // Braille: 2 columns by 4 rows of dots per character (worked out
        // by hand from the file, dot by dot).
        assert_eq!(W1.spy(8, 2).to_string(), "⠑⢄⠈⠀⠐⠄⠀⠀\n⠀⠀⠁⢄⠀⠀⠡⡈\n");
    }
}
