// Static sizes of dense parameters are part of their array types: a vector
// of 100 elements where the kernel takes `tensor<200xf32>` does not compile.
// (Static sizes of sparse tensors are checked when the kernel is called:
// `KernelError::ShapeMismatch`.)
use sparse_core::sparse_kernel;

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn spmv(a: &tensor<64x200xf32, #CSR>, x: &tensor<200xf32>, y: &mut tensor<64xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

fn short_vector(a: &CSR<'_, f32>, x: &[f32; 100], y: &mut [f32; 64]) {
    let _ = spmv(a, x, y);
}

fn main() {
    let _ = short_vector;
}
