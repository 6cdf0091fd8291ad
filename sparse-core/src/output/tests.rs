//! Unit tests of sparse outputs against hand-checked layouts (seed 001's
//! CSR and BSR, seed 000's COO), re-assembled through the checked
//! constructor. Miri runs these (`cargo +nightly miri test -p sparse-core
//! --lib output`).

extern crate std;

use std::vec::Vec;

use super::*;
use crate::encoding::Enc;
use crate::kernel::KernelError;
use crate::vocab::{pack_level_exprs, pack_level_types, LevelProps, LevelType};

const DENSE: LevelType = LevelType::new(LevelFormat::Dense);
const CMP: LevelType = LevelType::new(LevelFormat::Compressed);
const CMP_NU: LevelType = LevelType::new(LevelFormat::Compressed).with(LevelProps::NONUNIQUE);
const LOOSE: LevelType = LevelType::new(LevelFormat::LooseCompressed);
const SGL: LevelType = LevelType::new(LevelFormat::Singleton);
const SGL_SOA: LevelType = LevelType::new(LevelFormat::Singleton).with(LevelProps::SOA);
const D0: LevelExpr = LevelExpr::Dim(0);
const D1: LevelExpr = LevelExpr::Dim(1);

type Csr = Enc<u8, u8, { pack_level_types(&[DENSE, CMP]) }, { pack_level_exprs(&[D0, D1]) }>;
type Dcsr = Enc<u16, u16, { pack_level_types(&[CMP, CMP]) }, { pack_level_exprs(&[D0, D1]) }>;
type Coo = Enc<usize, u8, { pack_level_types(&[CMP_NU, SGL]) }, { pack_level_exprs(&[D0, D1]) }>;
type CooSoa =
    Enc<u32, u32, { pack_level_types(&[CMP_NU, SGL_SOA]) }, { pack_level_exprs(&[D0, D1]) }>;
type Loose = Enc<u8, u8, { pack_level_types(&[DENSE, LOOSE]) }, { pack_level_exprs(&[D0, D1]) }>;
type Bsr = Enc<
    u8,
    u8,
    { pack_level_types(&[DENSE, CMP, DENSE, DENSE]) },
    {
        pack_level_exprs(&[
            LevelExpr::FloorDiv { dim: 0, divisor: 2 },
            LevelExpr::FloorDiv { dim: 1, divisor: 2 },
            LevelExpr::Mod { dim: 0, modulus: 2 },
            LevelExpr::Mod { dim: 1, modulus: 2 },
        ])
    },
>;
type Dense2 = Enc<u8, u8, { pack_level_types(&[DENSE, DENSE]) }, { pack_level_exprs(&[D0, D1]) }>;
type Wide = Enc<u8, u8, { pack_level_types(&[DENSE, CMP]) }, { pack_level_exprs(&[D0, D1]) }>;

/// Buffers of `n` elements each, owned by the test.
struct Mem<P, C, V, const LVL: usize> {
    pos: [Vec<P>; LVL],
    crd: [Vec<C>; LVL],
    val: Vec<V>,
    wsv: Vec<V>,
    wsf: Vec<bool>,
    wsa: Vec<usize>,
}

impl<P: Index, C: Index, V: Default + Clone, const LVL: usize> Mem<P, C, V, LVL> {
    fn new(pos: usize, crd: usize, val: usize, ws: usize) -> Self {
        let z = |_| P::from_usize(0).unwrap();
        let zc = |_| C::from_usize(0).unwrap();
        Mem {
            pos: core::array::from_fn(|_| (0..pos).map(z).collect()),
            crd: core::array::from_fn(|_| (0..crd).map(zc).collect()),
            val: std::vec![V::default(); val],
            wsv: std::vec![V::default(); ws],
            wsf: std::vec![false; ws],
            wsa: std::vec![0; ws],
        }
    }
}

type Out<'a, V, E, const DIM: usize, const LVL: usize> =
    SparseTensorOut<V, E, Slices<'a>, DIM, LVL>;

