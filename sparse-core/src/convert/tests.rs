//! Unit tests of the conversions: hand-checked layouts, both strategies,
//! every error. Small, so Miri runs them (`cargo +nightly miri test -p
//! sparse-core --lib convert`); every result is re-assembled through the
//! checked constructor.

extern crate std;

use crate::levels::{
    compressed, d0, d1, d2, dense, floordiv, loose_compressed, modulo, nonordered, nonunique,
    singleton, soa,
};
use std::vec::Vec;

use super::*;
use crate::encoding::Enc;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::output::{SliceBuffer, Slices};
use crate::tensor::Level;

/// Buffers owned by a test (no `alloc` feature needed, so Miri runs these
/// with the default features): `n` elements each.
struct Mem<P, C, V, const L: usize> {
    pos: [Vec<P>; L],
    crd: [Vec<C>; L],
    val: Vec<V>,
}

impl<P: Index, C: Index, V: Default + Clone, const L: usize> Mem<P, C, V, L> {
    fn new(n: usize) -> Self {
        let p = P::from_usize(0).unwrap();
        let c = C::from_usize(0).unwrap();
        Mem {
            pos: core::array::from_fn(|_| std::vec![p; n]),
            crd: core::array::from_fn(|_| std::vec![c; n]),
            val: std::vec![V::default(); n],
        }
    }
    fn out<E: crate::StoresValues<Pos = P, Crd = C>, const D: usize>(
        &mut self,
        dims: [usize; D],
    ) -> Result<SparseTensorOut<V, E, Slices<'_>, D, L>, crate::AssembleError> {
        let mut pos = self.pos.iter_mut();
        let mut crd = self.crd.iter_mut();
        SparseTensorOut::new(
            dims,
            core::array::from_fn(|_| {
                SliceBuffer::new(pos.next().map_or(&mut [][..], |v| &mut v[..]))
            }),
            core::array::from_fn(|_| {
                SliceBuffer::new(crd.next().map_or(&mut [][..], |v| &mut v[..]))
            }),
            SliceBuffer::new(&mut self.val),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
    }
}

/// `let mut name` = an output of encoding `E` over test buffers of 400
/// elements each.
macro_rules! out {
    ($name:ident: $E:ty, $D:literal, $L:literal, $dims:expr) => {
        let mut mem = Mem::<<$E as Encoding>::Pos, <$E as Encoding>::Crd, i32, $L>::new(400);
        let mut $name = mem.out::<$E, $D>($dims).unwrap();
    };
}

type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
type Dcsc = Enc<u16, u16, (compressed, compressed), (d1, d0)>;
type Coo = Enc<usize, usize, (compressed<nonunique>, singleton), (d0, d1)>;
type CooSoa = Enc<u32, u8, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
type CooUnordered = Enc<
    usize,
    usize,
    (
        compressed<(nonunique, nonordered)>,
        singleton<(nonunique, nonordered)>,
    ),
    (d0, d1),
>;
type LooseCsc = Enc<u8, u8, (dense, loose_compressed), (d1, d0)>;
type Bsr = Enc<
    u8,
    u8,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
>;
/// `(i, j) -> (i : compressed, j : singleton)`: one entry per row at most.
type RowSingleton = Enc<u8, u8, (compressed, singleton), (d0, d1)>;

/// | 1 . 2 . |
/// | . . . . |
/// | . 3 . 4 |
const POS: [u8; 4] = [0, 2, 2, 4];
const CRD: [u8; 4] = [0, 2, 1, 3];
const VAL: [i32; 4] = [1, 2, 3, 4];
const DENSE_A: [i32; 12] = [1, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 4];

fn csr() -> SparseTensor<'static, i32, Csr, 2, 2> {
    SparseTensor::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&POS, &CRD)],
        &VAL,
    )
    .unwrap()
}

fn dense_of<S: Encoding, const L: usize>(t: &SparseTensor<'_, i32, S, 2, L>) -> Vec<i32> {
    let [m, n] = t.dim_sizes();
    let mut d = std::vec![0; m * n];
    to_dense(t, &mut d).unwrap();
    d
}

/// The output's view, re-validated by the checked constructor.
fn checked<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, i32>, const L: usize>(
    out: &SparseTensorOut<i32, E, B, 2, L>,
) -> Vec<i32> {
    let v = out.view();
    let (dims, levels, values) = v.disassemble();
    let again = SparseTensor::<i32, E, 2, L>::assemble(dims, levels, values).unwrap();
    dense_of(&again)
}

