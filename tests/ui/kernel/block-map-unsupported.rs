// A block map whose in-block level comes before its block level is not
// walked by kernels; the error is at the encoding of the parameter. (ELL,
// a counting level, is read through a CSR workspace copy instead.)
sparse_core::sparse_kernel! {
    #INNER_FIRST = #sparse_tensor.encoding<{ map = (i, j) -> (i mod 2 : dense, i floordiv 2 : dense, j : compressed) }>

    fn spmv(a: &tensor<?x?xf64, #INNER_FIRST>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
