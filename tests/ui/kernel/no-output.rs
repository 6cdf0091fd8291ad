// A kernel without any `&mut tensor<...>` parameter writes nothing.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn total(a: &tensor<?xf64, #SV>) {
        s[] += a[i];
    }
}

fn main() {}
