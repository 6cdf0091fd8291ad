//! The kernel codegen snapshots of `sparse-compiler`
//! (`sparse-macros/compiler/snapshots/*.rs`), compiled
//! as they are and run against dense references on random operands.
//!
//! The snapshots are the generated functions pretty-printed; here each is
//! `include!`d next to the encoding aliases it names, so a change in the
//! generated code that no longer compiles, reads out of order or computes
//! a wrong result fails here even before the kernel front end uses it.

use proptest::prelude::*;
use sparse_core::KernelError;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR, LOOSE, SV};
use sparse_tests::gen::{dense_vec, sparse, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton), crdWidth = 32 }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed), crdWidth = 16 }>
        #BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
        #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 8 }>
        #CSR_U = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense, j : compressed) }>

        // The attribute through the macro, next to its snapshots.
        #[unroll(4)]
        pub fn spmv_dcsr_unrolled(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
    }
    macro_rules! snapshot {
        ($name:literal) => {
            include!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../sparse-macros/compiler/snapshots/",
                $name,
                ".rs"
            ));
        };
    }
    snapshot!("spmv_csr");
    snapshot!("spmv_bsr");
    snapshot!("spmv_2_4");
    snapshot!("spmv_csr_f32");
    snapshot!("spmv_csc");
    snapshot!("spmv_coo");
    snapshot!("spmv_loose");
    snapshot!("spmv_dcsr");
    snapshot!("vector_add");
    snapshot!("dot");
    snapshot!("axpy_universal");
    snapshot!("scale_static");
    snapshot!("spmm_views");
    snapshot!("sum_csr");
    snapshot!("coo_add");
    snapshot!("two_statements");
    snapshot!("ttv_csf");
    snapshot!("set_difference");
    snapshot!("binary_triangles");
    snapshot!("structural_inversion");
    snapshot!("select_lower");
    snapshot!("reduce_row_product");
    snapshot!("conv2d_csr");
    snapshot!("conv2d_dcsr_csr");
    snapshot!("spmv_slice");
    snapshot!("spmv_csr_unroll4");
    snapshot!("spmv_loose_unroll3");
    snapshot!("shift_mask_sv");
    snapshot!("conv1d_sv_window_skip");
}

/// A sparse `i32` vector (values of the whole range) and `u8` amounts.
fn shift_operands() -> impl Strategy<Value = (usize, Entries<i32>, Vec<u8>)> {
    (0usize..=10).prop_flat_map(|n| {
        let slots = proptest::collection::vec((any::<bool>(), any::<i32>()), n);
        let entries = slots.prop_map(|s| {
            s.into_iter()
                .enumerate()
                .filter(|(_, (keep, _))| *keep)
                .map(|(i, (_, v))| (vec![i], v))
                .collect::<Entries<i32>>()
        });
        (Just(n), entries, proptest::collection::vec(any::<u8>(), n))
    })
}

proptest! {
    /// `(a << n) - 1 & 0xFF ^ !a` against the expression on the dense
    /// vector (the amount taken modulo 32, shifted in 64 bits and
    /// truncated).
    #[test]
    fn shift_mask_sv_snapshot((n, e, amounts) in shift_operands()) {
        let mut a = vec![0i32; n];
        for (c, v) in &e {
            a[c[0]] = *v;
        }
        let want: Vec<i32> = (0..n)
            .map(|i| {
                let shifted = ((a[i] as i64) << (amounts[i] % 32)) as i32;
                (shifted.wrapping_sub(1) & 0xFF) ^ !a[i]
            })
            .collect();
        let mut y = vec![777; n];
        prop_assert_eq!(with_tensor(&SV, [n], &e, |t| k::shift_mask_sv(t, &amounts, &mut y)), Ok(()));
        prop_assert_eq!(y, want);
    }
}

/// BSR with 2x2 blocks: a 4x6 matrix with blocks (0, 0), (0, 2) and (1, 1)
/// stored (one of them all zeros), against the dense product.
#[test]
fn spmv_bsr_snapshot() {
    use sparse_core::Level;
    let pos = [0usize, 2, 3];
    let crd = [0usize, 2, 1];
    let val = [1.0, 2.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 5.0, 6.0];
    let a = k::BSR::<f64>::assemble(
        [4, 6],
        [
            Level::dense(),
            Level::compressed(&pos, &crd),
            Level::dense(),
            Level::dense(),
        ],
        &val,
    )
    .unwrap();
    let dense = [
        [1.0, 2.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 3.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 4.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 5.0, 6.0, 0.0, 0.0],
    ];
    let x = [1.0, -1.0, 2.0, 0.5, 3.0, -2.0];
    let mut y = [9.0; 4];
    k::spmv_bsr(&a, &x, &mut y).unwrap();
    let want: Vec<f64> = dense
        .iter()
        .map(|r| r.iter().zip(&x).map(|(a, b)| a * b).sum())
        .collect();
    assert_eq!(y.to_vec(), want);
}

