// Each statement builds its sparse output from nothing: a second one is an error.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn twice(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[i, j];
        c[i, j] = a[i, j] * 2.0;
    }
}

fn main() {}
