//! Kernels that write n:m (`structured[n, m]`, 2:4) and block outputs:
//! pruning with `select`, copies from dense and sparse inputs, products
//! sampled at a 2:4 pattern, against dense references. A result group
//! with more than `n` entries is `KernelError::GroupOverflow` naming it.
//! ELL operands, read through a CSR copy. The same kernels over 2-bit
//! packed coordinates are `structured_packed.rs`'s.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::{DenseView, KernelError, Level};

pub(super) mod k {
    sparse_core::sparse_kernel! {
        #NV24 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 8
        }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #BSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
        }>

        /// Pruning: keep the weights with magnitude above `t`.
        pub fn prune_24(d: &tensor<?x?xf64>, t: f64, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = select(d[i, j], |v| v > t || v < -t);
        }
        pub fn csr_to_24(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = a[i, j];
        }
        pub fn scale_24(a: &tensor<?x?xf64, #NV24>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = a[i, j] * 2.0;
        }
        pub fn sddmm_24(s: &tensor<?x?xf64, #NV24>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        pub fn add_24(a: &tensor<?x?xf64, #NV24>, b: &tensor<?x?xf64, #NV24>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        // Seed 001's #NV_24: 2-bit coordinates, four per byte.
        #NV24P = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
            crdWidth = 2
        }>
        pub fn spmv_24p(a: &tensor<?x?xf64, #NV24P>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmm_24p(a: &tensor<?x?xf64, #NV24P>, x: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, k] = a[i, j] * x[j, k];
        }
        pub fn prune_24p(d: &tensor<?x?xf64>, t: f64, c: &mut tensor<?x?xf64, #NV24P>) {
            c[i, j] = select(d[i, j], |v| v > t || v < -t);
        }
        pub fn csr_to_24p(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #NV24P>) {
            c[i, j] = a[i, j];
        }
        pub fn add_24p(a: &tensor<?x?xf64, #NV24P>, b: &tensor<?x?xf64, #NV24P>, c: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        pub fn csc_to_24(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #NV24>) {
            c[i, j] = a[i, j];
        }
        pub fn prune_bsr(d: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #BSR>) {
            c[i, j] = select(d[i, j], |v| v != 0.0);
        }
    }
}

/// A `rows x cols` matrix with about a third of its entries nonzero.
fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    proptest::collection::vec(
        proptest::collection::vec(
            prop_oneof![2 => Just(0.0), 1 => (-4i32..=4).prop_map(f64::from)],
            cols,
        ),
        rows,
    )
}

/// A matrix whose groups of four hold at most two nonzeros.
pub(super) fn matrix_2_4(rows: usize, cols: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    matrix(rows, cols).prop_map(|mut m| {
        for row in &mut m {
            for group in row.chunks_mut(4) {
                let mut seen = 0;
                for v in group.iter_mut().filter(|v| **v != 0.0) {
                    seen += 1;
                    if seen > 2 {
                        *v = 0.0;
                    }
                }
            }
        }
        m
    })
}

/// The 2:4 storage of groups given by their stored in-group coordinates
/// (at most two each), padded with the lowest unused coordinates as MLIR's
/// layout: per group the two coordinates in order and their values.
pub(super) fn layout_2_4(
    rows: usize,
    cols: usize,
    stored: impl Fn(usize, usize) -> Vec<usize>,
    value: impl Fn(usize, usize) -> f64,
) -> (Vec<u8>, Vec<f64>) {
    let (mut crd, mut val) = (Vec::new(), Vec::new());
    for i in 0..rows {
        for g in 0..cols / 4 {
            let mut picked = stored(i, g);
            assert!(picked.len() <= 2);
            for k in 0..4 {
                if picked.len() < 2 && !picked.contains(&k) {
                    picked.push(k);
                }
            }
            picked.sort();
            for k in picked {
                crd.push(k as u8);
                val.push(if stored(i, g).contains(&k) {
                    value(i, g * 4 + k)
                } else {
                    0.0
                });
            }
        }
    }
    (crd, val)
}

/// The in-group coordinates of the nonzeros of `m`'s group `g` of row `i`.
pub(super) fn nonzeros(m: &[Vec<f64>], i: usize, g: usize) -> Vec<usize> {
    (0..4).filter(|&k| m[i][g * 4 + k] != 0.0).collect()
}

