// A choice has both branches.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = if a[i] > 0.0 { a[i] };
    }
}

fn main() {}
