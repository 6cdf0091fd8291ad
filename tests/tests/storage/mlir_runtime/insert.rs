//! Insertion in any order: `begin_unordered`, `insert_unordered`,
//! `finish_unordered` (MLIR's `tensor.insert` + `load hasInserts`).

use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_core::__private::OutputProtocol as _;
use sparse_core::levels::{compressed, d0, d1, dense, nonunique, singleton, soa};
use sparse_core::output::Repeats;
use sparse_core::{
    Buffer, Enc, KernelError, Owned, SliceBuffer, Slices, SparseTensorOut, StoresValues,
};

use super::common::*;

/// Inserts `ins` (dimension coordinates) in the order given into a fresh
/// `Owned` output.
fn insert_all<E: StoresValues, const D: usize, const L: usize>(
    dims: [usize; D],
    ins: &[([usize; D], i64)],
    repeats: Repeats<i64>,
) -> (
    Result<(), KernelError>,
    SparseTensorOut<i64, E, Owned, D, L>,
) {
    let mut out = SparseTensorOut::<i64, E, Owned, D, L>::with_dims(dims).expect("with_dims");
    // A previous result, which the call must replace.
    out.begin_unordered();
    out.insert_unordered([0; L], 99);
    out.finish_unordered("t", Repeats::Last).ok();
    out.begin_unordered();
    for &(c, v) in ins {
        let lvl = out.view().dim_to_lvl(c);
        out.insert_unordered(lvl, v);
    }
    let r = out.finish_unordered("t", repeats);
    (r, out)
}

type F64Dense = Enc<u8, u8, (dense, dense), (d0, d1)>;
type SortedCoo = Enc<usize, usize, (compressed<nonunique>, singleton<soa>), (d0, d1)>;

/// `sparse_insert_2d.mlir` with its four insertions in reverse order
/// (upstream inserts them in order; the result must not depend on it).
#[test]
fn mlir_sparse_insert_2d_out_of_order() {
    let ins = [([3, 2], 4.0), ([3, 0], 3.0), ([2, 2], 2.0), ([0, 0], 1.0)];
    fn run<E: StoresValues>(ins: &[([usize; 2], f64)]) -> SparseTensorOut<f64, E, Owned, 2, 2> {
        let mut out = SparseTensorOut::<f64, E, Owned, 2, 2>::with_dims([4, 3]).unwrap();
        out.begin_unordered();
        for &(c, v) in ins {
            let lvl = out.view().dim_to_lvl(c);
            out.insert_unordered(lvl, v);
        }
        out.finish_unordered("t", Repeats::Last).unwrap();
        out
    }
    let d = run::<F64Dense>(&ins);
    assert_eq!(d.number_of_entries(), 12);
    assert_eq!(
        d.view().values(),
        &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.0, 4.0]
    );
    let coo = run::<SortedCoo>(&ins);
    let v = coo.view();
    assert_eq!(v.number_of_entries(), 4);
    assert_eq!(v.level(0).positions(), &[0, 4]);
    assert_eq!(v.level(0).coordinates(), &[0, 2, 3, 3]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 0, 2]);
    assert_eq!(v.values(), &[1.0, 2.0, 3.0, 4.0]);
    type CsrF = Enc<usize, usize, (dense, compressed), (d0, d1)>;
    let csr = run::<CsrF>(&ins);
    assert_eq!(csr.view().level(1).positions(), &[0, 1, 1, 2, 4]);
    assert_eq!(csr.view().level(1).coordinates(), &[0, 2, 0, 2]);
    assert_eq!(csr.view().values(), &[1.0, 2.0, 3.0, 4.0]);
    type DcsrF = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
    let dcsr = run::<DcsrF>(&ins);
    let v = dcsr.view();
    assert_eq!(v.level(0).positions(), &[0, 3]);
    assert_eq!(v.level(0).coordinates(), &[0, 2, 3]);
    assert_eq!(v.level(1).positions(), &[0, 1, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 0, 2]);
    type RowF = Enc<usize, usize, (compressed, dense), (d0, d1)>;
    let row = run::<RowF>(&ins);
    let v = row.view();
    assert_eq!(v.number_of_entries(), 9);
    assert_eq!(v.level(0).coordinates(), &[0, 2, 3]);
    assert_eq!(v.values(), &[1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.0, 4.0]);
}

