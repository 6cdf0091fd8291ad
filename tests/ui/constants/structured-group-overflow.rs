sparse_core::sparse_kernel! {
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>

    // Row 1, columns 4..8 hold three values.
    static W: tensor<2x8xf32, #NV_24> = dense<[
        [1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 3.0, 4.0, 5.0, 0.0]
    ]>;
    static P: tensor<2x6xf32, #NV_24> = dense<0.0>;

    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    // Three rows do not fill 2x2 blocks.
    static B: tensor<3x4xf32, #BSR> = sparse<[[0, 0]], [1.0]>;
}

fn main() {}
