sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i floordiv 0 : dense, i mod 0 : dense)
    }>
}

fn main() {}
