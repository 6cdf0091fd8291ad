// Scaling a sparse output by another sparse tensor in place would leave
// zeros where the other stores nothing.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(m: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] *= m[i, j];
    }
}

fn main() {}
