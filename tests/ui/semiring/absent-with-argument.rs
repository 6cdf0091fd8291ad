// `absent` runs where the operand is not stored: there is no value to pass.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
        c[i] = unary(a[i], present = |x| x, absent = |x| x);
    }
}

fn main() {}
