// A tensor of another rank: a 3-D CSF tensor where a kernel takes a CSR
// matrix (operand and output), and a matrix where it takes a dense vector.
use sparse_core::{sparse_kernel, Owned};

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSF = #sparse_tensor.encoding<{
        map = (i, j, k) -> (i : compressed, j : compressed, k : compressed)
    }>

    fn scale(a: &tensor<?x?xf32, #CSR>, c: &mut tensor<?x?xf32, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }

    fn axpy(x: &tensor<4xf32>, y: &mut tensor<4xf32>) {
        y[i] += x[i] * 2.0;
    }
}

fn wrong_input(a: &CSF<'_, f32>, c: &mut CSROut<f32, Owned>) {
    let _ = scale(a, c);
}

fn wrong_output(a: &CSR<'_, f32>, c: &mut CSFOut<f32, Owned>) {
    let _ = scale(a, c);
}

fn wrong_dense(x: &[[f32; 4]; 4], y: &mut [f32; 4]) {
    let _ = axpy(x, y);
}

fn main() {
    let _ = (wrong_input, wrong_output, wrong_dense);
}
