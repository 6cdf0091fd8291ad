// `+=` into a sparse output would merge into stored entries; the error is at `+=`.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn add_to(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] += a[i, j];
    }
}

fn main() {}