fn out<'a, V: Default, E: Encoding, const DIM: usize, const LVL: usize>(
    dims: [usize; DIM],
    m: &'a mut Mem<E::Pos, E::Crd, V, LVL>,
) -> Result<Out<'a, V, E, DIM, LVL>, AssembleError> {
    let mut pos = m.pos.iter_mut();
    let mut crd = m.crd.iter_mut();
    SparseTensorOut::new(
        dims,
        core::array::from_fn(|_| SliceBuffer::new(pos.next().unwrap())),
        core::array::from_fn(|_| SliceBuffer::new(crd.next().unwrap())),
        SliceBuffer::new(&mut m.val),
        SliceBuffer::new(&mut m.wsv),
        SliceBuffer::new(&mut m.wsf),
        SliceBuffer::new(&mut m.wsa),
    )
}

/// Disassembles the view and assembles it again through the checked
/// constructor: it must be accepted and equal.
fn reassembles<
    V: PartialEq + core::fmt::Debug,
    E: Encoding,
    B,
    const DIM: usize,
    const LVL: usize,
>(
    c: &SparseTensorOut<V, E, B, DIM, LVL>,
) where
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let v = c.view();
    let (dims, levels, values) = v.disassemble();
    let again = SparseTensor::<V, E, DIM, LVL>::assemble(dims, levels, values)
        .expect("the view is a valid tensor");
    assert_eq!(again.disassemble(), (dims, levels, values));
}

#[test]
fn csr_by_insertion_matches_seed_layout() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    reassembles(&c);
    assert_eq!(c.view().level(1).positions(), &[0, 0, 0, 0, 0]);
    c.begin();
    for (i, j, v) in [
        (0, 0, 1.0),
        (0, 2, 2.0),
        (2, 1, 3.0),
        (3, 2, 4.0),
        (3, 7, 5.0),
    ] {
        c.insert([i, j], v);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 2, 3, 5]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 1, 2, 7]);
    assert_eq!(v.values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(c.number_of_entries(), 5);
    reassembles(&c);
}

#[test]
fn bsr_blocks_are_zero_filled() {
    // 4x6 in 2x2 blocks:
    // | 1 2 . . 7 . |
    // | . 3 . . 8 . |
    // | . . . . . . |
    // | . . 4 5 . 6 |
    let mut m = Mem::<u8, u8, f64, 4>::new(3, 4, 16, 0);
    let mut c = out::<f64, Bsr, 2, 4>([4, 6], &mut m).unwrap();
    c.begin();
    // Level coordinates (i/2, j/2, i%2, j%2) in lexicographic order.
    let entries = [
        ([0, 0, 0, 0], 1.0),
        ([0, 0, 0, 1], 2.0),
        ([0, 0, 1, 1], 3.0),
        ([0, 2, 0, 0], 7.0),
        ([0, 2, 1, 0], 8.0),
        ([1, 1, 1, 0], 4.0),
        ([1, 1, 1, 1], 5.0),
        ([1, 2, 1, 1], 6.0),
    ];
    for (lvl, v) in entries {
        c.insert(lvl, v);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 1, 2]);
    assert_eq!(
        v.values(),
        &[1.0, 2.0, 0.0, 3.0, 7.0, 0.0, 8.0, 0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 0.0, 6.0]
    );
    reassembles(&c);
}

#[test]
fn coo_aos_matches_seed_000() {
    // Seed 000's 3x4 COO: (0,0) 1.1, (1,2) 2.2, (1,3) 3.3.
    let mut m = Mem::<usize, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, Coo, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([0, 0], 1.1);
    c.insert([1, 2], 2.2);
    c.insert([1, 3], 3.3);
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 3]);
    assert_eq!(v.level(0).coordinates(), &[0, 0, 1, 2, 1, 3]);
    assert_eq!(v.values(), &[1.1, 2.2, 3.3]);
    reassembles(&c);
    extern crate alloc;
    assert_eq!(
        alloc::format!("{c}"),
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\npos[0] : ( 0, 3 )\n\
         crd[0] : ( 0, 0, 1, 2, 1, 3 )\nvalues : ( 1.1, 2.2, 3.3 )\n----"
    );
    assert_eq!(alloc::format!("{c:#}"), alloc::format!("{:#}", c.view()));
}

