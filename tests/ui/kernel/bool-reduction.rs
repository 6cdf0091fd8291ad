// A reduction sums with `+`, which `bool` (`i1`) values do not have; nor
// does `-=` combine with an old `bool` (and with a reduction, `=` is no
// way out: the hint names the integer route).
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn any_in_row(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi1>) {
        y[i] = a[i, j];
    }

    fn subtract_rows(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi1>) {
        y[i] -= a[i, j];
    }
}

fn main() {}
