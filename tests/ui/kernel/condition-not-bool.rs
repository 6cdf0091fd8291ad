// The condition of a choice is a `bool`: a number is not one.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = if a[i] { a[i] } else { 0.0 };
    }
}

fn main() {}
