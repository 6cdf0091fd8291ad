//! Kernels over sliced operands (`#sparse_tensor<slice(offset, size,
//! stride)>` encodings, passed as `SliceView`s of CSR, DCSR, CSC and COO
//! tensors) against the same computation, written by hand, on the dense
//! slice of the dense reference: SpMV, a sparse add, SpGEMM with one and
//! two sliced inputs, copies into sparse outputs (the conversion path),
//! static, dynamic and mixed slice parameters, and the errors at the call.

use proptest::prelude::*;
use sparse_core::{KernelError, Owned, SliceParam, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, entries, entries_with_duplicates, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #CSR_S = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (i : dense, j : compressed)
        }>
        #CSR_ST = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(1, 3, 2)>, j : #sparse_tensor<slice(0, 4, 1)>) -> (i : dense, j : compressed),
            posWidth = 16,
            crdWidth = 8
        }>
        #CSR_SM = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(1, 2, ?)>) -> (i : dense, j : compressed)
        }>
        #CSC_S = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (j : dense, i : compressed)
        }>
        #DCSR_S = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (i : compressed, j : compressed)
        }>
        #COO_S = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (i : compressed(nonunique), j : singleton(nonunique))
        }>

        #SV_S = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, ?)>) -> (i : compressed) }>
        #CSF_S = #sparse_tensor.encoding<{
            map = (i : #sparse_tensor<slice(?, ?, ?)>, j, k : #sparse_tensor<slice(?, ?, 2)>) -> (i : compressed, j : compressed, k : compressed)
        }>

        #DV_S = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, ?)>) -> (i : dense) }>
        /// A slice of an all-dense encoding: also read through a copy.
        pub fn scale(a: &tensor<?xf64, #DV_S>, y: &mut tensor<?xf64>) {
            y[i] = a[i] * 2.0;
        }
        /// A sparse vector slice against a dense one.
        pub fn dot(a: &tensor<?xf64, #SV_S>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] = a[i] * x[i];
        }
        /// Tensor-times-vector over a 3-D slice (`j` whole, `k` every
        /// second coordinate).
        pub fn ttv(a: &tensor<?x?x?xf64, #CSF_S>, x: &tensor<?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, j] = a[i, j, k] * x[k];
        }
        pub fn spmv_csr(a: &tensor<?x?xf64, #CSR_S>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_csc(a: &tensor<?x?xf64, #CSC_S>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr(a: &tensor<?x?xf64, #DCSR_S>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_coo(a: &tensor<?x?xf64, #COO_S>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        /// Rows 1, 3, 5 and columns 0..4 of a tensor with at least 6 rows.
        pub fn spmv_static(a: &tensor<3x4xf64, #CSR_ST>, x: &tensor<4xf64>, y: &mut tensor<3xf64>) {
            y[i] = a[i, j] * x[j];
        }
        /// Unit row stride; two columns from column 1, any column stride.
        pub fn spmv_mixed(a: &tensor<?x?xf64, #CSR_SM>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn add(a: &tensor<?x?xf64, #CSR_S>, b: &tensor<?x?xf64, #DCSR_S>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        /// `a` in column order: read through a copy reordered from the slice.
        pub fn add_csc(a: &tensor<?x?xf64, #CSC_S>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn spgemm(a: &tensor<?x?xf64, #CSR_S>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn spgemm2(a: &tensor<?x?xf64, #DCSR_S>, b: &tensor<?x?xf64, #CSR_S>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        /// A conversion of the slice (no workspace).
        pub fn to_csc(a: &tensor<?x?xf64, #CSR_S>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = a[i, j];
        }
        pub fn transpose(a: &tensor<?x?xf64, #CSR_S>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j];
        }
        /// A copy the loops make, in the slice's own order.
        pub fn copy(a: &tensor<?x?xf64, #CSR_S>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j];
        }
    }
}

/// A compact copy's workspace, of the slice's sizes.
fn ws<E: sparse_core::StoresValues>(dims: [usize; 2]) -> SparseTensorOut<f64, E, Owned, 2, 2> {
    SparseTensorOut::<f64, E, Owned, 2, 2>::with_dims(dims).expect("a workspace")
}

/// Offsets, sizes and strides of a slice inside `dims` (each size ≥ 1).
pub(super) type Slice = ([usize; 2], [usize; 2], [usize; 2]);

fn slice_of(dims: [usize; 2]) -> impl Strategy<Value = Slice> {
    let axis = |n: usize| {
        (0..n, 1usize..=3).prop_flat_map(move |(off, stride)| {
            let max = (n - 1 - off) / stride + 1;
            (Just(off), 1..=max, Just(stride))
        })
    };
    (axis(dims[0]), axis(dims[1]))
        .prop_map(|((o0, s0, t0), (o1, s1, t1))| ([o0, o1], [s0, s1], [t0, t1]))
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

/// The dense slice of `entries` (repeats summed), computed directly.
pub(super) fn dense_slice(
    dims: [usize; 2],
    entries: &Entries<f64>,
    (off, size, stride): Slice,
) -> Dense<f64> {
    let full = Dense::from_entries(&dims, entries);
    let mut s = Dense::zeros(&size);
    for i in 0..size[0] {
        for j in 0..size[1] {
            *s.at_mut(&[i, j]) = full.at(&[off[0] + i * stride[0], off[1] + j * stride[1]]);
        }
    }
    s
}

/// Whether `(i, j)` of the slice is a stored coordinate of `entries`.
pub(super) fn stored_in_slice(
    entries: &Entries<f64>,
    (off, size, stride): Slice,
    i: usize,
    j: usize,
) -> bool {
    let (r, c) = (off[0] + i * stride[0], off[1] + j * stride[1]);
    i < size[0] && j < size[1] && entries.iter().any(|(d, _)| d[0] == r && d[1] == c)
}

/// `y = a x` on the dense slice.
pub(super) fn dense_spmv(a: &Dense<f64>, x: &[f64]) -> Vec<f64> {
    (0..a.dims[0])
        .map(|i| (0..a.dims[1]).map(|j| a.at(&[i, j]) * x[j]).sum())
        .collect()
}

/// A sparse output's dense form and its stored coordinates.
pub(super) fn read<E: sparse_core::Encoding>(
    c: &SparseTensor<'_, f64, E, 2, 2>,
) -> (Dense<f64>, Vec<[usize; 2]>) {
    let mut d = Dense::zeros(&c.dim_sizes());
    let mut stored = Vec::new();
    c.for_each(|[i, j], v| {
        *d.at_mut(&[i, j]) = *v;
        stored.push([i, j]);
    });
    stored.sort_unstable();
    (d, stored)
}

fn check_spmv(
    dims: [usize; 2],
    e: &Entries<f64>,
    slice: Slice,
    x: &[f64],
    kernel: impl Fn([usize; 2], Slice, &[f64], &mut Vec<f64>) -> Result<(), KernelError>,
) {
    let want = dense_spmv(&dense_slice(dims, e, slice), x);
    let mut y = vec![f64::NAN; slice.1[0]];
    kernel(dims, slice, x, &mut y).unwrap();
    assert_eq!(y, want, "{dims:?} {slice:?} {e:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn spmv_over_slices_of_every_format(
        (dims, e, slice) in case(false),
        xs in dense_vec::<f64>(7),
    ) {
        let (off, size, stride) = slice;
        let x = &xs[..size[1]];
        check_spmv(dims, &e, slice, x, |dims, _, x, y| with_tensor(&CSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, stride).unwrap();
            k::spmv_csr(&s, x, y, &mut ws(size))
        }));
        check_spmv(dims, &e, slice, x, |dims, _, x, y| with_tensor(&CSC, dims, &e, |a| {
            let s = a.extract_slice(off, size, stride).unwrap();
            k::spmv_csc(&s, x, y, &mut ws(size))
        }));
        check_spmv(dims, &e, slice, x, |dims, _, x, y| with_tensor(&DCSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, stride).unwrap();
            k::spmv_dcsr(&s, x, y, &mut ws(size))
        }));
    }

    /// COO with repeated coordinates: the slice means their sum.
    #[test]
    fn spmv_over_coo_slices_sums_repeats(
        (dims, e, slice) in case(true),
        xs in dense_vec::<f64>(7),
    ) {
        let (off, size, stride) = slice;
        let mut sorted = e.clone();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        check_spmv(dims, &sorted, slice, &xs[..size[1]], |dims, _, x, y| with_tensor(&COO, dims, &sorted, |a| {
            let s = a.extract_slice(off, size, stride).unwrap();
            k::spmv_coo(&s, x, y, &mut ws(size))
        }));
    }

    /// `c = a + b` over two slices of the same shape taken from different
    /// tensors: values and the stored pattern (the union of the entries
    /// inside the slices, explicit zeros included).
    #[test]
    fn sparse_add_of_two_slices(
        (dims, e, slice) in case(false),
        f in [1usize..=7, 1usize..=7].prop_flat_map(|d| entries::<f64>(&d).prop_map(move |e| (d, e))),
    ) {
        let (off, size, stride) = slice;
        let (fdims, fe) = f;
        // The second slice: the same sizes, placed in `fdims` if it fits.
        prop_assume!(size[0] <= fdims[0] && size[1] <= fdims[1]);
        let fslice = ([0, 0], size, [1, 1]);
        let (want_a, want_b) = (dense_slice(dims, &e, slice), dense_slice(fdims, &fe, fslice));
        with_tensor(&CSR, dims, &e, |a| with_tensor(&DCSR, fdims, &fe, |b| {
            let sa = a.extract_slice(off, size, stride).unwrap();
            let sb = b.extract_slice([0, 0], size, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
            k::add(&sa, &sb, &mut c, &mut ws(size), &mut ws(size)).unwrap();
            let (got, stored) = read(&c.view());
            let mut want = Dense::zeros(&size);
            let mut pattern = Vec::new();
            for i in 0..size[0] {
                for j in 0..size[1] {
                    *want.at_mut(&[i, j]) = want_a.at(&[i, j]) + want_b.at(&[i, j]);
                    if stored_in_slice(&e, slice, i, j) || stored_in_slice(&fe, fslice, i, j) {
                        pattern.push([i, j]);
                    }
                }
            }
            assert_eq!(got, want);
            assert_eq!(stored, pattern);
        }));
        // The same with `a` stored CSC and `b` the whole of a CSR tensor
        // of the slice's sizes (its entries inside them).
        let be: Entries<f64> = fe
            .iter()
            .filter(|(d, _)| d[0] < size[0] && d[1] < size[1])
            .cloned()
            .collect();
        with_tensor(&CSC, dims, &e, |a| with_tensor(&CSR, size, &be, |b| {
            let sa = a.extract_slice(off, size, stride).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
            k::add_csc(&sa, b, &mut c, &mut ws(size)).unwrap();
            let (got, stored) = read(&c.view());
            let mut want = Dense::zeros(&size);
            let mut pattern = Vec::new();
            for i in 0..size[0] {
                for j in 0..size[1] {
                    *want.at_mut(&[i, j]) = want_a.at(&[i, j]) + want_b.at(&[i, j]);
                    if stored_in_slice(&e, slice, i, j) || stored_in_slice(&fe, fslice, i, j) {
                        pattern.push([i, j]);
                    }
                }
            }
            assert_eq!(got, want);
            assert_eq!(stored, pattern);
        }));
    }

    /// `c[i, j] = a[i, k] * b[k, j]`, `a` a slice (CSR), `b` a whole CSR
    /// tensor; then both sliced (DCSR and CSR).
    #[test]
    fn spgemm_with_sliced_inputs(
        (dims, e, slice) in case(false),
        n in 1usize..=5,
        be in proptest::collection::vec(prop_oneof![2 => Just(0.0f64), 1 => (-8i32..=8).prop_map(|k| f64::from(k) / 4.0)], 49),
    ) {
        let (off, size, stride) = slice;
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
        let mut want = Dense::zeros(&[size[0], n]);
        for i in 0..size[0] {
            for j in 0..n {
                *want.at_mut(&[i, j]) = (0..size[1]).map(|k| want_a.at(&[i, k]) * want_b.at(&[k, j])).sum();
            }
        }
        with_tensor(&CSR, dims, &e, |a| with_tensor(&CSR, bdims, &bent, |b| {
            let s = a.extract_slice(off, size, stride).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims([size[0], n]).unwrap();
            k::spgemm(&s, b, &mut c, &mut ws(size)).unwrap();
            assert_eq!(read(&c.view()).0, want);
        }));
        // `b` as a slice too: the whole of a larger tensor's top-left.
        let big = [size[1] + 1, n + 2];
        with_tensor(&DCSR, dims, &e, |a| with_tensor(&CSR, big, &bent, |b| {
            let sa = a.extract_slice(off, size, stride).unwrap();
            let sb = b.extract_slice([0, 0], bdims, [1, 1]).unwrap();
            let mut c = k::CSROut::<f64, Owned>::with_dims([size[0], n]).unwrap();
            k::spgemm2(&sa, &sb, &mut c, &mut ws(size), &mut ws(bdims)).unwrap();
            assert_eq!(read(&c.view()).0, want);
        }));
    }

    /// Copies of a slice into sparse outputs: converted (CSC, a
    /// transpose) or through the loops (CSR), every stored entry inside
    /// the slice kept.
    #[test]
    fn copies_of_a_slice((dims, e, slice) in case(false)) {
        let (off, size, stride) = slice;
        let want = dense_slice(dims, &e, slice);
        let mut pattern = Vec::new();
        for i in 0..size[0] {
            for j in 0..size[1] {
                if stored_in_slice(&e, slice, i, j) {
                    pattern.push([i, j]);
                }
            }
        }
        with_tensor(&CSR, dims, &e, |a| {
            let s = a.extract_slice(off, size, stride).unwrap();
            let mut c = k::CSCOut::<f64, Owned>::with_dims(size).unwrap();
            k::to_csc(&s, &mut c).unwrap();
            assert_eq!(read(&c.view()), (want.clone(), pattern.clone()));
            let mut c = k::CSROut::<f64, Owned>::with_dims(size).unwrap();
            k::copy(&s, &mut c, &mut ws(size)).unwrap();
            assert_eq!(read(&c.view()), (want.clone(), pattern.clone()));
            let mut t = k::CSROut::<f64, Owned>::with_dims([size[1], size[0]]).unwrap();
            k::transpose(&s, &mut t).unwrap();
            let (got, mut stored) = read(&t.view());
            for i in 0..size[0] {
                for j in 0..size[1] {
                    assert_eq!(got.at(&[j, i]), want.at(&[i, j]));
                }
            }
            stored.iter_mut().for_each(|c| c.reverse());
            stored.sort_unstable();
            assert_eq!(stored, pattern);
        });
    }

    /// Static slice parameters: the kernel takes exactly `slice(1, 3, 2)`
    /// x `slice(0, 4, 1)`; mixed ones fix some and leave the rest free.
    #[test]
    fn static_and_mixed_slices(
        rows in 6usize..=8,
        cols in 4usize..=6,
        seed in proptest::collection::vec(prop_oneof![2 => Just(0.0f64), 1 => (-8i32..=8).prop_map(|k| f64::from(k) / 4.0)], 48),
        xs in dense_vec::<f64>(4),
        row0 in 0usize..=3,
        col_stride in 1usize..=3,
    ) {
        let dims = [rows, cols];
        let e: Entries<f64> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter_map(|(r, c)| {
                let v = seed[r * 6 + c];
                (v != 0.0).then(|| (vec![r, c], v))
            })
            .collect();
        let st = ([1, 0], [3, 4], [2, 1]);
        let want = dense_spmv(&dense_slice(dims, &e, st), &xs);
        with_tensor(&CSR, dims, &e, |a| {
            let s = a.extract_slice(st.0, st.1, st.2).unwrap();
            let mut y = [f64::NAN; 3];
            let xs4: [f64; 4] = xs.clone().try_into().unwrap();
            k::spmv_static(&s, &xs4, &mut y, &mut ws(st.1)).unwrap();
            assert_eq!(y.to_vec(), want);
        });
        // Mixed: rows from `row0` (any count, stride 1), columns 1 and
        // 1 + stride where that fits.
        prop_assume!(1 + col_stride < cols);
        let mixed = ([row0, 1], [rows - row0, 2], [1, col_stride]);
        let want = dense_spmv(&dense_slice(dims, &e, mixed), &xs[..2]);
        with_tensor(&CSR, dims, &e, |a| {
            let s = a.extract_slice(mixed.0, mixed.1, mixed.2).unwrap();
            let mut y = vec![f64::NAN; rows - row0];
            k::spmv_mixed(&s, &xs[..2], &mut y, &mut ws(mixed.1)).unwrap();
            assert_eq!(y, want);
        });
    }
}

