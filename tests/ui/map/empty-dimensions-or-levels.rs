// A map needs at least one dimension and one level.
sparse_core::sparse_kernel! {
    #NO_DIMS = #sparse_tensor.encoding<{
        map = () -> (i : dense)
    }>
    #NO_LEVELS = #sparse_tensor.encoding<{
        map = (i) -> ()
    }>
}

fn main() {}
