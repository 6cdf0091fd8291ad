sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    // Every bad coordinate and value is reported; the valid constant after
    // them is generated, and the broken ones keep their types (no "cannot
    // find value" below).
    static W: tensor<3x4xi8, #CSR> = sparse<[[0, 9], [7, 0], [1, 1]], [1, 2, 1000]>;
    static OK: tensor<3x4xi8, #CSR> = sparse<[[0, 0]], [1]>;
    static BAD_ARRAY: tensor<2xf32> = dense<[1.0, 2]>;
}

fn main() {
    let _ = OK.number_of_entries();
    let _ = W.number_of_entries();
    let _: [f32; 2] = BAD_ARRAY;
}
