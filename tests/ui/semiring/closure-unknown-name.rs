// Inside a closure: its parameters, the statement's index variables, the
// kernel's scalar parameters. `k` is none of them.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = select(a[i, j], |_| k < i);
    }
}

fn main() {}
