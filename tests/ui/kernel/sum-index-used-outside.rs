// A summed index belongs to its `sum(..)`: using it outside is an error at
// the outside use.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64>, y: &mut tensor<?xf64>) {
        y[i] = sum(j, a[i, j]) * b[i, j];
    }
}

fn main() {}
