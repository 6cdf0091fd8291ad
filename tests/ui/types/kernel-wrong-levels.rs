// Operands whose encodings differ in their level types, properties, widths
// or block maps: rustc's mismatch spells each encoding's levels and map
// with the names MLIR uses (`compressed<nonunique>`, `singleton`,
// `floordiv<d0, 2>`), and points at the part that differs.
use sparse_core::sparse_kernel;

sparse_kernel! {
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
    #COO = #sparse_tensor.encoding<{
        map = (i, j) -> (i : compressed(nonunique), j : singleton)
    }>
    #CSR16 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16
    }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn spmv(a: &tensor<?x?xf32, #DCSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    fn spmv_narrow(a: &tensor<?x?xf32, #CSR16>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    fn spmv_csr(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

fn coo_for_dcsr(a: &COO<'_, f32>, x: &[f32], y: &mut [f32]) {
    let _ = spmv(a, x, y);
}

fn wide_for_narrow(a: &CSR<'_, f32>, x: &[f32], y: &mut [f32]) {
    let _ = spmv_narrow(a, x, y);
}

fn blocks_for_rows(a: &BSR<'_, f32>, x: &[f32], y: &mut [f32]) {
    let _ = spmv_csr(a, x, y);
}

fn main() {
    let _ = (coo_for_dcsr, wide_for_narrow, blocks_for_rows);
}
