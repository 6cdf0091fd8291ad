// A static size that is not a whole number of blocks is a compile error at
// the operand (a dynamic one is `KernelError::PartialBlock` at the call).
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn spmv(a: &tensor<5x6xf64, #BSR>, x: &tensor<6xf64>, y: &mut tensor<5xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
