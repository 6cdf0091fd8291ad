// Reading a diagonal works (`y[i] = a[i, i]`); writing one does not: each
// output element is written through distinct index variables.
sparse_core::sparse_kernel! {
    fn f(x: &tensor<?xf64>, c: &mut tensor<?x?xf64>) {
        c[i, i] = x[i];
    }
}

fn main() {}
