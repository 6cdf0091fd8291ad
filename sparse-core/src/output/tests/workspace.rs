//! `compress` against `insert`: rows accumulated in the workspace and
//! compressed (a whole row appended at once, or the general path when the
//! row cannot be: out of order, a full buffer, a fault already recorded)
//! give the same result, the same error with the same counted need, and
//! the same valid output as the row's entries inserted one by one in
//! order, for every capacity.

use proptest::prelude::*;
use std::string::String;

use super::*;

/// Rows `(row, [(column, value)])` of a 5 x 48 matrix in Gustavson's
/// order (columns repeat and come in any order; a row may repeat or come
/// before the previous one, which `insert` refuses).
fn rows() -> impl Strategy<Value = Vec<(usize, Vec<(usize, i32)>)>> {
    let row = (
        0usize..6,
        proptest::collection::vec((0usize..49, -9i32..10), 0..45),
    );
    proptest::collection::vec(row, 0..6).prop_map(|mut v| {
        // Mostly increasing rows; the last one may break the order.
        let keep = v.len().saturating_sub(1);
        v[..keep].sort_by_key(|r| r.0);
        v
    })
}

/// Runs `rows` through the workspace and `compress` (`workspace == true`)
/// or through `insert` of each row's summed entries in column order, then
/// `finish`; returns the result and the disassembled view.
fn run(
    rows: &[(usize, Vec<(usize, i32)>)],
    workspace: bool,
    caps: (usize, usize, usize),
) -> (Result<(), KernelError>, String) {
    let mut m = Mem::<u8, u8, i32, 2>::new(caps.0, caps.1, caps.2, 96);
    let Ok(mut c) = out::<i32, Csr, 2, 2>([5, 48], &mut m) else {
        return (Ok(()), "new refused".into());
    };
    if workspace {
        return compressed(&mut c, rows);
    }
    c.begin();
    for (r, entries) in rows {
        // What the workspace holds: one sum per column below 48.
        let mut sums = std::collections::BTreeMap::new();
        for &(j, x) in entries.iter().filter(|e| e.0 < 48) {
            *sums.entry(j).or_insert(0) += x;
        }
        for (j, x) in sums {
            c.insert([*r, j], x);
        }
    }
    finished(&mut c)
}

/// Runs `rows` through `c`'s workspace and `compress`, then `finish`
/// (any buffer family: fixed slices, or `Owned`, whose added list takes
/// coordinates in its reserved spare slots).
fn compressed<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, i32>>(
    c: &mut SparseTensorOut<i32, E, B, 2, 2>,
    rows: &[(usize, Vec<(usize, i32)>)],
) -> (Result<(), KernelError>, String) {
    c.begin();
    for (r, entries) in rows {
        let Ok(mut ws) = c.workspace(48) else {
            break;
        };
        for &(j, x) in entries {
            if let Some(slot) = ws.entry(j) {
                *slot += x;
            }
        }
        drop(ws);
        c.compress([*r, 0]);
    }
    finished(c)
}

/// `finish`'s result and the disassembled view (checked to reassemble).
fn finished<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, i32>>(
    c: &mut SparseTensorOut<i32, E, B, 2, 2>,
) -> (Result<(), KernelError>, String) {
    let result = c.finish("c");
    reassembles(c);
    (result, std::format!("{:?}", c.view().disassemble()))
}

/// The slots of an `Owned` workspace's added list: counted while adding,
/// kept when the workspace drops, and handed over to `parts()` (which
/// then pushes after them); the row is the one worked out by hand.
#[cfg(feature = "alloc")]
#[test]
fn owned_workspace_keeps_the_coordinates_added_in_its_slots() {
    let mut c = SparseTensorOut::<f64, Csr, Owned, 2, 2>::with_dims([3, 8]).unwrap();
    c.begin();
    {
        let mut ws = c.workspace(8).unwrap();
        for (j, x) in [(6, 1.0), (2, 2.0), (6, 3.0), (0, 4.0)] {
            *ws.entry(j).unwrap() += x;
        }
        assert_eq!(ws.count(), 3);
        assert!(ws.entry(8).is_none());
    }
    c.compress([0, 0]);
    {
        let mut ws = c.workspace(8).unwrap();
        assert_eq!(ws.count(), 0);
        *ws.entry(5).unwrap() += 1.5;
        let (values, filled, added) = ws.parts();
        assert_eq!(added.as_slice(), &[5]);
        values[1] = -1.0;
        filled[1] = true;
        added.push(1);
        assert_eq!(ws.count(), 2);
        *ws.entry(7).unwrap() += 2.5;
        assert_eq!(ws.count(), 3);
    }
    c.compress([2, 0]);
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 3, 3, 6]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 6, 1, 5, 7]);
    assert_eq!(v.values(), &[4.0, 2.0, 4.0, -1.0, 1.5, 2.5]);
    reassembles(&c);
}

/// Natively 256 cases (or `PROPTEST_CASES`); under Miri one (~15 s each
/// there): the `unsafe` it reaches (the output's `view`) every other
/// output test reaches too.
#[test]
fn compress_inserts_exactly_what_insert_does() {
    let strategy = (rows(), 0usize..8, 0usize..120, 0usize..120);
    crate::testing::check(256, 1, strategy, |(rows, pos, crd, val)| {
        for caps in [(pos, crd, val), (8, 240, 240)] {
            let plain = run(&rows, false, caps);
            let compressed = run(&rows, true, caps);
            prop_assert_eq!(
                &plain,
                &compressed,
                "rows {:?}, capacities {:?}",
                rows,
                caps
            );
        }
        Ok(())
    });
}

#[cfg(feature = "alloc")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn compress_from_an_owned_workspace_inserts_what_insert_does(rows in rows()) {
        let plain = run(&rows, false, (8, 240, 240));
        let mut c = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([5, 48]).unwrap();
        prop_assert_eq!(&plain, &compressed(&mut c, &rows), "rows {:?}", rows);
    }
}
