// Tensor types are MLIR's `tensor<SHAPExELEM[, #ENC]>`, one per `type` item.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>
    type MissingComma = tensor<4x4xf32 #CSR>;
    type NotATensor = vector<4xf32>;
}

fn main() {}
