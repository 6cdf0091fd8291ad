// `#[parallel]` needs sparse-core's `rayon` feature: without it the kernel
// is a compile error at the attribute (never silently sequential).
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    #[parallel]
    pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }

    // A sparse output written per row: the same one error.
    #[parallel]
    pub fn scale(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

fn main() {}
