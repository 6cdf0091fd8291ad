// A scalar parameter is passed by value and cannot be an output.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn total(a: &tensor<?xf64, #SV>, s: f64, y: &mut tensor<?xf64>) {
        s[] += a[i];
    }
}

fn main() {}
