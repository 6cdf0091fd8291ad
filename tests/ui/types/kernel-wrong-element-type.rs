// The element type is part of a tensor's type: an `f64` tensor passed to a
// kernel over `f32` is refused, for an operand and for an output.
use sparse_core::{sparse_kernel, Owned};

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn scale(a: &tensor<?x?xf32, #CSR>, c: &mut tensor<?x?xf32, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

fn wrong_input(a: &CSR<'_, f64>, c: &mut CSROut<f32, Owned>) {
    let _ = scale(a, c);
}

fn wrong_output(a: &CSR<'_, f32>, c: &mut CSROut<f64, Owned>) {
    let _ = scale(a, c);
}

fn main() {
    let _ = (wrong_input, wrong_output);
}
