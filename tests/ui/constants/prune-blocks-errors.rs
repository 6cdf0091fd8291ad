// Pins the errors of `prune_blocks`: an encoding that does not store whole
// blocks (CSR; 2:4, whose blocks are structured), a missing or zero
// `keep`, and a value that is not dense.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4)
    }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    static A: tensor<1x4xf32, #CSR> = prune_blocks(dense<[[1.0, 2.0, 3.0, 4.0]]>, keep = 1);
    static B: tensor<1x4xf32, #NV_24> = prune_blocks(dense<[[1.0, 2.0, 3.0, 4.0]]>, keep = 1);
    static C: tensor<2x2xf32, #BSR> = prune_blocks(dense<[[1.0, 2.0], [3.0, 4.0]]>);
    static D: tensor<2x2xf32, #BSR> = prune_blocks(dense<[[1.0, 2.0], [3.0, 4.0]]>, keep = 0);
    static E: tensor<2x2xf32, #BSR> = prune_blocks(sparse<[[0, 0]], [1.0]>, keep = 1);
}

fn main() {}
