//! `Row` against `insert`: the same insertions, one row per run of equal
//! parents, written through a row with any bound (exact, too small, too
//! large) by pushes or by runs, give the same result, the same error with
//! the same counted need, and the same valid output, for every encoding
//! kind (those a row writes into slots and those it hands to `insert`),
//! every capacity, and growable buffers.

use proptest::prelude::*;
use std::string::String;

use super::*;

/// Insertions `(row, column, value)`, mostly in order, sometimes out of
/// order or out of range (sizes are 4 x 6).
fn insertions() -> impl Strategy<Value = Vec<(usize, usize, i32)>> {
    proptest::collection::vec((0usize..5, 0usize..7, -9i32..10), 0..16).prop_map(|mut v| {
        let keep = v.len() / 4;
        v[keep..].sort_by_key(|&(r, c, _)| (r, c));
        v
    })
}

/// How the insertions go in: `insert` per entry, or a row per run of
/// equal parents whose bound is the run's length plus `slack` (at least
/// 0), written by one push per entry or, past the first, by one
/// `extend_from` per `chunk` entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Insert,
    Row { slack: isize, chunk: usize },
}

fn fill<E, B>(c: &mut SparseTensorOut<i32, E, B, 2, 2>, ins: &[(usize, usize, i32)], mode: Mode)
where
    E: crate::StoresValues,
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    c.begin();
    let Mode::Row { slack, chunk } = mode else {
        for &(r, col, v) in ins {
            c.insert([r, col], v);
        }
        return;
    };
    let mut k = 0;
    while k < ins.len() {
        let parent = ins[k].0;
        let start = k;
        while k < ins.len() && ins[k].0 == parent {
            k += 1;
        }
        let run = &ins[start..k];
        let bound = (run.len() as isize + slack).max(0) as usize;
        let mut seg = c.segment([parent, 0]);
        let mut row = seg.row(bound);
        if chunk == 0 {
            for &(_, col, v) in run {
                row.push(col, v);
            }
            continue;
        }
        let split = 1.min(run.len());
        for &(_, col, v) in &run[..split] {
            row.push(col, v);
        }
        for part in run[split..].chunks(chunk) {
            let cols: Vec<u32> = part.iter().map(|&(_, col, _)| col as u32).collect();
            let vals: Vec<i32> = part.iter().map(|&(_, _, v)| v).collect();
            row.extend_from(&cols, &vals);
        }
    }
}

/// Runs `ins` into caller slices of the given capacities; returns the
/// result and the disassembled view.
fn run<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    mode: Mode,
    caps: (usize, usize, usize),
) -> (Result<(), KernelError>, String)
where
    E::Pos: Index,
    E::Crd: Index,
{
    let mut m = Mem::<E::Pos, E::Crd, i32, 2>::new(caps.0, caps.1, caps.2, 0);
    let Ok(mut c) = out::<i32, E, 2, 2>([4, 6], &mut m) else {
        return (Ok(()), "new refused".into());
    };
    fill(&mut c, ins, mode);
    let result = c.finish("c");
    reassembles(&c);
    (result, std::format!("{:?}", c.view().disassemble()))
}

fn same<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    mode: Mode,
    caps: (usize, usize, usize),
) -> Result<(), TestCaseError>
where
    E::Pos: Index,
    E::Crd: Index,
{
    let plain = run::<E>(ins, Mode::Insert, caps);
    let rows = run::<E>(ins, mode, caps);
    prop_assert_eq!(
        &plain,
        &rows,
        "insertions {:?}, {:?}, capacities {:?}",
        ins,
        mode,
        caps
    );
    Ok(())
}

fn mode() -> impl Strategy<Value = Mode> {
    (-3isize..4, 0usize..4).prop_map(|(slack, chunk)| Mode::Row { slack, chunk })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn rows_insert_exactly_what_insert_does(
        ins in insertions(),
        mode in mode(),
        pos in 0usize..8,
        crd in 0usize..18,
        val in 0usize..18,
    ) {
        // CSR and DCSR: rows write into slots; COO (non-unique) and a loose
        // compressed last level: every push takes `insert`'s path.
        same::<Csr>(&ins, mode, (pos, crd, val))?;
        same::<Dcsr>(&ins, mode, (pos, crd, val))?;
        same::<Coo>(&ins, mode, (pos, crd, val))?;
        same::<Loose>(&ins, mode, (2 * pos, crd, val))?;
        // Room for everything: the written result itself.
        same::<Csr>(&ins, mode, (8, 18, 18))?;
        same::<Dcsr>(&ins, mode, (8, 18, 18))?;
    }
}

