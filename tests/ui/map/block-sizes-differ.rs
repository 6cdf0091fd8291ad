sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j : compressed, i mod 3 : dense)
    }>
}

fn main() {}
