sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static W: tensor<1x4xf32, #CSR> = prune_2_4(dense<[[1.0, 2.0, 3.0, 4.0]]>);
    static X: tensor<1x4xf32, #CSR> = prune_2_4(sparse<[[0, 0]], [1.0]>);
}

fn main() {}
