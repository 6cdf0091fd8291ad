sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        map = (a, b, c, d, e, f, g, h, k) -> (a : dense, b : dense, c : dense, d : dense, e : dense, f : dense, g : dense, h : dense, k : compressed)
    }>
}

fn main() {}
