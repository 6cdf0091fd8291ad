// A scaled CSR -> CSR transpose compiles: the sparsifier reads `a` through
// a CSC-ordered copy in a workspace the caller passes as an extra parameter
// (`a_reordered`, described in the kernel's doc comment). Forgetting it is
// an ordinary arity error at the call. (A plain transpose `c[j, i] = a[i, j]`
// needs no workspace: it is a conversion into `c`.)
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    fn transpose(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[j, i] = a[i, j] * 2.0;
    }
}

fn main() {
    let a = CSR::<f64>::assemble(
        [2, 2],
        [sparse_core::Level::dense(), sparse_core::Level::compressed(&[0, 1, 1], &[1])],
        &[1.0],
    )
    .unwrap();
    let mut c = CSROut::<f64, sparse_core::Owned>::with_dims([2, 2]).unwrap();
    let _ = transpose(&a, &mut c);
}
