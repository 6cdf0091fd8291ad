sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(-1, 0, 0)>) -> (i : compressed)
    }>
}

fn main() {}