#[test]
fn csr_to_csc_is_the_classic_transpose_in_exact_buffers() {
    let a = csr();
    let (mut pos, mut crd, mut val) = ([0u8; 5], [0u8; 4], [0i32; 4]);
    let mut b = SparseTensorOut::<i32, Csc, Slices<'_>, 2, 2>::new(
        [3, 4],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    convert(&a, &mut b).unwrap();
    let v = b.view();
    assert_eq!(v.level(1).positions(), &[0, 1, 2, 3, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 0, 2]);
    assert_eq!(v.values(), &[1, 3, 2, 4]);
    assert_eq!(checked(&b), DENSE_A);
}

#[test]
fn capacity_errors_are_exact_and_leave_the_output_empty() {
    let a = csr();
    let (mut pos, mut crd, mut val) = ([0u8; 5], [0u8; 3], [0i32; 4]);
    let mut b = SparseTensorOut::<i32, Csc, Slices<'_>, 2, 2>::new(
        [3, 4],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    assert_eq!(
        convert(&a, &mut b),
        Err(ConvertError::Capacity {
            level: 1,
            buffer: Which::Coordinates,
            needed: 4,
            capacity: 3
        })
    );
    assert_eq!(b.view().number_of_entries(), 0);
    assert_eq!(checked(&b), [0; 12]);
}

#[test]
fn csr_to_dcsc_stages_and_compacts() {
    let a = csr();
    out!(b: Dcsc, 2, 2, [3, 4]);
    convert(&a, &mut b).unwrap();
    let v = b.view();
    assert_eq!(v.level(0).positions(), &[0, 4]);
    assert_eq!(v.level(0).coordinates(), &[0, 1, 2, 3]);
    assert_eq!(v.level(1).positions(), &[0, 1, 2, 3, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 0, 2]);
    assert_eq!(checked(&b), DENSE_A);
    // And back to CSR, staged again.
    let c_view = b.view();
    out!(c: Csr, 2, 2, [3, 4]);
    convert(&c_view, &mut c).unwrap();
    assert_eq!(c.view().level(1).positions(), &POS);
    assert_eq!(c.view().level(1).coordinates(), &CRD);
    assert_eq!(c.view().values(), &VAL);
}

#[test]
fn unordered_coo_is_sorted_and_repeats_summed() {
    // (2, 3) twice, rows out of order.
    let crd = [2usize, 3, 0, 2, 2, 1, 0, 0, 2, 3];
    let val = [4, 2, 3, 1, 10];
    let coo = SparseTensor::<i32, CooUnordered, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&[0, 5], &crd), Level::fused()],
        &val,
    )
    .unwrap();
    out!(strict: Coo, 2, 2, [3, 4]);
    assert_eq!(reorder_coo(&coo, &mut strict), Err(ConvertError::Duplicate));
    assert_eq!(strict.view().number_of_entries(), 0);

    out!(c: Coo, 2, 2, [3, 4]);
    convert_sum(&coo, &mut c).unwrap();
    assert_eq!(c.view().level(0).positions(), &[0, 4]);
    assert_eq!(c.view().level(0).coordinates(), &[0, 0, 0, 2, 2, 1, 2, 3]);
    assert_eq!(c.view().values(), &[1, 2, 3, 14]);

    out!(s: CooSoa, 2, 2, [3, 4]);
    convert_sum(&coo, &mut s).unwrap();
    assert_eq!(s.view().level(0).coordinates(), &[0, 0, 2, 2]);
    assert_eq!(s.view().level(1).coordinates(), &[0, 2, 1, 3]);
    assert_eq!(checked(&s), [1, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 14]);
}

#[test]
fn bsr_blocks_are_zero_filled() {
    let a = csr();
    out!(b: Bsr, 2, 4, [3, 4]);
    convert(&a, &mut b).unwrap();
    let v = b.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 1, 0, 1]);
    assert_eq!(
        v.values(),
        &[1, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0]
    );
    assert!(v.level(2).coordinates().is_empty());
    assert_eq!(checked(&b), DENSE_A);
}

#[test]
fn loose_targets_get_contiguous_pairs() {
    let a = csr();
    out!(b: LooseCsc, 2, 2, [3, 4]);
    convert(&a, &mut b).unwrap();
    assert_eq!(b.view().level(1).positions(), &[0, 1, 1, 2, 2, 3, 3, 4]);
    assert_eq!(checked(&b), DENSE_A);
    // Loose into CSR streams (same map? no: LooseCsc is column major).
    let lv = b.view();
    out!(c: Csr, 2, 2, [3, 4]);
    convert(&lv, &mut c).unwrap();
    assert_eq!(c.view().values(), &VAL);
}