#[test]
fn coo_soa_and_dcsr_and_loose() {
    let entries = [([0, 1], 1i32), ([0, 3], 2), ([2, 0], 3)];

    let mut m = Mem::<u32, u32, i32, 2>::new(2, 3, 3, 0);
    let mut c = out::<i32, CooSoa, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 3]);
    assert_eq!(v.level(0).coordinates(), &[0, 0, 2]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    reassembles(&c);

    let mut m = Mem::<u16, u16, i32, 2>::new(3, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    assert_eq!(c.view().level(0).positions(), &[0, 0]);
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 2]);
    assert_eq!(v.level(0).coordinates(), &[0, 2]);
    assert_eq!(v.level(1).positions(), &[0, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    assert_eq!(v.values(), &[1, 2, 3]);
    reassembles(&c);

    let mut m = Mem::<u8, u8, i32, 2>::new(6, 3, 3, 0);
    let mut c = out::<i32, Loose, 2, 2>([3, 4], &mut m).unwrap();
    assert_eq!(c.view().level(1).positions(), &[0; 6]);
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 2, 2, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    reassembles(&c);
}

#[test]
fn all_dense_output_is_zero_filled() {
    let mut m = Mem::<u8, u8, i32, 2>::new(0, 0, 4, 0);
    let mut c = out::<i32, Dense2, 2, 2>([2, 2], &mut m).unwrap();
    assert_eq!(c.view().values(), &[0, 0, 0, 0]);
    c.begin();
    c.insert([0, 1], 7);
    c.insert([1, 0], 5);
    c.finish("c").unwrap();
    assert_eq!(c.view().values(), &[0, 7, 5, 0]);
    reassembles(&c);
    c.clear();
    assert_eq!(c.view().values(), &[0, 0, 0, 0]);
}

#[test]
fn explicit_zeros_are_stored() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([1, 3], 0.0);
    c.finish("c").unwrap();
    assert_eq!(c.number_of_entries(), 1);
    assert_eq!(c.view().level(1).positions(), &[0, 0, 1, 1, 1]);
}

/// Runs the 5-entry CSR example into `c`.
fn csr_example<B: OutputBuffers<u8, u8, f64>>(
    c: &mut SparseTensorOut<f64, Csr, B, 2, 2>,
) -> Result<(), KernelError> {
    c.begin();
    for (i, j, v) in [
        (0, 0, 1.0),
        (0, 2, 2.0),
        (2, 1, 3.0),
        (3, 2, 4.0),
        (3, 7, 5.0),
    ] {
        c.insert([i, j], v);
    }
    c.finish("c")
}

fn is_empty_and_valid<
    V: PartialEq + core::fmt::Debug,
    E: Encoding,
    B,
    const DIM: usize,
    const LVL: usize,
>(
    c: &SparseTensorOut<V, E, B, DIM, LVL>,
) where
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    assert_eq!(c.number_of_entries(), 0);
    reassembles(c);
}

#[test]
fn capacity_errors_name_the_exact_need_and_leave_a_reusable_output() {
    // Coordinates: 5 needed, 3 available.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 3, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    let err = KernelError::Capacity {
        tensor: "c",
        level: 1,
        buffer: Which::Coordinates,
        needed: 5,
        capacity: 3,
    };
    assert_eq!(csr_example(&mut c), Err(err));
    is_empty_and_valid(&c);
    // Reusable: a smaller result fits.
    c.begin();
    c.insert([1, 1], 9.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().values(), &[9.0]);
    reassembles(&c);

    // Values: 5 needed, 4 available; exactly 5 works.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 4, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    let err = KernelError::Capacity {
        tensor: "c",
        level: 1,
        buffer: Which::Values,
        needed: 5,
        capacity: 4,
    };
    assert_eq!(csr_example(&mut c), Err(err));
    is_empty_and_valid(&c);
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 5, 5, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    csr_example(&mut c).unwrap();
    reassembles(&c);

    // Positions (DCSR level 1: rows 0 and 2 stored, 3 positions).
    let mut m = Mem::<u16, u16, i32, 2>::new(2, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    for (l, v) in [([0, 1], 1), ([0, 3], 2), ([2, 0], 3)] {
        c.insert(l, v);
    }
    let err = KernelError::Capacity {
        tensor: "d",
        level: 1,
        buffer: Which::Positions,
        needed: 3,
        capacity: 2,
    };
    assert_eq!(c.finish("d"), Err(err));
    is_empty_and_valid(&c);
    c.begin();
    c.insert([2, 2], 4);
    c.finish("d").unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 1]);
}

