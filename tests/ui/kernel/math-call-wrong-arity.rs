// `powi` takes a base and an `i32` exponent.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn squares(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = powi(a[i]);
    }
}

fn main() {}
