sparse_core::sparse_kernel! {
    #V = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed),
        implicitVal = 0 : i64
    }>

    type T = tensor<8xf64, #V>;
}

fn main() {}
