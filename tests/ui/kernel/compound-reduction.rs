// `*=` and `/=` whose right-hand side reduces over an index have two
// readings: MLIR's `linalg.generic` (`arith.mulf %out, %a` under a
// reduction iterator) multiplies the old value by every value, implicit
// zeros included; index notation by their sum. The error names both
// spellings. A sum written out, or no reduction at all, is fine.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn product(a: &tensor<?xf64, #SV>, x: &mut tensor<f64>) {
        x[] *= a[i];
    }
    fn rows(a: &tensor<?x?xi32, #CSR>, v: &tensor<?xi32>, b: &tensor<?xi32>, y: &mut tensor<?xi32>) {
        y[i] *= a[i, j] * v[j] + b[i];
    }
    fn quotient(d: &tensor<?x?xf64>, y: &mut tensor<?xf64>) {
        y[i] /= d[i, j];
    }
    fn fine(a: &tensor<?x?xf64, #CSR>, s: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] *= sum(j, a[i, j]);
        y[i] *= s[i];
    }
}

fn main() {}
