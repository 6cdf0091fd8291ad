//! Rows asked of one segment held for the whole call (`Segment::row_at`)
//! against `insert`: the same insertions give the same result, the same
//! error with the same counted need, and the same valid output, whether
//! the rows go into one run of slots (`Owned`: spare capacity reserved or
//! not, a position width the run must stop at) or row by row (caller
//! slices, any capacity; encodings a run does not take).

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

/// Insertions in strictly increasing order and in range of `rows x cols`:
/// what a kernel merging validated inputs makes.
fn ordered(
    rows: usize,
    cols: usize,
    most: usize,
) -> impl Strategy<Value = Vec<(usize, usize, i32)>> {
    proptest::collection::btree_map((0..rows, 0..cols), -9i32..10, 0..most)
        .prop_map(|m| m.into_iter().map(|((r, c), v)| (r, c, v)).collect())
}

/// How the rows are written: checked pushes (`push`, and past the first
/// entry `extend_from` runs of `chunk`), or vouched ones (`push_reserved`
/// when the row holds its bound and `slack >= 0`, else `push_in_order`;
/// `extend_in_order` runs).
#[derive(Clone, Copy, Debug)]
struct Way {
    slack: isize,
    chunk: usize,
    vouched: bool,
}

fn way() -> impl Strategy<Value = Way> {
    (-3isize..4, 0usize..4, any::<bool>()).prop_map(|(slack, chunk, vouched)| Way {
        slack,
        chunk,
        vouched,
    })
}

/// The insertions of one row through `row` as `way` says.
fn write_row<E, B>(row: &mut Row<'_, '_, i32, E, B, 2, 2>, run: &[(usize, usize, i32)], way: Way)
where
    E: crate::StoresValues,
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    let reserved = way.vouched && way.slack >= 0 && row.holds_bound();
    let split = if way.chunk == 0 {
        run.len()
    } else {
        1.min(run.len())
    };
    for &(_, col, v) in &run[..split] {
        match (way.vouched, reserved) {
            (false, _) => row.push(col, v),
            // SAFETY: the row held its bound before its first push, which
            // is at least the row's entries (`slack >= 0`); `ordered`
            // insertions are increasing and in range.
            (true, true) => unsafe { row.push_reserved(col, v) },
            // SAFETY: `ordered` insertions are increasing and in range.
            (true, false) => unsafe { row.push_in_order(col, v) },
        }
    }
    for part in run[split..].chunks(way.chunk.max(1)) {
        let cols: Vec<u32> = part.iter().map(|e| e.1 as u32).collect();
        let vals: Vec<i32> = part.iter().map(|e| e.2).collect();
        if way.vouched {
            // SAFETY: as above.
            unsafe { row.extend_in_order(&cols, &vals) };
        } else {
            row.extend_from(&cols, &vals);
        }
    }
}

/// `ins` into `c`: by `insert` (`way` `None`), or through one segment for
/// the call asking it for each run of equal rows in `ins`, with the bound
/// the run's entries plus `slack` (vouched: every row `0..rows` in turn,
/// empty ones too). `reserve`
/// entries are reserved first, as a generated kernel does.
fn fill<E, B>(
    c: &mut SparseTensorOut<i32, E, B, 2, 2>,
    ins: &[(usize, usize, i32)],
    rows: usize,
    reserve: usize,
    way: Option<Way>,
) where
    E: crate::StoresValues,
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    c.begin();
    c.reserve_entries(reserve);
    let Some(way) = way else {
        for &(r, col, v) in ins {
            c.insert([r, col], v);
        }
        return;
    };
    // Runs of equal parents, in the order given.
    let mut runs: Vec<&[(usize, usize, i32)]> = Vec::new();
    let mut k = 0;
    while k < ins.len() {
        let start = k;
        while k < ins.len() && ins[k].0 == ins[start].0 {
            k += 1;
        }
        runs.push(&ins[start..k]);
    }
    let mut seg = c.segment([0, 0]);
    let mut next = 0;
    for run in runs {
        let parent = run[0].0;
        // The empty rows before this one, as a loop over every row asks
        // for them (vouched rows: in order, so asking for an empty row
        // changes no error).
        while way.vouched && next < parent.min(rows) {
            let bound = way.slack.max(0) as usize;
            let _ = seg.row_at([next, 0], bound);
            next += 1;
        }
        next = next.max(parent + 1);
        let bound = (run.len() as isize + way.slack).max(0) as usize;
        let mut row = seg.row_at([parent, 0], bound);
        write_row(&mut row, run, way);
    }
}

fn view<E, B>(c: &mut SparseTensorOut<i32, E, B, 2, 2>) -> (Result<(), KernelError>, String)
where
    E: crate::StoresValues,
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    let result = c.finish("c");
    reassembles(c);
    (result, std::format!("{:?}", c.view().disassemble()))
}

