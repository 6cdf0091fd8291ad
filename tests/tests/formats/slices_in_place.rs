//! Slices walked in place (every stride 1 at compile time: `slice(?, ?,
//! 1)` or static `slice(off, size, 1)`): the kernels take the `SliceView`
//! and no workspace, and walk the whole tensor's storage over the slice's
//! window. Against the same computation, written by hand, on the dense
//! slice of the dense reference: SpMV over CSR, CSC, DCSR, COO and
//! `(compressed, dense)` slices,
//! SpMM, sparse adds of two slices and of a slice and a whole tensor,
//! SpGEMM with one and two sliced inputs; random offsets and sizes
//! (edges included), slices holding no entry, static parameters.

use proptest::prelude::*;
use sparse_core::{KernelError, Level, Owned, SliceParam};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR};
use sparse_tests::gen::{dense_vec, entries, entries_with_duplicates, Entries};

use super::slices::{dense_spmv, read};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR_U = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense, j : compressed)
        }>
        #CSC_U = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (j : dense, i : compressed)
        }>
        #DCSR_U = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : compressed, j : compressed)
        }>
        #COO_U = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : compressed(nonunique), j : singleton(nonunique))
        }>
        /// Dense rows under a compressed level: the dense level is
        /// linearized over the whole tensor's column count.
        #CD = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : dense) }>
        #CD_U = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : compressed, j : dense)
        }>
        /// Static offsets and sizes (rows 1..4, columns 2..6), static types.
        #CSR_ST = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(1, 3, 1)>, j : #sparse_tensor<slice(2, 4, 1)>) -> (i : dense, j : compressed)
        }>
        /// Only the rows sliced (static offset, `?` size).
        #CSR_ROWS = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(2, ?, 1)>, j) -> (i : dense, j : compressed)
        }>

        pub fn spmv_csr(a: &tensor<?x?xf64, #CSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_csc(a: &tensor<?x?xf64, #CSC_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr(a: &tensor<?x?xf64, #DCSR_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_coo(a: &tensor<?x?xf64, #COO_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_cd(a: &tensor<?x?xf64, #CD_U>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_static(a: &tensor<3x4xf64, #CSR_ST>, x: &tensor<4xf64>, y: &mut tensor<3xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_rows(a: &tensor<?x?xf64, #CSR_ROWS>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmm(a: &tensor<?x?xf64, #DCSR_U>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn add_slices(a: &tensor<?x?xf64, #CSR_U>, b: &tensor<?x?xf64, #DCSR_U>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        /// A slice co-iterated with a whole tensor.
        pub fn add_whole(a: &tensor<?x?xf64, #CSR_U>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn mul_whole(a: &tensor<?x?xf64, #DCSR_U>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * b[i, j];
        }
        pub fn spgemm(a: &tensor<?x?xf64, #CSR_U>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn spgemm2(a: &tensor<?x?xf64, #DCSR_U>, b: &tensor<?x?xf64, #CSR_U>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        /// The diagonal of a slice (`a[i, i]`: `i` against `j` in slice
        /// coordinates).
        pub fn diagonal(a: &tensor<?x?xf64, #CSR_U>, y: &mut tensor<?xf64>) {
            y[i] = a[i, i];
        }
        pub fn sum(a: &tensor<?x?xf64, #DCSR_U>, s: &mut tensor<f64>) {
            s[] = a[i, j];
        }
    }
}

/// Offsets and sizes of a stride-1 slice inside `dims` (each size ≥ 1).
type Slice = ([usize; 2], [usize; 2]);

fn slice_of(dims: [usize; 2]) -> impl Strategy<Value = Slice> {
    let axis = |n: usize| (0..n).prop_flat_map(move |off| (Just(off), 1..=n - off));
    (axis(dims[0]), axis(dims[1])).prop_map(|((o0, s0), (o1, s1))| ([o0, o1], [s0, s1]))
}

/// A matrix (sizes 1..=7), its entries (distinct, or with repeats for
/// COO) and a slice of it.
fn case(repeats: bool) -> impl Strategy<Value = ([usize; 2], Entries<f64>, Slice)> {
    [1usize..=7, 1usize..=7].prop_flat_map(move |dims| {
        let e = if repeats {
            entries_with_duplicates::<f64>(&dims, 24)
        } else {
            entries::<f64>(&dims)
        };
        (Just(dims), e, slice_of(dims))
    })
}

/// The slice as `slices.rs` spells slices, with its strides.
fn strided((off, size): Slice) -> super::slices::Slice {
    (off, size, [1, 1])
}

