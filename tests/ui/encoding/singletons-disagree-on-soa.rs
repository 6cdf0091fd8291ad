sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (i, j, k) -> (i : compressed(nonunique), j : singleton(soa), k : singleton)
    }>
}

fn main() {}