/// `ins` into caller slices of the given capacities (rows go row by row).
fn into_slices<E: crate::StoresValues>(
    ins: &[(usize, usize, i32)],
    way: Option<Way>,
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
    fill(&mut c, ins, 4, 0, way);
    view(&mut c)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    /// Rows of one segment into caller slices: any capacity, any bound,
    /// insertions out of order or out of range included.
    #[test]
    fn rows_of_one_segment_insert_exactly_what_insert_does(
        ins in insertions(),
        way in way(),
        pos in 0usize..8,
        crd in 0usize..18,
        val in 0usize..18,
    ) {
        let way = Way { vouched: false, ..way };
        for caps in [(pos, crd, val), (8, 18, 18)] {
            prop_assert_eq!(
                into_slices::<Csr>(&ins, None, caps),
                into_slices::<Csr>(&ins, Some(way), caps),
                "{:?}, {:?}, {:?}", &ins, way, caps
            );
            prop_assert_eq!(
                into_slices::<Dcsr>(&ins, None, caps),
                into_slices::<Dcsr>(&ins, Some(way), caps),
                "{:?}, {:?}, {:?}", &ins, way, caps
            );
        }
        prop_assert_eq!(
            into_slices::<Coo>(&ins, None, (pos, crd, val)),
            into_slices::<Coo>(&ins, Some(way), (pos, crd, val))
        );
    }
}

#[cfg(feature = "alloc")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(128)
    ))]

    /// Rows of one segment into `Vec`s, in one run of slots: checked
    /// pushes of any insertions, with any reservation (none: the run's
    /// rows run out of slots and restart it).
    #[test]
    fn a_run_of_rows_inserts_exactly_what_insert_does(
        ins in insertions(),
        way in way(),
        reserve in 0usize..20,
    ) {
        let way = Way { vouched: false, ..way };
        let go = |way| {
            let mut c = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
            fill(&mut c, &ins, 4, reserve, way);
            view(&mut c)
        };
        prop_assert_eq!(go(None), go(Some(way)), "{:?}, {:?}, reserve {}", &ins, way, reserve);
    }

    /// Vouched rows in one run, fresh and reused (the second call over the
    /// first call's memory), with any reservation.
    #[test]
    fn a_run_of_vouched_rows_inserts_what_insert_does(
        ins in ordered(4, 6, 24),
        again in ordered(4, 6, 24),
        way in way(),
        reserve in 0usize..30,
    ) {
        let way = Way { vouched: true, ..way };
        let mut reused = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
        for ins in [&ins, &again] {
            let mut plain = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([4, 6]).unwrap();
            fill(&mut plain, ins, 4, 0, None);
            fill(&mut reused, ins, 4, reserve, Some(way));
            prop_assert_eq!(view(&mut plain), view(&mut reused), "{:?}, {:?}", ins, way);
        }
    }

    /// More entries than `u8` positions count: the run stops at the widest
    /// position, and the general path records the overflow (the output
    /// left empty and valid), exactly as `insert`.
    #[test]
    fn a_run_stops_at_the_position_width(
        ins in ordered(3, 200, 420),
        way in way(),
        reserve in prop_oneof![Just(0usize), Just(300), Just(600)],
    ) {
        let way = Way { vouched: true, ..way };
        let go = |way| {
            let mut c = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([3, 200]).unwrap();
            fill(&mut c, &ins, 3, reserve, way);
            view(&mut c)
        };
        let plain = go(None);
        prop_assert_eq!(&plain, &go(Some(way)), "{} entries, {:?}", ins.len(), way);
        if ins.len() > 255 {
            prop_assert!(
                matches!(plain.0, Err(KernelError::PositionOverflow { .. })),
                "{:?}",
                plain.0
            );
        }
    }
}

/// A run's rows, checked by hand: empty rows (asked for or skipped),
/// entries across rows, all in one run of slots.
#[cfg(feature = "alloc")]
#[test]
fn a_run_writes_its_rows_one_after_the_other() {
    let mut c = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([5, 8]).unwrap();
    c.begin();
    c.reserve_entries(6);
    {
        let mut seg = c.segment([0, 0]);
        for (r, entries) in [
            (0, &[][..]),
            (1, &[(0, 10), (3, 13)][..]),
            (2, &[]),
            (4, &[(1, 41), (7, 47)]),
        ] {
            let mut row = seg.row_at([r, 0], 2);
            for &(col, v) in entries {
                // SAFETY: increasing and below 8.
                unsafe { row.push_in_order(col, v) };
            }
        }
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 2, 2, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 3, 1, 7]);
    assert_eq!(v.values(), &[10, 13, 41, 47]);
    reassembles(&c);
}
