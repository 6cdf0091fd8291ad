//! Kernels whose operands no loop order visits in storage order (issue 12,
//! item 2). A statement that only copies an input into a sparse output
//! (transposes DCSR → DCSR, CSR → CSR, COO → CSR, 3-D CSF permutations,
//! CSR → CSC) is a conversion into the output's own buffers, with no extra
//! memory; any other statement reads a conflicting input through a
//! reordered copy in a workspace the caller provides (the extra
//! `<input>_reordered` parameter): `a[i, j] + b[j, i]` into dense and
//! sparse outputs, products with a transposed operand, a sum scoped under
//! a sparse output. Against dense references; the workspace over each
//! buffer family; capacity and dimension errors naming the workspace or
//! the output, outputs left empty.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::SparseTensorOut;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSF, CSR, DCSR};
use sparse_tests::gen::{sparse, sparse_with_duplicates, Entries};
use sparse_tests::sparse_out::{check_output, stored, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 16, crdWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
        #ELL = #sparse_tensor.encoding<{ map = [c](i, j) -> (c * 2 * i : dense, i : dense, j : compressed) }>
        #PAT = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), explicitVal = 1.5 : f64 }>

        /// `c = aᵀ`, DCSR in and out.
        pub fn transpose_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[j, i] = a[i, j];
        }
        /// `c = aᵀ`, CSR in and out.
        pub fn transpose_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j];
        }
        /// CSR → CSC, written as a copy.
        pub fn csr_to_csc(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = a[i, j];
        }
        /// CSR → BSR and back: conversions (a block and a non-block operand
        /// are never walked together).
        pub fn csr_to_bsr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = a[i, j];
        }
        pub fn bsr_to_csr(a: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j];
        }
        /// A conversion next to a statement walked block by block (the
        /// kernel is planned in level space).
        pub fn convert_and_spmv(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            c[i, j] = a[i, j];
            y[i] = b[i, j] * x[j];
        }
        /// ELL (two jagged diagonals) into CSR: kernels do not walk counting
        /// levels, but a copy is a conversion.
        pub fn ell_to_csr(a: &tensor<?x?xf64, #ELL>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j];
        }
        /// A pattern matrix (every stored entry 1.5) transposed into DCSR.
        pub fn transpose_pattern(a: &tensor<?x?xf64, #PAT>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[j, i] = a[i, j];
        }
        /// A COO with repeats, transposed into CSR (repeats summed).
        pub fn transpose_coo(a: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j];
        }
        /// `a + bᵀ` into a dense output.
        pub fn add_transposed_dense(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] = a[i, j] + b[j, i];
        }
        /// `a + bᵀ` into a sparse output (union).
        pub fn add_transposed_sparse(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[j, i];
        }
        /// `aᵀ x` with a CSR `a`: no conflict (a column-wise scatter).
        pub fn spmv_t(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[j] = a[i, j] * x[i];
        }
        /// `c = a bᵀ`-like product with both operands transposed into a
        /// sparse output: `c[i, j] = sum_k a[k, i] * b[j, k]`.
        pub fn spgemm_tt(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[k, i] * b[j, k];
        }
        /// A 3-D permutation, CSF in and out.
        /// A scaled transpose: not a plain copy, so `a` is read through a
        /// CSC-ordered copy in a workspace.
        pub fn transpose_scaled(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j] * 2.0;
        }
        pub fn permute3(a: &tensor<?x?x?xf64, #CSF>, c: &mut tensor<?x?x?xf64, #CSF>) {
            c[k, i, j] = a[i, j, k];
        }
        /// `c = aᵀ b`: both operands store `k` first, so `a` is read as
        /// (i, k) (Gustavson's order i, k, j).
        pub fn atb(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[k, i] * b[k, j];
        }
        /// A sum scoped inside a sparse output's expression over a CSC
        /// `w`: `c = (w x) + b`, `w` read by rows.
        pub fn affine(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = w[i, j] * x[j] + b[i];
        }
        /// Two statements reading the same copy: one workspace.
        pub fn twice(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSC>, y: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, j] * 2.0;
            y[i, j] = b[i, j] * a[i, j];
        }
    }
}

type Out<E, B, const L: usize> = SparseTensorOut<f64, E, B, 2, L>;

