sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (j : dense, i : compressed)
    }>
}

fn main() {}
