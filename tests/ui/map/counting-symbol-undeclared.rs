sparse_core::sparse_kernel! {
    #ELL = #sparse_tensor.encoding<{
        map = (i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
    }>
}

fn main() {}
