// A misspelt region name is refused with the names the operation takes.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| x + y, lefft = identity, right = none);
    }
    fn g(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], present = |x| x, missing = none);
    }
}

fn main() {}
