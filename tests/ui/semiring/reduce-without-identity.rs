// `reduce` starts every output element from its identity.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], |p, v| p * v);
    }
}

fn main() {}
