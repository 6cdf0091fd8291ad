// Pins the errors of a 2-bit width outside 2:4 levels: as `posWidth`, and
// as `crdWidth` of an encoding without `structured[2, 4]`/`block2_4`
// levels.
sparse_core::sparse_kernel! {
    #POS = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : compressed, j mod 4 : block2_4),
        posWidth = 2
    }>
    #DENSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense), crdWidth = 2 }>
}

fn main() {}
