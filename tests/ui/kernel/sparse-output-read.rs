// A sparse output is only built, never read: the error is at the read.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn square(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = c[i, j] * a[i, j];
    }
}

fn main() {}
