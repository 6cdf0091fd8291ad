//! Compile-time constants of complex and half-precision elements: MLIR's
//! literals (`(re, im)` for complex elements, float literals and 16-bit
//! patterns for `f16`), NumPy files (`<f2`, `<c16`), printed as MLIR's
//! `sparse_tensor.print` prints them and used by kernels.

use sparse_core::half::f16;
use sparse_core::num_complex::Complex;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub static Z: tensor<4xcomplex<f64>, #SV> = sparse<[[0], [2]], [(1.0, -2.0), (0.5, 3)]>;
        pub static Z32: tensor<2x2xcomplex<f32>, #CSR> = dense<[[(0.0, 0.0), (1.5, 0.25)], [(-1.0, 0.0), (0.0, 0.0)]]>;
        pub static H: tensor<2x3xf16, #CSR> = file("data/elements/half.npy");
        pub static ZF: tensor<2x2xcomplex<f64>, #CSR> = file("data/elements/complex.npy");

        pub fn scale(a: &tensor<?x?xcomplex<f64>, #CSR>, y: &mut tensor<?xcomplex<f64>>) {
            y[i] = a[i, j] * (0.0 - 1.0);
        }
    }
}

#[test]
fn complex_constants_print_as_mlir() {
    assert_eq!(
        k::Z.to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 4 )\nlvl = ( 4 )\npos[0] : ( 0, 2 )\n\
         crd[0] : ( 0, 2 )\nvalues : ( ( 1, -2 ), ( 0.5, 3 ) )\n----"
    );
    assert_eq!(
        k::Z32.to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 2, 2 )\nlvl = ( 2, 2 )\npos[1] : ( 0, 1, 2 )\n\
         crd[1] : ( 1, 0 )\nvalues : ( ( 1.5, 0.25 ), ( -1, 0 ) )\n----"
    );
}

#[test]
fn numpy_half_and_complex_files() {
    assert_eq!(
        k::H.values(),
        [f16::ONE, f16::from_f32(-2.5), f16::from_f64(0.1)]
    );
    assert_eq!(k::H.level(1).coordinates(), [0, 2, 1]);
    assert_eq!(
        k::ZF.values(),
        [Complex::new(1.0, 2.0), Complex::new(-3.0, 0.5)]
    );
    let mut y = [Complex::new(9.0, 9.0); 2];
    k::scale(&k::ZF, &mut y).unwrap();
    assert_eq!(y, [Complex::new(-1.0, -2.0), Complex::new(3.0, -0.5)]);
}
