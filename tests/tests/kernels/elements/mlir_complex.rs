//! MLIR's complex integration tests (`sparse_complex64.mlir`,
//! `sparse_complex32.mlir`, `sparse_complex_ops.mlir` in
//! `mlir/test/Integration/Dialect/SparseTensor/CPU/`) translated: the same
//! sparse vectors, the same kernels written in index notation, and
//! upstream's CHECK lines as the expected output (printed layouts exactly;
//! `vector.print` values to the six significant digits it prints).

use sparse_core::num_complex::Complex;
use sparse_core::output::Owned;
use sparse_core::Level;

type C64 = Complex<f64>;
type C32 = Complex<f32>;

mod k {
    sparse_core::sparse_kernel! {
        #SparseVector = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

        pub fn cadd(a: &tensor<?xcomplex<f64>, #SparseVector>, b: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = a[i] + b[i];
        }
        pub fn cmul(a: &tensor<?xcomplex<f64>, #SparseVector>, b: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = a[i] * b[i];
        }
        pub fn cadd32(a: &tensor<?xcomplex<f32>, #SparseVector>, b: &tensor<?xcomplex<f32>, #SparseVector>, x: &mut tensor<?xcomplex<f32>, #SparseVector>) {
            x[i] = a[i] + b[i];
        }
        pub fn cmul32(a: &tensor<?xcomplex<f32>, #SparseVector>, b: &tensor<?xcomplex<f32>, #SparseVector>, x: &mut tensor<?xcomplex<f32>, #SparseVector>) {
            x[i] = a[i] * b[i];
        }
        // sparse_complex_ops.mlir: `complex.sub %a, (complex.neg %b)`.
        pub fn cops(a: &tensor<?xcomplex<f64>, #SparseVector>, b: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = a[i] - -b[i];
        }
        pub fn csin(a: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = sin(a[i]);
        }
        pub fn complex_sqrt(a: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = sqrt(a[i]);
        }
        pub fn complex_tanh(a: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = tanh(a[i]);
        }
        pub fn cdiv(a: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xcomplex<f64>, #SparseVector>) {
            x[i] = a[i] / 2.0;
        }
        pub fn cabs(a: &tensor<?xcomplex<f64>, #SparseVector>, x: &mut tensor<?xf64, #SparseVector>) {
            x[i] = abs(a[i]);
        }
    }
}

/// A sparse vector of size 32 (leaked: a test's few bytes).
fn vector<V: Copy>(crd: &[usize], values: &[V]) -> k::SparseVector<'static, V> {
    let pos: &'static [usize] = Box::leak(Box::new([0, crd.len()]));
    let crd: &'static [usize] = Box::leak(crd.to_vec().into_boxed_slice());
    let values: &'static [V] = Box::leak(values.to_vec().into_boxed_slice());
    k::SparseVector::assemble([32], [Level::compressed(pos, crd)], values).unwrap()
}

fn out<V: Default>() -> k::SparseVectorOut<V, Owned> {
    k::SparseVectorOut::<V, Owned>::with_dims([32]).unwrap()
}

/// The values of `x` as `vector.print` shows its parts, one per line.
fn parts(x: &[C64]) -> Vec<f64> {
    x.iter().flat_map(|z| [z.re, z.im]).collect()
}

/// `got` equals each CHECK value to the six significant digits printed.
fn assert_printed(got: &[f64], check: &[f64]) {
    assert_eq!(got.len(), check.len(), "{got:?}");
    for (g, c) in got.iter().zip(check) {
        assert!(
            (g - c).abs() <= 5e-6 * c.abs().max(1.0),
            "got {g}, CHECK {c} ({got:?})"
        );
    }
}

