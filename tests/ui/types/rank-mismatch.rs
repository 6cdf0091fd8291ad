sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    type A = tensor<4x4x4xf32, #CSR>;
}

fn main() {}
