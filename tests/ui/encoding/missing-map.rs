sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        posWidth = 8
    }>
}

fn main() {}
