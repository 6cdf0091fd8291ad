// `*=` with a `select`: where it produces no value there is nothing to
// multiply the old element by.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
        c[i] *= select(a[i], |v| v > 0.0);
    }
}

fn main() {}
