// Pins the errors of a kernel's name and parameters: a missing kernel
// name, a parameter without a name, without `:`, without a type, and the
// malformed tensor shapes (no element type after a size or after the last
// `x`, a size past 64 bits, a size not followed by `x`). Every broken
// parameter of a kernel is reported.
sparse_core::sparse_kernel! {
    fn (x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i];
    }

    fn params(&x: &tensor<?xf64>, b: , y: &mut tensor<?xf64>) {
        y[i] = x[i];
    }

    fn colon(x &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i];
    }

    fn shapes(
        a: &tensor<4x8x>,
        b: &tensor<4x8>,
        c: &tensor<99999999999999999999xf32>,
        d: &tensor<4y8xf32>,
        y: &mut tensor<?xf32>,
    ) {
        y[i] = a[i, j];
    }
}

fn main() {}
