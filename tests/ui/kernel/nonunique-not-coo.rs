// A nonunique level followed by a compressed one: each duplicate row is
// visited on its own, and `=` would keep only the last one's part.
sparse_core::sparse_kernel! {
    #NUC = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : compressed) }>

    fn copy(a: &tensor<?x?xf64, #NUC>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j];
    }
}

fn main() {}
