// Closures are the regions of binary/unary/select/reduce, nothing else.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
        c[i] = a[i] + (|x| x)(b[i]);
    }
}

fn main() {}
