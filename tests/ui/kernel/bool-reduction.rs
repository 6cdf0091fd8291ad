// A reduction sums with `+`, which `bool` (`i1`) values do not have.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn any_in_row(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi1>) {
        y[i] = a[i, j];
    }
}

fn main() {}
