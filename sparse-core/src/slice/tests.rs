//! Slices against the dense slicing of a dense reference, in CSR, CSC,
//! DCSR, COO and BSR; the errors; the print layout. No `alloc`: buffers
//! are test `Vec`s behind `Slices`.

extern crate std;

use crate::levels::{compressed, d0, d1, d2, dense, floordiv, modulo, nonunique, singleton};
use std::string::ToString;
use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::convert::{convert_slice, convert_slice_sum, from_dense, to_dense};
use crate::encoding::Enc;
use crate::output::{SliceBuffer, Slices, SparseTensorOut};
use crate::tensor::Level;

type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Csc = Enc<u16, u16, (dense, compressed), (d1, d0)>;
type Dcsr = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
type Coo = Enc<u32, u32, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
type Bsr = Enc<
    usize,
    usize,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
>;

/// Test-owned buffers of `n` elements each.
struct Mem<const L: usize> {
    pos: [Vec<usize>; L],
    crd: [Vec<usize>; L],
    val: Vec<i64>,
}

impl<const L: usize> Mem<L> {
    fn new(n: usize) -> Self {
        Mem {
            pos: core::array::from_fn(|_| vec![0; n]),
            crd: core::array::from_fn(|_| vec![0; n]),
            val: vec![0; n],
        }
    }
}

