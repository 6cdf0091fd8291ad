// Pins the errors of operations complex numbers lack: an order (`<`,
// `max`), real-only functions (`powi`), parts of a real number, and a
// complex `explicitVal` (values of complex tensors are always stored).
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #PAT = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1.0 : complex<f32> }>

    fn ops(
        a: &tensor<?xcomplex<f64>, #SV>,
        b: &tensor<?xcomplex<f64>>,
        r: &tensor<?xf64>,
        y: &mut tensor<?xcomplex<f64>>,
        m: &mut tensor<?xf64>,
    ) {
        y[i] = if a[i] < b[i] { a[i] } else { b[i] };
        y[i] = max(a[i], b[i]);
        y[i] = powi(a[i], 2);
        m[i] = re(r[i]);
    }
}

fn main() {}
