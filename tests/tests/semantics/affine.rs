//! Affine subscripts (issue 16, item 1): convolutions and shifted or
//! strided reads, `y[i] = x[i + k] * f[k]`, `o[i, j] = a[i + k, j + l] *
//! f[k, l]`, with sparse inputs, sparse filters or both, into dense and
//! sparse outputs, against a dense convolution computed here. A sparse
//! output stores the elements some term reaches with every sparse factor
//! stored (a window holding a stored entry), computed zeros included, as
//! MLIR's slice-driven loops do (`mlir_layouts`, values printed by
//! `tests/oracle/conv.py`). A subscript
//! that would leave its dimension is a `KernelError::SubscriptRange`
//! before any loop runs.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::vocab::LevelExpr;
use sparse_core::KernelError;
use sparse_tests::dense::{close, pattern, Dense};
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, entries, Entries};
use sparse_tests::reference::{lvl, Kind, RefLevel};
use sparse_tests::sparse_out::{check_output, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        pub fn conv1d_dense(x: &tensor<?xf64>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_sparse_x(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_sparse_f(x: &tensor<?xf64>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_both(x: &tensor<?xf64, #SV>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_both_sparse_out(x: &tensor<?xf64, #SV>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_sparse_x_sparse_out(x: &tensor<8xf64, #SV>, f: &tensor<3xf64>, y: &mut tensor<6xf64, #SV>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv1d_both_static(x: &tensor<8xf64, #SV>, f: &tensor<3xf64, #SV>, y: &mut tensor<6xf64, #SV>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv2d_csr_static(a: &tensor<4x4xf64, #CSR>, f: &tensor<2x2xf64>, o: &mut tensor<3x3xf64, #CSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_dense_into_csr(a: &tensor<4x4xf64>, f: &tensor<2x2xf64, #CSR>, o: &mut tensor<3x3xf64, #CSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        /// Stride 2: `y[i] = Σ_k x[2 i + k] f[k]`.
        pub fn strided_sparse_x(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = x[2 * i + k] * f[k];
        }
        pub fn strided_dense(x: &tensor<?xf64>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = x[2 * i + k] * f[k];
        }
        /// A shift: `y[i] = x[i + 2] - b[i]`.
        pub fn shift_sparse(x: &tensor<?xf64, #SV>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = x[i + 2] - b[i];
        }
        /// A correlation read backwards: `y[i] = Σ_k x[i - k + 2] f[k]`.
        pub fn reversed(x: &tensor<?xf64>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = x[i - k + 2] * f[k];
        }
        /// The same with `x` sparse: `i` drives `x`'s walk (coefficient 1),
        /// inside the loop over `k`.
        pub fn reversed_sparse_x(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = x[i - k + 2] * f[k];
        }

        pub fn conv2d_csr(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_dcsr(a: &tensor<?x?xf64, #DCSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_csc(a: &tensor<?x?xf64, #CSC>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_coo(a: &tensor<?x?xf64, #COO>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_sparse_filter(a: &tensor<?x?xf64>, f: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_both(a: &tensor<?x?xf64, #DCSR>, f: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_csr_into_csr(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #CSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_csc_into_csr(a: &tensor<?x?xf64, #CSC>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #CSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_dcsr_into_dcsr(a: &tensor<?x?xf64, #DCSR>, f: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64, #DCSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_static(a: &tensor<6x5xf64, #CSR>, f: &tensor<3x2xf64>, o: &mut tensor<4x4xf64>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
    }
}

/// `y[i] = Σ_k x[stride * i + k] f[k]` for `i < n`, and whether some term
/// had both factors stored (`x_stored`, `f_stored` say which are).
fn conv1d(
    x: &[f64],
    f: &[f64],
    stride: usize,
    n: usize,
    stored: (&[bool], &[bool]),
) -> (Vec<f64>, Vec<bool>) {
    let mut y = vec![0.0; n];
    let mut produced = vec![false; n];
    for i in 0..n {
        for (k, fk) in f.iter().enumerate() {
            let at = stride * i + k;
            y[i] += x[at] * fk;
            produced[i] |= stored.0[at] && stored.1[k];
        }
    }
    (y, produced)
}

/// The valid 2-D convolution `o[i, j] = Σ_{k,l} a[i + k, j + l] f[k, l]`,
/// and which outputs some pair of stored factors reaches.
fn conv2d(
    a: &Dense<f64>,
    f: &Dense<f64>,
    sa: &Dense<f64>,
    sf: &Dense<f64>,
) -> (Dense<f64>, Stored<f64>) {
    let (h, w) = (a.dims[0] - f.dims[0] + 1, a.dims[1] - f.dims[1] + 1);
    let mut o = Dense::zeros(&[h, w]);
    let mut produced = Stored::new();
    for i in 0..h {
        for j in 0..w {
            let mut any = false;
            for k in 0..f.dims[0] {
                for l in 0..f.dims[1] {
                    *o.at_mut(&[i, j]) += a.at(&[i + k, j + l]) * f.at(&[k, l]);
                    any |= sa.at(&[i + k, j + l]) != 0.0 && sf.at(&[k, l]) != 0.0;
                }
            }
            if any {
                produced.insert(vec![i, j], o.at(&[i, j]));
            }
        }
    }
    (o, produced)
}

/// Sizes of a 1-D convolution: input length, filter length, stride, output
/// length (the largest that keeps every read inside the input).
fn sizes_1d() -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (1usize..12, 1usize..5, 1usize..3).prop_filter_map("filter fits", |(nx, nf, s)| {
        (nf <= nx).then(|| (nx, nf, s, (nx - nf) / s + 1))
    })
}

/// An image of up to 6 x 6, a filter no larger, and their entries.
#[allow(clippy::type_complexity)]
fn conv2d_case() -> impl Strategy<Value = ([usize; 2], [usize; 2], Entries<f64>, Entries<f64>)> {
    (1usize..7, 1usize..7)
        .prop_flat_map(|(h, w)| (Just([h, w]), (1..=h, 1..=w)))
        .prop_flat_map(|(da, (kh, kw))| {
            (
                Just(da),
                Just([kh, kw]),
                entries::<f64>(&da),
                entries::<f64>(&[kh, kw]),
            )
        })
}

proptest! {
    #[test]
    fn conv1d_in_every_combination(
        ((nx, nf, _, ny), x, f) in sizes_1d().prop_flat_map(|(nx, nf, s, ny)| {
            (Just((nx, nf, s, ny)), entries::<f64>(&[nx]), entries::<f64>(&[nf]))
        }),
    ) {
        let xd = Dense::from_entries(&[nx], &x);
        let fd = Dense::from_entries(&[nf], &f);
        let (xs, fs) = (pattern(&[nx], &x), pattern(&[nf], &f));
        let xs: Vec<bool> = xs.data.iter().map(|v| *v != 0.0).collect();
        let fs: Vec<bool> = fs.data.iter().map(|v| *v != 0.0).collect();
        let all = vec![true; nx.max(nf)];
        let (want, _) = conv1d(&xd.data, &fd.data, 1, ny, (&all, &all));
        let run = |name: &str, got: Result<Vec<f64>, KernelError>| -> Result<(), TestCaseError> {
            let got = got.map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert!(close(&got, &want), "{}: got {:?}, want {:?}", name, got, want);
            Ok(())
        };
        let mut y = vec![7.0; ny];
        run("dense", k::conv1d_dense(&xd.data, &fd.data, &mut y).map(|()| y.clone()))?;
        run("sparse x", with_tensor(&SV, [nx], &x, |t| k::conv1d_sparse_x(t, &fd.data, &mut y)).map(|()| y.clone()))?;
        run("sparse f", with_tensor(&SV, [nf], &f, |t| k::conv1d_sparse_f(&xd.data, t, &mut y)).map(|()| y.clone()))?;
        run("both", with_tensor(&SV, [nx], &x, |tx| with_tensor(&SV, [nf], &f, |tf| k::conv1d_both(tx, tf, &mut y))).map(|()| y.clone()))?;
        // Into a sparse vector: stored where some term has both factors.
        let (want_sparse, produced) = conv1d(&xd.data, &fd.data, 1, ny, (&xs, &fs));
        let mut ys = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
        with_tensor(&SV, [nx], &x, |tx| with_tensor(&SV, [nf], &f, |tf| k::conv1d_both_sparse_out(tx, tf, &mut ys)))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let stored: Stored<f64> = (0..ny).filter(|&i| produced[i]).map(|i| (vec![i], want_sparse[i])).collect();
        check_output(&ys.view(), &stored, &Dense::from_data(&[ny], want_sparse.clone()))
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn strided_shifted_and_reversed_reads(
        ((nx, nf, s, ny), x, f, b) in sizes_1d().prop_flat_map(|(nx, nf, s, ny)| {
            (Just((nx, nf, s, ny)), entries::<f64>(&[nx]), entries::<f64>(&[nf]), dense_vec::<f64>(nx))
        }),
    ) {
        let xd = Dense::from_entries(&[nx], &x);
        let fd = Dense::from_entries(&[nf], &f);
        let all = vec![true; nx.max(nf)];
        if s == 2 {
            let (want, _) = conv1d(&xd.data, &fd.data, 2, ny, (&all, &all));
            let mut y = vec![7.0; ny];
            with_tensor(&SV, [nx], &x, |t| k::strided_sparse_x(t, &fd.data, &mut y)).unwrap();
            prop_assert!(close(&y, &want), "strided sparse x: {:?} vs {:?}", y, want);
            let mut y = vec![7.0; ny];
            with_tensor(&SV, [nf], &f, |t| k::strided_dense(&xd.data, t, &mut y)).unwrap();
            prop_assert!(close(&y, &want), "strided dense x: {:?} vs {:?}", y, want);
        }
        // y[i] = x[i + 2] - b[i] over i < nx - 2.
        if nx > 2 {
            let n = nx - 2;
            let want: Vec<f64> = (0..n).map(|i| xd.data[i + 2] - b[i]).collect();
            let mut y = vec![7.0; n];
            with_tensor(&SV, [nx], &x, |t| k::shift_sparse(t, &b[..n], &mut y)).unwrap();
            prop_assert!(close(&y, &want), "shift: {:?} vs {:?}", y, want);
        }
        // y[i] = Σ_k x[i - k + 2] f[k], k < 3, i < nx - 2.
        if nx > 2 && nf >= 3 {
            let n = nx - 2;
            let want: Vec<f64> = (0..n)
                .map(|i| (0..3).map(|k| xd.data[i + 2 - k] * fd.data[k]).sum())
                .collect();
            let mut y = vec![7.0; n];
            let f3: Entries<f64> = f.iter().filter(|(c, _)| c[0] < 3).cloned().collect();
            with_tensor(&SV, [3], &f3, |t| k::reversed(&xd.data, t, &mut y)).unwrap();
            prop_assert!(close(&y, &want), "reversed: {:?} vs {:?}", y, want);
            let mut y = vec![7.0; n];
            with_tensor(&SV, [nx], &x, |t| k::reversed_sparse_x(t, &fd.data[..3], &mut y)).unwrap();
            prop_assert!(close(&y, &want), "reversed, sparse x: {:?} vs {:?}", y, want);
        }
    }

    #[test]
    fn conv2d_over_every_input_format(
        (da, df, a, f) in conv2d_case(),
    ) {
        let ad = Dense::from_entries(&da, &a);
        let fd = Dense::from_entries(&df, &f);
        let ones_a = Dense::from_data(&da, vec![1.0; da[0] * da[1]]);
        let ones_f = Dense::from_data(&df, vec![1.0; df[0] * df[1]]);
        let (want, _) = conv2d(&ad, &fd, &ones_a, &ones_f);
        let od = [want.dims[0], want.dims[1]];
        let fview = sparse_core::DenseView::new(&fd.data, df).unwrap();
        let aview = sparse_core::DenseView::new(&ad.data, da).unwrap();
        type Run<'a> = &'a dyn Fn(&mut Vec<f64>) -> Result<(), KernelError>;
        let runs: [(&str, Run); 6] = [
            ("csr", &|o| with_tensor(&CSR, da, &a, |t| k::conv2d_csr(t, fview, sparse_core::DenseViewMut::new(o, od).unwrap()))),
            ("dcsr", &|o| with_tensor(&DCSR, da, &a, |t| k::conv2d_dcsr(t, fview, sparse_core::DenseViewMut::new(o, od).unwrap()))),
            ("csc", &|o| with_tensor(&CSC, da, &a, |t| k::conv2d_csc(t, fview, sparse_core::DenseViewMut::new(o, od).unwrap()))),
            ("coo", &|o| with_tensor(&COO, da, &a, |t| k::conv2d_coo(t, fview, sparse_core::DenseViewMut::new(o, od).unwrap()))),
            ("sparse filter", &|o| with_tensor(&CSR, df, &f, |t| k::conv2d_sparse_filter(aview, t, sparse_core::DenseViewMut::new(o, od).unwrap()))),
            ("both", &|o| with_tensor(&DCSR, da, &a, |ta| with_tensor(&CSR, df, &f, |tf| k::conv2d_both(ta, tf, sparse_core::DenseViewMut::new(o, od).unwrap())))),
        ];
        for (name, run) in runs {
            let mut o = vec![7.0; od[0] * od[1]];
            prop_assert_eq!(run(&mut o), Ok(()), "{}", name);
            prop_assert!(close(&o, &want.data), "{}: got {:?}, want {:?}", name, o, want.data);
        }
    }

    #[test]
    fn conv2d_into_sparse_outputs(
        (da, df, a, f) in conv2d_case(),
    ) {
        let ad = Dense::from_entries(&da, &a);
        let fd = Dense::from_entries(&df, &f);
        let (pa, pf) = (pattern(&da, &a), pattern(&df, &f));
        let ones_f = Dense::from_data(&df, vec![1.0; df[0] * df[1]]);
        let od = [da[0] - df[0] + 1, da[1] - df[1] + 1];
        let fview = sparse_core::DenseView::new(&fd.data, df).unwrap();
        // A dense filter: stored where the window holds a stored entry.
        let (want, produced) = conv2d(&ad, &fd, &pa, &ones_f);
        let mut o = k::CSROut::<f64, Owned>::with_dims(od).unwrap();
        with_tensor(&CSR, da, &a, |t| k::conv2d_csr_into_csr(t, fview, &mut o)).unwrap();
        check_output(&o.view(), &produced, &want).map_err(|e| TestCaseError::fail(format!("csr: {e}")))?;
        let mut o = k::CSROut::<f64, Owned>::with_dims(od).unwrap();
        with_tensor(&CSC, da, &a, |t| k::conv2d_csc_into_csr(t, fview, &mut o)).unwrap();
        check_output(&o.view(), &produced, &want).map_err(|e| TestCaseError::fail(format!("csc: {e}")))?;
        // Both sparse: stored where a stored entry meets a stored weight.
        let (want, produced) = conv2d(&ad, &fd, &pa, &pf);
        let mut o = k::DCSROut::<f64, Owned>::with_dims(od).unwrap();
        with_tensor(&DCSR, da, &a, |ta| with_tensor(&CSR, df, &f, |tf| k::conv2d_dcsr_into_dcsr(ta, tf, &mut o))).unwrap();
        check_output(&o.view(), &produced, &want).map_err(|e| TestCaseError::fail(format!("dcsr: {e}")))?;
    }
}

#[test]
fn a_subscript_leaving_its_dimension_is_an_error_before_any_write() {
    // y has 5 elements, f 3: x needs 7, has 6.
    let (x, f) = ([1.0; 6], [1.0; 3]);
    let mut y = [9.0; 5];
    let err = k::conv1d_dense(&x, &f, &mut y).unwrap_err();
    assert_eq!(
        err,
        KernelError::SubscriptRange {
            tensor: "x",
            dim: 0,
            subscript: "i + k",
            min: 0,
            max: 6,
            size: 6
        }
    );
    assert_eq!(
        err.to_string(),
        "the subscript `i + k` of dimension 0 of `x` ranges over 0..=6, outside the \
         dimension's size 6"
    );
    assert_eq!(y, [9.0; 5]);
    // Empty outputs read nothing and need nothing.
    let mut empty: [f64; 0] = [];
    assert_eq!(k::conv1d_dense(&[], &f, &mut empty), Ok(()));
}

/// The layouts MLIR's sparsifier gives (`tests/oracle/conv.py`): a
/// sparse output holds the elements a stored entry reaches through the
/// window (a computed zero included), or, for a plainly indexed sparse
/// filter over a dense image, every element.
#[test]
fn mlir_layouts() {
    use sparse_core::Level;
    fn layout<E: sparse_core::Encoding, const D: usize>(
        t: &sparse_core::SparseTensor<'_, f64, E, D, D>,
    ) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let last = t.level(D - 1);
        (
            last.positions()
                .iter()
                .map(|p| sparse_core::Index::as_usize(*p))
                .collect(),
            last.coordinates()
                .iter()
                .map(|c| sparse_core::Index::as_usize(*c))
                .collect(),
            t.values().to_vec(),
        )
    }
    // x = [., 2, ., ., ., ., ., 5], f = [1, 0, 10].
    let (xp, xc, xv) = ([0usize, 2], [1usize, 7], [2.0, 5.0]);
    let x = k::SV::<f64>::assemble([8], [Level::compressed(&xp, &xc)], &xv).unwrap();
    let mut y = k::SVOut::<f64, Owned>::with_dims([6]).unwrap();
    k::conv1d_sparse_x_sparse_out(&x, &[1.0, 0.0, 10.0], &mut y).unwrap();
    assert_eq!(
        layout(&y.view()),
        (vec![0, 3], vec![0, 1, 5], vec![0.0, 2.0, 50.0])
    );
    // f = [., ., 10]: only i = 5 has a term with both factors.
    let (fp, fc, fv) = ([0usize, 1], [2usize], [10.0]);
    let f = k::SV::<f64>::assemble([3], [Level::compressed(&fp, &fc)], &fv).unwrap();
    let mut y = k::SVOut::<f64, Owned>::with_dims([6]).unwrap();
    k::conv1d_both_static(&x, &f, &mut y).unwrap();
    assert_eq!(layout(&y.view()), (vec![0, 1], vec![5], vec![50.0]));
    // a 4x4 CSR with (0, 0) = 1 and (3, 3) = 2, f = the 2x2 identity.
    let (ap, ac, av) = ([0usize, 1, 1, 1, 2], [0usize, 3], [1.0, 2.0]);
    let a = k::CSR::<f64>::assemble([4, 4], [Level::dense(), Level::compressed(&ap, &ac)], &av)
        .unwrap();
    let mut o = k::CSROut::<f64, Owned>::with_dims([3, 3]).unwrap();
    k::conv2d_csr_static(&a, &[[1.0, 0.0], [0.0, 1.0]], &mut o).unwrap();
    assert_eq!(
        layout(&o.view()),
        (vec![0, 1, 1, 2], vec![0, 2], vec![1.0, 2.0])
    );
    // A dense image, a CSR filter holding (0, 0) = 3: every element stored.
    let mut image = [[0.0; 4]; 4];
    image[0][0] = 1.0;
    let (fp, fc, fv) = ([0usize, 1, 1], [0usize], [3.0]);
    let f = k::CSR::<f64>::assemble([2, 2], [Level::dense(), Level::compressed(&fp, &fc)], &fv)
        .unwrap();
    let mut o = k::CSROut::<f64, Owned>::with_dims([3, 3]).unwrap();
    k::conv2d_dense_into_csr(&image, &f, &mut o).unwrap();
    let mut want = vec![0.0; 9];
    want[0] = 3.0;
    assert_eq!(
        layout(&o.view()),
        (vec![0, 3, 6, 9], vec![0, 1, 2, 0, 1, 2, 0, 1, 2], want)
    );
}

#[test]
fn static_shapes_convolve() {
    let a_entries: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![2, 3], 2.0), (vec![5, 4], 3.0)];
    let f = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let mut o = [[0.0; 4]; 4];
    with_tensor(&CSR, [6, 5], &a_entries, |t| {
        k::conv2d_static(t, &f, &mut o)
    })
    .unwrap();
    let ad = Dense::from_entries(&[6, 5], &a_entries);
    let fd = Dense::from_data(&[3, 2], f.concat());
    let ones_a = Dense::from_data(&[6, 5], vec![1.0; 30]);
    let ones_f = Dense::from_data(&[3, 2], vec![1.0; 6]);
    let (want, _) = conv2d(&ad, &fd, &ones_a, &ones_f);
    assert_eq!(o.concat(), want.data);
}

mod nd {
    sparse_core::sparse_kernel! {
        #NHWC = #sparse_tensor.encoding<{ map = (n, h, w, c) -> (n : dense, h : compressed, w : compressed, c : dense) }>
        #HWCF = #sparse_tensor.encoding<{ map = (h, w, c, f) -> (h : dense, w : dense, c : compressed, f : compressed) }>
        #NCHW = #sparse_tensor.encoding<{ map = (n, c, h, w) -> (n : dense, c : dense, h : compressed, w : compressed) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, l) -> (i : compressed, j : compressed, l : compressed) }>

        /// NHWC input, HWCF filter: `o[n, h, w, f] = Σ a[n, h + kh, w + kw, c] flt[kh, kw, c, f]`.
        pub fn nhwc_sparse_input(a: &tensor<?x?x?x?xf64, #NHWC>, flt: &tensor<?x?x?x?xf64>, o: &mut tensor<?x?x?x?xf64>) {
            o[n, h, w, f] = a[n, h + kh, w + kw, c] * flt[kh, kw, c, f];
        }
        pub fn nhwc_sparse_filter(a: &tensor<?x?x?x?xf64>, flt: &tensor<?x?x?x?xf64, #HWCF>, o: &mut tensor<?x?x?x?xf64>) {
            o[n, h, w, f] = a[n, h + kh, w + kw, c] * flt[kh, kw, c, f];
        }
        /// NCHW input, FCHW filter.
        pub fn nchw_sparse_input(a: &tensor<?x?x?x?xf64, #NCHW>, flt: &tensor<?x?x?x?xf64>, o: &mut tensor<?x?x?x?xf64>) {
            o[n, f, h, w] = a[n, c, h + kh, w + kw] * flt[f, c, kh, kw];
        }
        /// A 3-D convolution over a CSF tensor.
        pub fn conv3d_csf(a: &tensor<?x?x?xf64, #CSF>, flt: &tensor<?x?x?xf64>, o: &mut tensor<?x?x?xf64>) {
            o[i, j, l] = a[i + p, j + q, l + r] * flt[p, q, r];
        }
    }
}

const D: Kind = Kind::Dense;
const C: Kind = Kind::Compressed { unique: true };
const fn dim(d: u8) -> LevelExpr {
    LevelExpr::Dim(d)
}
const NHWC: [RefLevel; 4] = [
    lvl(D, dim(0)),
    lvl(C, dim(1)),
    lvl(C, dim(2)),
    lvl(D, dim(3)),
];
const HWCF: [RefLevel; 4] = [
    lvl(D, dim(0)),
    lvl(D, dim(1)),
    lvl(C, dim(2)),
    lvl(C, dim(3)),
];
const NCHW: [RefLevel; 4] = [
    lvl(D, dim(0)),
    lvl(D, dim(1)),
    lvl(C, dim(2)),
    lvl(C, dim(3)),
];
const CSF3: [RefLevel; 3] = [lvl(C, dim(0)), lvl(C, dim(1)), lvl(C, dim(2))];

/// `o[n, h, w, f] = Σ_{kh, kw, c} a[n, h + kh, w + kw, c] flt[kh, kw, c, f]`
/// over dense tensors, with `a`'s and `o`'s dimensions in NHWC order;
/// `nchw` reads `a` as NCHW, `flt` as FCHW and writes `o` as NFHW.
fn conv_nd(a: &Dense<f64>, flt: &Dense<f64>, nchw: bool) -> Dense<f64> {
    let (nn, ah, aw, cc) = if nchw {
        (a.dims[0], a.dims[2], a.dims[3], a.dims[1])
    } else {
        (a.dims[0], a.dims[1], a.dims[2], a.dims[3])
    };
    let (kh, kw, ff) = if nchw {
        (flt.dims[2], flt.dims[3], flt.dims[0])
    } else {
        (flt.dims[0], flt.dims[1], flt.dims[3])
    };
    let (oh, ow) = (ah - kh + 1, aw - kw + 1);
    let dims = if nchw {
        [nn, ff, oh, ow]
    } else {
        [nn, oh, ow, ff]
    };
    let mut o = Dense::zeros(&dims);
    for n in 0..nn {
        for h in 0..oh {
            for w in 0..ow {
                for f in 0..ff {
                    let mut s = 0.0;
                    for y in 0..kh {
                        for x in 0..kw {
                            for c in 0..cc {
                                let (av, fv) = if nchw {
                                    (a.at(&[n, c, h + y, w + x]), flt.at(&[f, c, y, x]))
                                } else {
                                    (a.at(&[n, h + y, w + x, c]), flt.at(&[y, x, c, f]))
                                };
                                s += av * fv;
                            }
                        }
                    }
                    let at = if nchw { [n, f, h, w] } else { [n, h, w, f] };
                    *o.at_mut(&at) = s;
                }
            }
        }
    }
    o
}

/// Sizes: batch, image height and width, channels, filter height and
/// width, filters.
fn sizes_nd() -> impl Strategy<Value = [usize; 7]> {
    (
        1usize..3,
        1usize..5,
        1usize..5,
        1usize..3,
        1usize..3,
        1usize..3,
        1usize..3,
    )
        .prop_filter_map("filter fits", |(n, h, w, c, kh, kw, f)| {
            (kh <= h && kw <= w).then_some([n, h, w, c, kh, kw, f])
        })
}

proptest! {
    #[test]
    fn nhwc_and_nchw_convolutions(
        (s, a, flt) in sizes_nd().prop_flat_map(|s| {
            let [n, h, w, c, kh, kw, f] = s;
            (Just(s), entries::<f64>(&[n, h, w, c]), entries::<f64>(&[kh, kw, c, f]))
        }),
    ) {
        let [n, h, w, c, kh, kw, f] = s;
        let ad = Dense::from_entries(&[n, h, w, c], &a);
        let fd = Dense::from_entries(&[kh, kw, c, f], &flt);
        let want = conv_nd(&ad, &fd, false);
        let od = [n, h - kh + 1, w - kw + 1, f];
        let fview = sparse_core::DenseView::new(&fd.data, [kh, kw, c, f]).unwrap();
        let aview = sparse_core::DenseView::new(&ad.data, [n, h, w, c]).unwrap();
        let mut o = vec![7.0; od.iter().product()];
        with_tensor(&NHWC, [n, h, w, c], &a, |t| nd::nhwc_sparse_input(t, fview, sparse_core::DenseViewMut::new(&mut o, od).unwrap())).unwrap();
        prop_assert!(close(&o, &want.data), "nhwc sparse input: {:?} vs {:?}", o, want.data);
        let mut o = vec![7.0; od.iter().product()];
        with_tensor(&HWCF, [kh, kw, c, f], &flt, |t| nd::nhwc_sparse_filter(aview, t, sparse_core::DenseViewMut::new(&mut o, od).unwrap())).unwrap();
        prop_assert!(close(&o, &want.data), "hwcf sparse filter: {:?} vs {:?}", o, want.data);
        // The same numbers laid out NCHW / FCHW.
        let a_nchw: Entries<f64> = a.iter().map(|(x, v)| (vec![x[0], x[3], x[1], x[2]], *v)).collect();
        let f_fchw: Entries<f64> = flt.iter().map(|(x, v)| (vec![x[3], x[2], x[0], x[1]], *v)).collect();
        let ad = Dense::from_entries(&[n, c, h, w], &a_nchw);
        let fd = Dense::from_entries(&[f, c, kh, kw], &f_fchw);
        let want = conv_nd(&ad, &fd, true);
        let od = [n, f, h - kh + 1, w - kw + 1];
        let fview = sparse_core::DenseView::new(&fd.data, [f, c, kh, kw]).unwrap();
        let mut o = vec![7.0; od.iter().product()];
        with_tensor(&NCHW, [n, c, h, w], &a_nchw, |t| nd::nchw_sparse_input(t, fview, sparse_core::DenseViewMut::new(&mut o, od).unwrap())).unwrap();
        prop_assert!(close(&o, &want.data), "nchw: {:?} vs {:?}", o, want.data);
    }

    #[test]
    fn conv3d_over_csf(
        (da, df, a, flt) in (1usize..5, 1usize..5, 1usize..5).prop_flat_map(|(x, y, z)| {
            (Just([x, y, z]), (1..=x, 1..=y, 1..=z))
        }).prop_flat_map(|(da, (p, q, r))| {
            (Just(da), Just([p, q, r]), entries::<f64>(&da), entries::<f64>(&[p, q, r]))
        }),
    ) {
        let ad = Dense::from_entries(&da, &a);
        let fd = Dense::from_entries(&df, &flt);
        let od = [da[0] - df[0] + 1, da[1] - df[1] + 1, da[2] - df[2] + 1];
        let mut want = Dense::zeros(&od);
        for i in 0..od[0] {
            for j in 0..od[1] {
                for l in 0..od[2] {
                    let mut s = 0.0;
                    for p in 0..df[0] {
                        for q in 0..df[1] {
                            for r in 0..df[2] {
                                s += ad.at(&[i + p, j + q, l + r]) * fd.at(&[p, q, r]);
                            }
                        }
                    }
                    *want.at_mut(&[i, j, l]) = s;
                }
            }
        }
        let fview = sparse_core::DenseView::new(&fd.data, df).unwrap();
        let mut o = vec![7.0; od.iter().product()];
        with_tensor(&CSF3, da, &a, |t| nd::conv3d_csf(t, fview, sparse_core::DenseViewMut::new(&mut o, od).unwrap())).unwrap();
        prop_assert!(close(&o, &want.data), "conv3d: {:?} vs {:?}", o, want.data);
    }
}

mod rows {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        /// Row sums of the rows below: a dense loop over rows whose body walks
        /// one row, as SpMV (a row cursor's shape), with the row shifted.
        pub fn next_row_sums(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = a[i + 1, j];
        }
        /// Each row's entries from column `i` on, up to 3 of them.
        pub fn band(a: &tensor<?x?xf64, #CSR>, x: &tensor<3xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, i + k] * x[k];
        }
    }
}

proptest! {
    #[test]
    fn shifted_rows_and_bands(
        (d, a) in (2usize..8, 3usize..8).prop_flat_map(|(m, n)| {
            (Just([m, n]), entries::<f64>(&[m, n]))
        }),
    ) {
        let ad = Dense::from_entries(&d, &a);
        let want: Vec<f64> = (0..d[0] - 1).map(|i| (0..d[1]).map(|j| ad.at(&[i + 1, j])).sum()).collect();
        let mut y = vec![7.0; d[0] - 1];
        with_tensor(&CSR, d, &a, |t| rows::next_row_sums(t, &mut y)).unwrap();
        prop_assert!(close(&y, &want), "shifted rows: {:?} vs {:?}", y, want);
        // y[i] = Σ_k a[i, i + k] x[k] needs i + 2 < n: i < min(m, n - 2).
        let rows_n = d[0].min(d[1] - 2);
        let x = [0.5, -2.0, 4.0];
        let want: Vec<f64> = (0..rows_n).map(|i| (0..3).map(|k| ad.at(&[i, i + k]) * x[k]).sum()).collect();
        let mut y = vec![7.0; rows_n];
        let sub: Entries<f64> = a.iter().filter(|(c, _)| c[0] < rows_n).cloned().collect();
        with_tensor(&CSR, [rows_n, d[1]], &sub, |t| rows::band(t, &x, &mut y)).unwrap();
        prop_assert!(close(&y, &want), "band: {:?} vs {:?}", y, want);
    }
}
