// An in-place update keeps the output's sparsity: `c + 1.0` and a `unary`
// with an absent region would fill the entries `c` does not store, and a
// `none` present region would have to delete the entries it stores.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = c[i, j] + 1.0;
    }
    fn fills(c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = unary(c[i, j], present = |v| v * 2.0, absent = || 1.0);
    }
    fn deletes(c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = unary(c[i, j], present = none, absent = none);
    }
}

fn main() {}
