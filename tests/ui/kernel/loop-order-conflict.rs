// BSR stores block rows outside, BSC block columns outside: no loop order visits
// both in storage order, and block operands are not read through a reordered copy
// (only permutation maps are), so the conflict stays an error naming the fix.
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    #BSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn add(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSC>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }
}

fn main() {}
