sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static MISSING: tensor<3x4xf32, #CSR> = file("data/no-such-file.mtx");
    static KIND: tensor<3x4xf32, #CSR> = file("weights.csv");
}

fn main() {}
