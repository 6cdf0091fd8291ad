//! `#CSR` defines `CSR`, `CSROut` (the type of its sparse outputs) and
//! `IsCSROut` (the bound kernels take them by): an encoding named `#CSROut`
//! or a type named `IsCSROut` is an error at that name.
use sparse_core::sparse_kernel;

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSROut = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    type IsCSROut = tensor<4xf32>;
}

fn main() {}
