//! Pooling windows: index variables sized by `#[range(k = n)]` rather than
//! by a tensor dimension, used only inside subscripts (`o[i, j] = a[i + k,
//! j + l]`, MLIR's `linalg.pooling_*`, whose filter operand contributes
//! only its shape). Sum pooling over CSR, CSC, DCSR, COO and a 3-D CSF
//! input into dense and sparse outputs, and max pooling written with
//! `reduce`, against windows summed here over the dense image; MLIR's
//! `sparse_pooling_nhwc.mlir` with its CHECK values.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::vocab::LevelExpr;
use sparse_core::KernelError;
use sparse_tests::dense::{close, pattern, Dense};
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR};
use sparse_tests::gen::{entries, Entries};
use sparse_tests::reference::{lvl, Kind};
use sparse_tests::sparse_out::{check_output, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
        #CCCC = #sparse_tensor.encoding<{
            map = (d0, d1, d2, d3) -> (d0 : compressed, d1 : compressed, d2 : compressed, d3 : compressed),
            posWidth = 32,
            crdWidth = 32
        }>

        #[range(k = 2, l = 3)]
        pub fn sum_csr(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l];
        }
        #[range(k = 2, l = 3)]
        pub fn sum_csc(a: &tensor<?x?xf64, #CSC>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l];
        }
        #[range(k = 2, l = 3)]
        pub fn sum_dcsr(a: &tensor<?x?xf64, #DCSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l];
        }
        #[range(k = 2, l = 3)]
        pub fn sum_coo(a: &tensor<?x?xf64, #COO>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l];
        }
        // Into a sparse output: stored where the window holds an entry.
        #[range(k = 2, l = 3)]
        pub fn sum_dcsr_into_dcsr(a: &tensor<?x?xf64, #DCSR>, o: &mut tensor<?x?xf64, #DCSR>) {
            o[i, j] = a[i + k, j + l];
        }
        // Channels last: the window over the first two dimensions.
        #[range(k = 2, l = 3)]
        pub fn sum_csf(a: &tensor<?x?x?xf64, #CSF>, o: &mut tensor<?x?x?xf64>) {
            o[i, j, c] = a[i + k, j + l, c];
        }
        // Average pooling: each entry scaled by the window's size.
        #[range(k = 2, l = 3)]
        pub fn average_csr(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] / 6.0;
        }
        // Max pooling over the stored entries (a custom reduction: empty
        // windows keep the identity).
        #[range(k = 2, l = 3)]
        pub fn max_csr(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = reduce(a[i + k, j + l], identity = -1000.0, |acc, v| max(acc, v));
        }
        // A range that also sizes a plain index: checked at the call.
        #[range(k = 2)]
        pub fn with_filter(a: &tensor<?x?xf64, #CSR>, f: &tensor<?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j] * f[k];
        }

        // MLIR's `@pooling_nhwc_sum_CCCC` (the 2x2 filter's values unread).
        #[range(kh = 2, kw = 2)]
        pub fn pooling_nhwc_sum_cccc(input: &tensor<1x4x4x1xf32, #CCCC>, o: &mut tensor<1x3x3x1xf32, #CCCC>) {
            o[n, h, w, c] = input[n, h + kh, w + kw, c];
        }
    }
}

const WINDOW: [usize; 2] = [2, 3];

/// `o[i, j, ..] = fold over the window of a[i + k, j + l, ..]`, the window
/// over the first two dimensions, over the elements `stored` says are
/// stored (all of them for a sum); `None` where the window holds none.
fn pool(a: &Dense<f64>, stored: &Dense<f64>, fold: fn(f64, f64) -> f64) -> Vec<Option<f64>> {
    let rest: usize = a.dims[2..].iter().product();
    let (h, w) = (a.dims[0] + 1 - WINDOW[0], a.dims[1] + 1 - WINDOW[1]);
    let mut out = Vec::new();
    for i in 0..h {
        for j in 0..w {
            for c in 0..rest {
                let mut acc = None;
                for k in 0..WINDOW[0] {
                    for l in 0..WINDOW[1] {
                        let at = ((i + k) * a.dims[1] + j + l) * rest + c;
                        if stored.data[at] != 0.0 {
                            acc = Some(acc.map_or(a.data[at], |x| fold(x, a.data[at])));
                        }
                    }
                }
                out.push(acc);
            }
        }
    }
    out
}

/// An image at least as large as the window, and its entries.
fn image(rank: usize) -> impl Strategy<Value = (Vec<usize>, Entries<f64>)> {
    (2usize..7, 3usize..8, 1usize..4).prop_flat_map(move |(h, w, c)| {
        let dims = if rank == 3 { vec![h, w, c] } else { vec![h, w] };
        (Just(dims.clone()), entries::<f64>(&dims))
    })
}

