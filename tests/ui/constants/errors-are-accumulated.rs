sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    // Every bad coordinate and value is reported, and the valid constant
    // after them is still generated (no "cannot find value `OK`" below).
    static W: tensor<3x4xi8, #CSR> = sparse<[[0, 9], [7, 0], [1, 1]], [1, 2, 1000]>;
    static OK: tensor<3x4xi8, #CSR> = sparse<[[0, 0]], [1]>;
}

fn main() {
    let _ = OK.number_of_entries();
}
