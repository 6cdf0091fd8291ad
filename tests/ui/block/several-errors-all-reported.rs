// Every error of a block is reported in one build, each at its token.
sparse_core::sparse_kernel! {
    #A = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : sparse),
        posWidth = 12
    }>

    #B = #sparse_tensor.encoding<{
        map = (i, j) -> (i : singleton, j : compressed)
    }>

    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    type T = tensor<4x4xf32, #D>;
    type U = tensor<4x4xf80, #CSR>;
}

fn main() {}
