// A dense array where a kernel takes a sparse tensor: refused for an
// operand and for an output; `sparse_core::convert::from_dense` builds the
// sparse tensor.
use sparse_core::sparse_kernel;

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn spmv(a: &tensor<4x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<4xf32>) {
        y[i] = a[i, j] * x[j];
    }

    fn scale(a: &tensor<4x4xf32, #CSR>, c: &mut tensor<4x4xf32, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

fn dense_input(a: &[[f32; 4]; 4], x: &[f32; 4], y: &mut [f32; 4]) {
    let _ = spmv(a, x, y);
}

fn dense_output(a: &CSR<'_, f32>, c: &mut [[f32; 4]; 4]) {
    let _ = scale(a, c);
}

fn main() {
    let _ = (dense_input, dense_output);
}
