//! `#CSR` defines `CSR` and `CSROut` (the type of its sparse outputs): an
//! encoding named `#CSROut` is an error at that name.
use sparse_core::sparse_kernel;

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSROut = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
}

fn main() {}
