// A block operand is walked block by block; a non-block sparse operand
// sharing its index cannot be co-iterated with it. The error is at the
// non-block operand and says which encoding would fix it.
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn mask(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * b[i, j];
    }
}

fn main() {}
