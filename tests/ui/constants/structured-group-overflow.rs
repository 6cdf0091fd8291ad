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
}

fn main() {}
