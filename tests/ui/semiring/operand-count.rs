// binary takes two operands before its regions, unary and select one.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], overlap = none, left = none, right = none);
    }
    fn g(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], b[i], present = identity, absent = none);
    }
}

fn main() {}
