//! Affine subscripts over huge dimensions cost what is stored: a sparse
//! output `y[i] = x[i + k] * f[k]` of `2^64 - 3` elements over a handful
//! of entries of `x` jumps from one offset whose window holds an entry to
//! the next (the schedule's window skip) instead of visiting every `i`.
//! A regression shows as a hung test: each call here would walk `2^64`
//! offsets. The results are checked against sums formed here entry by
//! entry (every stored coordinate against every filter tap), with
//! integer-valued floats so the order of the sums cannot matter.

use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::Level;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        pub fn conv(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64, #SV>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn conv_sparse_f(x: &tensor<?xf64, #SV>, f: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>) {
            y[i] = x[i + k] * f[k];
        }
        pub fn strided(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64, #SV>) {
            y[i] = x[2 * i + k] * f[k];
        }
        pub fn strided3_shifted(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64, #SV>) {
            y[i] = x[3 * i + k + 1] * f[k];
        }
        pub fn conv2d_dcsr(a: &tensor<?x?xf64, #DCSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #DCSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_coo(a: &tensor<?x?xf64, #COO>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #DCSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
        pub fn conv2d_csr(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #CSR>) {
            o[i, j] = a[i + k, j + l] * f[k, l];
        }
    }
}

const MAX: usize = usize::MAX;

/// `y[i] = Σ_k x[stride * i + k + shift] f[k]` for `i < ny`, over the
/// stored entries of `x` only: stored where some window holds an entry.
fn conv_ref(
    x: &BTreeMap<usize, f64>,
    f: &[(usize, f64)],
    (stride, shift, ny): (usize, usize, usize),
) -> BTreeMap<usize, f64> {
    let mut y = BTreeMap::new();
    for (&c, &v) in x {
        for &(k, w) in f {
            let Some(rest) = c.checked_sub(k + shift) else {
                continue;
            };
            if rest % stride == 0 && rest / stride < ny {
                *y.entry(rest / stride).or_insert(0.0) += v * w;
            }
        }
    }
    y
}

