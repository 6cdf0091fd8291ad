// Merging a `nonordered` level with another needs sorted coordinates.
sparse_core::sparse_kernel! {
    #SVU = #sparse_tensor.encoding<{ map = (i) -> (i : compressed(nonordered)) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn add(a: &tensor<?xf64, #SVU>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
        c[i] = a[i] + b[i];
    }
}

fn main() {}
