// Only a fixed list of math functions can be called.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn roots(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = sqr(a[i]);
    }
}

fn main() {}
