sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        crdWidth = 8
    }>

    type Fits = tensor<300x256xf32, #CSR8>;
    type TooWide = tensor<300x300xf32, #CSR8>;
}

fn main() {}