/// The first group (row-major) with more than two of `stored`, and the
/// in-group coordinate of its third: what `GroupOverflow` must name.
fn first_overflow(
    rows: usize,
    cols: usize,
    stored: impl Fn(usize, usize) -> Vec<usize>,
) -> Option<(usize, usize)> {
    (0..rows)
        .flat_map(|i| (0..cols / 4).map(move |g| (i, g)))
        .find_map(|(i, g)| stored(i, g).get(2).map(|&k| (i * (cols / 4) + g, k)))
}

type Nv24Out = k::NV24Out<f64, Owned>;

/// The output's coordinates and values, after checking it is a valid
/// tensor (disassembled and assembled again through the checked path).
fn contents(c: &Nv24Out) -> (Vec<u8>, Vec<f64>) {
    let v = c.view();
    let (dims, levels, values) = v.disassemble();
    k::NV24::<f64>::assemble(dims, levels, values).expect("a valid 2:4 tensor");
    (v.level(2).coordinates().to_vec(), v.values().to_vec())
}

fn nv24(rows: usize, cols: usize, crd: &[u8], val: &[f64]) -> k::NV24<'static, f64> {
    let crd: &'static [u8] = Vec::leak(crd.to_vec());
    let val: &'static [f64] = Vec::leak(val.to_vec());
    k::NV24::<f64>::assemble(
        [rows, cols],
        [Level::dense(), Level::dense(), Level::structured(crd)],
        val,
    )
    .unwrap()
}

