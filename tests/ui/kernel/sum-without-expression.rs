// `sum` takes the index variables, then the expression summed.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * sum(j);
    }
}

fn main() {}
