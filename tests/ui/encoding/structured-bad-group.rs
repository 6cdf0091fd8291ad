sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : structured[4, 2])
    }>
}

fn main() {}
