sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static mut M: tensor<3x4xf32, #CSR> = dense<1.0>;
    static R: tensor<3x4xf32, #CSR> = dense_resource<blob1>;
    static S: tensor<3x4xf32, #CSR> = dense<[1.0f32]>;
    static T: tensor<3x4xf32, #CSR> = sparse<[[0, 0]]>;
    static U: tensor<3x4xf32, #CSR> = constant<1.0>;
    static V: tensor<3x4xf32, #CSR> = dense<1.0>;
    fn V(x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = x[i];
    }
}

fn main() {}
