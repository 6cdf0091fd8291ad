// `s[0]` for a scalar (a tensor of rank 0): the error names `s[]`.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn total(a: &tensor<?x?xf64, #CSR>, s: &mut tensor<f64>) {
        s[0] += a[i, j];
    }
}

fn main() {}
