// Counting levels (ELL) are not walked by kernels yet; the error is at the
// encoding of the parameter.
sparse_core::sparse_kernel! {
    #ELL = #sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed) }>

    fn spmv(a: &tensor<?x?xf64, #ELL>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {}
