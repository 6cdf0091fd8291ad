sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    type CSR = tensor<4x4xf32, #CSR>;
}

fn main() {}
