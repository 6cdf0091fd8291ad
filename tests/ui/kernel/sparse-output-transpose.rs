// A CSR -> CSR transpose needs a loop order CSR `a` forbids; the fix is a CSC input.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn transpose(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[j, i] = a[i, j];
    }
}

fn main() {}
