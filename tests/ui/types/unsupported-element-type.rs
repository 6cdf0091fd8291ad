sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    type Half = tensor<4x4xf80, #CSR>;
    type Odd = tensor<4x4xf33, #CSR>;
}

fn main() {}
