sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static W: tensor<?x4xf32, #CSR> = sparse<[[0, 0]], [1.0]>;
    static S: tensor<3x?xf32, #CSR> = dense<1.0>;
}

fn main() {}
