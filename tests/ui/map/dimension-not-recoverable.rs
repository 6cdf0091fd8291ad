sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense)
    }>
}

fn main() {}
