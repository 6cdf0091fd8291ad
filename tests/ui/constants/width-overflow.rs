sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8
    }>

    // 16 x 17 = 272 entries: positions reach 272 > 255.
    static FULL: tensor<16x17xf32, #CSR8> = dense<1.0>;
    // Column coordinates reach 299 > 255.
    static WIDE: tensor<2x300xf32, #CSR8> = sparse<[[0, 0]], [1.0]>;
}

fn main() {}
