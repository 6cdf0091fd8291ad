sparse_core::sparse_kernel! {
    type D = tensor<4x?x8xi32>;
}

fn main() {}
