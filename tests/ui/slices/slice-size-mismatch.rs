// A sliced tensor's size is its slice's: a static size that disagrees
// with a static slice size is an error at the size.
sparse_core::sparse_kernel! {
    #CSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4, 1)>,
               j : #sparse_tensor<slice(0, 8, ?)>) ->
              (i : dense, j : compressed)
    }>

    type Wrong = tensor<4x6xf64, #CSR_SLICE>;
}

fn main() {}
