// Pins the error of a slice with other than three parameters.
sparse_core::sparse_kernel! {
    #SLICED = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4)>) -> (i : compressed)
    }>
}

fn main() {}