/// A `usize`-width output over `mem`, built with the same levels as `E`.
fn out<'m, E: crate::StoresValues<Pos = usize, Crd = usize>, const L: usize>(
    mem: &'m mut Mem<L>,
    dims: [usize; 2],
) -> SparseTensorOut<i64, E, Slices<'m>, 2, L> {
    let mut pos = mem.pos.iter_mut();
    let mut crd = mem.crd.iter_mut();
    SparseTensorOut::new(
        dims,
        core::array::from_fn(|_| SliceBuffer::new(pos.next().map_or(&mut [][..], |v| &mut v[..]))),
        core::array::from_fn(|_| SliceBuffer::new(crd.next().map_or(&mut [][..], |v| &mut v[..]))),
        SliceBuffer::new(&mut mem.val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap()
}

/// The dense slice of the row-major `dense` (`dims`), computed directly.
fn dense_slice(
    dense: &[i64],
    dims: [usize; 2],
    off: [usize; 2],
    size: [usize; 2],
    stride: [usize; 2],
) -> Vec<i64> {
    let mut out = Vec::new();
    for i in 0..size[0] {
        for j in 0..size[1] {
            out.push(dense[(off[0] + i * stride[0]) * dims[1] + off[1] + j * stride[1]]);
        }
    }
    out
}

/// The dense array of what `for_each` visits (repeats summed).
fn visited<E: Encoding>(s: &SliceView<'_, i64, E, 2, 2>) -> Vec<i64> {
    let [r, c] = s.dim_sizes();
    let mut out = vec![0; r * c];
    s.for_each(|[i, j], v| out[i * c + j] += *v);
    out
}

type UsizeCsr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
type UsizeCsc = Enc<usize, usize, (dense, compressed), (d1, d0)>;
type UsizeCoo = Enc<usize, usize, (compressed<nonunique>, singleton), (d0, d1)>;

/// Checks every query and both conversions of one slice of `t` against
/// `want`, the dense slice.
fn check_slice<E: Encoding, const L: usize>(
    t: &SparseTensor<'_, i64, E, 2, L>,
    off: [usize; 2],
    size: [usize; 2],
    stride: [usize; 2],
    want: &[i64],
) {
    let s = t.extract_slice(off, size, stride).unwrap();
    assert_eq!(s.dim_sizes(), size);
    assert_eq!((s.offsets(), s.strides()), (off, stride));
    assert_eq!(s.slice_offset(1), Some(off[1]));
    assert_eq!(s.slice_stride(0), Some(stride[0]));
    assert_eq!(s.slice_stride(2), None);
    let mut seen = vec![0i64; size[0] * size[1]];
    let mut n = 0;
    s.for_each(|[i, j], v| {
        assert!(i < size[0] && j < size[1]);
        seen[i * size[1] + j] += *v;
        n += 1;
    });
    assert_eq!(seen, want);
    assert_eq!(s.number_of_entries(), n);
    // The same visits in the same order as the tensor's walk, filtered
    // (what CSR and CSC skip to by rows and binary search).
    let mut fast = Vec::new();
    s.for_each(|c, v| fast.push((c, *v)));
    let mut general = Vec::new();
    t.for_each(|c, v| {
        if let Some(c) = s.to_slice(c) {
            general.push((c, *v));
        }
    });
    assert_eq!(fast, general);
    // Into CSR (streams from a CSR or DCSR slice), CSC (staged) and COO.
    let mut dense = vec![0i64; size[0] * size[1]];
    let mut mem = Mem::<2>::new(64);
    let mut csr = out::<UsizeCsr, 2>(&mut mem, size);
    convert_slice_sum(&s, &mut csr).unwrap();
    to_dense(&csr.view(), &mut dense).unwrap();
    assert_eq!(dense, want);
    let mut mem = Mem::<2>::new(64);
    let mut csc = out::<UsizeCsc, 2>(&mut mem, size);
    convert_slice_sum(&s, &mut csc).unwrap();
    to_dense(&csc.view(), &mut dense).unwrap();
    assert_eq!(dense, want);
    let mut mem = Mem::<2>::new(64);
    let mut coo = out::<UsizeCoo, 2>(&mut mem, size);
    convert_slice_sum(&s, &mut coo).unwrap();
    to_dense(&coo.view(), &mut dense).unwrap();
    assert_eq!(dense, want);
    // Re-assembled through the checked constructor.
    let v = csr.view();
    let (dims, levels, values) = v.disassemble();
    SparseTensor::<i64, UsizeCsr, 2, 2>::assemble(dims, levels, values).unwrap();
}

/// `dense` (`dims`) stored as `E` through `from_dense`, then every check.
fn check_format<E: crate::StoresValues<Pos = usize, Crd = usize>, const L: usize>(
    dense: &[i64],
    dims: [usize; 2],
    off: [usize; 2],
    size: [usize; 2],
    stride: [usize; 2],
) {
    let mut mem = Mem::<L>::new(64);
    let mut t = out::<E, L>(&mut mem, dims);
    from_dense(dense, dims, &mut t).unwrap();
    let want = dense_slice(dense, dims, off, size, stride);
    check_slice(&t.view(), off, size, stride, &want);
}

/// A row-major matrix, its sizes, and the offsets, sizes and strides of
/// an in-bounds slice of it.
type Case = (Vec<i64>, [usize; 2], [usize; 2], [usize; 2], [usize; 2]);

/// A matrix and an in-bounds slice of it.
fn matrix_and_slice() -> impl Strategy<Value = Case> {
    ([1usize..=6, 1usize..=6])
        .prop_flat_map(|dims| {
            let n = dims[0] * dims[1];
            let axis = |d: usize| {
                (0..d, 1usize..=3).prop_flat_map(move |(off, stride)| {
                    let max = (d - 1 - off) / stride + 1;
                    (Just(off), 1..=max, Just(stride))
                })
            };
            (
                proptest::collection::vec(prop_oneof![3 => Just(0i64), 1 => -9i64..=9], n),
                Just(dims),
                axis(dims[0]),
                axis(dims[1]),
            )
        })
        .prop_map(|(dense, dims, (o0, s0, t0), (o1, s1, t1))| {
            (dense, dims, [o0, o1], [s0, s1], [t0, t1])
        })
}

/// Random slices of random matrices in all five formats. Natively 256 cases
/// (or `PROPTEST_CASES`); under Miri one, which the Miri step's
/// `PROPTEST_CASES` must not raise (`proptest!` would let it override the
/// configuration, so the runner is called directly): every case runs the
/// same calls for each format, and the unsafe code they reach (the
/// output's `view`, its slice buffers) the hand-written cases below reach
/// too. Each further case costs Miri ~9 s.
#[test]
fn slices_match_dense_slicing() {
    let mut config = proptest::test_runner::contextualize_config(ProptestConfig {
        source_file: Some(file!()),
        ..ProptestConfig::with_cases(256)
    });
    if cfg!(miri) {
        config.cases = 1;
    }
    let result = proptest::test_runner::TestRunner::new(config).run(
        &matrix_and_slice(),
        |(dense, dims, off, size, stride)| {
            check_format::<UsizeCsr, 2>(&dense, dims, off, size, stride);
            check_format::<UsizeCsc, 2>(&dense, dims, off, size, stride);
            check_format::<Dcsr, 2>(&dense, dims, off, size, stride);
            check_format::<UsizeCoo, 2>(&dense, dims, off, size, stride);
            // BSR: padding of partial blocks lies outside the tensor.
            check_format::<Bsr, 4>(&dense, dims, off, size, stride);
            Ok(())
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// ```text
/// [[1, 0, 2, 0],
///  [0, 3, 0, 4],
///  [5, 0, 6, 0]]
/// ```
fn matrix() -> SparseTensor<'static, i64, Csr, 2, 2> {
    SparseTensor::assemble(
        [3, 4],
        [
            Level::dense(),
            Level::compressed(&[0, 2, 4, 6], &[0, 2, 1, 3, 0, 2]),
        ],
        &[1, 2, 3, 4, 5, 6],
    )
    .unwrap()
}

#[test]
fn narrow_widths_and_other_formats() {
    let want = [3, 4, 0, 0];
    check_slice(&matrix(), [1, 1], [2, 2], [1, 2], &want);
    let csc = SparseTensor::<i64, Csc, 2, 2>::assemble(
        [3, 4],
        [
            Level::dense(),
            Level::compressed(&[0, 2, 3, 5, 6], &[0, 2, 1, 0, 2, 1]),
        ],
        &[1, 5, 3, 2, 6, 4],
    )
    .unwrap();
    check_slice(&csc, [0, 0], [2, 2], [2, 2], &[1, 2, 5, 6]);
    let dcsr = SparseTensor::<i64, Dcsr, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 2], &[0, 2]),
            Level::compressed(&[0, 2, 4], &[0, 2, 0, 2]),
        ],
        &[1, 2, 5, 6],
    )
    .unwrap();
    check_slice(&dcsr, [2, 0], [1, 4], [1, 1], &[5, 0, 6, 0]);
}