#[test]
fn dense_in_and_out() {
    out!(b: Dcsc, 2, 2, [3, 4]);
    from_dense(&DENSE_A, [3, 4], &mut b).unwrap();
    assert_eq!(b.view().level(0).coordinates(), &[0, 1, 2, 3]);
    assert_eq!(checked(&b), DENSE_A);
    assert_eq!(
        from_dense(&DENSE_A[..11], [3, 4], &mut b),
        Err(ConvertError::ViewLength {
            len: 11,
            expected: Some(12)
        })
    );
    let view = DenseView::new(&DENSE_A, [3, 4]).unwrap();
    out!(c: Bsr, 2, 4, [3, 4]);
    from_dense_view(&view, &mut c).unwrap();
    assert_eq!(checked(&c), DENSE_A);
    let mut short = [0; 11];
    assert!(matches!(
        to_dense(&csr(), &mut short),
        Err(ConvertError::ViewLength { .. })
    ));
}

#[test]
fn sizes_must_match() {
    out!(b: Csc, 2, 2, [3, 5]);
    assert_eq!(
        convert(&csr(), &mut b),
        Err(ConvertError::DimensionMismatch {
            dim: 1,
            size: 5,
            expected: 4
        })
    );
}

#[test]
fn narrow_positions_overflow_with_a_typed_error() {
    type Narrow = Enc<u8, u8, (dense, compressed), (d1, d0)>;
    // 300 entries in one row: CSC has 300 entries, more than u8 counts.
    let crd: Vec<u16> = (0..300).collect();
    let val = std::vec![1i32; 300];
    type Wide = Enc<u16, u16, (dense, compressed), (d0, d1)>;
    let a = SparseTensor::<i32, Wide, 2, 2>::assemble(
        [1, 300],
        [Level::dense(), Level::compressed(&[0, 300], &crd)],
        &val,
    )
    .unwrap();
    let mut mem = Mem::<u8, u8, i32, 2>::new(4);
    let b = mem.out::<Narrow, 2>([300, 1]);
    assert!(b.is_err(), "300 rows do not fit u8 coordinates");
    type NarrowPos = Enc<u8, u16, (dense, compressed), (d1, d0)>;
    out!(b: NarrowPos, 2, 2, [1, 300]);
    assert!(matches!(
        convert(&a, &mut b),
        Err(ConvertError::PositionOverflow { level: 1, .. })
    ));
    assert_eq!(b.view().number_of_entries(), 0);
    let _ = &mut b;
}

#[test]
fn singleton_under_a_unique_parent_is_not_representable() {
    out!(b: RowSingleton, 2, 2, [3, 4]);
    assert_eq!(
        convert(&csr(), &mut b),
        Err(ConvertError::NotRepresentable { level: 1 })
    );
    // One entry per row fits.
    let one = SparseTensor::<i32, Csr, 2, 2>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&[0, 1, 1, 2], &[3, 0])],
        &[5, 6],
    )
    .unwrap();
    convert(&one, &mut b).unwrap();
    // AoS: (i, j) tuples in level 0's buffer.
    assert_eq!(b.view().level(0).coordinates(), &[0, 3, 2, 0]);
    assert!(b.view().disassemble().1[1].coordinates.is_empty());
    // Column-major source: staged, with the same check.
    out!(c: Csc, 2, 2, [3, 4]);
    convert(&csr(), &mut c).unwrap();
    let cv = c.view();
    assert_eq!(
        convert(&cv, &mut b),
        Err(ConvertError::NotRepresentable { level: 1 })
    );
}

#[test]
fn concatenation_streams_or_stages() {
    let a = csr();
    out!(rows: Csr, 2, 2, [6, 4]);
    concatenate(&[a, a], 0, &mut rows).unwrap();
    assert_eq!(rows.view().level(1).positions(), &[0, 2, 2, 4, 6, 6, 8]);
    out!(cols: Csr, 2, 2, [3, 8]);
    concatenate(&[a, a], 1, &mut cols).unwrap();
    assert_eq!(
        cols.view().level(1).coordinates(),
        &[0, 2, 4, 6, 1, 3, 5, 7]
    );
    assert_eq!(
        concatenate(&[a, a], 2, &mut cols),
        Err(ConvertError::ConcatDimension { dim: 2, rank: 2 })
    );
    assert_eq!(
        concatenate(&[a], 1, &mut cols),
        Err(ConvertError::DimensionMismatch {
            dim: 1,
            size: 8,
            expected: 4
        })
    );
}

