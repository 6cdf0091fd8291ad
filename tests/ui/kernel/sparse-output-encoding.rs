// Outputs need levels a kernel can append to: not structured[n, m], not all dense.
sparse_core::sparse_kernel! {
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])
    }>
    #DENSE = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : dense)
    }>

    fn prune(a: &tensor<?x?xf64, #NV_24>, c: &mut tensor<?x?xf64, #NV_24>) {
        c[i, j] = a[i, j];
    }
    fn densify(a: &tensor<?x?xf64, #NV_24>, c: &mut tensor<?x?xf64, #DENSE>) {
        c[i, j] = a[i, j];
    }
}

fn main() {}
