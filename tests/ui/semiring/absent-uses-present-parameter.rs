// `x` names the stored value in `present`; `absent` runs where there is none.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
        c[i] = unary(a[i], present = |x| x * 2.0, absent = || x + 1.0);
    }
}

fn main() {}