/// A 1-D sparse vector of size `n` over the sorted coordinates of `x`.
fn with_sv<R>(n: usize, x: &BTreeMap<usize, f64>, run: impl FnOnce(&k::SV<'_, f64>) -> R) -> R {
    let crd: Vec<usize> = x.keys().copied().collect();
    let val: Vec<f64> = x.values().copied().collect();
    let pos = [0, crd.len()];
    let t = k::SV::<f64>::assemble([n], [Level::compressed(&pos, &crd)], &val)
        .expect("a valid sparse vector");
    run(&t)
}

/// The stored entries of a 1-D output.
fn stored_1d(y: &k::SVOut<f64, Owned>) -> BTreeMap<usize, f64> {
    let mut out = BTreeMap::new();
    y.view().for_each(|[i], v| {
        out.insert(i, *v);
    });
    out
}

#[test]
fn a_window_over_a_huge_vector_visits_the_stored_entries() {
    let x: BTreeMap<usize, f64> = [
        (0, 1.0),
        (5, 2.0),
        (1 << 40, 3.0),
        (MAX - 2, 4.0),
        (MAX - 1, 5.0),
    ]
    .into_iter()
    .collect();
    let f = [1.0, 10.0, 100.0];
    let taps: Vec<(usize, f64)> = f.iter().copied().enumerate().collect();
    let ny = MAX - f.len() + 1;
    let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
    with_sv(MAX, &x, |t| k::conv(t, &f, &mut y)).unwrap();
    let want = conv_ref(&x, &taps, (1, 0, ny));
    assert_eq!(stored_1d(&y), want);
    // Hand-checked: 0 reaches y[0] only, 5 reaches y[3..=5], 2^40 three
    // more; the last two entries reach y[MAX - 4] and y[MAX - 3] (the
    // output's size is MAX - 2) and meet in y[MAX - 3] = 4 * 10 + 5 * 100.
    assert_eq!(want.get(&3), Some(&200.0));
    assert_eq!(want.get(&(MAX - 3)), Some(&540.0));
    assert_eq!(want.len(), 1 + 3 + 3 + 2);

    // A sparse filter: the windows meet its stored taps (an intersection).
    let fcrd: BTreeMap<usize, f64> = [(0, 1.0), (2, 100.0)].into_iter().collect();
    let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
    with_sv(MAX, &x, |tx| {
        with_sv(3, &fcrd, |tf| k::conv_sparse_f(tx, tf, &mut y))
    })
    .unwrap();
    let taps: Vec<(usize, f64)> = fcrd.iter().map(|(&k, &w)| (k, w)).collect();
    assert_eq!(stored_1d(&y), conv_ref(&x, &taps, (1, 0, ny)));
}

#[test]
fn strided_and_shifted_windows_over_a_huge_vector() {
    let x: BTreeMap<usize, f64> = [(1, 1.0), (6, 2.0), (7, 3.0), (1 << 50, 4.0), (MAX - 3, 5.0)]
        .into_iter()
        .collect();
    let f = [1.0, 10.0];
    let taps: Vec<(usize, f64)> = f.iter().copied().enumerate().collect();
    // 2 (ny - 1) + 1 <= MAX - 1.
    let ny = (MAX - 2) / 2 + 1;
    let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
    with_sv(MAX, &x, |t| k::strided(t, &f, &mut y)).unwrap();
    assert_eq!(stored_1d(&y), conv_ref(&x, &taps, (2, 0, ny)));
    // 3 (ny - 1) + 1 + 1 <= MAX - 1.
    let ny = (MAX - 3) / 3 + 1;
    let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
    with_sv(MAX, &x, |t| k::strided3_shifted(t, &f, &mut y)).unwrap();
    let want = conv_ref(&x, &taps, (3, 1, ny));
    assert_eq!(stored_1d(&y), want);
    // Hand-checked: y[i] reads x[3i + 1] and x[3i + 2]: y[0] = x[1] = 1,
    // y[1] reads x[4], x[5] (nothing stored), y[2] = x[7] * 1 = 3.
    assert_eq!(want.get(&0), Some(&1.0));
    assert_eq!(want.get(&1), None);
    assert_eq!(want.get(&2), Some(&3.0));
}

/// `o[i, j] = Σ_{k, l} a[i + k, j + l] f[k, l]` over the stored entries.
fn conv2d_ref(
    a: &BTreeMap<(usize, usize), f64>,
    (nk, nl, f): (usize, usize, &[f64]),
    (ni, nj): (usize, usize),
) -> BTreeMap<(usize, usize), f64> {
    let mut o = BTreeMap::new();
    for (&(r, c), &v) in a {
        for k in 0..nk {
            for l in 0..nl {
                let (Some(i), Some(j)) = (r.checked_sub(k), c.checked_sub(l)) else {
                    continue;
                };
                if i < ni && j < nj {
                    *o.entry((i, j)).or_insert(0.0) += v * f[k * nl + l];
                }
            }
        }
    }
    o
}

#[test]
fn two_dimensional_windows_over_huge_matrices() {
    let a: BTreeMap<(usize, usize), f64> = [
        ((0, 0), 1.0),
        ((0, MAX - 2), 2.0),
        ((1, 7), 3.0),
        ((1 << 33, 1 << 33), 4.0),
        ((MAX - 1, 3), 5.0),
        ((MAX - 1, 4), 6.0),
    ]
    .into_iter()
    .collect();
    let (nk, nl) = (2, 3);
    let f: Vec<f64> = (0..nk * nl).map(|v| (1 << v) as f64).collect();
    let fview = sparse_core::DenseView::new(&f, [nk, nl]).unwrap();
    let od = [MAX - nk + 1, MAX - nl + 1];
    let want = conv2d_ref(&a, (nk, nl, &f), (od[0], od[1]));
    let stored = |o: &k::DCSROut<f64, Owned>| {
        let mut out = BTreeMap::new();
        o.view().for_each(|[i, j], v| {
            out.insert((i, j), *v);
        });
        out
    };

    // DCSR: rows and columns both jump.
    let rows: Vec<usize> = {
        let mut r: Vec<usize> = a.keys().map(|&(r, _)| r).collect();
        r.dedup();
        r
    };
    let mut pos1 = vec![0];
    for &r in &rows {
        pos1.push(pos1.last().unwrap() + a.keys().filter(|&&(x, _)| x == r).count());
    }
    let cols: Vec<usize> = a.keys().map(|&(_, c)| c).collect();
    let vals: Vec<f64> = a.values().copied().collect();
    let pos0 = [0, rows.len()];
    let dcsr = k::DCSR::<f64>::assemble(
        [MAX, MAX],
        [
            Level::compressed(&pos0, &rows),
            Level::compressed(&pos1, &cols),
        ],
        &vals,
    )
    .unwrap();
    let mut o = k::DCSROut::<f64, Owned>::with_dims(od).unwrap();
    k::conv2d_dcsr(&dcsr, fview, &mut o).unwrap();
    assert_eq!(stored(&o), want);

    // COO (array of structs): the same through a non-unique level and a
    // singleton sharing its buffer of (row, column) tuples.
    let tuples: Vec<usize> = a.keys().flat_map(|&(r, c)| [r, c]).collect();
    let coo_pos = [0, a.len()];
    let coo = k::COO::<f64>::assemble(
        [MAX, MAX],
        [Level::compressed(&coo_pos, &tuples), Level::fused()],
        &vals,
    )
    .unwrap();
    let mut o = k::DCSROut::<f64, Owned>::with_dims(od).unwrap();
    k::conv2d_coo(&coo, fview, &mut o).unwrap();
    assert_eq!(stored(&o), want);

    // CSR with few rows (stored densely) and huge rows: columns jump.
    let few: BTreeMap<(usize, usize), f64> = a
        .iter()
        .filter(|(&(r, _), _)| r < 4)
        .map(|(&p, &v)| (p, v))
        .collect();
    let mut pos = vec![0];
    for r in 0..4 {
        pos.push(pos.last().unwrap() + few.keys().filter(|&&(x, _)| x == r).count());
    }
    let few_cols: Vec<usize> = few.keys().map(|&(_, c)| c).collect();
    let few_vals: Vec<f64> = few.values().copied().collect();
    let csr = k::CSR::<f64>::assemble(
        [4, MAX],
        [Level::dense(), Level::compressed(&pos, &few_cols)],
        &few_vals,
    )
    .unwrap();
    let od = [4 - nk + 1, MAX - nl + 1];
    let mut o = k::CSROut::<f64, Owned>::with_dims(od).unwrap();
    k::conv2d_csr(&csr, fview, &mut o).unwrap();
    let mut got = BTreeMap::new();
    o.view().for_each(|[i, j], v| {
        got.insert((i, j), *v);
    });
    assert_eq!(got, conv2d_ref(&few, (nk, nl, &f), (od[0], od[1])));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Entries scattered over the whole `usize` range and clustered near
    /// its ends, filters of 1 to 4 taps, every stride and shift above.
    #[test]
    fn scattered_entries_against_the_entry_by_entry_sums(
        coords in prop::collection::btree_set(
            prop_oneof![0usize..16, (MAX - 16)..MAX - 1, any::<usize>().prop_map(|c| c.min(MAX - 2))],
            0..10,
        ),
        nf in 1usize..=4,
    ) {
        let x: BTreeMap<usize, f64> = coords.iter().enumerate().map(|(n, &c)| (c, n as f64 + 1.0)).collect();
        let f: Vec<f64> = (0..nf).map(|k| (10usize.pow(k as u32)) as f64).collect();
        let taps: Vec<(usize, f64)> = f.iter().copied().enumerate().collect();
        let ny = MAX - nf + 1;
        let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
        with_sv(MAX, &x, |t| k::conv(t, &f, &mut y)).unwrap();
        prop_assert_eq!(stored_1d(&y), conv_ref(&x, &taps, (1, 0, ny)));
        let ny = (MAX - nf) / 2 + 1;
        let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
        with_sv(MAX, &x, |t| k::strided(t, &f, &mut y)).unwrap();
        prop_assert_eq!(stored_1d(&y), conv_ref(&x, &taps, (2, 0, ny)));
        let ny = (MAX - nf - 1) / 3 + 1;
        let mut y = k::SVOut::<f64, Owned>::with_dims([ny]).unwrap();
        with_sv(MAX, &x, |t| k::strided3_shifted(t, &f, &mut y)).unwrap();
        prop_assert_eq!(stored_1d(&y), conv_ref(&x, &taps, (3, 1, ny)));
    }
}
