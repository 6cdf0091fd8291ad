// Each region is given once.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = none, left = none, right = none);
    }
}

fn main() {}
