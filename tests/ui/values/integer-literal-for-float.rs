sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed),
        explicitVal = 1 : f32
    }>
}

fn main() {}