/// A view whose slice differs from the encoding's static parameters is a
/// `KernelError::SliceMismatch` naming the parameter, and nothing is
/// written.
#[test]
fn static_slice_parameters_are_checked_at_the_call() {
    let e: Entries<f64> = vec![(vec![1, 0], 2.0), (vec![5, 3], 4.0)];
    with_tensor(&CSR, [7, 5], &e, |a| {
        let x = [1.0; 4];
        let call = |off: [usize; 2], stride: [usize; 2]| {
            let s = a.extract_slice(off, [3, 4], stride).unwrap();
            let mut y = [-1.0; 3];
            let r = k::spmv_static(&s, &x, &mut y, &mut ws([3, 4]));
            (r, y)
        };
        assert_eq!(call([1, 0], [2, 1]), (Ok(()), [2.0, 0.0, 4.0]));
        let mismatch = |dim, param, found, expected| {
            Err(KernelError::SliceMismatch {
                tensor: "a",
                dim,
                param,
                found,
                expected,
            })
        };
        assert_eq!(
            call([0, 0], [2, 1]),
            (mismatch(0, SliceParam::Offset, 0, 1), [-1.0; 3])
        );
        assert_eq!(
            call([1, 1], [2, 1]),
            (mismatch(1, SliceParam::Offset, 1, 0), [-1.0; 3])
        );
        assert_eq!(
            call([1, 0], [1, 1]),
            (mismatch(0, SliceParam::Stride, 1, 2), [-1.0; 3])
        );
        assert_eq!(
            KernelError::SliceMismatch {
                tensor: "a",
                dim: 0,
                param: SliceParam::Stride,
                found: 1,
                expected: 2
            }
            .to_string(),
            "dimension 0 of `a` is sliced with stride 1, but its encoding declares 2"
        );
    });
    with_tensor(&CSR, [7, 5], &e, |a| {
        let mismatch = |dim, param, found, expected| {
            Err(KernelError::SliceMismatch {
                tensor: "a",
                dim,
                param,
                found,
                expected,
            })
        };
        // A `?` size with a static one in the encoding: checked too.
        let s = a.extract_slice([0, 1], [7, 3], [1, 1]).unwrap();
        let mut y = vec![0.0; 7];
        assert_eq!(
            k::spmv_mixed(&s, &[1.0; 3], &mut y, &mut ws([7, 3])),
            mismatch(1, SliceParam::Size, 3, 2)
        );
    });
    with_tensor(&CSR, [7, 5], &e, |a| {
        // Sizes are the slice's: a vector of the tensor's size is refused.
        let mut y = vec![0.0; 7];
        let s = a.extract_slice([0, 0], [7, 2], [1, 2]).unwrap();
        assert_eq!(
            k::spmv_csr(&s, &[1.0; 5], &mut y, &mut ws([7, 2])),
            Err(KernelError::DimensionMismatch {
                tensor: "a",
                dim: 1,
                size: 2,
                index: "j",
                expected: 5,
                bound_by: "x",
                bound_dim: 0,
            })
        );
        // Errors name the sliced operand, not its copy (`a_sliced`).
        let mut y8 = vec![0.0; 8];
        assert_eq!(
            k::spmv_csr(&s, &[1.0; 2], &mut y8, &mut ws([7, 2])),
            Err(KernelError::DimensionMismatch {
                tensor: "a",
                dim: 0,
                size: 7,
                index: "i",
                expected: 8,
                bound_by: "y",
                bound_dim: 0,
            })
        );
    });
}

