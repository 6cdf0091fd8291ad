// An in-place update keeps the output's sparsity: `c + 1.0` would fill the
// entries `c` does not store.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = c[i, j] + 1.0;
    }
}

fn main() {}
