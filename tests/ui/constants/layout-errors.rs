// Pins the errors of a constant whose encoding cannot hold it: a counting
// (ELL) encoding, dense levels that would store too many entries, a
// pattern encoding (`explicitVal`) with dense levels, which store padding,
// and a size taken from a file (`?`) past the encoding's `crdWidth`.
sparse_core::sparse_kernel! {
    #ELL = #sparse_tensor.encoding<{
        map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
    }>
    #DENSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
    #PATTERN_DENSE = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : dense),
        explicitVal = 1.0 : f32
    }>
    #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>

    static E: tensor<3x4xf32, #ELL> = sparse<[[0, 0]], [1.0]>;
    static D: tensor<100000x100000xf32, #DENSE> = sparse<[[0, 0]], [1.0]>;
    static P: tensor<2x2xf32, #PATTERN_DENSE> = sparse<[[0, 0]], [1.0]>;
    static W: tensor<?x?xf32, #CSR8> = file("data/ui/row-1x300.mtx");
}

fn main() {}
