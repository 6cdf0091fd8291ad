// A bare name must be an index variable of the statement or a scalar parameter.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn spmv(a: &tensor<?x?xf64, #CSR>, alpha: f64, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = alpah * a[i, j] * x[j];
    }
}

fn main() {}
