// `k` is outermost (both operands store it first): no insertion order, no one-level workspace.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn atb(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[k, i] * b[k, j];
    }
}

fn main() {}
