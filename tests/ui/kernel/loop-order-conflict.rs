// CSR wants rows outside, CSC columns outside: no loop order visits both in storage order.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    #CSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j : dense, i : compressed)
    }>

    fn add(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }
}

fn main() {}
