//! `Segment` against `insert`: the same insertions, grouped by parent into
//! segments, give the same result, the same error with the same counted
//! need, and the same valid output, for every encoding kind (those a
//! segment appends to and those it hands to `insert`) and every capacity.

use proptest::prelude::*;
use std::string::String;

use super::*;

/// Insertions `(row, column, value)`, mostly in order, sometimes out of
/// order or out of range (sizes are 4 x 6).
fn insertions() -> impl Strategy<Value = Vec<(usize, usize, i32)>> {
    proptest::collection::vec((0usize..5, 0usize..7, -9i32..10), 0..14).prop_map(|mut v| {
        // Mostly sorted, so that long segments occur; the unsorted tail
        // keeps the error paths in play.
        let keep = v.len() / 3;
        v[keep..].sort_by_key(|&(r, c, _)| (r, c));
        v
    })
}

/// Runs `ins` through `insert` (`segments == false`) or through one
/// segment per run of equal rows, then `finish`; returns the result and
/// the disassembled view.
fn run<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    segments: Mode,
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
    c.begin();
    if segments != Mode::Insert {
        let mut k = 0;
        while k < ins.len() {
            let row = ins[k].0;
            let mut seg = c.segment([row, 0]);
            let start = k;
            while k < ins.len() && ins[k].0 == row {
                k += 1;
            }
            // The row's first entry pushed, its rest pushed one by one or
            // as one run.
            let run = &ins[start..k];
            let split = if segments == Mode::Runs {
                1.min(run.len())
            } else {
                run.len()
            };
            for &(_, col, v) in &run[..split] {
                seg.push(col, v);
            }
            let cols: Vec<u32> = run[split..].iter().map(|&(_, col, _)| col as u32).collect();
            let vals: Vec<i32> = run[split..].iter().map(|&(_, _, v)| v).collect();
            seg.extend_from(&cols, &vals);
        }
    } else {
        for &(r, col, v) in ins {
            c.insert([r, col], v);
        }
    }
    let result = c.finish("c");
    reassembles(&c);
    (result, std::format!("{:?}", c.view().disassemble()))
}

/// How `run` inserts: `insert` per entry, a segment per row with a `push`
/// per entry, or a segment per row with its first entry pushed and the
/// rest appended by one `extend_from`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Insert,
    Push,
    Runs,
}

fn same<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    caps: (usize, usize, usize),
) -> Result<(), TestCaseError>
where
    E::Pos: Index,
    E::Crd: Index,
{
    let plain = run::<E>(ins, Mode::Insert, caps);
    let grouped = run::<E>(ins, Mode::Push, caps);
    let runs = run::<E>(ins, Mode::Runs, caps);
    prop_assert_eq!(
        &plain,
        &grouped,
        "insertions {:?}, capacities {:?}",
        ins,
        caps
    );
    prop_assert_eq!(
        &plain,
        &runs,
        "runs: insertions {:?}, capacities {:?}",
        ins,
        caps
    );
    Ok(())
}

/// Natively 256 cases (or `PROPTEST_CASES`); under Miri one (~25 s each
/// there): the segment's `unsafe` writes (`push`, `extend_from`, the
/// overflow inside a segment) are reached by the hand-written tests below
/// and in `row.rs`, which Miri runs in full.
#[test]
fn segments_insert_exactly_what_insert_does() {
    let strategy = (insertions(), 0usize..8, 0usize..16, 0usize..16);
    crate::testing::check(256, 1, strategy, |(ins, pos, crd, val)| {
        // CSR and DCSR: segments append; COO (non-unique) and a loose
        // compressed last level: every push takes `insert`'s path.
        same::<Csr>(&ins, (pos, crd, val))?;
        same::<Dcsr>(&ins, (pos, crd, val))?;
        same::<Coo>(&ins, (pos, crd, val))?;
        same::<Loose>(&ins, (2 * pos, crd, val))?;
        // Room for everything: the appended result itself.
        same::<Csr>(&ins, (8, 16, 16))?;
        same::<Dcsr>(&ins, (8, 16, 16))
    });
}

#[test]
fn a_segment_appends_a_row_and_settles_when_dropped() {
    let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
    let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    {
        let mut row = c.segment([1, 0]);
        row.push(0, 10);
        row.push(3, 13);
        row.push(7, 17);
    }
    {
        let mut row = c.segment([3, 0]);
        row.push(2, 32);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 3, 3, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 3, 7, 2]);
    assert_eq!(v.values(), &[10, 13, 17, 32]);
    reassembles(&c);
}

#[test]
fn a_full_buffer_inside_a_segment_counts_the_exact_need() {
    // 5 entries in one segment; room for 3 coordinates, or for 2 values:
    // the overflow happens inside the segment, later pushes still count.
    for (crd, val, buffer, capacity) in [
        (3, 8, crate::error::Buffer::Coordinates, 3),
        (8, 2, crate::error::Buffer::Values, 2),
    ] {
        let mut m = Mem::<u8, u8, i32, 2>::new(5, crd, val, 0);
        let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
        c.begin();
        {
            let mut row = c.segment([0, 0]);
            for j in 0..5 {
                row.push(j, j as i32);
            }
        }
        assert_eq!(
            c.finish("c"),
            Err(KernelError::Capacity {
                tensor: "c",
                level: 1,
                buffer,
                needed: 5,
                capacity,
            })
        );
        is_empty_and_valid(&c);
    }
}

#[test]
fn a_leaked_segment_fails_the_call_and_leaves_a_valid_output() {
    let mut m = Mem::<u8, u8, i32, 2>::new(5, 8, 8, 0);
    let mut c = out::<i32, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([0, 1], 1);
    let mut row = c.segment([1, 0]);
    row.push(0, 10);
    row.push(2, 12);
    row.push(5, 15);
    // Never settled: two appends past the first (which took `insert`'s path).
    core::mem::forget(row);
    c.insert([2, 3], 23);
    // The insertions the lengths counted: [0, 1], [1, 0] (the segment's
    // first push, through `insert`) and [2, 3].
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 3,
            level: 1,
        })
    );
    is_empty_and_valid(&c);
    // Reusable.
    csr_example_i32(&mut c).unwrap();
    reassembles(&c);
}

fn csr_example_i32<B: OutputBuffers<u8, u8, i32>>(
    c: &mut SparseTensorOut<i32, Csr, B, 2, 2>,
) -> Result<(), KernelError> {
    c.begin();
    {
        let mut row = c.segment([3, 0]);
        row.push(2, 4);
        row.push(7, 5);
    }
    c.finish("c")
}
