// The encoding is part of the type: a CSC tensor is not a CSR tensor.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    #CSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j : dense, i : compressed)
    }>
}

fn takes_csr(_: &CSR<'_, f64>) {}

fn pass_csc(m: &CSC<'_, f64>) {
    takes_csr(m);
}

fn main() {
    let _ = pass_csc;
}
