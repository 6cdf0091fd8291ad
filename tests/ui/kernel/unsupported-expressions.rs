// Method calls, `%` and closures are not kernel expressions; each error lists what is supported.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn methods(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = a[i].abs();
    }
    fn remainder(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i] % b[i];
    }
    fn closure(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = (|v| v + 1.0)(a[i]);
    }
}

fn main() {}
