sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn spmv(a: CSR, x: [f32; 4], y: &mut [f32; 4]) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
