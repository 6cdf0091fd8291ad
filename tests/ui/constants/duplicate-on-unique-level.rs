sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static W: tensor<3x4xf32, #CSR> = sparse<[[1, 2], [0, 0], [1, 2]], [1.0, 2.0, 3.0]>;
}

fn main() {}