#[test]
fn new_rejects_buffers_too_small_for_the_empty_tensor_and_wide_sizes() {
    let mut m = Mem::<u8, u8, f64, 2>::new(4, 8, 8, 0);
    let err = out::<f64, Csr, 2, 2>([4, 8], &mut m).err();
    assert_eq!(
        err,
        Some(AssembleError::Capacity {
            level: 1,
            buffer: Which::Positions,
            needed: 5,
            capacity: 4
        })
    );
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let err = out::<f64, Wide, 2, 2>([4, 257], &mut m).err();
    assert_eq!(
        err,
        Some(AssembleError::WidthOverflow {
            level: 1,
            buffer: Which::Coordinates,
            value: 256,
            max: 255
        })
    );
    // 256 columns fit u8 coordinates.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    assert!(out::<f64, Wide, 2, 2>([4, 256], &mut m).is_ok());
}

#[test]
fn structured_levels_are_not_outputs() {
    type Nv = Enc<
        u8,
        u8,
        {
            pack_level_types(&[
                DENSE,
                DENSE,
                LevelType::new(LevelFormat::Structured { n: 2, m: 4 }),
            ])
        },
        {
            pack_level_exprs(&[
                D0,
                LevelExpr::FloorDiv { dim: 1, divisor: 4 },
                LevelExpr::Mod { dim: 1, modulus: 4 },
            ])
        },
    >;
    let mut m = Mem::<u8, u8, f64, 3>::new(0, 8, 8, 0);
    let err = out::<f64, Nv, 2, 3>([2, 8], &mut m).err();
    assert_eq!(err, Some(AssembleError::UnsupportedOutput { level: 2 }));
}

#[test]
fn positions_past_the_width_are_an_error() {
    // 2 rows of 200 entries: the last position, 400, does not fit u8.
    let mut m = Mem::<u8, u8, u8, 2>::new(3, 400, 400, 0);
    let mut c = out::<u8, Csr, 2, 2>([2, 200], &mut m).unwrap();
    c.begin();
    for i in 0..2 {
        for j in 0..200 {
            c.insert([i, j], 1);
        }
    }
    assert_eq!(
        c.finish("c"),
        Err(KernelError::PositionOverflow {
            tensor: "c",
            level: 1,
            entries: 400,
            max: 255
        })
    );
    is_empty_and_valid(&c);
}

#[test]
fn bad_insertions_are_errors_not_corruption() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([1, 0], 1.0);
    c.insert([0, 5], 2.0);
    c.insert([3, 5], 3.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 0
        })
    );
    is_empty_and_valid(&c);

    c.begin();
    c.insert([1, 1], 1.0);
    c.insert([1, 1], 2.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 1
        })
    );
    is_empty_and_valid(&c);

    c.begin();
    c.insert([4, 0], 1.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfRange {
            tensor: "c",
            level: 0,
            coordinate: 4,
            size: 4
        })
    );
    is_empty_and_valid(&c);

    // COO with a unique singleton: a repeated (i, j) is a duplicate...
    let mut m = Mem::<usize, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, Coo, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 2], 1.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 1
        })
    );
    // ... but a repeated row is not.
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 3], 1.0);
    c.finish("c").unwrap();
    reassembles(&c);

    // Insertions outside begin..finish do nothing.
    c.insert([0, 0], 5.0);
    assert_eq!(c.number_of_entries(), 2);
    reassembles(&c);
}

#[test]
fn repeats_where_every_level_below_allows_them() {
    type CooNu = Enc<
        u8,
        u8,
        {
            pack_level_types(&[
                CMP_NU,
                LevelType::new(LevelFormat::Singleton).with(LevelProps::NONUNIQUE),
            ])
        },
        { pack_level_exprs(&[D0, D1]) },
    >;
    let mut m = Mem::<u8, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, CooNu, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 2], 2.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().level(0).coordinates(), &[1, 2, 1, 2]);
    reassembles(&c);
}

