sparse_core::sparse_kernel! {
    #CSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4, 1)>,
               j : #sparse_tensor<slice(0, 8, ?)>) ->
              (i : dense, j : compressed)
    }>
}

fn main() {}
