sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i, j) -> (i : compressed, j : compressed),
        crdWidth = 2
    }>
}

fn main() {}
