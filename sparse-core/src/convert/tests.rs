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

// ---- the count-and-scatter fast path (`fast.rs`)

type CscNu = Enc<u16, u8, (dense, compressed<nonunique>), (d1, d0)>;
type CsrNu = Enc<u8, u16, (dense, compressed<nonunique>), (d0, d1)>;
/// Sorted COO keeping repeats: AoS row-major, SoA column-major.
type CooNu = Enc<u8, u8, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
type CooSoaCol = Enc<u16, u16, (compressed<nonunique>, singleton<(nonunique, soa)>), (d1, d0)>;
type CooUnorderedCol = Enc<
    u8,
    u8,
    (
        compressed<(nonunique, nonordered)>,
        singleton<(nonunique, nonordered)>,
    ),
    (d1, d0),
>;

/// An output's buffers, as `usize` positions and coordinates per level and
/// the values.
type Bufs = (Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<i32>);

fn bufs<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, i32>, const L: usize>(
    out: &SparseTensorOut<i32, E, B, 2, L>,
) -> Bufs {
    let v = out.view();
    let (_, levels, values) = v.disassemble();
    (
        levels
            .iter()
            .map(|l| l.positions.iter().map(|p| p.as_usize()).collect())
            .collect(),
        levels
            .iter()
            .map(|l| l.coordinates.iter().map(|c| c.as_usize()).collect())
            .collect(),
        values.to_vec(),
    )
}

/// Converts `a` into `T` by the fast path and by the general staging
/// path, with and without summing, and checks they agree (results, errors,
/// buffers, and a valid output). Returns whether the fast path ran.
fn fast_matches_staging<S: Encoding, T: crate::StoresValues>(
    a: &SparseTensor<'_, i32, S, 2, 2>,
    expected: &[i32],
) -> bool {
    let dims = a.dim_sizes();
    let mut ran = false;
    for merge in [Merge::Refuse, Merge::sum()] {
        out!(fast: T, 2, 2, dims);
        out!(slow: T, 2, 2, dims);
        let f = fast::two_level(a, &mut fast, merge);
        ran = f.is_some();
        let f = f.unwrap_or_else(|| engine::run(&source::TensorSource(a), &mut fast, merge));
        let s = stage::stage(&source::TensorSource(a), &mut slow, merge);
        assert_eq!(
            f,
            s,
            "{} -> {}",
            core::any::type_name::<S>(),
            core::any::type_name::<T>()
        );
        if f.is_ok() {
            // Repeats a target keeps: the fast path keeps them in source
            // order, the general path's heap sort in any order.
            let keeps = engine::keeps_repeats(&fast.layout);
            assert_eq!(
                runs_sorted(bufs(&fast), keeps),
                runs_sorted(bufs(&slow), keeps)
            );
            assert_eq!(checked(&fast), expected);
        }
    }
    ran || a.number_of_entries() == 0
}

/// With `sort`, the values of every run of equal last-level coordinates
/// sorted (entries a target keeps apart, in no promised order).
fn runs_sorted((pos, crd, mut val): Bufs, sort: bool) -> Bufs {
    if sort {
        let last = crd.last().map_or(&[][..], |c| c.as_slice());
        let mut lo = 0;
        while lo < last.len() {
            let hi = (lo..last.len())
                .find(|&r| last[r] != last[lo])
                .unwrap_or(last.len());
            val[lo..hi].sort_unstable();
            lo = hi;
        }
    }
    (pos, crd, val)
}

/// A small deterministic generator (no proptest: Miri runs this).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