fn transposed(e: &Entries<f64>) -> Entries<f64> {
    e.iter().map(|(c, v)| (vec![c[1], c[0]], *v)).collect()
}

/// The stored entries a copy-like kernel must produce: repeats summed.
fn summed(e: &Entries<f64>) -> Stored<f64> {
    let mut out = Stored::new();
    for (c, v) in e {
        *out.entry(c.clone()).or_insert(0.0) += *v;
    }
    out
}

fn matrix(max: usize) -> impl Strategy<Value = ([usize; 2], Entries<f64>)> {
    sparse::<f64, 2>(max)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn transpose_dcsr_matches_dense((dims, e) in matrix(9)) {
        let t = transposed(&e);
        let want_dims = [dims[1], dims[0]];
        let dense = Dense::from_entries(&want_dims, &t);
        // A plain copy: converted straight into `c`, no workspace.
        let mut c = Out::<_, Owned, 2>::with_dims(want_dims).unwrap();
        with_tensor(&DCSR, dims, &e, |a| k::transpose_dcsr(a, &mut c)).unwrap();
        check_output(&c.view(), &stored(&t), &dense).map_err(TestCaseError::fail)?;
        // The scaled transpose reads `a` through a CSC-ordered copy, which
        // holds `a` column by column.
        let mut c = Out::<_, Owned, 2>::with_dims(want_dims).unwrap();
        let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims(dims).unwrap();
        with_tensor(&CSR, dims, &e, |a| k::transpose_scaled(a, &mut c, &mut ws)).unwrap();
        let doubled: Entries<f64> = t.iter().map(|(c, v)| (c.clone(), 2.0 * v)).collect();
        check_output(&c.view(), &stored(&doubled), &Dense::from_entries(&want_dims, &doubled))
            .map_err(TestCaseError::fail)?;
        let mut cols = Vec::new();
        ws.view().for_each(|c, _| cols.push((c[1], c[0])));
        prop_assert!(cols.windows(2).all(|w| w[0] < w[1]), "{cols:?}");
    }

    #[test]
    fn transpose_csr_and_csr_to_csc_match_dense((dims, e) in matrix(9)) {
        let t = transposed(&e);
        let want_dims = [dims[1], dims[0]];
        let mut c = Out::<_, Owned, 2>::with_dims(want_dims).unwrap();
        with_tensor(&CSR, dims, &e, |a| k::transpose_csr(a, &mut c)).unwrap();
        check_output(&c.view(), &stored(&t), &Dense::from_entries(&want_dims, &t))
            .map_err(TestCaseError::fail)?;

        let mut c = Out::<_, Owned, 2>::with_dims(dims).unwrap();
        with_tensor(&CSR, dims, &e, |a| k::csr_to_csc(a, &mut c)).unwrap();
        check_output(&c.view(), &stored(&e), &Dense::from_entries(&dims, &e))
            .map_err(TestCaseError::fail)?;
        // The same layout as the runtime conversion gives.
        let mut direct = k::CSCOut::<f64, Owned>::with_dims(dims).unwrap();
        with_tensor(&CSR, dims, &e, |a| {
            let a: &k::CSR<'_, f64> = a;
            sparse_core::convert::convert(a, &mut direct)
        }).unwrap();
        prop_assert_eq!(c.view().level(1).positions(), direct.view().level(1).positions());
        prop_assert_eq!(c.view().level(1).coordinates(), direct.view().level(1).coordinates());
        prop_assert_eq!(c.view().values(), direct.view().values());
    }

    #[test]
    fn transpose_coo_with_repeats_sums_them((dims, e) in sparse_with_duplicates::<f64, 2>(8, 3)) {
        let t = transposed(&e);
        let want_dims = [dims[1], dims[0]];
        let want = summed(&t);
        let dense = Dense::from_entries(&want_dims, &t);
        let mut c = Out::<_, Owned, 2>::with_dims(want_dims).unwrap();
        with_tensor(&COO, dims, &e, |a| k::transpose_coo(a, &mut c)).unwrap();
        let mut got = Stored::new();
        c.view().for_each(|c, v| { got.insert(c.to_vec(), *v); });
        prop_assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
        for (c, v) in &want {
            prop_assert!((got[c] - v).abs() <= 1e-9 * (1.0 + v.abs()), "{c:?}: {} vs {v}", got[c]);
        }
        let as_dense = Dense::from_entries(&want_dims, &got.into_iter().collect::<Vec<_>>());
        for (x, y) in as_dense.data.iter().zip(&dense.data) {
            prop_assert!((x - y).abs() <= 1e-9 * (1.0 + y.abs()));
        }
    }

    #[test]
    fn add_with_a_transposed_operand((n, ea, eb) in (1usize..8, 1usize..8).prop_flat_map(|(r, c)| {
        let n = [r, c];
        (Just(n), sparse_tests::gen::entries::<f64>(&n), sparse_tests::gen::entries::<f64>(&[c, r]))
    })) {
        let bt = transposed(&eb);
        let mut want = Dense::from_entries(&n, &ea);
        for (c, v) in &bt {
            *want.at_mut(c) += *v;
        }
        let mut y = vec![0.0; n[0] * n[1]];
        let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([n[1], n[0]]).unwrap();
        with_tensor(&CSR, n, &ea, |a| with_tensor(&CSR, [n[1], n[0]], &eb, |b| {
            let yv = sparse_core::DenseViewMut::new(&mut y, n).unwrap();
            k::add_transposed_dense(a, b, yv, &mut ws)
        })).unwrap();
        prop_assert_eq!(&y, &want.data);

        let mut union = stored(&ea);
        for (c, v) in &bt {
            *union.entry(c.clone()).or_insert(0.0) += *v;
        }
        let mut c = Out::<_, Owned, 2>::with_dims(n).unwrap();
        let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([n[1], n[0]]).unwrap();
        with_tensor(&CSR, n, &ea, |a| with_tensor(&CSR, [n[1], n[0]], &eb, |b| {
            k::add_transposed_sparse(a, b, &mut c, &mut ws)
        })).unwrap();
        check_output(&c.view(), &union, &want).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn product_of_transposed_operands((d, ea, eb) in (1usize..6, 1usize..6, 1usize..6).prop_flat_map(|(i, j, kk)| {
        (Just([i, j, kk]), sparse_tests::gen::entries::<f64>(&[kk, i]), sparse_tests::gen::entries::<f64>(&[j, kk]))
    })) {
        let [ni, nj, nk] = d;
        let a = Dense::from_entries(&[nk, ni], &ea);
        let b = Dense::from_entries(&[nj, nk], &eb);
        let mut want = Dense::zeros(&[ni, nj]);
        for i in 0..ni {
            for j in 0..nj {
                for kk in 0..nk {
                    *want.at_mut(&[i, j]) += a.at(&[kk, i]) * b.at(&[j, kk]);
                }
            }
        }
        let mut c = Out::<_, Owned, 2>::with_dims([ni, nj]).unwrap();
        // `b` is read in its own order (j, k): the sparsifier reorders `a`
        // into (i, k), which makes `k` an inner reduction.
        let mut wa = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([nk, ni]).unwrap();
        let r = with_tensor(&CSR, [nk, ni], &ea, |a| with_tensor(&CSR, [nj, nk], &eb, |b| {
            k::spgemm_tt(a, b, &mut c, &mut wa)
        }));
        r.unwrap();
        let mut got = Dense::<f64>::zeros(&[ni, nj]);
        c.view().for_each(|c, v| *got.at_mut(&c[..]) += *v);
        for (x, y) in got.data.iter().zip(&want.data) {
            // `f64` is named: with num-complex in the build, `&f64 - &_` has
            // several candidate impls.
            let (x, y): (f64, f64) = (*x, *y);
            prop_assert!((x - y).abs() <= 1e-9 * (1.0 + y.abs()), "{:?} vs {:?}", got.data, want.data);
        }
    }

    #[test]
    fn atb_matches_dense((d, ea, eb) in (1usize..6, 1usize..6, 1usize..6).prop_flat_map(|(i, j, kk)| {
        (Just([i, j, kk]), sparse_tests::gen::entries::<f64>(&[kk, i]), sparse_tests::gen::entries::<f64>(&[kk, j]))
    })) {
        let [ni, nj, nk] = d;
        let a = Dense::from_entries(&[nk, ni], &ea);
        let b = Dense::from_entries(&[nk, nj], &eb);
        let mut want = Dense::<f64>::zeros(&[ni, nj]);
        for i in 0..ni {
            for j in 0..nj {
                for kk in 0..nk {
                    *want.at_mut(&[i, j]) += a.at(&[kk, i]) * b.at(&[kk, j]);
                }
            }
        }
        let mut c = Out::<_, Owned, 2>::with_dims([ni, nj]).unwrap();
        let mut wa = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([nk, ni]).unwrap();
        with_tensor(&CSR, [nk, ni], &ea, |a| with_tensor(&CSR, [nk, nj], &eb, |b| {
            k::atb(a, b, &mut c, &mut wa)
        })).unwrap();
        let mut got = Dense::<f64>::zeros(&[ni, nj]);
        c.view().for_each(|c, v| *got.at_mut(&c[..]) += *v);
        for (x, y) in got.data.iter().zip(&want.data) {
            prop_assert!((x - y).abs() <= 1e-9 * (1.0 + y.abs()), "{:?} vs {:?}", got.data, want.data);
        }
    }

    #[test]
    fn a_sum_scoped_under_a_sparse_output_matches_dense((dims, ew, eb, x) in (1usize..7, 1usize..7).prop_flat_map(|(r, c)| {
        (Just([r, c]), sparse_tests::gen::entries::<f64>(&[r, c]), sparse_tests::gen::entries::<f64>(&[r]), sparse_tests::gen::dense_vec::<f64>(c))
    })) {
        let w = Dense::from_entries(&dims, &ew);
        let bd = Dense::from_entries(&[dims[0]], &eb);
        // `w` is read through a copy with CSC's level types over (i, j):
        // (dense, compressed), so every row is visited and stored, as for
        // a CSR `w` (empty rows as explicit zeros plus `b`).
        let mut want = Stored::new();
        for i in 0..dims[0] {
            let v: f64 = (0..dims[1]).map(|j| w.at(&[i, j]) * x[j]).sum::<f64>() + bd.at(&[i]);
            want.insert(vec![i], v);
        }
        let mut c = SparseTensorOut::<_, _, Owned, 1, 1>::with_dims([dims[0]]).unwrap();
        let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims(dims).unwrap();
        with_tensor(&sparse_tests::fixture::CSC, dims, &ew, |wt| {
            with_tensor(&sparse_tests::fixture::SV, [dims[0]], &eb, |b| k::affine(wt, &x, b, &mut c, &mut ws))
        }).unwrap();
        let mut got = Stored::new();
        c.view().for_each(|c, v| { got.insert(c.to_vec(), *v); });
        prop_assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
        for (c, v) in &want {
            prop_assert!((got[c] - v).abs() <= 1e-9 * (1.0 + v.abs()), "{c:?}: {} vs {v}", got[c]);
        }
    }

    #[test]
    fn permute3_matches_dense((dims, e) in sparse::<f64, 3>(5)) {
        let p: Entries<f64> = e.iter().map(|(c, v)| (vec![c[2], c[0], c[1]], *v)).collect();
        let want_dims = [dims[2], dims[0], dims[1]];
        let mut c = SparseTensorOut::<_, _, Owned, 3, 3>::with_dims(want_dims).unwrap();
        with_tensor(&CSF, dims, &e, |a| k::permute3(a, &mut c)).unwrap();
        check_output(&c.view(), &stored(&p), &Dense::from_entries(&want_dims, &p))
            .map_err(TestCaseError::fail)?;
    }
}

#[test]
fn two_statements_share_one_copy() {
    // `c = 2a` (CSC out) and `y = b ∘ a` (`b` CSC) both want `a` by
    // columns: one workspace, filled once.
    let dims = [3, 4];
    let ea: Entries<f64> = vec![(vec![0, 1], 1.0), (vec![2, 0], 2.0), (vec![2, 3], 3.0)];
    let eb: Entries<f64> = vec![(vec![2, 0], 5.0), (vec![1, 1], 7.0), (vec![2, 3], -1.0)];
    let mut c = k::CSCOut::<f64, Owned>::with_dims(dims).unwrap();
    let mut y = vec![0.0; 12];
    let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims(dims).unwrap();
    with_tensor(&CSR, dims, &ea, |a| {
        with_tensor(&sparse_tests::fixture::CSC, dims, &eb, |b| {
            let yv = sparse_core::DenseViewMut::new(&mut y, dims).unwrap();
            k::twice(a, b, &mut c, yv, &mut ws)
        })
    })
    .unwrap();
    let doubled: Entries<f64> = ea.iter().map(|(c, v)| (c.clone(), 2.0 * v)).collect();
    check_output(
        &c.view(),
        &stored(&doubled),
        &Dense::from_entries(&dims, &doubled),
    )
    .unwrap();
    let mut want = vec![0.0; 12];
    want[2 * 4] = 10.0;
    want[2 * 4 + 3] = -3.0;
    assert_eq!(y, want);
}

#[test]
fn workspaces_over_caller_memory_report_exact_capacity() {
    use sparse_core::{Fixed, KernelError, SliceBuffer};
    let dims = [3, 5];
    let ea: Entries<f64> = vec![
        (vec![0, 4], 1.0),
        (vec![1, 0], 2.0),
        (vec![1, 4], 3.0),
        (vec![2, 2], 4.0),
    ];
    let t = transposed(&ea);
    let t2: Entries<f64> = t.iter().map(|(c, v)| (c.clone(), 2.0 * v)).collect();
    // A fixed-capacity workspace.
    let mut c = k::CSROut::<f64, Fixed<8>>::with_dims([5, 3]).unwrap();
    let mut ws = SparseTensorOut::<_, _, Fixed<8>, 2, 2>::with_dims(dims).unwrap();
    with_tensor(&CSR, dims, &ea, |a| k::transpose_scaled(a, &mut c, &mut ws)).unwrap();
    check_output(&c.view(), &stored(&t2), &Dense::from_entries(&[5, 3], &t2)).unwrap();

    // Caller slices, one value short: the error names the workspace and
    // the exact room; the output is left as it was (empty, valid).
    let (mut pos, mut crd, mut val) = ([0u16; 6], [0u16; 4], [0.0f64; 3]);
    let mut ws = SparseTensorOut::<_, _, sparse_core::Slices<'_>, 2, 2>::new(
        dims,
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    let mut c = k::CSROut::<f64, Owned>::with_dims([5, 3]).unwrap();
    let err =
        with_tensor(&CSR, dims, &ea, |a| k::transpose_scaled(a, &mut c, &mut ws)).unwrap_err();
    assert!(
        matches!(
            err,
            KernelError::Capacity {
                tensor: "a_reordered",
                needed: 4,
                capacity: 3,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(c.view().number_of_entries(), 0);
    assert_eq!(ws.view().number_of_entries(), 0);

    // A workspace with other dimensions than the input.
    let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([5, 3]).unwrap();
    let err =
        with_tensor(&CSR, dims, &ea, |a| k::transpose_scaled(a, &mut c, &mut ws)).unwrap_err();
    assert!(
        matches!(
            err,
            KernelError::Convert {
                tensor: "a_reordered",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("converting into `a_reordered`: "),
        "{err}"
    );
    // A size mismatch between the operands is found before the copy.
    let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims(dims).unwrap();
    let mut wrong = k::CSROut::<f64, Owned>::with_dims([5, 4]).unwrap();
    let err = with_tensor(&CSR, dims, &ea, |a| {
        k::transpose_scaled(a, &mut wrong, &mut ws)
    })
    .unwrap_err();
    assert!(
        matches!(err, KernelError::DimensionMismatch { .. }),
        "{err:?}"
    );
    assert_eq!(ws.view().number_of_entries(), 0);

    // The plain transpose converts into the output itself: a full output
    // is a capacity error naming it, and it is left empty.
    let (mut pos, mut crd, mut val) = ([0u16; 6], [0u16; 4], [0.0f64; 3]);
    let mut c = k::CSROut::<f64, sparse_core::Slices<'_>>::new(
        [5, 3],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    let err = with_tensor(&CSR, dims, &ea, |a| k::transpose_csr(a, &mut c)).unwrap_err();
    assert!(
        matches!(
            err,
            KernelError::Capacity {
                tensor: "c",
                needed: 4,
                capacity: 3,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(c.view().number_of_entries(), 0);
}

#[test]
fn a_pattern_transpose_stores_the_explicit_value() {
    let dims = [3, 4];
    let e: Entries<f64> = vec![(vec![0, 3], 1.5), (vec![2, 0], 1.5), (vec![2, 1], 1.5)];
    let a = k::PAT::<f64>::assemble(
        dims,
        [
            sparse_core::Level::compressed(&[0, 2], &[0, 2]),
            sparse_core::Level::compressed(&[0, 1, 3], &[3, 0, 1]),
        ],
        &[],
    )
    .unwrap();
    let mut c = k::DCSROut::<f64, Owned>::with_dims([4, 3]).unwrap();
    k::transpose_pattern(&a, &mut c).unwrap();
    let t = transposed(&e);
    check_output(&c.view(), &stored(&t), &Dense::from_entries(&[4, 3], &t)).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn csr_and_bsr_convert_both_ways((n, e, x) in (1usize..5, 1usize..5).prop_flat_map(|(r, c)| {
        let dims = [2 * r, 2 * c];
        (Just(dims), sparse_tests::gen::entries::<f64>(&dims), sparse_tests::gen::dense_vec::<f64>(2 * c))
    })) {
        let dense = Dense::from_entries(&n, &e);
        let mut c = k::BSROut::<f64, Owned>::with_dims(n).unwrap();
        with_tensor(&CSR, n, &e, |a| k::csr_to_bsr(a, &mut c)).unwrap();
        let mut got = Dense::<f64>::zeros(&n);
        c.view().for_each(|at, v| *got.at_mut(&at[..]) += *v);
        prop_assert_eq!(&got, &dense);
        // Every stored block holds a stored entry of `a`.
        let blocks = c.view().values().len() / 4;
        let mut want_blocks: Vec<(usize, usize)> = e.iter().map(|(at, _)| (at[0] / 2, at[1] / 2)).collect();
        want_blocks.sort();
        want_blocks.dedup();
        prop_assert_eq!(blocks, want_blocks.len());

        // And back: explicit zeros inside the blocks are stored entries.
        let mut back = k::CSROut::<f64, Owned>::with_dims(n).unwrap();
        k::bsr_to_csr(&c.view(), &mut back).unwrap();
        prop_assert_eq!(back.view().number_of_entries(), 4 * blocks);
        let mut again = Dense::<f64>::zeros(&n);
        back.view().for_each(|at, v| *again.at_mut(&at[..]) += *v);
        prop_assert_eq!(&again, &dense);

        // Next to a block SpMV, in one kernel.
        let mut c2 = k::BSROut::<f64, Owned>::with_dims(n).unwrap();
        let mut y = vec![0.0; n[0]];
        with_tensor(&CSR, n, &e, |a| k::convert_and_spmv(a, &mut c2, &c.view(), &x, &mut y)).unwrap();
        prop_assert_eq!(c2.view().values(), c.view().values());
        let want: Vec<f64> = (0..n[0]).map(|i| (0..n[1]).map(|j| dense.at(&[i, j]) * x[j]).sum()).collect();
        for (g, w) in y.iter().zip(&want) {
            prop_assert!((g - w).abs() <= 1e-9 * (1.0 + w.abs()), "{y:?} vs {want:?}");
        }
    }
}

#[test]
fn ell_copies_into_csr() {
    use sparse_core::Level;
    // | 1 2 . |
    // | . 3 . |    slice 0: the first stored entry of each row; slice 1:
    // | 4 . 5 |    the second (`c * 2 * i` counts two slices of rows)
    let pos = [0usize, 1, 2, 3, 4, 4, 5];
    let crd = [0usize, 1, 0, 1, 2];
    let val = [1.0, 3.0, 4.0, 2.0, 5.0];
    let a = k::ELL::<f64>::assemble(
        [3, 3],
        [
            Level::dense(),
            Level::dense(),
            Level::compressed(&pos, &crd),
        ],
        &val,
    )
    .unwrap();
    let mut c = k::CSROut::<f64, Owned>::with_dims([3, 3]).unwrap();
    k::ell_to_csr(&a, &mut c).unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 3, 5]);
    assert_eq!(v.level(1).coordinates(), &[0, 1, 1, 0, 2]);
    assert_eq!(v.values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
}