#[test]
fn pruning_a_dense_layer_into_2_4() {
    // |  5 -1  0  3 | 0.5 0 0 -7 |
    // |  0  0  2  0 |  1  1 1  1 |
    let d = [
        5.0, -1.0, 0.0, 3.0, 0.5, 0.0, 0.0, -7.0, //
        0.0, 0.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0,
    ];
    let mut c = Nv24Out::with_dims([2, 8]).unwrap();
    k::prune_24(DenseView::new(&d, [2, 8]).unwrap(), 1.5, &mut c).unwrap();
    let (crd, val) = contents(&c);
    assert_eq!(crd, [0, 3, 0, 3, 0, 2, 0, 1]);
    assert_eq!(val, [5.0, 3.0, 0.0, -7.0, 0.0, 2.0, 0.0, 0.0]);
    // At 0.25 the first group keeps three weights: refused, naming it.
    let err = k::prune_24(DenseView::new(&d, [2, 8]).unwrap(), 0.25, &mut c).unwrap_err();
    assert_eq!(
        err,
        KernelError::GroupOverflow {
            tensor: "c",
            level: 2,
            group: 0,
            coordinate: 3,
            n: 2,
            m: 4
        }
    );
    // The output is left empty: every group padding, a valid tensor.
    let (crd, val) = contents(&c);
    assert_eq!(crd, [0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(val, [0.0; 8]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prune_and_copy_into_2_4(m in matrix(3, 12), t in 0..3i32) {
        let t = f64::from(t);
        let pruned: Vec<Vec<f64>> = m.iter()
            .map(|r| r.iter().map(|&v| if v.abs() > t { v } else { 0.0 }).collect())
            .collect();
        let flat: Vec<f64> = m.iter().flatten().copied().collect();
        let mut c = Nv24Out::with_dims([3, 12]).unwrap();
        let got = k::prune_24(DenseView::new(&flat, [3, 12]).unwrap(), t, &mut c);
        match first_overflow(3, 12, |i, g| nonzeros(&pruned, i, g)) {
            None => {
                prop_assert_eq!(got, Ok(()));
                prop_assert_eq!(
                    contents(&c),
                    layout_2_4(3, 12, |i, g| nonzeros(&pruned, i, g), |i, j| pruned[i][j])
                );
            }
            Some((group, coordinate)) => {
                prop_assert_eq!(got, Err(KernelError::GroupOverflow {
                    tensor: "c", level: 2, group, coordinate, n: 2, m: 4,
                }));
                prop_assert_eq!(contents(&c).1, vec![0.0; 18]);
            }
        }

        // CSR → 2:4 (a conversion statement): the CSR stores the pruned
        // nonzeros.
        let (mut pos, mut crd, mut val) = (vec![0usize], Vec::new(), Vec::new());
        for r in &pruned {
            for (j, &v) in r.iter().enumerate().filter(|(_, v)| **v != 0.0) {
                crd.push(j);
                val.push(v);
            }
            pos.push(crd.len());
        }
        let a = k::CSR::<f64>::assemble([3, 12], [Level::dense(), Level::compressed(&pos, &crd)], &val)
            .unwrap();
        let got = k::csr_to_24(&a, &mut c);
        match first_overflow(3, 12, |i, g| nonzeros(&pruned, i, g)) {
            None => {
                prop_assert_eq!(got, Ok(()));
                prop_assert_eq!(
                    contents(&c),
                    layout_2_4(3, 12, |i, g| nonzeros(&pruned, i, g), |i, j| pruned[i][j])
                );
            }
            Some(_) => {
                prop_assert!(
                    matches!(got, Err(KernelError::Convert { tensor: "c", .. })
                        | Err(KernelError::GroupOverflow { tensor: "c", .. })),
                    "{:?}", got
                );
                prop_assert_eq!(contents(&c).1, vec![0.0; 18]);
            }
        }
    }

    #[test]
    fn kernels_over_2_4_into_2_4(
        ma in matrix_2_4(3, 8),
        mb in matrix_2_4(3, 8),
        u in proptest::collection::vec((-3i32..=3).prop_map(f64::from), 3 * 2),
        v in proptest::collection::vec((-3i32..=3).prop_map(f64::from), 2 * 8),
    ) {
        let (ca, va) = layout_2_4(3, 8, |i, g| nonzeros(&ma, i, g), |i, j| ma[i][j]);
        let (cb, vb) = layout_2_4(3, 8, |i, g| nonzeros(&mb, i, g), |i, j| mb[i][j]);
        let a = nv24(3, 8, &ca, &va);
        let b = nv24(3, 8, &cb, &vb);
        let mut c = Nv24Out::with_dims([3, 8]).unwrap();

        // 2a: the same stored coordinates (padding included), doubled.
        k::scale_24(&a, &mut c).unwrap();
        prop_assert_eq!(contents(&c), (ca.clone(), va.iter().map(|x| 2.0 * x).collect::<Vec<_>>()));

        // SDDMM sampled at a's stored entries.
        k::sddmm_24(
            &a,
            DenseView::new(&u, [3, 2]).unwrap(),
            DenseView::new(&v, [2, 8]).unwrap(),
            &mut c,
        )
        .unwrap();
        let (_, got) = contents(&c);
        let want: Vec<f64> = ca.iter().zip(&va).enumerate().map(|(p, (&k, &x))| {
            let (i, g) = (p / 4, p % 4 / 2);
            let j = g * 4 + usize::from(k);
            x * (0..2).map(|l| u[i * 2 + l] * v[l * 8 + j]).sum::<f64>()
        }).collect();
        prop_assert_eq!(got, want);

        // a + b: the union of the stored coordinates (explicit padding
        // zeros are stored entries too), refused where it exceeds two.
        let stored = |c: &[u8], i: usize, g: usize| -> Vec<usize> {
            c[(i * 2 + g) * 2..][..2].iter().map(|&k| usize::from(k)).collect()
        };
        let union = |i: usize, g: usize| {
            let mut s = stored(&ca, i, g);
            s.extend(stored(&cb, i, g));
            s.sort();
            s.dedup();
            s
        };
        let got = k::add_24(&a, &b, &mut c);
        match first_overflow(3, 8, union) {
            None => {
                prop_assert_eq!(got, Ok(()));
                prop_assert_eq!(
                    contents(&c),
                    layout_2_4(3, 8, union, |i, j| ma[i][j] + mb[i][j])
                );
            }
            Some((group, coordinate)) => {
                prop_assert_eq!(got, Err(KernelError::GroupOverflow {
                    tensor: "c", level: 2, group, coordinate, n: 2, m: 4,
                }));
            }
        }
    }

    #[test]
    fn pruning_into_bsr(m in matrix(4, 6)) {
        let flat: Vec<f64> = m.iter().flatten().copied().collect();
        let mut c = k::BSROut::<f64, Owned>::with_dims([4, 6]).unwrap();
        k::prune_bsr(DenseView::new(&flat, [4, 6]).unwrap(), &mut c).unwrap();
        let view = c.view();
        let mut got = vec![0.0; 24];
        view.for_each(|[i, j], x| got[i * 6 + j] = *x);
        prop_assert_eq!(got, flat);
        // Exactly the 2x2 blocks holding a nonzero are stored.
        let mut blocks = Vec::new();
        let mut pos = vec![0usize];
        for rb in 0..2 {
            for cb in 0..3 {
                if (0..2).any(|ii| (0..2).any(|jj| m[rb * 2 + ii][cb * 2 + jj] != 0.0)) {
                    blocks.push(cb);
                }
            }
            pos.push(blocks.len());
        }
        prop_assert_eq!(view.level(1).coordinates().to_vec(), blocks);
        prop_assert_eq!(view.level(1).positions().to_vec(), pos);
    }
}

#[test]
fn conversions_into_2_4() {
    use sparse_core::convert::{self, ConvertError};
    // | 1 . . 2 | . . . . |
    // | . . 3 . | 4 . 5 . |
    let d = [
        1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, //
        0.0, 0.0, 3.0, 0.0, 4.0, 0.0, 5.0, 0.0,
    ];
    let want = (
        vec![0, 3, 0, 1, 0, 2, 0, 2],
        vec![1.0, 2.0, 0.0, 0.0, 0.0, 3.0, 4.0, 5.0],
    );
    let mut c = Nv24Out::with_dims([2, 8]).unwrap();
    convert::from_dense(&d, [2, 8], &mut c).unwrap();
    assert_eq!(contents(&c), want);

    // From CSR (stored in dimension order): streamed through insertion.
    let mut csr = k::CSROut::<f64, Owned>::with_dims([2, 8]).unwrap();
    convert::from_dense(&d, [2, 8], &mut csr).unwrap();
    c.clear();
    convert::convert(&csr.view(), &mut c).unwrap();
    assert_eq!(contents(&c), want);
    // And back: 2:4 → CSR keeps the stored padding zeros as entries.
    convert::convert(&c.view(), &mut csr).unwrap();
    assert_eq!(csr.view().level(1).coordinates(), &[0, 3, 4, 5, 0, 2, 4, 6]);

    // From CSC: not stored in the target's order, so `convert` refuses it
    // with the reason (it has no scratch memory to sort in)...
    let mut csc = k::CSCOut::<f64, Owned>::with_dims([2, 8]).unwrap();
    convert::from_dense(&d, [2, 8], &mut csc).unwrap();
    assert_eq!(
        convert::convert(&csc.view(), &mut c),
        Err(ConvertError::StructuredOrder { level: 2 })
    );
    assert_eq!(contents(&c).1, vec![0.0; 8]);
    // ...and a kernel's copy statement reads it through a CSR-ordered
    // workspace copy (`a_reordered`), then streams.
    let mut ws = sparse_core::SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([2, 8]).unwrap();
    k::csc_to_24(&csc.view(), &mut c, &mut ws).unwrap();
    assert_eq!(contents(&c), want);
    assert_eq!(ws.view().level(1).coordinates(), &[0, 3, 2, 4, 6]);

    // A group with three nonzeros is named.
    let mut three = d;
    three[13] = 9.0;
    assert_eq!(
        convert::from_dense(&three, [2, 8], &mut c),
        Err(ConvertError::GroupOverflow {
            level: 2,
            group: 3,
            coordinate: 2,
            n: 2,
            m: 4
        })
    );
    assert_eq!(
        std::format!("{}", ConvertError::StructuredOrder { level: 2 }),
        "level 2 is `structured[n, m]`, which is written in one pass in the target's order, and \
         the source is not stored in that order; convert it first into an encoding stored in \
         dimension order (CSR, DCSR, sorted COO)"
    );
}

pub(super) fn matvec(m: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum())
        .collect()
}

mod ell {
    sparse_core::sparse_kernel! {
        #ELL = #sparse_tensor.encoding<{
            map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
        }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        pub fn spmv_ell(a: &tensor<?x?xf64, #ELL>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        /// Not linear in `a`: a walk per slice would add `b` once per slice.
        pub fn add_ell(a: &tensor<?x?xf64, #ELL>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn rowmax_ell(a: &tensor<?x?xf64, #ELL>, y: &mut tensor<?xf64>) {
            y[i] = reduce(a[i, j], identity = -100.0, |acc, v| if v > acc { v } else { acc });
        }
        pub fn ell_to_csr(a: &tensor<?x?xf64, #ELL>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j];
        }
    }
}

/// The ELL storage of `m` with `slices` slices: entry `k` of row `i` in
/// slice `k` (`[c](i, j) -> (c * K * i : dense, i : dense, j : compressed)`).
fn ell_layout(m: &[Vec<f64>], slices: usize) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let (mut pos, mut crd, mut val) = (vec![0], Vec::new(), Vec::new());
    for c in 0..slices {
        for row in m {
            if let Some((j, &v)) = row.iter().enumerate().filter(|(_, v)| **v != 0.0).nth(c) {
                crd.push(j);
                val.push(v);
            }
            pos.push(crd.len());
        }
    }
    (pos, crd, val)
}

#[test]
fn ell_operands_are_read_through_a_csr_copy() {
    use sparse_core::SparseTensorOut;
    // | 1 . 2 . |
    // | . 3 . . |   three slices: the third holds only row 2's last entry
    // | 4 5 . 6 |
    let m = vec![
        vec![1.0, 0.0, 2.0, 0.0],
        vec![0.0, 3.0, 0.0, 0.0],
        vec![4.0, 5.0, 0.0, 6.0],
    ];
    let (pos, crd, val) = ell_layout(&m, 3);
    assert_eq!(pos, [0, 1, 2, 3, 4, 4, 5, 5, 5, 6]);
    let a = ell::ELL::<f64>::assemble(
        [3, 4],
        [
            Level::dense(),
            Level::dense(),
            Level::compressed(&pos, &crd),
        ],
        &val,
    )
    .unwrap();
    let x = [1.0, -2.0, 0.5, 3.0];
    let mut y = [9.0; 3];
    let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([3, 4]).unwrap();
    ell::spmv_ell(&a, &x, &mut y, &mut ws).unwrap();
    assert_eq!(y.to_vec(), matvec(&m, &x));

    // a + b, b CSR with an entry in every row.
    let bm = vec![
        vec![0.0, 1.0, 0.0, 0.0],
        vec![0.0, 1.0, 0.0, 0.0],
        vec![0.0, 0.0, 1.0, 0.0],
    ];
    let b = k::CSR::<f64>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&[0, 1, 2, 3], &[1, 1, 2])],
        &[1.0, 1.0, 1.0],
    )
    .unwrap();
    let mut c = ell::CSROut::<f64, Owned>::with_dims([3, 4]).unwrap();
    ell::add_ell(&a, &b, &mut c, &mut ws).unwrap();
    let mut got = vec![vec![0.0; 4]; 3];
    c.view().for_each(|[i, j], v| got[i][j] += *v);
    let want: Vec<Vec<f64>> = m
        .iter()
        .zip(&bm)
        .map(|(r, s)| r.iter().zip(s).map(|(p, q)| p + q).collect())
        .collect();
    assert_eq!(got, want);

    let mut y = [0.0; 3];
    ell::rowmax_ell(&a, &mut y, &mut ws).unwrap();
    assert_eq!(y, [2.0, 3.0, 6.0]);

    // The copy statement converts directly (no workspace).
    ell::ell_to_csr(&a, &mut c).unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 2, 3, 6]);
    assert_eq!(c.view().level(1).coordinates(), &[0, 2, 1, 0, 1, 3]);
    assert_eq!(c.view().values(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn ell_spmv_matches_dense(mut m in matrix(5, 6), x in proptest::collection::vec((-3i32..=3).prop_map(f64::from), 6)) {
        use sparse_core::SparseTensorOut;
        // Three slices hold at most three entries per row.
        for row in &mut m {
            for v in row.iter_mut().filter(|v| **v != 0.0).skip(3) {
                *v = 0.0;
            }
        }
        let (pos, crd, val) = ell_layout(&m, 3);
        let a = ell::ELL::<f64>::assemble(
            [5, 6],
            [Level::dense(), Level::dense(), Level::compressed(&pos, &crd)],
            &val,
        )
        .unwrap();
        let mut y = [0.0; 5];
        let mut ws = SparseTensorOut::<_, _, Owned, 2, 2>::with_dims([5, 6]).unwrap();
        ell::spmv_ell(&a, &x, &mut y, &mut ws).unwrap();
        prop_assert_eq!(y.to_vec(), matvec(&m, &x));
    }
}