// Exhaustive over safe code (it reaches no `unsafe`): it runs natively;
// under Miri it cost minutes of the suite for nothing Miri checks.
#[cfg_attr(miri, ignore)]
#[test]
fn fast_path_matches_the_staging_path() {
    let mut rng = Lcg(12);
    let cases = if cfg!(miri) { 3 } else { 300 };
    for case in 0..cases {
        let (m, n) = (1 + rng.below(6), 1 + rng.below(7));
        // Entries in random order, some coordinates repeated.
        let count = rng.below(3 * m * n / 2 + 1);
        let mut entries: Vec<(usize, usize, i32)> = (0..count)
            .map(|k| (rng.below(m), rng.below(n), k as i32 + 1))
            .collect();
        let mut dense = std::vec![0; m * n];
        for &(i, j, v) in &entries {
            dense[i * n + j] += v;
        }
        // Unordered COO, row- and column-major: repeats and all.
        let aos: Vec<usize> = entries.iter().flat_map(|&(i, j, _)| [i, j]).collect();
        let val: Vec<i32> = entries.iter().map(|e| e.2).collect();
        let top = [0, count];
        let coo = SparseTensor::<i32, CooUnordered, 2, 2>::assemble(
            [m, n],
            [Level::compressed(&top, &aos), Level::fused()],
            &val,
        )
        .unwrap();
        assert!(fast_matches_staging::<_, Csr>(&coo, &dense));
        assert!(fast_matches_staging::<_, Csc>(&coo, &dense));
        assert!(fast_matches_staging::<_, CsrNu>(&coo, &dense));
        assert!(fast_matches_staging::<_, CscNu>(&coo, &dense));
        let ji: Vec<u8> = entries
            .iter()
            .flat_map(|&(i, j, _)| [j as u8, i as u8])
            .collect();
        let top8 = [0, count as u8];
        let col = SparseTensor::<i32, CooUnorderedCol, 2, 2>::assemble(
            [m, n],
            [Level::compressed(&top8, &ji), Level::fused()],
            &val,
        )
        .unwrap();
        assert!(fast_matches_staging::<_, Csr>(&col, &dense));
        assert!(fast_matches_staging::<_, Csc>(&col, &dense));

        // Sorted SoA COO (column-major, repeats adjacent) and a CSR with
        // repeated columns.
        entries.sort_by_key(|&(i, j, _)| (j, i));
        let is: Vec<u16> = entries.iter().map(|e| e.0 as u16).collect();
        let js: Vec<u16> = entries.iter().map(|e| e.1 as u16).collect();
        let val: Vec<i32> = entries.iter().map(|e| e.2).collect();
        let top16 = [0, count as u16];
        let soa = SparseTensor::<i32, CooSoaCol, 2, 2>::assemble(
            [m, n],
            [Level::compressed(&top16, &js), Level::singleton(&is)],
            &val,
        )
        .unwrap();
        assert!(fast_matches_staging::<_, Csr>(&soa, &dense));
        assert!(fast_matches_staging::<_, CscNu>(&soa, &dense));
        entries.sort_by_key(|&(i, j, _)| (i, j));
        let mut pos = std::vec![0u8; m + 1];
        for &(i, _, _) in &entries {
            pos[i + 1] += 1;
        }
        for r in 0..m {
            pos[r + 1] += pos[r];
        }
        let crd: Vec<u16> = entries.iter().map(|e| e.1 as u16).collect();
        let val: Vec<i32> = entries.iter().map(|e| e.2).collect();
        let nu = SparseTensor::<i32, CsrNu, 2, 2>::assemble(
            [m, n],
            [Level::dense(), Level::compressed(&pos, &crd)],
            &val,
        )
        .unwrap();
        assert!(fast_matches_staging::<_, Csc>(&nu, &dense));
        assert!(fast_matches_staging::<_, CscNu>(&nu, &dense));
        // CSR -> CSR streams: the fast path declines.
        assert!(
            count == 0 || !fast_matches_staging::<_, CsrNu>(&nu, &dense),
            "case {case}"
        );
    }
}

#[test]
fn fast_path_coo_to_csr_sorts_long_buckets_and_sums() {
    // 40 entries in one row, columns descending, each column twice.
    let cols: Vec<usize> = (0..40).map(|k| 19 - k % 20).collect();
    let aos: Vec<usize> = cols.iter().flat_map(|&j| [0, j]).collect();
    let val: Vec<i32> = (1..=40).collect();
    let coo = SparseTensor::<i32, CooUnordered, 2, 2>::assemble(
        [1, 20],
        [Level::compressed(&[0, 40], &aos), Level::fused()],
        &val,
    )
    .unwrap();
    out!(c: Csr, 2, 2, [1, 20]);
    assert!(fast::two_level(&coo, &mut c, Merge::Refuse).is_some());
    assert_eq!(convert(&coo, &mut c), Err(ConvertError::Duplicate));
    assert_eq!(checked(&c), [0; 20]);
    convert_sum(&coo, &mut c).unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 20]);
    assert_eq!(
        v.level(1).coordinates(),
        (0..20).collect::<Vec<u8>>().as_slice()
    );
    // Column j holds entries 20 - j and 40 - j.
    let want: Vec<i32> = (0..20).map(|j| (20 - j) + (40 - j)).collect();
    assert_eq!(v.values(), want.as_slice());
}