#[test]
fn coo_repeats_are_kept_by_for_each_and_summed_by_convert_slice_sum() {
    // (1, 2) twice: 3 + 4; (0, 0) = 1; (2, 3) = 9.
    let coo = SparseTensor::<i64, Coo, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 4], &[0, 0, 1, 2, 1, 2, 2, 3]),
            Level::fused(),
        ],
        &[1, 3, 4, 9],
    )
    .unwrap();
    let s = coo.extract_slice([1, 2], [2, 1], [1, 1]).unwrap();
    assert_eq!(s.number_of_entries(), 2);
    assert_eq!(visited(&s), [7, 0]);
    check_slice(&coo, [1, 2], [2, 1], [1, 1], &[7, 0]);
    // `convert_slice` refuses repeats a CSR target cannot keep.
    let mut mem = Mem::<2>::new(16);
    let mut csr = out::<UsizeCsr, 2>(&mut mem, [2, 1]);
    assert_eq!(
        convert_slice(&s, &mut csr),
        Err(crate::convert::ConvertError::Duplicate)
    );
}

#[test]
fn bad_slices_are_errors() {
    let a = matrix();
    assert_eq!(
        a.extract_slice([0, 0], [0, 1], [1, 1]).unwrap_err(),
        SliceError::ZeroSize { dim: 0 }
    );
    assert_eq!(
        a.extract_slice([0, 0], [1, 1], [1, 0]).unwrap_err(),
        SliceError::ZeroStride { dim: 1 }
    );
    let e = a.extract_slice([0, 1], [3, 2], [1, 3]).unwrap_err();
    assert_eq!(
        e,
        SliceError::OutOfBounds {
            dim: 1,
            offset: 1,
            size: 2,
            stride: 3,
            dim_size: 4
        }
    );
    assert_eq!(
        e.to_string(),
        "slice(1, 2, 3) of dimension 1 leaves the tensor: its last coordinate, 1 + (2 - 1) * 3, \
         is not below the dimension's size 4"
    );
    // Overflow is out of bounds, not a panic.
    assert!(matches!(
        a.extract_slice([0, 0], [2, 1], [usize::MAX, 1]),
        Err(SliceError::OutOfBounds { dim: 0, .. })
    ));
    assert!(matches!(
        a.extract_slice([usize::MAX, 0], [1, 1], [1, 1]),
        Err(SliceError::OutOfBounds { dim: 0, .. })
    ));
    // The whole tensor is a slice of itself.
    assert_eq!(
        a.extract_slice([0, 0], [3, 4], [1, 1])
            .unwrap()
            .number_of_entries(),
        6
    );
}

