// Operands sharing an index must split it into blocks of one size.
sparse_core::sparse_kernel! {
    #B2 = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    #B4 = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense)
    }>

    fn add(a: &tensor<?x?xf64, #B2>, b: &tensor<?x?xf64, #B4>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }
}

fn main() {}
