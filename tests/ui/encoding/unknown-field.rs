sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed),
        posWidht = 8
    }>
}

fn main() {}