/// 2:4: row 0 [0 1 0 2 | 3 0 0 4], row 1 [5 6 0 0 | 0 0 7 8], against the
/// dense product.
#[test]
fn spmv_2_4_snapshot() {
    use sparse_core::Level;
    let crd = [1u8, 3, 0, 3, 0, 1, 2, 3];
    let val = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let a = k::NV24::<f64>::assemble(
        [2, 8],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &val,
    )
    .unwrap();
    let x = [1.0, -2.0, 3.0, 0.5, 2.0, -1.0, 4.0, 0.25];
    let mut y = [9.0; 2];
    k::spmv_2_4(&a, &x, &mut y).unwrap();
    assert_eq!(y, [-2.0 + 1.0 + 6.0 + 1.0, 5.0 - 12.0 + 28.0 + 2.0]);
}

/// The stored coordinates of `entries`, as a presence mask over `dims`.
fn present(dims: &[usize], entries: &Entries<f64>) -> Vec<bool> {
    let mut mask = vec![false; dims.iter().product()];
    for (c, _) in entries {
        let offset = c.iter().zip(dims).fold(0, |o, (x, n)| o * n + x);
        mask[offset] = true;
    }
    mask
}

/// `a x` for a dense `a`.
fn matvec(a: &Dense<f64>, x: &[f64]) -> Vec<f64> {
    let (m, n) = (a.dims[0], a.dims[1]);
    (0..m)
        .map(|i| (0..n).map(|j| a.at(&[i, j]) * x[j]).sum())
        .collect()
}

