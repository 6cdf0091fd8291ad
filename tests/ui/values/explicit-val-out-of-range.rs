sparse_core::sparse_kernel! {
    #Pattern = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        explicitVal = 300 : i8
    }>
}

fn main() {}