/// Insertions at one level tuple: index, dimension coordinates, value.
type Group<const D: usize> = Vec<(usize, [usize; D], i64)>;
/// Insertions: dimension coordinates and values.
type Insertions<const D: usize> = Vec<([usize; D], i64)>;

/// What a list of insertions means: per level tuple (so in storage
/// order), the values inserted there in insertion order.
fn meaning<E: StoresValues, const D: usize, const L: usize>(
    dims: [usize; D],
    ins: &[([usize; D], i64)],
) -> BTreeMap<[usize; L], Group<D>> {
    let probe = SparseTensorOut::<i64, E, Owned, D, L>::with_dims(dims).unwrap();
    let mut m: BTreeMap<[usize; L], Vec<_>> = BTreeMap::new();
    for (k, &(c, v)) in ins.iter().enumerate() {
        m.entry(probe.view().dim_to_lvl(c))
            .or_default()
            .push((k, c, v));
    }
    m
}

fn check_format<E: StoresValues, const D: usize, const L: usize>(
    dims: [usize; D],
    ins: &[([usize; D], i64)],
    padded: bool,
) -> Result<(), TestCaseError> {
    let m = meaning::<E, D, L>(dims, ins);
    let size: usize = dims.iter().product();
    let mut last = vec![0i64; size];
    let mut sum = vec![0i64; size];
    for group in m.values() {
        let c = group[0].1;
        last[offset(&dims, &c)] = group.last().unwrap().2;
        sum[offset(&dims, &c)] = group.iter().map(|g| g.2).sum();
    }
    let (r, out) = insert_all::<E, D, L>(dims, ins, Repeats::Last);
    prop_assert!(r.is_ok(), "{:?}", r);
    prop_assert_eq!(dense_of(&out.view()), last.clone());
    if !padded {
        // Exactly the inserted coordinates, explicit zeros included.
        prop_assert_eq!(out.number_of_entries(), m.len());
        prop_assert_eq!(visits(&out.view()), m.len());
    }
    let (r, out) = insert_all::<E, D, L>(dims, ins, Repeats::Combine(|a, b| a + b));
    prop_assert!(r.is_ok(), "{:?}", r);
    prop_assert_eq!(dense_of(&out.view()), sum.clone());
    // Refused at the second insertion of the first repeated tuple in
    // storage order.
    let first_repeat = m.values().find(|g| g.len() > 1).map(|g| g[1].0);
    let (r, out) = insert_all::<E, D, L>(dims, ins, Repeats::Refuse);
    match first_repeat {
        None => {
            prop_assert!(r.is_ok());
            prop_assert_eq!(dense_of(&out.view()), last.clone());
        }
        Some(insert) => {
            prop_assert_eq!(
                r,
                Err(KernelError::InsertOutOfOrder {
                    tensor: "t",
                    insert,
                    level: L - 1
                })
            );
            prop_assert_eq!(out.number_of_entries(), 0);
            prop_assert!(dense_of(&out.view()).iter().all(|&x| x == 0));
        }
    }
    Ok(())
}

