// Mistakes in kernel statements that Rust habits lead to, each with the
// form to write instead: an integer literal in a float kernel, negating an
// unsigned value, a `let` binding, a method call, a kernel without
// statements.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn twice(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * 2;
    }

    fn negate(a: &tensor<?x?xui8, #CSR>, c: &mut tensor<?x?xui8>) {
        c[i, j] = -a[i, j];
    }

    fn with_let(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        let t = a[i, j];
    }

    fn method(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j].max(x[j]);
    }

    fn empty(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {}
}

fn main() {}
