// A sparse output is read only where a statement updates it in place;
// anywhere else it is being built, so the error is at the read.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn square(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = c[j, i] * a[i, j];
    }
}

fn main() {}
