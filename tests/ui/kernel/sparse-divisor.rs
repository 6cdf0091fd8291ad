// Dividing by a sparse tensor would divide by its implicit zeros.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn ratio(a: &tensor<?xf64>, b: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = a[i] / b[i];
    }
}

fn main() {}