/// The dense slice of `entries` (repeats summed), computed directly.
fn dense_slice(dims: [usize; 2], entries: &Entries<f64>, s: Slice) -> Dense<f64> {
    super::slices::dense_slice(dims, entries, strided(s))
}

/// Whether `(i, j)` of the slice is a stored coordinate of `entries`.
fn stored_in_slice(entries: &Entries<f64>, s: Slice, i: usize, j: usize) -> bool {
    super::slices::stored_in_slice(entries, strided(s), i, j)
}

/// `a b` on dense matrices.
fn dense_matmul(a: &Dense<f64>, b: &Dense<f64>) -> Dense<f64> {
    let mut c = Dense::zeros(&[a.dims[0], b.dims[1]]);
    for i in 0..a.dims[0] {
        for j in 0..b.dims[1] {
            *c.at_mut(&[i, j]) = (0..a.dims[1]).map(|k| a.at(&[i, k]) * b.at(&[k, j])).sum();
        }
    }
    c
}

/// Every SpMV kernel over the slice `(off, size)` of `e` against the
/// dense reference.
fn check_spmvs(dims: [usize; 2], e: &Entries<f64>, (off, size): Slice, x: &[f64]) {
    let want = dense_spmv(&dense_slice(dims, e, (off, size)), x);
    let ctx = format!("{dims:?} {off:?} {size:?} {e:?}");
    let mut y = vec![f64::NAN; size[0]];
    with_tensor(&CSR, dims, e, |a| {
        k::spmv_csr(&a.extract_slice(off, size, [1, 1]).unwrap(), x, &mut y)
    })
    .unwrap();
    assert_eq!(y, want, "CSR {ctx}");
    let mut y = vec![f64::NAN; size[0]];
    with_tensor(&CSC, dims, e, |a| {
        k::spmv_csc(&a.extract_slice(off, size, [1, 1]).unwrap(), x, &mut y)
    })
    .unwrap();
    assert_eq!(y, want, "CSC {ctx}");
    let mut y = vec![f64::NAN; size[0]];
    with_tensor(&DCSR, dims, e, |a| {
        k::spmv_dcsr(&a.extract_slice(off, size, [1, 1]).unwrap(), x, &mut y)
    })
    .unwrap();
    assert_eq!(y, want, "DCSR {ctx}");
}

/// SpMV over the slice `(off, size)` of `e` stored `(i : compressed, j :
/// dense)`: the rows holding an entry, each stored whole.
fn check_spmv_cd(dims: [usize; 2], e: &Entries<f64>, (off, size): Slice, x: &[f64]) {
    let full = Dense::from_entries(&dims, e);
    let rows: Vec<usize> = (0..dims[0])
        .filter(|&r| e.iter().any(|(d, _)| d[0] == r))
        .collect();
    let values: Vec<f64> = rows
        .iter()
        .flat_map(|&r| (0..dims[1]).map(move |c| (r, c)))
        .map(|(r, c)| full.at(&[r, c]))
        .collect();
    let pos = [0, rows.len()];
    let a = k::CD::<f64>::assemble(
        dims,
        [Level::compressed(&pos, &rows), Level::dense()],
        &values,
    )
    .unwrap();
    let want = dense_spmv(&dense_slice(dims, e, (off, size)), x);
    let mut y = vec![f64::NAN; size[0]];
    k::spmv_cd(&a.extract_slice(off, size, [1, 1]).unwrap(), x, &mut y).unwrap();
    assert_eq!(
        y, want,
        "(compressed, dense) {dims:?} {off:?} {size:?} {e:?}"
    );
}