#[cfg(feature = "alloc")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(128)
    ))]

    #[test]
    fn rows_into_growable_buffers_insert_what_insert_does(ins in insertions(), mode in mode()) {
        let go = |mode| {
            let mut c = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
            fill(&mut c, &ins, mode);
            let result = c.finish("c");
            reassembles(&c);
            (result, std::format!("{:?}", c.view().disassemble()))
        };
        prop_assert_eq!(go(Mode::Insert), go(mode), "insertions {:?}, {:?}", &ins, mode);
    }
}

#[test]
fn a_row_writes_its_slots_and_cuts_the_rest() {
    let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
    let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    {
        let mut seg = c.segment([1, 0]);
        // Bound 6, three entries: three slots cut back.
        let mut row = seg.row(6);
        row.push(0, 10);
        row.push(3, 13);
        row.extend_from(&[5u32, 7], &[15, 17]);
    }
    {
        let mut seg = c.segment([3, 0]);
        let mut row = seg.row(1);
        row.push(2, 32);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 4, 4, 5]);
    assert_eq!(v.level(1).coordinates(), &[0, 3, 5, 7, 2]);
    assert_eq!(v.values(), &[10, 13, 15, 17, 32]);
    reassembles(&c);
}

#[test]
fn a_run_out_of_order_or_range_takes_the_checked_path() {
    for (cols, fault) in [
        // Out of order inside the run: the third insertion (counted from 0).
        (
            [4u32, 2],
            KernelError::InsertOutOfOrder {
                tensor: "c",
                insert: 2,
                level: 1,
            },
        ),
        // Past the level size (8).
        (
            [4u32, 8],
            KernelError::InsertOutOfRange {
                tensor: "c",
                level: 1,
                coordinate: 8,
                size: 8,
            },
        ),
    ] {
        let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
        let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
        c.begin();
        {
            let mut seg = c.segment([0, 0]);
            let mut row = seg.row(4);
            row.push(1, 1);
            row.extend_from(&cols, &[4, 5]);
        }
        assert_eq!(c.finish("c"), Err(fault));
        is_empty_and_valid(&c);
    }
}

#[test]
fn a_leaked_row_fails_the_call_and_leaves_a_valid_output() {
    let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
    let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    {
        let mut seg = c.segment([1, 0]);
        let mut row = seg.row(5);
        row.push(0, 10);
        row.push(2, 12);
        // Never handed over: its slots stay in the buffers uncounted.
        core::mem::forget(row);
    }
    assert!(matches!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder { .. })
    ));
    is_empty_and_valid(&c);
}

/// Insertions `(row, column, value)` in strictly increasing order and in
/// range (sizes are 4 x 6): what a kernel merging validated inputs makes.
fn ordered_insertions() -> impl Strategy<Value = Vec<(usize, usize, i32)>> {
    proptest::collection::btree_map((0usize..4, 0usize..6), -9i32..10, 0..24)
        .prop_map(|m| m.into_iter().map(|((r, c), v)| (r, c, v)).collect())
}

/// Every row `0..4` opened (empty ones too, with the bound `slack` when
/// that is positive), its entries written by vouched pushes or, past the
/// first, by vouched runs of `chunk` entries: what the generated merge does.
/// A row whose bound covers its entries (`slack >= 0`) and whose slots
/// hold that bound takes the pushes without the slot test, as the
/// generated merge's second copy does.
fn fill_in_order<E, B>(
    c: &mut SparseTensorOut<i32, E, B, 2, 2>,
    ins: &[(usize, usize, i32)],
    slack: isize,
    chunk: usize,
) where
    E: crate::StoresValues,
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    c.begin();
    for r in 0..4 {
        let run: Vec<_> = ins.iter().filter(|e| e.0 == r).collect();
        let bound = (run.len() as isize + slack).max(0) as usize;
        let mut seg = c.segment([r, 0]);
        let mut row = seg.row(bound);
        let split = if chunk == 0 {
            run.len()
        } else {
            1.min(run.len())
        };
        let reserved = slack >= 0 && row.holds_bound();
        for &&(_, col, v) in &run[..split] {
            if reserved {
                // SAFETY: the row held its bound before its first push,
                // which is at least the row's entries (`slack >= 0`), and
                // `ordered_insertions` are increasing and in range.
                unsafe { row.push_reserved(col, v) };
            } else {
                // SAFETY: `ordered_insertions` are increasing and in range.
                unsafe { row.push_in_order(col, v) };
            }
        }
        for part in run[split..].chunks(chunk.max(1)) {
            let cols: Vec<u32> = part.iter().map(|e| e.1 as u32).collect();
            let vals: Vec<i32> = part.iter().map(|e| e.2).collect();
            // SAFETY: as above.
            unsafe { row.extend_in_order(&cols, &vals) };
        }
    }
}

