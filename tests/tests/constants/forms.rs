//! The literal forms on CSR: `sparse<>`, `dense<>`, splats, element types.

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// Seed 002's example.
    pub static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;

    pub fn spmv(a: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

#[test]
fn sparse_literal_prints_as_mlir() {
    let expected = "\
---- Sparse Tensor ----
nse = 2
dim = ( 3, 4 )
lvl = ( 3, 4 )
pos[1] : ( 0, 1, 2, 2 )
crd[1] : ( 0, 2 )
values : ( 1, 5 )
----";
    assert_eq!(W.to_string(), expected);
    let mut y = [0.0; 3];
    spmv(&W, &[1.0, 2.0, 3.0, 4.0], &mut y).unwrap();
    assert_eq!(y, [1.0, 15.0, 0.0]);
}
