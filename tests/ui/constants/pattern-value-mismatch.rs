sparse_core::sparse_kernel! {
    #PAT = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        explicitVal = 1.0 : f32
    }>

    static W: tensor<3x4xf32, #PAT> = sparse<[[0, 1], [2, 3]], [1.0, 2.0]>;
}

fn main() {}
