// `sum(i, ..)` over an index of the output: a sum runs over an index that
// is not on the left-hand side.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn rows(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        y[i] = sum(i, a[i, j]);
    }
}

fn main() {}
