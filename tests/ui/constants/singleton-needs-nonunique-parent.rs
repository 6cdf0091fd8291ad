sparse_core::sparse_kernel! {
    #UCOO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : singleton) }>

    static W: tensor<3x4xf32, #UCOO> = sparse<[[0, 1], [1, 0], [1, 3]], [1.0, 2.0, 3.0]>;
}

fn main() {}
