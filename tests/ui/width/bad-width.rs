sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed),
        posWidth = 12
    }>
}

fn main() {}
