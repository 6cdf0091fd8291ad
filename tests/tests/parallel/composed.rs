//! Strategies that compose with `#[parallel]`: an outer loop that merges
//! two sparse operands (DCSR + DCSR into a dense matrix, with and without
//! the whole range), BSR operands (SpMV and SpMM split by block rows), and
//! a 4x4 BSR whose inner loops are written out inside each chunk. Each
//! parallel kernel against the same kernel without the attribute (bit for
//! bit, values that round differently in another order) and against a
//! dense reference (exact values). Sparse outputs of merged outer loops
//! (DCSR + DCSR into DCSR) are in `sparse_out`, sliced DCSR walked in
//! place and row cursors inside chunks (CSR) in `spmv`.

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut, Level};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, DCSR};
use sparse_tests::gen::Entries;

use super::common::{bits, on_threads, random, rough, roughen, shapes, small, vector};

mod k {
    sparse_core::sparse_kernel! {
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #BSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
        }>
        #BSR4 = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense)
        }>

        pub fn add(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + b[i, j]; }
        #[parallel]
        pub fn par_add(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + b[i, j]; }
        pub fn mul(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] * b[i, j]; }
        #[parallel]
        pub fn par_mul(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] * b[i, j]; }
        /// Every row visited (the whole range merged with the two levels).
        pub fn shifted(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + b[i, j] + 0.5; }
        #[parallel]
        pub fn par_shifted(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) { c[i, j] = a[i, j] + b[i, j] + 0.5; }

        pub fn spmv_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        #[parallel]
        pub fn par_spmv_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmm_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) { y[i, k] = a[i, j] * x[j, k]; }
        #[parallel]
        pub fn par_spmm_bsr(a: &tensor<?x?xf64, #BSR>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) { y[i, k] = a[i, j] * x[j, k]; }
        pub fn spmv_bsr4(a: &tensor<?x?xf64, #BSR4>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
        #[parallel]
        pub fn par_spmv_bsr4(a: &tensor<?x?xf64, #BSR4>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] += a[i, j] * x[j]; }
    }
}

/// `a ⊕ b` elementwise, densely, with `shift` added everywhere.
fn elementwise(
    dims: [usize; 2],
    a: &Entries<f64>,
    b: &Entries<f64>,
    op: fn(f64, f64) -> f64,
    shift: f64,
) -> Vec<f64> {
    let (a, b) = (Dense::from_entries(&dims, a), Dense::from_entries(&dims, b));
    let mut out = Vec::new();
    for i in 0..dims[0] {
        for j in 0..dims[1] {
            out.push(op(a.at(&[i, j]), b.at(&[i, j])) + shift);
        }
    }
    out
}

/// The three merges, parallel against sequential and the dense result.
fn merges(dims: [usize; 2], a: &Entries<f64>, b: &Entries<f64>, exact: bool) {
    type K = for<'a, 'b, 'c> fn(
        &k::DCSR<'a, f64>,
        &k::DCSR<'b, f64>,
        DenseViewMut<'c, f64, 2>,
    ) -> Result<(), sparse_core::KernelError>;
    type Case = (K, K, fn(f64, f64) -> f64, f64, &'static str);
    let cases: [Case; 3] = [
        (k::add, k::par_add, |x, y| x + y, 0.0, "add"),
        (k::mul, k::par_mul, |x, y| x * y, 0.0, "mul"),
        (k::shifted, k::par_shifted, |x, y| x + y, 0.5, "shifted"),
    ];
    let len = dims[0] * dims[1];
    for (seq, par, op, shift, what) in cases {
        let (mut want, mut got) = (vec![777.25; len], vec![-555.5; len]);
        with_tensor(&DCSR, dims, a, |ta| {
            with_tensor(&DCSR, dims, b, |tb| {
                let out = DenseViewMut::new(&mut want, dims).unwrap();
                assert_eq!(seq(ta, tb, out), Ok(()));
                let out = DenseViewMut::new(&mut got, dims).unwrap();
                assert_eq!(on_threads(|| par(ta, tb, out)), Ok(()));
            })
        });
        assert_eq!(
            bits(&got),
            bits(&want),
            "{what} {dims:?}: parallel vs sequential"
        );
        if exact {
            let dense = elementwise(dims, a, b, op, shift);
            assert_eq!(got, dense, "{what} {dims:?}: against the dense result");
        }
    }
}

/// The second operand of a merge: the shape's transpose pattern folded
/// into its dimensions, so the two share some entries and not others.
fn other(dims: [usize; 2], e: &Entries<f64>) -> Entries<f64> {
    let mut out: Entries<f64> = e
        .iter()
        .enumerate()
        .filter(|(n, _)| n % 3 != 1)
        .map(|(n, (c, v))| {
            let c = if n % 2 == 0 {
                c.clone()
            } else {
                vec![(c[0] * 7 + 1) % dims[0], (c[1] * 5 + 2) % dims[1]]
            };
            (c, v * 0.5 + 1.0)
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out.dedup_by(|x, y| x.0 == y.0);
    out
}

#[test]
fn merged_outer_loops_run_in_chunks_of_rows() {
    for shape in shapes(small) {
        let b = other(shape.dims, &shape.entries);
        merges(shape.dims, &shape.entries, &b, true);
        let (ra, rb) = (roughen(&shape.entries), roughen(&b));
        merges(shape.dims, &ra, &rb, false);
    }
}

/// The storage of a dense `rows x cols` matrix as BSR with `block x block`
/// blocks (rows and columns multiples of `block`): a block is stored when
/// it holds a nonzero, its values row by row.
pub(super) fn bsr(
    m: &[f64],
    [rows, cols]: [usize; 2],
    block: usize,
) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let (mut pos, mut crd, mut val) = (vec![0], Vec::new(), Vec::new());
    for rb in 0..rows / block {
        for cb in 0..cols / block {
            let at = |ii: usize, jj: usize| m[(rb * block + ii) * cols + cb * block + jj];
            if !(0..block).any(|ii| (0..block).any(|jj| at(ii, jj) != 0.0)) {
                continue;
            }
            crd.push(cb);
            for ii in 0..block {
                for jj in 0..block {
                    val.push(at(ii, jj));
                }
            }
        }
        pos.push(crd.len());
    }
    (pos, crd, val)
}

/// A dense row-major matrix of `rows x cols` (multiples of 4) from
/// entries, with the values of `value`.
fn block_matrix(rows: usize, cols: usize, seed: usize, value: fn(usize) -> f64) -> Vec<f64> {
    (0..rows * cols)
        .map(|n| {
            let (i, j) = (n / cols, n % cols);
            // Whole zero block rows and columns, and scattered entries.
            let keep = (i / 4 + j / 4 + seed) % 3 != 0 && (i * 31 + j * 17 + seed) % 5 < 2;
            if keep {
                value(n)
            } else {
                0.0
            }
        })
        .collect()
}

fn bsr_products(rows: usize, cols: usize, seed: usize, exact: bool) {
    let value = if exact { small } else { rough };
    let m = block_matrix(rows, cols, seed, value);
    let x = vector(cols, value);
    let xm: Vec<f64> = (0..cols * 3).map(|n| value(n + 500)).collect();
    let dense_mv: Vec<f64> = (0..rows)
        .map(|i| (0..cols).map(|j| m[i * cols + j] * x[j]).sum())
        .collect();

    let (pos, crd, val) = bsr(&m, [rows, cols], 2);
    let levels = [
        Level::dense(),
        Level::compressed(&pos, &crd),
        Level::dense(),
        Level::dense(),
    ];
    let a = k::BSR::<f64>::assemble([rows, cols], levels, &val).unwrap();
    let (mut want, mut got) = (vec![9.0; rows], vec![-9.0; rows]);
    k::spmv_bsr(&a, &x, &mut want).unwrap();
    on_threads(|| k::par_spmv_bsr(&a, &x, &mut got)).unwrap();
    assert_eq!(bits(&got), bits(&want), "BSR SpMV {rows}x{cols}");
    if exact {
        assert_eq!(
            got, dense_mv,
            "BSR SpMV {rows}x{cols} against the dense product"
        );
    }
    let (mut want, mut got) = (vec![9.0; rows * 3], vec![-9.0; rows * 3]);
    let xv = || DenseView::new(&xm, [cols, 3]).unwrap();
    k::spmm_bsr(&a, xv(), DenseViewMut::new(&mut want, [rows, 3]).unwrap()).unwrap();
    on_threads(|| k::par_spmm_bsr(&a, xv(), DenseViewMut::new(&mut got, [rows, 3]).unwrap()))
        .unwrap();
    assert_eq!(bits(&got), bits(&want), "BSR SpMM {rows}x{cols}");
    if exact {
        let dense: Vec<f64> = (0..rows * 3)
            .map(|n| {
                let (i, kk) = (n / 3, n % 3);
                (0..cols).map(|j| m[i * cols + j] * xm[j * 3 + kk]).sum()
            })
            .collect();
        assert_eq!(
            got, dense,
            "BSR SpMM {rows}x{cols} against the dense product"
        );
    }

    let (pos, crd, val) = bsr(&m, [rows, cols], 4);
    let levels = [
        Level::dense(),
        Level::compressed(&pos, &crd),
        Level::dense(),
        Level::dense(),
    ];
    let a = k::BSR4::<f64>::assemble([rows, cols], levels, &val).unwrap();
    let y0 = vector(rows, |n| value(n + 77));
    let (mut want, mut got) = (y0.clone(), y0.clone());
    k::spmv_bsr4(&a, &x, &mut want).unwrap();
    on_threads(|| k::par_spmv_bsr4(&a, &x, &mut got)).unwrap();
    assert_eq!(bits(&got), bits(&want), "BSR 4x4 SpMV {rows}x{cols}");
    if exact {
        let dense: Vec<f64> = y0.iter().zip(&dense_mv).map(|(a, b)| a + b).collect();
        assert_eq!(
            got, dense,
            "BSR 4x4 SpMV {rows}x{cols} against the dense product"
        );
    }
}

#[test]
fn bsr_products_split_their_block_rows() {
    for (rows, cols) in [
        (0, 0),
        (0, 8),
        (8, 0),
        (4, 4),
        (8, 12),
        (40, 24),
        (400, 200),
    ] {
        for seed in 0..3 {
            bsr_products(rows, cols, seed, true);
            bsr_products(rows, cols, seed, false);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_merges_match((dims, e) in random(), (_, f) in random()) {
        let f: Entries<f64> = f
            .into_iter()
            .filter(|(c, _)| c[0] < dims[0] && c[1] < dims[1])
            .collect();
        merges(dims, &e, &f, true);
        merges(dims, &roughen(&e), &roughen(&f), false);
    }
}
