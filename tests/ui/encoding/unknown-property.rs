sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed(nonuniqe))
    }>
}

fn main() {}
