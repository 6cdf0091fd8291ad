// `reduce` folds over the index variables of the right-hand side that the
// output does not have; here there are none.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) {
        x[i, j] = reduce(a[i, j], identity = 1.0, |p, v| p * v);
    }
}

fn main() {}
