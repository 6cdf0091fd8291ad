// Pins the errors of the explicit inverse form and of level variables: a
// `floordiv` level without its `mod` level (and the reverse), an inverse
// reading a name that is not a declared level variable, a count of level
// variables that differs from the levels, a level variable read in a level
// expression, and a level variable where a dimension is expected.
sparse_core::sparse_kernel! {
    #NO_MOD = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j : compressed)
    }>
    #NO_FLOORDIV = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j mod 2 : compressed)
    }>
    #UNDECLARED_IN_INVERSE = #sparse_tensor.encoding<{
        map = { ib, ii } (i = ib * 2 + kk) -> (ib = i floordiv 2 : dense, ii = i mod 2 : dense)
    }>
    #COUNT = #sparse_tensor.encoding<{
        map = { a, b, c } (i, j) -> (a = i : dense, b = j : compressed)
    }>
    #LEVEL_READ = #sparse_tensor.encoding<{
        map = { a, b } (i, j) -> (a = i : dense, b = a : compressed)
    }>
    #LEVEL_AS_DIM = #sparse_tensor.encoding<{
        map = { a, b } (i, j) -> (a = i : dense, b = a mod 2 : compressed)
    }>
}

fn main() {}
