sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i floordiv 4096 : dense, i mod 4096 : dense)
    }>
}

fn main() {}
