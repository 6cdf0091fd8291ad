// A comparison gives a `bool`; an `f64` output needs the values chosen.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = a[i] < b[i];
    }
}

fn main() {}
