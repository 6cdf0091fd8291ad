// A compile-time constant is a whole tensor: its encoding cannot slice.
sparse_core::sparse_kernel! {
    #CSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 2, 1)>, j : #sparse_tensor<slice(0, 2, 1)>) ->
              (i : dense, j : compressed)
    }>

    static W: tensor<2x2xf64, #CSR_SLICE> = sparse<[[0, 0]], [1.0]>;
}

fn main() {}
