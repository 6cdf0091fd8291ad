sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i, j) -> (i + j : dense, i : dense, j : compressed)
    }>
}

fn main() {}
