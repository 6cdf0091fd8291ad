// The sparsifier does not walk block levels yet; the error is at the encoding of the parameter.
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn spmv(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