/// `c = a + b` for two slices of the same sizes, and for a slice and a
/// whole CSR tensor `be` of the slice's sizes: values and the stored
/// pattern (the union of the entries inside the slices, explicit zeros
/// included).
fn check_adds(
    dims: [usize; 2],
    e: &Entries<f64>,
    slice: Slice,
    fdims: [usize; 2],
    fe: &Entries<f64>,
) {
    let (off, size) = slice;
    let want_a = dense_slice(dims, e, slice);
    // The second slice: the same sizes, at the bottom-right of `fdims`.
    if size[0] <= fdims[0] && size[1] <= fdims[1] {
        let fslice = ([fdims[0] - size[0], fdims[1] - size[1]], size);
        let want_b = dense_slice(fdims, fe, fslice);
        with_tensor(&CSR, dims, e, |a| {
            with_tensor(&DCSR, fdims, fe, |b| {
                let sa = a.extract_slice(off, size, [1, 1]).unwrap();
                let sb = b.extract_slice(fslice.0, size, [1, 1]).unwrap();
                let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
                k::add_slices(&sa, &sb, &mut c).unwrap();
                let (got, stored) = read(&c.view());
                let mut want = Dense::zeros(&size);
                let mut pattern = Vec::new();
                for i in 0..size[0] {
                    for j in 0..size[1] {
                        *want.at_mut(&[i, j]) = want_a.at(&[i, j]) + want_b.at(&[i, j]);
                        if stored_in_slice(e, slice, i, j) || stored_in_slice(fe, fslice, i, j) {
                            pattern.push([i, j]);
                        }
                    }
                }
                assert_eq!(got, want);
                assert_eq!(stored, pattern);
            })
        });
    }
    // A whole tensor of the slice's sizes: `fe`'s entries inside them.
    let be: Entries<f64> = fe
        .iter()
        .filter(|(d, _)| d[0] < size[0] && d[1] < size[1])
        .cloned()
        .collect();
    let want_b = Dense::from_entries(&size, &be);
    let whole = ([0, 0], size);
    with_tensor(&CSR, dims, e, |a| {
        with_tensor(&CSR, size, &be, |b| {
            let sa = a.extract_slice(off, size, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
            k::add_whole(&sa, b, &mut c).unwrap();
            let (got, stored) = read(&c.view());
            let mut want = Dense::zeros(&size);
            let mut pattern = Vec::new();
            for i in 0..size[0] {
                for j in 0..size[1] {
                    *want.at_mut(&[i, j]) = want_a.at(&[i, j]) + want_b.at(&[i, j]);
                    if stored_in_slice(e, slice, i, j) || stored_in_slice(&be, whole, i, j) {
                        pattern.push([i, j]);
                    }
                }
            }
            assert_eq!(got, want);
            assert_eq!(stored, pattern);
        })
    });
    with_tensor(&DCSR, dims, e, |a| {
        with_tensor(&CSR, size, &be, |b| {
            let sa = a.extract_slice(off, size, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
            k::mul_whole(&sa, b, &mut c).unwrap();
            let (got, stored) = read(&c.view());
            let mut want = Dense::zeros(&size);
            let mut pattern = Vec::new();
            for i in 0..size[0] {
                for j in 0..size[1] {
                    *want.at_mut(&[i, j]) = want_a.at(&[i, j]) * want_b.at(&[i, j]);
                    if stored_in_slice(e, slice, i, j) && stored_in_slice(&be, whole, i, j) {
                        pattern.push([i, j]);
                    }
                }
            }
            assert_eq!(got, want);
            assert_eq!(stored, pattern);
        })
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn spmv_over_slices_walked_in_place(
        (dims, e, slice) in case(false),
        xs in dense_vec::<f64>(7),
    ) {
        check_spmvs(dims, &e, slice, &xs[..slice.1[1]]);
        check_spmv_cd(dims, &e, slice, &xs[..slice.1[1]]);
    }

    /// The diagonal of a square slice, anywhere in the matrix.
    #[test]
    fn diagonal_of_a_slice((dims, e, slice) in case(false)) {
        let (off, size) = slice;
        let n = size[0].min(size[1]);
        let want_a = dense_slice(dims, &e, (off, [n, n]));
        let want: Vec<f64> = (0..n).map(|i| want_a.at(&[i, i])).collect();
        let mut y = vec![f64::NAN; n];
        with_tensor(&CSR, dims, &e, |a| {
            k::diagonal(&a.extract_slice(off, [n, n], [1, 1]).unwrap(), &mut y)
        })
        .unwrap();
        prop_assert_eq!(y, want);
    }

    /// COO with repeated coordinates (sorted): the slice means their sum.
    #[test]
    fn spmv_over_coo_slices_sums_repeats(
        (dims, e, slice) in case(true),
        xs in dense_vec::<f64>(7),
    ) {
        let (off, size) = slice;
        let mut sorted = e.clone();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let x = &xs[..size[1]];
        let want = dense_spmv(&dense_slice(dims, &sorted, slice), x);
        let mut y = vec![f64::NAN; size[0]];
        with_tensor(&COO, dims, &sorted, |a| {
            k::spmv_coo(&a.extract_slice(off, size, [1, 1]).unwrap(), x, &mut y)
        })
        .unwrap();
        prop_assert_eq!(y, want);
    }

    #[test]
    fn sparse_adds_of_slices(
        (dims, e, slice) in case(false),
        f in [1usize..=7, 1usize..=7].prop_flat_map(|d| entries::<f64>(&d).prop_map(move |e| (d, e))),
    ) {
        check_adds(dims, &e, slice, f.0, &f.1);
    }

    /// SpMM into a dense output, SpGEMM with one sliced input and with
    /// two, and a sum of every entry of the slice.
    #[test]
    fn products_with_sliced_inputs(
        (dims, e, slice) in case(false),
        n in 1usize..=5,
        be in proptest::collection::vec(prop_oneof![2 => Just(0.0f64), 1 => (-8i32..=8).prop_map(|k| f64::from(k) / 4.0)], 49),
        boff in 0usize..=2,
    ) {
        let (off, size) = slice;
        let want_a = dense_slice(dims, &e, slice);
        // `b`: size[1] x n, from the drawn values.
        let bdims = [size[1], n];
        let bent: Entries<f64> = (0..size[1])
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter_map(|(r, c)| {
                let v = be[r * 7 + c];
                (v != 0.0).then(|| (vec![r, c], v))
            })
            .collect();
        let want_b = Dense::from_entries(&bdims, &bent);
        let want = dense_matmul(&want_a, &want_b);
        with_tensor(&DCSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, [1, 1]).unwrap();
            let mut c = vec![f64::NAN; size[0] * n];
            let b: Vec<f64> = (0..size[1] * n).map(|p| want_b.at(&[p / n, p % n])).collect();
            k::spmm(
                &s,
                sparse_core::DenseView::new(&b, [size[1], n]).unwrap(),
                sparse_core::DenseViewMut::new(&mut c, [size[0], n]).unwrap(),
            )
            .unwrap();
            let flat: Vec<f64> = (0..size[0] * n).map(|p| want.at(&[p / n, p % n])).collect();
            assert_eq!(c, flat);
            let mut total = f64::NAN;
            k::sum(&s, &mut total).unwrap();
            let sum: f64 = (0..size[0]).flat_map(|i| (0..size[1]).map(move |j| (i, j))).map(|(i, j)| want_a.at(&[i, j])).sum();
            assert_eq!(total, sum);
        });
        with_tensor(&CSR, dims, &e, |a| with_tensor(&CSR, bdims, &bent, |b| {
            let s = a.extract_slice(off, size, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims([size[0], n]).unwrap();
            k::spgemm(&s, b, &mut c).unwrap();
            assert_eq!(read(&c.view()).0, want);
        }));
        // `b` as a slice too, of a larger tensor that holds it at
        // `(boff, boff)` (entries outside the slice must not leak in).
        let big = [size[1] + boff + 1, n + boff + 2];
        let mut shifted: Entries<f64> = bent
            .iter()
            .map(|(d, v)| (vec![d[0] + boff, d[1] + boff], *v))
            .collect();
        shifted.push((vec![big[0] - 1, big[1] - 1], 100.0));
        if boff > 0 {
            shifted.insert(0, (vec![0, 0], -100.0));
        }
        with_tensor(&DCSR, dims, &e, |a| with_tensor(&CSR, big, &shifted, |b| {
            let sa = a.extract_slice(off, size, [1, 1]).unwrap();
            let sb = b.extract_slice([boff, boff], bdims, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims([size[0], n]).unwrap();
            k::spgemm2(&sa, &sb, &mut c).unwrap();
            assert_eq!(read(&c.view()).0, want);
        }));
    }
}

/// The slices at the four corners and along the edges of a full matrix,
/// each row and column alone, and the whole matrix.
#[test]
fn slices_at_the_edges() {
    let dims = [5, 6];
    let e: Entries<f64> = (0..5)
        .flat_map(|r| (0..6).map(move |c| (r, c)))
        .map(|(r, c)| (vec![r, c], (r * 6 + c) as f64 + 1.0))
        .collect();
    let x: Vec<f64> = (0..6).map(|j| 1.0 + j as f64 * 0.5).collect();
    let mut slices = vec![
        ([0, 0], [5, 6]),
        ([4, 5], [1, 1]),
        ([0, 5], [5, 1]),
        ([4, 0], [1, 6]),
    ];
    slices.extend((0..5).map(|r| ([r, 0], [1, 6])));
    slices.extend((0..6).map(|c| ([0, c], [5, 1])));
    slices.extend([
        ([3, 4], [2, 2]),
        ([0, 0], [2, 2]),
        ([0, 4], [2, 2]),
        ([3, 0], [2, 2]),
    ]);
    for (off, size) in slices {
        check_spmvs(dims, &e, (off, size), &x[..size[1]]);
        check_spmv_cd(dims, &e, (off, size), &x[..size[1]]);
        check_adds(dims, &e, (off, size), dims, &e);
    }
}

/// Slices that hold no stored entry: of an empty tensor, and of a region
/// between entries (rows and columns with entries on both sides).
#[test]
fn slices_without_entries() {
    let x = [1.0; 7];
    let empty: Entries<f64> = Vec::new();
    check_spmvs([4, 7], &empty, ([1, 2], [2, 3]), &x[..3]);
    check_adds([4, 7], &empty, ([1, 2], [2, 3]), [4, 7], &empty);
    let around: Entries<f64> = vec![
        (vec![0, 0], 1.0),
        (vec![0, 6], 2.0),
        (vec![1, 0], 3.0),
        (vec![1, 6], 4.0),
        (vec![3, 3], 5.0),
    ];
    // Row 1 between columns 1..6, and rows 1..3 of columns 1..3.
    for slice in [([1, 1], [1, 5]), ([1, 1], [2, 2]), ([2, 0], [1, 7])] {
        check_spmvs([4, 7], &around, slice, &x[..slice.1[1]]);
        let y = {
            let mut y = vec![f64::NAN; slice.1[0]];
            with_tensor(&CSR, [4, 7], &around, |a| {
                k::spmv_csr(
                    &a.extract_slice(slice.0, slice.1, [1, 1]).unwrap(),
                    &x[..slice.1[1]],
                    &mut y,
                )
            })
            .unwrap();
            y
        };
        assert!(y.iter().all(|v| *v == 0.0), "{slice:?} {y:?}");
        check_adds([4, 7], &around, slice, [4, 7], &around);
    }
}

/// Static parameters: still checked at the call (`SliceMismatch`), and
/// the kernel reads exactly the slice.
#[test]
fn static_slices_walked_in_place() {
    let dims = [6, 7];
    let e: Entries<f64> = (0..6)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|(r, c)| (r + 2 * c) % 3 != 0)
        .map(|(r, c)| (vec![r, c], (r * 7 + c) as f64 - 10.0))
        .collect();
    let x = [1.0, -2.0, 0.5, 4.0];
    let want = dense_spmv(&dense_slice(dims, &e, ([1, 2], [3, 4])), &x);
    with_tensor(&CSR, dims, &e, |a| {
        let mut y = [f64::NAN; 3];
        k::spmv_static(
            &a.extract_slice([1, 2], [3, 4], [1, 1]).unwrap(),
            &x,
            &mut y,
        )
        .unwrap();
        assert_eq!(y.to_vec(), want);
        let mut y = [-1.0; 3];
        let err = k::spmv_static(
            &a.extract_slice([1, 1], [3, 4], [1, 1]).unwrap(),
            &x,
            &mut y,
        );
        assert_eq!(
            err,
            Err(KernelError::SliceMismatch {
                tensor: "a",
                dim: 1,
                param: SliceParam::Offset,
                found: 1,
                expected: 2,
            })
        );
        assert_eq!(y, [-1.0; 3], "nothing written before the check");
    });
    // Rows from 2 (static), any count; columns whole (not sliced).
    for rows in 1..=4 {
        let want = dense_spmv(&dense_slice(dims, &e, ([2, 0], [rows, 7])), &[1.0; 7]);
        with_tensor(&CSR, dims, &e, |a| {
            let mut y = vec![f64::NAN; rows];
            k::spmv_rows(
                &a.extract_slice([2, 0], [rows, 7], [1, 1]).unwrap(),
                &[1.0; 7],
                &mut y,
            )
            .unwrap();
            assert_eq!(y, want);
        });
    }
}

/// A size the operands disagree on is a typed error, as for any operand:
/// the slice's size, not the whole tensor's, sizes its index variables.
#[test]
fn the_slice_sizes_its_index_variables() {
    let e: Entries<f64> = vec![(vec![1, 1], 2.0)];
    with_tensor(&CSR, [4, 5], &e, |a| {
        let s = a.extract_slice([1, 1], [2, 3], [1, 1]).unwrap();
        let mut y = [f64::NAN; 2];
        assert!(matches!(
            k::spmv_csr(&s, &[1.0; 5], &mut y),
            Err(KernelError::DimensionMismatch { .. })
        ));
        assert!(k::spmv_csr(&s, &[1.0; 3], &mut y).is_ok());
        assert_eq!(y, [2.0, 0.0]);
    });
}