/// A workspace too small for the slice's entries is a capacity error
/// naming it; the kernel writes nothing.
#[test]
fn a_full_workspace_is_a_capacity_error() {
    let e: Entries<f64> = vec![
        (vec![0, 0], 1.0),
        (vec![0, 2], 2.0),
        (vec![1, 1], 3.0),
        (vec![1, 2], 4.0),
    ];
    with_tensor(&CSR, [2, 3], &e, |a| {
        let s = a.extract_slice([0, 0], [2, 3], [1, 1]).unwrap();
        // Room for the positions (3), not for the 4 coordinates.
        let mut w =
            SparseTensorOut::<f64, _, sparse_core::Fixed<3>, 2, 2>::with_dims([2, 3]).unwrap();
        let mut y = [-1.0; 2];
        let r = k::spmv_csr(&s, &[1.0; 3], &mut y, &mut w);
        assert!(
            matches!(
                r,
                Err(KernelError::Capacity {
                    tensor: "a_sliced",
                    ..
                })
            ),
            "{r:?}"
        );
        assert_eq!(y, [-1.0; 2]);
    });
}

/// One axis of a slice inside a dimension of size `n` (≥ 1), with the
/// stride `stride` if given.
fn axis(n: usize, stride: Option<usize>) -> impl Strategy<Value = (usize, usize, usize)> {
    let strides = match stride {
        Some(s) => Just(s).boxed(),
        None => (1usize..=3).boxed(),
    };
    (0..n, strides).prop_flat_map(move |(off, stride)| {
        let max = (n - 1 - off) / stride + 1;
        (Just(off), 1..=max, Just(stride))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A slice of a sparse vector, against the dense slice.
    #[test]
    fn dot_over_a_vector_slice(
        (n, e, (off, size, stride)) in (1usize..=12).prop_flat_map(|n| (Just(n), entries::<f64>(&[n]), axis(n, None))),
        xs in dense_vec::<f64>(12),
    ) {
        let full = Dense::from_entries(&[n], &e);
        let want: f64 = (0..size).map(|c| full.at(&[off + c * stride]) * xs[c]).sum();
        with_tensor(&SV, [n], &e, |a| {
            let s = a.extract_slice([off], [size], [stride]).unwrap();
            let mut out = f64::NAN;
            let mut w = SparseTensorOut::<f64, _, Owned, 1, 1>::with_dims([size]).unwrap();
            k::dot(&s, &xs[..size], &mut out, &mut w).unwrap();
            assert_eq!(out, want);
        });
    }

    /// A 3-D slice (CSF storage; `j` unsliced, `k` with the encoding's
    /// stride 2) in tensor-times-vector, against the dense slice.
    #[test]
    fn ttv_over_a_csf_slice(
        (dims, e, (o0, s0, t0), (o2, s2, t2)) in [1usize..=5, 1usize..=4, 1usize..=7].prop_flat_map(|d| {
            (Just(d), entries::<f64>(&d), axis(d[0], None), axis(d[2], Some(2)))
        }),
        xs in dense_vec::<f64>(7),
    ) {
        let full = Dense::from_entries(&dims, &e);
        let size = [s0, dims[1], s2];
        let mut want = Dense::zeros(&[s0, dims[1]]);
        for i in 0..s0 {
            for j in 0..dims[1] {
                *want.at_mut(&[i, j]) = (0..s2)
                    .map(|c| full.at(&[o0 + i * t0, j, o2 + c * t2]) * xs[c])
                    .sum();
            }
        }
        with_tensor(&CSF, dims, &e, |a| {
            let s = a.extract_slice([o0, 0, o2], size, [t0, 1, t2]).unwrap();
            let mut y = vec![f64::NAN; s0 * dims[1]];
            let mut w = SparseTensorOut::<f64, _, Owned, 3, 3>::with_dims(size).unwrap();
            let view = sparse_core::DenseViewMut::new(&mut y, [s0, dims[1]]).unwrap();
            k::ttv(&s, &xs[..s2], view, &mut w).unwrap();
            assert_eq!(y, want.data);
        });
    }
}

#[test]
fn slices_of_all_dense_storage_are_copied_too() {
    let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
    let t = sparse_core::SparseTensor::<f64, _, 1, 1>::assemble(
        [7],
        [sparse_core::Level::dense()],
        &values,
    )
    .unwrap();
    let s: k::DV_S<'_, f64> = t.extract_slice([1], [3], [2]).unwrap();
    let mut y = [f64::NAN; 3];
    let mut w = SparseTensorOut::<f64, _, Owned, 1, 1>::with_dims([3]).unwrap();
    k::scale(&s, &mut y, &mut w).unwrap();
    assert_eq!(y, [4.0, 8.0, 12.0]);
}
