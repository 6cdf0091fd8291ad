// Kernels build whole tensors: a sparse output cannot have a sliced
// encoding. The error names the parameter and what to write instead.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4, 1)>,
               j : #sparse_tensor<slice(0, 8, ?)>) ->
              (i : dense, j : compressed)
    }>

    pub fn scale(a: &tensor<4x8xf64, #CSR>, c: &mut tensor<4x8xf64, #CSR_SLICE>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

fn main() {}
