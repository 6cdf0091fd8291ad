// An error in one encoding does not hide the others: `CSR` and `A` are still
// defined, so the only error is the unknown level format.
sparse_core::sparse_kernel! {
    #BAD = #sparse_tensor.encoding<{
        map = (i) -> (i : sparse)
    }>

    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>

    type A = tensor<4x4xf32, #CSR>;
}

fn uses(_: &CSR<'_, f32>, _: &A<'_>) {}

fn main() {
    let _ = uses;
}
