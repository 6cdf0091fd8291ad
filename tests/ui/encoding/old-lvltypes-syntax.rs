sparse_core::sparse_kernel! {
    #E = #sparse_tensor.encoding<{
        lvlTypes = [ "dense", "compressed" ]
    }>
}

fn main() {}