fn insertions<const D: usize>(max: usize) -> BoxedStrategy<([usize; D], Insertions<D>)> {
    proptest::array::uniform::<_, D>(1..=max)
        .prop_flat_map(|dims| {
            let coord = dims.map(|n| 0..n);
            (
                Just(dims),
                proptest::collection::vec((coord, -3i64..4), 0..24),
            )
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_order_2d((dims, ins) in insertions::<2>(5)) {
        check_format::<Csr, 2, 2>(dims, &ins, false)?;
        check_format::<Csc, 2, 2>(dims, &ins, false)?;
        check_format::<Dcsr, 2, 2>(dims, &ins, false)?;
        check_format::<Coo, 2, 2>(dims, &ins, false)?;
        check_format::<CooSoa, 2, 2>(dims, &ins, false)?;
        check_format::<RowSparse, 2, 2>(dims, &ins, true)?;
    }

    #[test]
    fn any_order_3d((dims, ins) in insertions::<3>(4)) {
        check_format::<Csf, 3, 3>(dims, &ins, false)?;
        check_format::<Dcc, 3, 3>(dims, &ins, false)?;
        check_format::<Coo3, 3, 3>(dims, &ins, false)?;
    }

    /// A COO that keeps repeats stores every insertion, those at one
    /// coordinate in insertion order, whatever `Repeats` says.
    #[test]
    fn repeats_kept_in_insertion_order((dims, ins) in insertions::<2>(4)) {
        let m = meaning::<CooNu, 2, 2>(dims, &ins);
        let expected: Vec<([usize; 2], i64)> =
            m.values().flat_map(|g| g.iter().map(|&(_, c, v)| (c, v))).collect();
        let (r, out) = insert_all::<CooNu, 2, 2>(dims, &ins, Repeats::Refuse);
        prop_assert!(r.is_ok());
        let mut got = Vec::new();
        out.view().for_each(|c, v| got.push((c, *v)));
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn staging_room_and_level_room_are_exact_errors() {
    let ins = [
        ([2, 1], 5),
        ([0, 3], 6),
        ([2, 0], 7),
        ([0, 3], 8),
        ([1, 1], 9),
    ];
    let run = |ws: usize, crd: usize| {
        let (mut pos, mut c, mut val) = ([0u8; 4], vec![0u8; crd], [0i64; 8]);
        let (mut ws_val, mut ws_added) = (vec![0i64; ws], vec![0usize; 3 * ws]);
        let mut out = SparseTensorOut::<i64, Csr, Slices<'_>, 2, 2>::new(
            [3, 4],
            [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
            [SliceBuffer::default(), SliceBuffer::new(&mut c)],
            SliceBuffer::new(&mut val),
            SliceBuffer::new(&mut ws_val),
            SliceBuffer::default(),
            SliceBuffer::new(&mut ws_added),
        )
        .unwrap();
        out.begin_unordered();
        for &(d, v) in &ins {
            out.insert_unordered(d, v);
        }
        let r = out.finish_unordered("c", Repeats::Combine(|a, b| a + b));
        (r, dense_of(&out.view()))
    };
    // Five insertions, room to stage three.
    let (r, d) = run(3, 8);
    assert_eq!(
        r,
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Buffer::Workspace,
            needed: 5,
            capacity: 3
        })
    );
    assert!(d.iter().all(|&x| x == 0), "left a valid empty tensor");
    // Staged, but four distinct coordinates in room for two.
    let (r, _) = run(5, 2);
    assert_eq!(
        r,
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Buffer::Coordinates,
            needed: 4,
            capacity: 2
        })
    );
    let (r, d) = run(5, 4);
    assert_eq!(r, Ok(()));
    assert_eq!(d, [0, 0, 0, 14, 0, 9, 0, 0, 7, 5, 0, 0]);
}

#[test]
fn out_of_range_and_protocol_misuse() {
    let mut out = SparseTensorOut::<i64, Dcsr, Owned, 2, 2>::with_dims([3, 4]).unwrap();
    out.begin_unordered();
    out.insert_unordered([1, 1], 1);
    out.insert_unordered([1, 4], 2);
    out.insert_unordered([0, 0], 3);
    assert_eq!(
        out.finish_unordered("c", Repeats::Last),
        Err(KernelError::InsertOutOfRange {
            tensor: "c",
            level: 1,
            coordinate: 4,
            size: 4
        })
    );
    assert_eq!(out.number_of_entries(), 0);
    // Outside begin_unordered..finish_unordered, insertions do nothing;
    // while staging, the ordered protocol's insertions do nothing either.
    out.insert_unordered([0, 0], 5);
    out.begin_unordered();
    out.insert([2, 2], 6);
    out.insert_unordered([2, 3], 7);
    assert_eq!(out.view().number_of_entries(), 0, "staged, not stored yet");
    out.finish_unordered("c", Repeats::Last).unwrap();
    assert_eq!(dense_of(&out.view()), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]);
    // The workspace is whole again for a kernel that expands the output.
    out.begin();
    {
        let mut ws = out.workspace(4).unwrap();
        assert_eq!(ws.count(), 0);
        *ws.entry(1).unwrap() += 2;
    }
    out.compress([0, 0]);
    out.finish("c").unwrap();
    assert_eq!(dense_of(&out.view()), [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}
