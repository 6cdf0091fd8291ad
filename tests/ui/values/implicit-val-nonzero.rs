sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed),
        implicitVal = 1 : i64
    }>
}

fn main() {}
