//! Kernel forms whose generated code differs inside the chunk: static
//! shapes (arrays, nested arrays), a scalar parameter, index variables as
//! values, semiring closures (`reduce`, `unary`), integers and `f32`, and a
//! CSF tensor whose outer level is compressed; each against the same kernel
//! without `#[parallel]`, bit for bit, on every named shape.

use sparse_tests::fixture::{with_tensor, CSF, CSR};

use super::common::{bits, on_threads, rough, shapes, vector};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16 }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed), crdWidth = 16 }>

        pub fn fixed(a: &tensor<5x4xf32, #CSR>, alpha: f32, x: &tensor<4xf32>, y: &mut tensor<5x2xf32>) {
            y[i, r] = alpha * a[i, j] * x[j] + (r as f32);
        }
        #[parallel]
        pub fn par_fixed(a: &tensor<5x4xf32, #CSR>, alpha: f32, x: &tensor<4xf32>, y: &mut tensor<5x2xf32>) {
            y[i, r] = alpha * a[i, j] * x[j] + (r as f32);
        }
        pub fn products(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = reduce(unary(a[i, j], present = |v| v + (i as f64), absent = || 0.5), identity = 1.0, |acc, v| acc * v);
        }
        #[parallel]
        pub fn par_products(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = reduce(unary(a[i, j], present = |v| v + (i as f64), absent = || 0.5), identity = 1.0, |acc, v| acc * v);
        }
        pub fn ints(a: &tensor<?x?xi64, #CSR>, x: &tensor<?xi64>, y: &mut tensor<?xi64>) {
            y[i] -= a[i, j] * x[j] * 3;
        }
        #[parallel]
        pub fn par_ints(a: &tensor<?x?xi64, #CSR>, x: &tensor<?xi64>, y: &mut tensor<?xi64>) {
            y[i] -= a[i, j] * x[j] * 3;
        }
        pub fn conv(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        #[parallel]
        pub fn par_conv(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn ttv(t: &tensor<?x?x?xf64, #CSF>, v: &tensor<?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = t[i, j, k] * v[k];
        }
        #[parallel]
        pub fn par_ttv(t: &tensor<?x?x?xf64, #CSF>, v: &tensor<?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = t[i, j, k] * v[k];
        }
    }
}

#[test]
fn static_shapes_and_a_scalar_parameter() {
    let e = vec![
        (vec![0, 1], 1.5f32),
        (vec![2, 0], -2.0),
        (vec![2, 3], 0.25),
        (vec![4, 2], 3.0),
    ];
    with_tensor(&CSR, [5, 4], &e, |a| {
        let x = [0.5f32, -1.25, 2.0, 3.5];
        let (mut want, mut got) = ([[7.0f32; 2]; 5], [[-7.0f32; 2]; 5]);
        k::fixed(a, 1.5, &x, &mut want).unwrap();
        on_threads(|| k::par_fixed(a, 1.5, &x, &mut got)).unwrap();
        let flat = |m: &[[f32; 2]; 5]| m.iter().flatten().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(flat(&got), flat(&want));
        // Row 2: 1.5 (-2 * 0.5 + 0.25 * 3.5) + r (the sum does not cover `+ r`).
        assert_eq!(got[2], [-0.1875, 0.8125]);
    });
}

#[test]
fn closures_integers_and_csf_match_the_sequential_kernels() {
    for s in shapes(rough) {
        let [m, n] = s.dims;
        with_tensor(&CSR, s.dims, &s.entries, |a| {
            let (mut want, mut got) = (vec![7.0; m], vec![-7.0; m]);
            k::products(a, &mut want).unwrap();
            on_threads(|| k::par_products(a, &mut got)).unwrap();
            assert_eq!(bits(&got), bits(&want), "{}: reduce", s.name);
        });
        let ie: Vec<(Vec<usize>, i64)> = s
            .entries
            .iter()
            .enumerate()
            .map(|(q, (c, _))| (c.clone(), (q as i64 * 7919) % 1001 - 500))
            .collect();
        with_tensor(&CSR, s.dims, &ie, |a| {
            let x: Vec<i64> = (0..n as i64)
                .map(|v| v.wrapping_mul(i64::MAX / 7))
                .collect();
            let y0: Vec<i64> = (0..m as i64).map(|v| v - 3).collect();
            let (mut want, mut got) = (y0.clone(), y0);
            k::ints(a, &x, &mut want).unwrap();
            on_threads(|| k::par_ints(a, &x, &mut got)).unwrap();
            assert_eq!(got, want, "{}: wrapping integers", s.name);
        });
        // A 3-D tensor: row i of the matrix spread over k = j % 3.
        let te: Vec<(Vec<usize>, f64)> = s
            .entries
            .iter()
            .map(|(c, v)| (vec![c[0], c[1], c[1] % 3], *v))
            .collect();
        with_tensor(&CSF, [m, n, 3], &te, |t| {
            let v = vector(3, rough);
            let (mut want, mut got) = (vec![7.0; m * n], vec![-7.0; m * n]);
            k::ttv(
                t,
                &v,
                sparse_core::DenseViewMut::new(&mut want, [m, n]).unwrap(),
            )
            .unwrap();
            on_threads(|| {
                k::par_ttv(
                    t,
                    &v,
                    sparse_core::DenseViewMut::new(&mut got, [m, n]).unwrap(),
                )
            })
            .unwrap();
            assert_eq!(bits(&got), bits(&want), "{}: CSF", s.name);
        });
    }
}

#[test]
fn a_convolution_with_affine_subscripts_matches_the_sequential_kernel() {
    let f = [0.5, -1.25, 2.0, 3.5];
    let fview = sparse_core::DenseView::new(&f, [2, 2]).unwrap();
    for s in shapes(rough) {
        let [m, n] = s.dims;
        if m < 2 || n < 2 {
            continue;
        }
        let od = [m - 1, n - 1];
        with_tensor(&CSR, s.dims, &s.entries, |a| {
            let (mut want, mut got) = (vec![7.0; od[0] * od[1]], vec![-7.0; od[0] * od[1]]);
            k::conv(
                a,
                fview,
                sparse_core::DenseViewMut::new(&mut want, od).unwrap(),
            )
            .unwrap();
            on_threads(|| {
                k::par_conv(
                    a,
                    fview,
                    sparse_core::DenseViewMut::new(&mut got, od).unwrap(),
                )
            })
            .unwrap();
            assert_eq!(bits(&got), bits(&want), "{}: conv", s.name);
        });
    }
}
