// A kernel with an error in its body still gets its signature (with an
// empty body), so the call below adds no "cannot find function" error.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] % x[j];
    }
}

fn call(a: &CSR<'_, f64>, x: &[f64], y: &mut [f64]) -> Result<(), sparse_core::KernelError> {
    spmv(a, x, y)
}

fn main() {
    let _ = call;
}