#[test]
fn view_during_a_call_is_an_empty_valid_tensor() {
    let mut m = Mem::<u16, u16, i32, 2>::new(3, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([0, 1], 1);
    assert_eq!(c.view().dim_sizes(), [0, 0]);
    reassembles(&c);
    c.finish("c").unwrap();
    assert_eq!(c.view().dim_sizes(), [3, 4]);

    let mut m = Mem::<u8, u8, f64, 4>::new(3, 4, 16, 0);
    let mut c = out::<f64, Bsr, 2, 4>([4, 6], &mut m).unwrap();
    c.begin();
    c.insert([0, 1, 1, 1], 1.0);
    reassembles(&c);
    let mut m = Mem::<u8, u8, i32, 2>::new(6, 3, 3, 0);
    let mut c = out::<i32, Loose, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    reassembles(&c);
}

#[test]
fn workspace_expands_and_compresses_a_row() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 8);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    // Row 1: contributions to columns 5, 1, 5 (Gustavson order).
    {
        let mut ws = c.workspace(8).unwrap();
        assert_eq!(ws.len(), 8);
        for (j, x) in [(5, 1.0), (1, 2.0), (5, 3.0)] {
            *ws.entry(j).unwrap() += x;
        }
        assert_eq!(ws.count(), 2);
        assert!(ws.entry(8).is_none());
    }
    c.compress([1, 0]);
    {
        let mut ws = c.workspace(8).unwrap();
        assert_eq!(ws.count(), 0);
        let (values, filled, added) = ws.parts();
        assert!(values.iter().all(|&v| v == 0.0));
        assert!(filled.iter().all(|&f| !f));
        assert!(added.is_empty());
        *ws.entry(0).unwrap() = 7.0;
    }
    c.compress([3, 0]);
    {
        let mut ws = c.workspace(8).unwrap();
        *ws.entry(2).unwrap() = 1.0;
    }
    c.reset_workspace();
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 2, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 5, 0]);
    assert_eq!(v.values(), &[2.0, 4.0, 7.0]);
    reassembles(&c);
}

#[test]
fn workspace_too_small_is_a_capacity_error() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 3);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([0, 0], 1.0);
    let err = c.workspace(8).err();
    let expected = |tensor| KernelError::Capacity {
        tensor,
        level: 1,
        buffer: Which::Workspace,
        needed: 8,
        capacity: 3,
    };
    assert_eq!(err, Some(expected("output")));
    // Already emptied (valid) for an early return; finish names the tensor.
    is_empty_and_valid(&c);
    c.insert([1, 0], 1.0);
    assert_eq!(c.finish("c"), Err(expected("c")));
    is_empty_and_valid(&c);
    // Reusable with a workspace that fits.
    c.begin();
    *c.workspace(3).unwrap().entry(2).unwrap() = 1.0;
    c.compress([2, 0]);
    c.finish("c").unwrap();
    assert_eq!(c.view().level(1).coordinates(), &[2]);
}

#[cfg(feature = "heapless")]
#[test]
fn fixed_buffers_report_capacity_and_are_reused() {
    let mut c = SparseTensorOut::<f64, Csr, Fixed<5>, 2, 2>::with_dims([4, 8]).unwrap();
    csr_example(&mut c).unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 2, 2, 3, 5]);
    let mut c = SparseTensorOut::<f64, Csr, Fixed<4>, 2, 2>::with_dims([3, 8]).unwrap();
    c.begin();
    for j in 0..5 {
        c.insert([1, j], 1.0);
    }
    assert_eq!(
        c.finish("c"),
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Which::Coordinates,
            needed: 5,
            capacity: 4
        })
    );
    is_empty_and_valid(&c);
    assert!(c.workspace(5).is_err());
    assert_eq!(c.workspace(4).unwrap().len(), 4);
}

#[cfg(feature = "alloc")]
#[test]
fn owned_buffers_grow() {
    let mut c = SparseTensorOut::<f64, Csr, Owned, 2, 2>::with_dims([4, 8]).unwrap();
    csr_example(&mut c).unwrap();
    assert_eq!(c.view().values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
    reassembles(&c);
}
