// Pins the errors of a level format's `[...]` arguments: `structured`
// without its group shape, `structured` with other than two numbers, and
// `[...]` on a format that takes none.
sparse_core::sparse_kernel! {
    #NO_SHAPE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured) }>
    #ONE_NUMBER = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured[2]) }>
    #COMPRESSED_ARGS = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed[2, 4])
    }>
}

fn main() {}