#[test]
fn prints_the_slice_in_its_coordinates() {
    let s = matrix().extract_slice([1, 0], [2, 2], [1, 2]).unwrap();
    assert_eq!(
        s.to_string(),
        "---- Sparse Tensor Slice ----\nnse = 2\ndim = ( 2, 2 )\noffset = ( 1, 0 )\n\
         stride = ( 1, 2 )\ncrd : ( (1, 0), (1, 1) )\nvalues : ( 5, 6 )\n----"
    );
    let empty = matrix().extract_slice([0, 1], [1, 1], [1, 1]).unwrap();
    assert!(empty.to_string().contains("crd : ( )\nvalues : ( )"));
}

#[test]
fn converting_needs_the_slice_sizes() {
    let s = matrix().extract_slice([0, 0], [2, 2], [1, 1]).unwrap();
    let mut mem = Mem::<2>::new(16);
    let mut csr = out::<UsizeCsr, 2>(&mut mem, [3, 4]);
    assert_eq!(
        convert_slice(&s, &mut csr),
        Err(crate::convert::ConvertError::DimensionMismatch {
            dim: 0,
            size: 3,
            expected: 2
        })
    );
}

#[test]
fn pattern_tensors_hand_out_their_explicit_value() {
    use crate::vocab::{ExplicitValue, ValueType};
    const ONE: u128 = ExplicitValue::int(ValueType::I64, 1).pack();
    type Pattern = Enc<u8, u8, (dense, compressed), (d0, d1), ONE>;
    // The pattern of `matrix()`.
    let a = SparseTensor::<i64, Pattern, 2, 2>::assemble(
        [3, 4],
        [
            Level::dense(),
            Level::compressed(&[0, 2, 4, 6], &[0, 2, 1, 3, 0, 2]),
        ],
        &[],
    )
    .unwrap();
    let s = a.extract_slice([0, 0], [3, 2], [1, 2]).unwrap();
    assert_eq!(visited(&s), [1, 1, 0, 0, 1, 1]);
    let mut mem = Mem::<2>::new(16);
    let mut csr = out::<UsizeCsr, 2>(&mut mem, [3, 2]);
    convert_slice(&s, &mut csr).unwrap();
    assert_eq!(csr.view().values(), &[1, 1, 1, 1]);
}

#[test]
fn vectors_and_three_dimensional_tensors_take_the_general_walk() {
    type Sv = Enc<u8, u8, (compressed,), (d0,)>;
    let v = SparseTensor::<i64, Sv, 1, 1>::assemble(
        [6],
        [Level::compressed(&[0, 3], &[1, 3, 5])],
        &[1, 2, 3],
    )
    .unwrap();
    let s = v.extract_slice([1], [3], [2]).unwrap();
    let mut seen = Vec::new();
    s.for_each(|c, x| seen.push((c, *x)));
    assert_eq!(seen, [([0], 1), ([1], 2), ([2], 3)]);
    type Dcc = Enc<u8, u8, (dense, compressed, compressed), (d0, d1, d2)>;
    let t = SparseTensor::<i64, Dcc, 3, 3>::assemble(
        [2, 2, 3],
        [
            Level::dense(),
            Level::compressed(&[0, 1, 2], &[1, 0]),
            Level::compressed(&[0, 2, 3], &[0, 2, 1]),
        ],
        &[1, 2, 3],
    )
    .unwrap();
    let s = t.extract_slice([0, 0, 0], [2, 2, 2], [1, 1, 2]).unwrap();
    let mut seen = Vec::new();
    s.for_each(|c, x| seen.push((c, *x)));
    assert_eq!(seen, [([0, 1, 0], 1), ([0, 1, 1], 2)]);
}