/// Caller slices of the given lengths for a `(dense, compressed)` output.
fn csr_like<E: crate::StoresValues<Pos = u8, Crd = u8>>(
    a: &SparseTensor<'_, i32, impl Encoding, 2, 2>,
    (p, c, v): (usize, usize, usize),
    merge: bool,
) -> (Result<(), ConvertError>, Bufs) {
    let (mut pos, mut crd, mut val) = (std::vec![0u8; p], std::vec![0u8; c], std::vec![0i32; v]);
    let mut b = SparseTensorOut::<i32, E, Slices<'_>, 2, 2>::new(
        a.dim_sizes(),
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    let r = if merge {
        convert_sum(a, &mut b)
    } else {
        convert(a, &mut b)
    };
    if r.is_err() {
        assert_eq!(b.view().number_of_entries(), 0, "left empty");
        assert!(checked(&b).iter().all(|&x| x == 0));
    }
    (r, bufs(&b))
}

#[test]
fn fast_path_capacity_errors_stay_exact() {
    // CSR -> CSC: one slot short anywhere is the general path's exact
    // error; exactly the result's size takes the fast path.
    let a = csr();
    assert!(csr_like::<Csc>(&a, (5, 4, 4), false).0.is_ok());
    let short = |buffer, needed, capacity| {
        Err(ConvertError::Capacity {
            level: 1,
            buffer,
            needed,
            capacity,
        })
    };
    // (Positions one short: `new` already refuses them, the empty CSC
    // needs them all.)
    assert_eq!(
        csr_like::<Csc>(&a, (5, 3, 4), false).0,
        short(Which::Coordinates, 4, 3)
    );
    assert_eq!(
        csr_like::<Csc>(&a, (5, 4, 3), false).0,
        short(Which::Values, 4, 3)
    );

    // Unordered COO with a repeat (5 entries, 4 in the result): staging
    // needs 5 slots, on either path.
    let crd = [2usize, 3, 0, 2, 2, 1, 0, 0, 2, 3];
    let coo = SparseTensor::<i32, CooUnordered, 2, 2>::assemble(
        [3, 4],
        [Level::compressed(&[0, 5], &crd), Level::fused()],
        &[4, 2, 3, 1, 10],
    )
    .unwrap();
    let (r, b) = csr_like::<Csr>(&coo, (4, 5, 5), true);
    r.unwrap();
    assert_eq!(b.0[1], [0, 2, 2, 4]);
    assert_eq!(b.1[1], [0, 2, 1, 3]);
    assert_eq!(b.2, [1, 2, 3, 14]);
    assert_eq!(
        csr_like::<Csr>(&coo, (4, 4, 5), true).0,
        short(Which::Coordinates, 5, 4)
    );
    assert_eq!(
        csr_like::<Csr>(&coo, (4, 5, 4), true).0,
        short(Which::Values, 5, 4)
    );
    assert_eq!(
        csr_like::<Csr>(&coo, (4, 5, 5), false).0,
        Err(ConvertError::Duplicate)
    );

    // Sorted COO with a repeat into the result's size (4 < 5 entries):
    // the fast path declines, streaming fits.
    let sorted = SparseTensor::<i32, CooNu, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 5], &[0, 0, 0, 2, 2, 1, 2, 3, 2, 3]),
            Level::fused(),
        ],
        &[1, 2, 3, 4, 10],
    )
    .unwrap();
    let (r, b) = csr_like::<Csr>(&sorted, (4, 4, 4), true);
    r.unwrap();
    assert_eq!(
        (b.1[1].as_slice(), b.2.as_slice()),
        (&[0, 2, 1, 3][..], &[1, 2, 3, 14][..])
    );
    // With room to stage, the fast path gives the same.
    assert_eq!(csr_like::<Csr>(&sorted, (4, 5, 5), true).1, b);
}

#[test]
fn fast_path_declines_what_it_does_not_handle() {
    let a = csr();
    // Positions that cannot count the entries: the general path's typed
    // error (see narrow_positions_overflow_with_a_typed_error).
    out!(b: Dcsc, 2, 2, [3, 4]);
    assert!(fast::two_level(&a, &mut b, Merge::Refuse).is_none());
    out!(c: LooseCsc, 2, 2, [3, 4]);
    assert!(fast::two_level(&a, &mut c, Merge::Refuse).is_none());
    out!(d: Csr, 2, 2, [3, 4]);
    assert!(fast::two_level(&a, &mut d, Merge::Refuse).is_none());
    out!(e: Csc, 2, 2, [3, 4]);
    assert!(fast::two_level(&a, &mut e, Merge::Refuse).is_some());
    // An empty source: nothing to count.
    let empty = SparseTensor::<i32, Csr, 2, 2>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&[0, 0, 0, 0], &[])],
        &[],
    )
    .unwrap();
    assert!(fast::two_level(&empty, &mut e, Merge::Refuse).is_none());
    convert(&empty, &mut e).unwrap();
    assert_eq!(e.view().level(1).positions(), &[0, 0, 0, 0, 0]);
}
