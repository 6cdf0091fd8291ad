// Level variables (`{ a, b }`) name the levels in order and are declared
// before use; the counting symbol only appears as `c * N * d`.
sparse_core::sparse_kernel! {
    #ORDER = #sparse_tensor.encoding<{
        map = { a, b } (i, j) -> (b = i : dense, a = j : compressed)
    }>
    #UNDECLARED = #sparse_tensor.encoding<{
        map = (i, j) -> (a = i : dense, j : compressed)
    }>
    #BARE_SYMBOL = #sparse_tensor.encoding<{
        map = [c](i) -> (c : dense, i : compressed)
    }>
}

fn main() {}
