// Outputs need levels a kernel can append to: structured[n, m] only as the
// last level, not all dense.
sparse_core::sparse_kernel! {
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])
    }>
    #NV_ROWS = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 4 : dense, i mod 4 : structured[2, 4], j : compressed)
    }>
    #DENSE = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : dense)
    }>

    fn prune(a: &tensor<?x?xf64, #NV_24>, c: &mut tensor<?x?xf64, #NV_ROWS>) {
        c[i, j] = a[i, j];
    }
    fn densify(a: &tensor<?x?xf64, #NV_24>, c: &mut tensor<?x?xf64, #DENSE>) {
        c[i, j] = a[i, j];
    }
}

fn main() {}
