// `b[i]` is added once per row, outside the sum over `j` (TACO's rule), but
// a CSC `w` must be walked column by column: with a sparse output the
// statement cannot be split into `c = w x; c += b`, so it is an error that
// says what to do.
sparse_core::sparse_kernel! {
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = w[i, j] * x[j] + b[i];
    }
}

fn main() {}
