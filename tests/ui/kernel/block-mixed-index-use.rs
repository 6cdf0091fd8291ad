// A dense operand indexed by a blocked index in one statement and by an
// unblocked one in another cannot be reshaped both ways.
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn two(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>, s: &mut tensor<f64>) {
        y[i] = a[i, j] * x[j];
        s[] += x[k];
    }
}

fn main() {}