fn same_in_order<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    (slack, chunk): (isize, usize),
    caps: (usize, usize, usize),
) -> Result<(), TestCaseError>
where
    E::Pos: Index,
    E::Crd: Index,
{
    let plain = run::<E>(ins, Mode::Insert, caps);
    let mut m = Mem::<E::Pos, E::Crd, i32, 2>::new(caps.0, caps.1, caps.2, 0);
    let vouched = match out::<i32, E, 2, 2>([4, 6], &mut m) {
        Err(_) => (Ok(()), "new refused".into()),
        Ok(mut c) => {
            fill_in_order(&mut c, ins, slack, chunk);
            let result = c.finish("c");
            reassembles(&c);
            (result, std::format!("{:?}", c.view().disassemble()))
        }
    };
    prop_assert_eq!(
        &plain,
        &vouched,
        "{:?}, slack {}, chunk {}, capacities {:?}",
        ins,
        slack,
        chunk,
        caps
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    /// Vouched pushes and runs (rows opened before their first entry, empty
    /// rows included) give `insert`'s result, errors and counted needs,
    /// with any bound and any capacity (a capacity error leaves the
    /// output empty and valid).
    #[test]
    fn vouched_rows_insert_exactly_what_insert_does(
        ins in ordered_insertions(),
        slack in -3isize..4,
        chunk in 0usize..4,
        pos in 0usize..8,
        crd in 0usize..26,
        val in 0usize..26,
    ) {
        same_in_order::<Csr>(&ins, (slack, chunk), (pos, crd, val))?;
        same_in_order::<Dcsr>(&ins, (slack, chunk), (pos, crd, val))?;
        same_in_order::<Coo>(&ins, (slack, chunk), (pos, crd, val))?;
        same_in_order::<Csr>(&ins, (slack, chunk), (8, 26, 26))?;
        same_in_order::<Dcsr>(&ins, (slack, chunk), (8, 26, 26))?;
    }
}

#[cfg(feature = "alloc")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(128)
    ))]

    /// The same into `Vec`s (slots in their spare capacity), fresh and
    /// reused (the second call over the first call's memory).
    #[test]
    fn vouched_rows_into_growable_buffers(
        ins in ordered_insertions(),
        again in ordered_insertions(),
        slack in -3isize..4,
        chunk in 0usize..4,
    ) {
        let mut reused = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
        for ins in [&ins, &again] {
            let mut plain = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
            fill(&mut plain, ins, Mode::Insert);
            prop_assert_eq!(plain.finish("c"), Ok(()));
            fill_in_order(&mut reused, ins, slack, chunk);
            prop_assert_eq!(reused.finish("c"), Ok(()));
            reassembles(&reused);
            prop_assert_eq!(
                std::format!("{:?}", plain.view().disassemble()),
                std::format!("{:?}", reused.view().disassemble())
            );
        }
    }
}

#[test]
fn a_row_opened_before_its_first_entry_writes_it_into_a_slot() {
    let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
    let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    for (r, entries) in [
        (0, &[][..]),
        (1, &[(0, 10), (3, 13)][..]),
        (2, &[]),
        (3, &[(7, 37)]),
    ] {
        let mut seg = c.segment([r, 0]);
        // Bound 2 for every row: empty rows are opened and stay empty.
        let mut row = seg.row(2);
        for &(col, v) in entries {
            // SAFETY: increasing and below 8.
            unsafe { row.push_in_order(col, v) };
        }
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 2, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[0, 3, 7]);
    assert_eq!(v.values(), &[10, 13, 37]);
    reassembles(&c);
}
