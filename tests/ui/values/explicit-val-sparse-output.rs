sparse_core::sparse_kernel! {
    #Pattern = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        explicitVal = 1.0 : f64
    }>
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    pub fn copy(a: &tensor<?x?xf64, #CSR>, b: &mut tensor<?x?xf64, #Pattern>) {
        b[i, j] = a[i, j];
    }
}

fn main() {}
