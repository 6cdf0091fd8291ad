//! A kernel over a misspelt encoding reports one error, at the typo: the
//! kernel's stub takes the parameter as `&impl Sized`, so neither the
//! kernel nor its call site adds a follow-on error.
use sparse_core::sparse_kernel;

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compresed) }>
    pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() {
    let a = [0u8; 4];
    let mut y = [0.0; 2];
    let _ = spmv(&a, &[1.0, 2.0], &mut y);
}