fn vector(n: usize, entries: &Entries<f64>) -> Vec<f64> {
    Dense::from_entries(&[n], entries).data
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `spmv_slice`: a stride-1 slice of a CSR tensor walked in place,
    /// against the product with the dense slice.
    #[test]
    fn spmv_over_a_slice_in_place(
        (dims, e) in sparse::<f64, 2>(9),
        corner in (0usize..9, 0usize..9),
        extent in (1usize..=9, 1usize..=9),
    ) {
        // A slice has sizes of at least 1.
        prop_assume!(dims[0] > 0 && dims[1] > 0);
        let off = [corner.0 % dims[0], corner.1 % dims[1]];
        let size = [1 + (extent.0 - 1) % (dims[0] - off[0]), 1 + (extent.1 - 1) % (dims[1] - off[1])];
        let a = Dense::from_entries(&dims, &e);
        let mut s = Dense::zeros(&size);
        for i in 0..size[0] {
            for j in 0..size[1] {
                *s.at_mut(&[i, j]) = a.at(&[off[0] + i, off[1] + j]);
            }
        }
        let x: Vec<f64> = (0..size[1]).map(|j| j as f64 * 0.5 - 1.0).collect();
        let mut y = vec![777.25; size[0]];
        with_tensor(&CSR, dims, &e, |t| {
            k::spmv_slice(&t.extract_slice(off, size, [1, 1]).unwrap(), &x, &mut y)
        })
        .unwrap();
        prop_assert_eq!(y, matvec(&s, &x));
    }

    #[test]
    fn spmv_in_five_formats((dims, e) in sparse::<f64, 2>(9), seed in 0u64..1000) {
        let x: Vec<f64> = (0..dims[1]).map(|j| ((j as u64 * 7 + seed) % 9) as f64 - 4.0).collect();
        let a = Dense::from_entries(&dims, &e);
        let want = matvec(&a, &x);
        let run = |f: &dyn Fn(&mut [f64]) -> Result<(), KernelError>| {
            let mut y = vec![777.25; dims[0]];
            f(&mut y).unwrap();
            y
        };
        prop_assert_eq!(&run(&|y| with_tensor(&CSR, dims, &e, |t| k::spmv_csr(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&CSC, dims, &e, |t| k::spmv_csc(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&COO, dims, &e, |t| k::spmv_coo(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&LOOSE, dims, &e, |t| k::spmv_loose(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&DCSR, dims, &e, |t| k::spmv_dcsr(t, &x, y))), &want);
    }

    #[test]
    fn unrolled_walks_equal_the_plain_kernels((dims, e) in sparse::<f64, 2>(11), seed in 0u64..1000) {
        // Rows of 0..=11 entries: whole steps of 3 and 4 and every remainder.
        let x: Vec<f64> = (0..dims[1]).map(|j| ((j as u64 * 5 + seed) % 7) as f64 - 3.0).collect();
        let want = matvec(&Dense::from_entries(&dims, &e), &x);
        let run = |f: &dyn Fn(&mut [f64]) -> Result<(), KernelError>| {
            let mut y = vec![777.25; dims[0]];
            f(&mut y).unwrap();
            y
        };
        prop_assert_eq!(&run(&|y| with_tensor(&CSR, dims, &e, |t| k::spmv_csr_unroll4(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&LOOSE, dims, &e, |t| k::spmv_loose_unroll3(t, &x, y))), &want);
        prop_assert_eq!(&run(&|y| with_tensor(&DCSR, dims, &e, |t| k::spmv_dcsr_unrolled(t, &x, y))), &want);
    }

    #[test]
    fn spmv_coo_sums_rows_split_into_duplicate_segments((dims, e) in sparse::<f64, 2>(7)) {
        // Rows repeat in a nonunique level: every row of `e` is one segment.
        let x: Vec<f64> = (0..dims[1]).map(|j| j as f64 + 1.0).collect();
        let want = matvec(&Dense::from_entries(&dims, &e), &x);
        let mut y = vec![-3.0; dims[0]];
        with_tensor(&COO, dims, &e, |t| k::spmv_coo(t, &x, &mut y)).unwrap();
        prop_assert_eq!(y, want);
    }

    #[test]
    fn union_intersection_and_universe(
        (d, ea) in sparse::<f64, 1>(12),
        eb_seed in prop::collection::vec((0usize..12, -4i32..5), 0..12),
        xs in dense_vec::<f32>(8),
        alpha in -4i32..5,
    ) {
        let n = d[0];
        let mut eb: Entries<f64> = eb_seed
            .into_iter()
            .filter(|(i, _)| *i < n)
            .map(|(i, v)| (vec![i], v as f64))
            .collect();
        eb.sort_by_key(|x| x.0.clone());
        eb.dedup_by_key(|x| x.0.clone());
        let (a, b) = (vector(n, &ea), vector(n, &eb));

        let mut c = vec![777.25; n];
        with_tensor(&SV, [n], &ea, |ta| with_tensor(&SV, [n], &eb, |tb| k::vadd(&mut c, ta, tb)))
            .unwrap();
        let want: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        prop_assert_eq!(c, want);

        let mut s = 777.25;
        with_tensor(&SV, [n], &ea, |ta| with_tensor(&SV, [n], &eb, |tb| k::dot(&mut s, ta, tb)))
            .unwrap();
        prop_assert_eq!(s, a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>());

        // axpy: c: [f32; 8] = alpha * a + x, every coordinate visited.
        let ea8: Entries<f32> = ea.iter().filter(|(c, _)| c[0] < 8).map(|(c, v)| (c.clone(), *v as f32)).collect();
        let a8 = Dense::from_entries(&[8], &ea8).data;
        let mut c8 = [777.25f32; 8];
        let alpha = alpha as f32;
        with_tensor(&SV, [8], &ea8, |ta| k::axpy(&mut c8, alpha, ta, &xs)).unwrap();
        let want: Vec<f32> = (0..8).map(|i| alpha * a8[i] + xs[i]).collect();
        prop_assert_eq!(c8.to_vec(), want);
    }

    #[test]
    fn spmm_through_dense_views((dims, e) in sparse::<f64, 2>(6)) {
        let (m, kk) = (dims[0], dims[1]);
        let b: Vec<f64> = (0..kk * 4).map(|n| (n % 7) as f64 - 3.0).collect();
        let mut c = vec![777.25; m * 4];
        let bv = sparse_core::DenseView::new(&b, [kk, 4]).unwrap();
        let cv = sparse_core::DenseViewMut::new(&mut c, [m, 4]).unwrap();
        with_tensor(&CSR, dims, &e, |t| k::spmm(t, bv, cv)).unwrap();
        let a = Dense::from_entries(&dims, &e);
        for i in 0..m {
            for j in 0..4 {
                let want: f64 = (0..kk).map(|q| a.at(&[i, q]) * b[q * 4 + j]).sum();
                prop_assert_eq!(c[i * 4 + j], want);
            }
        }
    }
}

#[test]
fn spmv_f32_matches_a_dense_product() {
    let e: Entries<f32> = vec![
        (vec![0, 0], 1.5),
        (vec![0, 4], -2.0),
        (vec![2, 1], 0.25),
        (vec![3, 4], 4.0),
    ];
    let x = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    let mut y = [777.25f32; 4];
    with_tensor(&CSR, [4, 5], &e, |t| k::spmv_csr_f32(t, &x, &mut y)).unwrap();
    assert_eq!(y, [1.5 - 10.0, 0.0, 0.5, 20.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sums_unions_statements_and_three_levels(
        (dims, ea) in sparse::<f64, 2>(6),
        mask in prop::collection::vec(0u8..3, 36),
        (d3, e3) in sparse::<f64, 3>(4),
    ) {
        let (m, n) = (dims[0], dims[1]);
        let a = Dense::from_entries(&dims, &ea);

        let mut s = 1.5;
        with_tensor(&CSR, dims, &ea, |t| k::sum(t, &mut s)).unwrap();
        prop_assert_eq!(s, 1.5 + a.data.iter().sum::<f64>());

        // b: another matrix of the same shape, from the mask.
        let eb: Entries<f64> = (0..m * n)
            .filter(|&q| mask[q % 36] == 0)
            .map(|q| (vec![q / n, q % n], (q % 5) as f64 - 2.0))
            .collect();
        let b = Dense::from_entries(&dims, &eb);
        let mut c = vec![777.25; m * n];
        let cv = sparse_core::DenseViewMut::new(&mut c, [m, n]).unwrap();
        with_tensor(&COO, dims, &ea, |ta| with_tensor(&COO, dims, &eb, |tb| k::coo_add(ta, tb, cv)))
            .unwrap();
        let want: Vec<f64> = a.data.iter().zip(&b.data).map(|(x, y)| x + y).collect();
        prop_assert_eq!(c, want);

        let x: Vec<f64> = (0..n).map(|j| j as f64 - 1.0).collect();
        let mut y = vec![777.25; m];
        let mut norm = 777.25;
        with_tensor(&CSR, dims, &ea, |t| k::spmv_norm(t, &x, &mut y, &mut norm)).unwrap();
        let want = matvec(&a, &x);
        prop_assert_eq!(norm, want.iter().map(|v| v * v).sum::<f64>());
        prop_assert_eq!(y, want);

        let bt = Dense::from_entries(&d3, &e3);
        let cvec: Vec<f64> = (0..d3[2]).map(|q| q as f64 + 0.5).collect();
        let mut out = vec![777.25; d3[0] * d3[1]];
        let ov = sparse_core::DenseViewMut::new(&mut out, [d3[0], d3[1]]).unwrap();
        with_tensor(&CSF, d3, &e3, |t| k::ttv(t, &cvec, ov)).unwrap();
        for i in 0..d3[0] {
            for j in 0..d3[1] {
                let want: f64 = (0..d3[2]).map(|q| bt.at(&[i, j, q]) * cvec[q]).sum();
                prop_assert_eq!(out[i * d3[1] + j], want);
            }
        }
    }
}

#[test]
fn static_scale_accumulates_with_math_calls() {
    // y[i] += alpha * abs(a[i, j]) * x[j] + sqrt(j as f32) over 64x200.
    let e: Entries<f32> = vec![(vec![0, 3], -2.0), (vec![5, 199], 1.5), (vec![63, 0], 4.0)];
    let x: [f32; 200] = core::array::from_fn(|j| (j % 5) as f32);
    let mut y = [1.0f32; 64];
    with_tensor(&CSR, [64, 200], &e, |t| k::scale(t, 0.5, &x, &mut y)).unwrap();
    let a = Dense::from_entries(&[64, 200], &e);
    let roots: f32 = (0..200).map(|j| (j as f32).sqrt()).sum();
    // Under Miri the kernel still runs over all 64x200 elements (the
    // accesses Miri checks); the dense reference (200 interpreted reads
    // and products a row) is compared on the rows holding the entries and
    // the empty rows around them.
    let checked = |i: usize| !cfg!(miri) || matches!(i, 0 | 1 | 4 | 5 | 6 | 62 | 63);
    for (i, got) in y.iter().enumerate().filter(|&(i, _)| checked(i)) {
        let prod: f32 = (0..200).map(|j| 0.5 * a.at(&[i, j]).abs() * x[j]).sum();
        let want = 1.0 + prod + roots;
        assert!(
            (got - want).abs() <= 1e-3 * want.abs(),
            "row {i}: {got} vs {want}"
        );
    }
}

#[test]
fn sizes_are_checked_before_any_write() {
    let e: Entries<f64> = vec![(vec![0, 1], 2.0)];
    let x = [1.0; 3];
    let mut y = [9.0; 5];
    let err = with_tensor(&CSR, [4, 3], &e, |t| k::spmv_csr(t, &x, &mut y));
    assert_eq!(
        err,
        Err(KernelError::DimensionMismatch {
            tensor: "y",
            dim: 0,
            size: 5,
            index: "i",
            expected: 4,
            bound_by: "a",
            bound_dim: 0,
        })
    );
    assert_eq!(y, [9.0; 5]);
    let x4 = [1.0f32; 200];
    let mut y4 = [0.0f32; 64];
    let e4: Entries<f32> = Vec::new();
    let err = with_tensor(&CSR, [64, 199], &e4, |t| k::scale(t, 1.0, &x4, &mut y4));
    assert_eq!(
        err,
        Err(KernelError::ShapeMismatch {
            tensor: "a",
            dim: 1,
            size: 199,
            expected: 200
        })
    );
    let mut s = 0.0;
    let short: Entries<f64> = Vec::new();
    let err = with_tensor(&SV, [3], &short, |ta| {
        with_tensor(&SV, [4], &short, |tb| k::dot(&mut s, ta, tb))
    });
    assert_eq!(
        err,
        Err(KernelError::DimensionMismatch {
            tensor: "b",
            dim: 0,
            size: 4,
            index: "i",
            expected: 3,
            bound_by: "a",
            bound_dim: 0,
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The semiring snapshots against dense evaluations over presence
    /// masks (seed 000's regions: overlap, left only, right only, absent).
    #[test]
    fn semiring_operations((dims, ea) in sparse::<f64, 2>(7), eb in sparse::<f64, 2>(7)) {
        let (m, n) = (dims[0], dims[1]);
        // `b` over the same shape: keep its entries that fit.
        let eb: Entries<f64> = eb.1.into_iter().filter(|(c, _)| c[0] < m && c[1] < n).collect();
        let (a, b) = (Dense::from_entries(&dims, &ea), Dense::from_entries(&dims, &eb));
        let (pa, pb) = (present(&dims, &ea), present(&dims, &eb));

        // Triangles: overlap adds above the diagonal and subtracts below,
        // left passes `a`, right negates `b` below the diagonal.
        let mut c = vec![777.25; m * n];
        let cv = sparse_core::DenseViewMut::new(&mut c, [m, n]).unwrap();
        with_tensor(&CSR, dims, &ea, |ta| with_tensor(&CSR, dims, &eb, |tb| k::triangles(ta, tb, cv))).unwrap();
        for i in 0..m {
            for j in 0..n {
                let o = i * n + j;
                let want = match (pa[o], pb[o]) {
                    (true, true) if j >= i => a.data[o] + b.data[o],
                    (true, true) => a.data[o] - b.data[o],
                    (true, false) => a.data[o],
                    (false, true) if j >= i => b.data[o],
                    (false, true) => -b.data[o],
                    (false, false) => 0.0,
                };
                prop_assert_eq!(c[o], want, "at ({}, {})", i, j);
            }
        }

        // Lower triangle of `a` by `select`.
        let mut c = vec![777.25; m * n];
        let cv = sparse_core::DenseViewMut::new(&mut c, [m, n]).unwrap();
        with_tensor(&CSR, dims, &ea, |ta| k::select_lower(ta, cv)).unwrap();
        for (o, &got) in c.iter().enumerate() {
            let (i, j) = (o / n, o % n);
            prop_assert_eq!(got, if j < i { a.data[o] } else { 0.0 });
        }

        // Row products capped at 100, over the stored values only (the
        // identity 1 for an empty row).
        let mut x = vec![777.25; m];
        with_tensor(&DCSR, dims, &ea, |ta| k::row_product(ta, &mut x)).unwrap();
        for (i, &got) in x.iter().enumerate() {
            let want = (0..n)
                .filter(|&j| pa[i * n + j])
                .fold(1.0f64, |acc, j| (acc * a.data[i * n + j]).min(100.0));
            prop_assert_eq!(got, want, "row {}", i);
        }

        // Vectors: the first row of `a` and `b`.
        if m == 0 {
            return Ok(());
        }
        let va: Entries<f64> = ea.iter().filter(|(c, _)| c[0] == 0).map(|(c, v)| (vec![c[1]], *v)).collect();
        let vb: Entries<i32> = eb.iter().filter(|(c, _)| c[0] == 0).map(|(c, v)| (vec![c[1]], *v as i32)).collect();
        let (pva, pvb) = (&pa[..n], &pb[..n]);
        let mut d = vec![777.25; n];
        with_tensor(&SV, [n], &va, |ta| with_tensor(&SV, [n], &vb, |tb| k::set_difference(ta, tb, &mut d))).unwrap();
        for j in 0..n {
            prop_assert_eq!(d[j], if pva[j] && !pvb[j] { a.data[j] } else { 0.0 });
        }
        let mut inv = vec![777i64; n];
        with_tensor(&SV, [n], &va, |ta| k::invert(ta, &mut inv)).unwrap();
        for j in 0..n {
            prop_assert_eq!(inv[j], i64::from(!pva[j]));
        }
    }
}

proptest! {
    /// The 2-D convolution snapshots (affine subscripts `a[i + k, j + l]`)
    /// against the dense valid convolution.
    #[test]
    fn conv2d_snapshots(
        (da, df, a, f) in (1usize..7, 1usize..7).prop_flat_map(|(h, w)| {
            (Just([h, w]), (1..=h, 1..=w))
        }).prop_flat_map(|(da, (kh, kw))| {
            (Just(da), Just([kh, kw]), sparse_tests::gen::entries::<f64>(&da), sparse_tests::gen::entries::<f64>(&[kh, kw]))
        }),
    ) {
        let ad = Dense::from_entries(&da, &a);
        let fd = Dense::from_entries(&df, &f);
        let od = [da[0] - df[0] + 1, da[1] - df[1] + 1];
        let mut want = vec![0.0; od[0] * od[1]];
        for i in 0..od[0] {
            for j in 0..od[1] {
                for k in 0..df[0] {
                    for l in 0..df[1] {
                        want[i * od[1] + j] += ad.at(&[i + k, j + l]) * fd.at(&[k, l]);
                    }
                }
            }
        }
        let fview = sparse_core::DenseView::new(&fd.data, df).unwrap();
        let mut o = vec![7.0; od[0] * od[1]];
        with_tensor(&CSR, da, &a, |t| k::conv2d_csr(t, fview, sparse_core::DenseViewMut::new(&mut o, od).unwrap())).unwrap();
        prop_assert_eq!(&o, &want);
        let mut o = vec![7.0; od[0] * od[1]];
        with_tensor(&DCSR, da, &a, |ta| with_tensor(&CSR, df, &f, |tf| {
            k::conv2d_dcsr_csr(ta, tf, sparse_core::DenseViewMut::new(&mut o, od).unwrap())
        })).unwrap();
        prop_assert_eq!(&o, &want);
    }
}

proptest! {
    /// The window-skipping 1-D convolution into a sparse vector: stored at
    /// the offsets whose window holds a stored entry, with the dense
    /// convolution's value there.
    #[test]
    fn conv1d_window_skip_snapshot(
        (nx, nf, x) in (1usize..24, 1usize..5).prop_filter("a filter fits", |(nx, nf)| nf <= nx)
            .prop_flat_map(|(nx, nf)| (Just(nx), Just(nf), sparse_tests::gen::entries::<f64>(&[nx]))),
        f in prop::collection::vec(-4.0f64..4.0, 4),
    ) {
        let f = &f[..nf];
        let xd = vector(nx, &x);
        let stored = present(&[nx], &x);
        let ny = nx - nf + 1;
        let mut y = k::SVOut::<f64, sparse_core::output::Owned>::with_dims([ny]).unwrap();
        with_tensor(&SV, [nx], &x, |t| k::conv1d_sv(t, f, &mut y)).unwrap();
        let mut got = vec![None; ny];
        y.view().for_each(|[i], v| got[i] = Some(*v));
        for (i, g) in got.iter().enumerate() {
            let window = i..i + nf;
            let want = window.clone().any(|c| stored[c]).then(|| {
                window.filter(|&c| stored[c]).map(|c| xd[c] * f[c - i]).sum::<f64>()
            });
            prop_assert_eq!(*g, want, "y[{}]", i);
        }
    }
}