#[test]
fn sparse_complex64() {
    let v1 = vector(
        &[0, 28, 31],
        &[
            C64::new(511.13, 2.0),
            C64::new(3.0, 4.0),
            C64::new(5.0, 6.0),
        ],
    );
    let v2 = vector(
        &[1, 28, 31],
        &[C64::new(1.0, 0.0), C64::new(2.0, 0.0), C64::new(3.0, 0.0)],
    );
    let (mut x0, mut x1) = (out(), out());
    k::cadd(&v1, &v2, &mut x0).unwrap();
    k::cmul(&v1, &v2, &mut x1).unwrap();
    assert_eq!(
        x0.view().to_string(),
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 32 )\nlvl = ( 32 )\npos[0] : ( 0, 4 )\n\
         crd[0] : ( 0, 1, 28, 31 )\nvalues : ( ( 511.13, 2 ), ( 1, 0 ), ( 5, 4 ), ( 8, 6 ) )\n----"
    );
    assert_eq!(
        x1.view().to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 32 )\nlvl = ( 32 )\npos[0] : ( 0, 2 )\n\
         crd[0] : ( 28, 31 )\nvalues : ( ( 6, 8 ), ( 15, 18 ) )\n----"
    );
}

#[test]
fn sparse_complex32() {
    let v1 = vector(
        &[0, 28, 31],
        &[
            C32::new(511.13, 2.0),
            C32::new(3.0, 4.0),
            C32::new(5.0, 6.0),
        ],
    );
    let v2 = vector(
        &[1, 28, 31],
        &[C32::new(1.0, 0.0), C32::new(2.0, 0.0), C32::new(3.0, 0.0)],
    );
    let (mut x0, mut x1) = (out(), out());
    k::cadd32(&v1, &v2, &mut x0).unwrap();
    k::cmul32(&v1, &v2, &mut x1).unwrap();
    assert_eq!(
        x0.view().to_string(),
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 32 )\nlvl = ( 32 )\npos[0] : ( 0, 4 )\n\
         crd[0] : ( 0, 1, 28, 31 )\nvalues : ( ( 511.13, 2 ), ( 1, 0 ), ( 5, 4 ), ( 8, 6 ) )\n----"
    );
    assert_eq!(
        x1.view().to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 32 )\nlvl = ( 32 )\npos[0] : ( 0, 2 )\n\
         crd[0] : ( 28, 31 )\nvalues : ( ( 6, 8 ), ( 15, 18 ) )\n----"
    );
}

#[test]
fn sparse_complex_ops() {
    let sv1 = vector(
        &[0, 28, 31],
        &[C64::new(-5.13, 2.0), C64::new(3.0, 4.0), C64::new(5.0, 6.0)],
    );
    let sv2 = vector(
        &[1, 28, 31],
        &[C64::new(1.0, 0.0), C64::new(-2.0, 0.0), C64::new(3.0, 0.0)],
    );
    let mut x = out();
    k::cops(&sv1, &sv2, &mut x).unwrap();
    assert_printed(
        &parts(x.view().values()),
        &[-5.13, 2.0, 1.0, 0.0, 1.0, 4.0, 8.0, 6.0],
    );
    k::csin(&sv1, &mut x).unwrap();
    assert_printed(
        &parts(x.view().values()),
        &[3.43887, 1.47097, 3.85374, -27.0168, -193.43, 57.2184],
    );
    k::complex_sqrt(&sv1, &mut x).unwrap();
    assert_printed(
        &parts(x.view().values()),
        &[0.433635, 2.30609, 2.0, 1.0, 2.53083, 1.18538],
    );
    k::complex_tanh(&sv2, &mut x).unwrap();
    assert_printed(
        &parts(x.view().values()),
        &[0.761594, 0.0, -0.964028, 0.0, 0.995055, 0.0],
    );
    k::cdiv(&sv1, &mut x).unwrap();
    assert_printed(
        &parts(x.view().values()),
        &[-2.565, 1.0, 1.5, 2.0, 2.5, 3.0],
    );
    let mut a = out::<f64>();
    k::cabs(&sv1, &mut a).unwrap();
    assert_printed(a.view().values(), &[5.50608, 5.0, 7.81025]);
}