proptest! {
    #[test]
    fn sum_average_and_max_pooling_over_every_format((dims, e) in image(2)) {
        let d = [dims[0], dims[1]];
        let ad = Dense::from_entries(&dims, &e);
        let all = Dense::from_data(&dims, vec![1.0; ad.data.len()]);
        let sum: Vec<f64> = pool(&ad, &all, |x, y| x + y).into_iter().map(|v| v.unwrap_or(0.0)).collect();
        let od = [d[0] + 1 - WINDOW[0], d[1] + 1 - WINDOW[1]];
        let run = |name: &str, f: &dyn Fn(sparse_core::DenseViewMut<'_, f64, 2>) -> Result<(), KernelError>, want: &[f64]| {
            let mut o = vec![7.0; od[0] * od[1]];
            f(sparse_core::DenseViewMut::new(&mut o, od).unwrap()).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert!(close(&o, want), "{}: got {:?}, want {:?}", name, o, want);
            Ok(())
        };
        run("csr", &|o| with_tensor(&CSR, d, &e, |t| k::sum_csr(t, o)), &sum)?;
        run("csc", &|o| with_tensor(&CSC, d, &e, |t| k::sum_csc(t, o)), &sum)?;
        run("dcsr", &|o| with_tensor(&DCSR, d, &e, |t| k::sum_dcsr(t, o)), &sum)?;
        run("coo", &|o| with_tensor(&COO, d, &e, |t| k::sum_coo(t, o)), &sum)?;
        let average: Vec<f64> = sum.iter().map(|s| s / 6.0).collect();
        run("average", &|o| with_tensor(&CSR, d, &e, |t| k::average_csr(t, o)), &average)?;
        let stored = pattern(&dims, &e);
        let max: Vec<f64> = pool(&ad, &stored, f64::max).into_iter().map(|v| v.unwrap_or(-1000.0)).collect();
        run("max", &|o| with_tensor(&CSR, d, &e, |t| k::max_csr(t, o)), &max)?;

        // Into DCSR: stored where the window holds a stored entry.
        let produced: Stored<f64> = pool(&ad, &stored, |x, y| x + y)
            .into_iter()
            .enumerate()
            .filter_map(|(n, v)| Some((vec![n / od[1], n % od[1]], v?)))
            .collect();
        let mut o = k::DCSROut::<f64, Owned>::with_dims(od).unwrap();
        with_tensor(&DCSR, d, &e, |t| k::sum_dcsr_into_dcsr(t, &mut o)).unwrap();
        check_output(&o.view(), &produced, &Dense::from_data(&od, sum.clone()))
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn pooling_a_3d_csf_image_channel_by_channel((dims, e) in image(3)) {
        let ad = Dense::from_entries(&dims, &e);
        let all = Dense::from_data(&dims, vec![1.0; ad.data.len()]);
        let want: Vec<f64> = pool(&ad, &all, |x, y| x + y).into_iter().map(|v| v.unwrap_or(0.0)).collect();
        let od = [dims[0] + 1 - WINDOW[0], dims[1] + 1 - WINDOW[1], dims[2]];
        let mut o = vec![7.0; want.len()];
        with_tensor(&CSF, [dims[0], dims[1], dims[2]], &e, |t| {
            k::sum_csf(t, sparse_core::DenseViewMut::new(&mut o, od).unwrap())
        })
        .unwrap();
        prop_assert!(close(&o, &want), "got {:?}, want {:?}", o, want);
    }
}

/// A range and a dimension the same index sizes must agree at the call.
#[test]
fn a_range_disagreeing_with_a_dimension_is_an_error_before_any_write() {
    let e: Entries<f64> = vec![(vec![0, 0], 1.0)];
    let mut o = vec![7.0; 2 * 2];
    let f = [1.0, 2.0, 3.0];
    let r = with_tensor(&CSR, [3, 2], &e, |t| {
        k::with_filter(
            t,
            &f,
            sparse_core::DenseViewMut::new(&mut o, [2, 2]).unwrap(),
        )
    });
    assert!(matches!(r, Err(KernelError::ShapeMismatch { .. })), "{r:?}");
    assert_eq!(o, vec![7.0; 4]);
    let r = with_tensor(&CSR, [3, 2], &e, |t| {
        k::with_filter(
            t,
            &f[..2],
            sparse_core::DenseViewMut::new(&mut o, [2, 2]).unwrap(),
        )
    });
    assert!(r.is_ok());
    assert_eq!(o, vec![1.0, 0.0, 0.0, 0.0]);
}

/// MLIR's `sparse_pooling_nhwc.mlir`: a 1x4x4x1 image of rows `1 2 1 2`
/// stored as CCCC, summed over 2x2 windows: nine 6s, with upstream's
/// printed layout.
#[test]
fn mlir_pooling_nhwc_sum_cccc() {
    let dims = [1, 4, 4, 1];
    let e: Entries<f32> = (0..4)
        .flat_map(|h| (0..4).map(move |w| (vec![0, h, w, 0], if w % 2 == 0 { 1.0 } else { 2.0 })))
        .collect();
    let cccc = [0, 1, 2, 3].map(|d| lvl(Kind::Compressed { unique: true }, LevelExpr::Dim(d)));
    let mut o = k::CCCCOut::<f32, Owned>::with_dims([1, 3, 3, 1]).unwrap();
    with_tensor(&cccc, dims, &e, |t| k::pooling_nhwc_sum_cccc(t, &mut o)).unwrap();
    let v = o.view();
    let level = |l: usize| {
        let s = v.level(l);
        let pos: Vec<u32> = s.positions().to_vec();
        let crd: Vec<u32> = s.coordinates().to_vec();
        (pos, crd)
    };
    assert_eq!(v.number_of_entries(), 9);
    assert_eq!(level(0), (vec![0, 1], vec![0]));
    assert_eq!(level(1), (vec![0, 3], vec![0, 1, 2]));
    assert_eq!(
        level(2),
        (vec![0, 3, 6, 9], vec![0, 1, 2, 0, 1, 2, 0, 1, 2])
    );
    assert_eq!(level(3), ((0..=9).collect::<Vec<u32>>(), vec![0; 9]));
    assert_eq!(v.values(), &[6.0; 9]);
}
