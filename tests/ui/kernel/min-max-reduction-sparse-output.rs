// `x[i] = max(x[i], a[i, j])` is a max reduction from the old values of
// `x`, implicit zeros included (MLIR's `linalg.generic` with
// `arith.maximumf`); into a sparse `x` the elements it does not store would
// start from zero and all become entries. The error names a dense output
// and `reduce(..)`, which folds the stored entries only.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn row_max(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64, #SV>) {
        x[i] = max(x[i], a[i, j]);
    }
    // Dense: fine.
    fn row_min(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = min(a[i, j], x[i]);
    }
}

fn main() {}
