// Each dimension, symbol and level variable is declared once per map.
sparse_core::sparse_kernel! {
    #TWICE = #sparse_tensor.encoding<{
        map = (i, i) -> (i : dense)
    }>
    #SYMBOL = #sparse_tensor.encoding<{
        map = [i](i) -> (i : compressed)
    }>
}

fn main() {}
