// `reduce` computes the whole value of the output element: `+=` would add
// the identity and every implicit zero's step to the old value.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] += reduce(a[i, j], identity = 1.0, |p, v| p * v);
    }
}

fn main() {}
