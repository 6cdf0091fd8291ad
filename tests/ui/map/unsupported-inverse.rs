// The explicit inverse may only use the forms the forward map can invert.
sparse_core::sparse_kernel! {
    #SQUARE = #sparse_tensor.encoding<{
        map = { a } (i = a * a) -> (a = i : compressed)
    }>
}

fn main() {}
