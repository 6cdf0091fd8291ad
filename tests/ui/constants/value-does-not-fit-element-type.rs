sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static A: tensor<3xi8> = dense<[1, 300, -129]>;
    static B: tensor<2xi32> = dense<[1.5, 2]>;
    static C: tensor<2xi1> = dense<[1.0, true]>;
    static D: tensor<2xf32> = dense<[1, 2.0]>;
    static E: tensor<2xui8> = dense<[-1, 0x1FF]>;
}

fn main() {}
