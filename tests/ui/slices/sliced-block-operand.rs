// A slice of a block (BSR) encoding cannot be a kernel operand: the kernel
// reads slices through a compact copy with plain levels.
sparse_core::sparse_kernel! {
    #BSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4, 1)>, j : #sparse_tensor<slice(?, 4, 1)>) ->
              (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    pub fn spmv(a: &tensor<4x4xf64, #BSR_SLICE>, x: &tensor<4xf64>, y: &mut tensor<4xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
