// `j` ranges over 300 columns of `a` but over the 200 entries of `x`.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn spmv(a: &tensor<64x300xf32, #CSR>, x: &tensor<200xf32>, y: &mut tensor<64xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
