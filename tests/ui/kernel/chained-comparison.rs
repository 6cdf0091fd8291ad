// Comparisons do not chain, as in Rust.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
        c[i] = 0.0 < a[i] < b[i];
    }
}

fn main() {}