#[test]
fn coo_buffers_sort_in_place() {
    let mut crd = [3u8, 1, 0, 0, 3, 0, 1, 1];
    let mut val = [1, 2, 3, 4];
    sort_coo_aos(2, &mut crd, &mut val).unwrap();
    assert_eq!(crd, [0, 0, 1, 1, 3, 0, 3, 1]);
    assert_eq!(val, [2, 4, 3, 1]);
    assert_eq!(
        sort_coo_aos(3, &mut crd, &mut val),
        Err(SortError::Tuples { len: 8, rank: 3 })
    );
    assert_eq!(
        sort_coo_aos(2, &mut crd, &mut val[..3]),
        Err(SortError::Values {
            len: 3,
            expected: 4
        })
    );
    let (mut i, mut j) = ([2u16, 2, 0], [1u16, 0, 5]);
    sort_coo_soa::<u16, i32, 2>([&mut i, &mut j], &mut []).unwrap();
    assert_eq!((i, j), ([0, 2, 2], [5, 0, 1]));
    let mut short = [0u16; 2];
    assert_eq!(
        sort_coo_soa::<u16, i32, 2>([&mut i, &mut short], &mut []),
        Err(SortError::Coordinates {
            level: 1,
            len: 2,
            expected: 3
        })
    );
}

// Exhaustive over safe code (`sort_coo_aos` and its heap sort reach no
// `unsafe`): it runs natively; under Miri it cost seconds for nothing Miri
// checks.
#[cfg_attr(miri, ignore)]
#[test]
fn heap_sort_orders_every_permutation_of_five() {
    // All 120 permutations of 0..5 (Heap's algorithm), each sorted.
    let mut a = [0u8, 1, 2, 3, 4];
    let mut c = [0usize; 5];
    let check = |p: &[u8; 5]| {
        let mut x = *p;
        let mut v = x.map(u32::from);
        sort_coo_aos(1, &mut x, &mut v).unwrap();
        assert_eq!(x, [0, 1, 2, 3, 4]);
        assert_eq!(v, [0, 1, 2, 3, 4]);
    };
    check(&a);
    let mut k = 0;
    while k < 5 {
        if c[k] < k {
            if k % 2 == 0 {
                a.swap(0, k);
            } else {
                a.swap(c[k], k);
            }
            check(&a);
            c[k] += 1;
            k = 0;
        } else {
            c[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn a_unique_middle_singleton_refuses_repeated_pairs() {
    // (i : compressed(nonunique), j : singleton, k : singleton): (i, j)
    // pairs must be distinct, so (0, 0, 0) and (0, 0, 1) have no layout.
    type Coo3 = Enc<u8, u8, (compressed<nonunique>, singleton, singleton), (d0, d1, d2)>;
    type Csf = Enc<u8, u8, (compressed, compressed, compressed), (d0, d1, d2)>;
    type CsfKij = Enc<u8, u8, (compressed, compressed, compressed), (d2, d0, d1)>;
    let a = SparseTensor::<i32, Csf, 3, 3>::assemble(
        [1, 1, 2],
        [
            Level::compressed(&[0, 1], &[0]),
            Level::compressed(&[0, 1], &[0]),
            Level::compressed(&[0, 2], &[0, 1]),
        ],
        &[1, 2],
    )
    .unwrap();
    out!(c: Coo3, 3, 3, [1, 1, 2]);
    // Streamed (same map) and staged (from another order): the same error.
    assert_eq!(
        convert(&a, &mut c),
        Err(ConvertError::NotRepresentable { level: 1 })
    );
    out!(k: CsfKij, 3, 3, [1, 1, 2]);
    convert(&a, &mut k).unwrap();
    let kv = k.view();
    assert_eq!(
        convert(&kv, &mut c),
        Err(ConvertError::NotRepresentable { level: 1 })
    );
}

#[test]
fn a_pattern_source_converts_with_its_explicit_value() {
    use crate::vocab::{ExplicitValue, ValueType};
    type PatternCsr = Enc<
        u8,
        u8,
        (dense, compressed),
        (d0, d1),
        { ExplicitValue::int(ValueType::I32, 7).pack() },
    >;
    let a = SparseTensor::<i32, PatternCsr, 2, 2>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&POS, &CRD)],
        &[],
    )
    .unwrap();
    // Staged (column-major) and streamed (same map) alike.
    out!(b: Csc, 2, 2, [3, 4]);
    convert(&a, &mut b).unwrap();
    assert_eq!(b.view().values(), &[7, 7, 7, 7]);
    assert_eq!(b.view().level(1).coordinates(), &[0, 2, 0, 2]);
    out!(c: Csr, 2, 2, [3, 4]);
    convert(&a, &mut c).unwrap();
    assert_eq!(c.view().level(1).positions(), &POS);
    assert_eq!(c.view().values(), &[7, 7, 7, 7]);
}

#[path = "fast_staging_tests.rs"]
mod fast_staging;
