sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static W: tensor<2x3xf32, #CSR> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0]]>;
    static X: tensor<2x2xf32> = dense<[1.0, 2.0]>;
    static Y: tensor<3xf32> = dense<[[1.0], [2.0], [3.0]]>;
}

fn main() {}
