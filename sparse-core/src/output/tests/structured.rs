//! n:m (`structured[n, m]`) last levels as outputs: every group holds
//! exactly `n` sorted coordinates, the insertions' plus padding zeros at
//! the smallest free coordinates, and a group that would hold more is
//! `KernelError::GroupOverflow` naming it.

use super::*;
use crate::levels::{compressed, d0, d1, dense, floordiv, modulo, structured};
use proptest::prelude::*;

/// NVIDIA's 2:4 over dense rows and dense groups.
type Nv24 = Enc<u8, u8, (dense, dense, structured<2, 4>), (d0, floordiv<d1, 4>, modulo<d1, 4>)>;
/// 2:4 groups stored only where a row has entries (compressed groups).
type Nv24c =
    Enc<u8, u8, (dense, compressed, structured<2, 4>), (d0, floordiv<d1, 4>, modulo<d1, 4>)>;
/// 1:3 groups.
type Nv13 = Enc<u16, u16, (dense, dense, structured<1, 3>), (d0, floordiv<d1, 3>, modulo<d1, 3>)>;

/// Inserts the nonzeros of `m` in level order (row, group, offset).
fn insert_rows<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    c: &mut SparseTensorOut<f64, E, B, 2, 3>,
    m: &[Vec<f64>],
    group: usize,
) -> Result<(), KernelError> {
    c.begin();
    for (i, row) in m.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v != 0.0 {
                c.insert([i, j / group, j % group], v);
            }
        }
    }
    c.finish("c")
}

/// The dense matrix the output stores, and checks that every group holds
/// `n` increasing coordinates.
fn stored<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    c: &SparseTensorOut<f64, E, B, 2, 3>,
    n: usize,
) -> Vec<Vec<f64>> {
    reassembles(c);
    let [rows, cols] = c.dim_sizes();
    let v = c.view();
    let crd = v.level(2).coordinates();
    assert_eq!(crd.len() % n, 0);
    for g in crd.chunks(n) {
        assert!(
            g.windows(2).all(|w| w[0] < w[1]),
            "group {g:?} not increasing"
        );
    }
    let mut d = std::vec![std::vec![0.0; cols]; rows];
    v.for_each(|[i, j], &x| d[i][j] += x);
    d
}

#[test]
fn groups_are_padded_at_the_smallest_free_coordinates() {
    // | 1 . . 2 | . . . . |
    // | . . 3 . | . 4 5 . |
    let m = std::vec![
        std::vec![1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0],
        std::vec![0.0, 0.0, 3.0, 0.0, 0.0, 4.0, 5.0, 0.0],
    ];
    let mut mem = Mem::<u8, u8, f64, 3>::new(0, 8, 8, 0);
    let mut c = out::<f64, Nv24, 2, 3>([2, 8], &mut mem).unwrap();
    insert_rows(&mut c, &m, 4).unwrap();
    let v = c.view();
    // Group (0, 1) is all padding; group (1, 0) pads below its entry.
    assert_eq!(v.level(2).coordinates(), &[0, 3, 0, 1, 0, 2, 1, 2]);
    assert_eq!(v.values(), &[1.0, 2.0, 0.0, 0.0, 0.0, 3.0, 4.0, 5.0]);
    assert_eq!(stored(&c, 2), m);

    // Only the groups a compressed level stores.
    let mut mem = Mem::<u8, u8, f64, 3>::new(3, 8, 8, 0);
    let mut c = out::<f64, Nv24c, 2, 3>([2, 8], &mut mem).unwrap();
    insert_rows(&mut c, &m, 4).unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 1, 3]);
    assert_eq!(v.level(1).coordinates(), &[0, 0, 1]);
    assert_eq!(v.level(2).coordinates(), &[0, 3, 0, 2, 1, 2]);
    assert_eq!(v.values(), &[1.0, 2.0, 0.0, 3.0, 4.0, 5.0]);
    assert_eq!(stored(&c, 2), m);
}

#[test]
fn the_empty_tensor_is_all_padding() {
    let mut mem = Mem::<u8, u8, f64, 3>::new(0, 8, 8, 0);
    let c = out::<f64, Nv24, 2, 3>([2, 8], &mut mem).unwrap();
    let v = c.view();
    assert_eq!(v.level(2).coordinates(), &[0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(v.values(), &[0.0; 8]);
    reassembles(&c);
    // Eight values are the least a 2x8 2:4 tensor stores.
    let mut mem = Mem::<u8, u8, f64, 3>::new(0, 8, 7, 0);
    assert_eq!(
        out::<f64, Nv24, 2, 3>([2, 8], &mut mem).err(),
        Some(AssembleError::Capacity {
            level: 2,
            buffer: Which::Values,
            needed: 8,
            capacity: 7
        })
    );
}

#[test]
fn a_group_with_too_many_entries_is_named() {
    // Row 1's second group (group 3 in storage order) keeps three of four.
    let m = std::vec![
        std::vec![1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0],
        std::vec![0.0, 0.0, 3.0, 0.0, 4.0, 5.0, 6.0, 0.0],
    ];
    let mut mem = Mem::<u8, u8, f64, 3>::new(0, 8, 8, 0);
    let mut c = out::<f64, Nv24, 2, 3>([2, 8], &mut mem).unwrap();
    let err = insert_rows(&mut c, &m, 4).unwrap_err();
    assert_eq!(
        err,
        KernelError::GroupOverflow {
            tensor: "c",
            level: 2,
            group: 3,
            coordinate: 2,
            n: 2,
            m: 4
        }
    );
    assert_eq!(
        std::format!("{err}"),
        "output `c`: group 3 of level 2 (`structured[2, 4]`) gets more than 2 entries (the \
         first that does not fit is at coordinate 2 of the group); the result does not have \
         the 2:4 pattern"
    );
    // Left empty: all padding, valid.
    assert_eq!(c.view().values(), &[0.0; 8]);
    reassembles(&c);
    // And reusable.
    let ok = std::vec![
        std::vec![0.0; 8],
        std::vec![7.0; 2].into_iter().chain([0.0; 6]).collect()
    ];
    insert_rows(&mut c, &ok, 4).unwrap();
    assert_eq!(stored(&c, 2), ok);
}

#[test]
fn capacity_errors_count_the_whole_result() {
    let m = std::vec![
        std::vec![1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0],
        std::vec![0.0, 0.0, 3.0, 0.0, 0.0, 4.0, 5.0, 0.0],
    ];
    let mut mem = Mem::<u8, u8, f64, 3>::new(3, 8, 4, 0);
    let mut c = out::<f64, Nv24c, 2, 3>([2, 8], &mut mem).unwrap();
    assert_eq!(
        insert_rows(&mut c, &m, 4),
        Err(KernelError::Capacity {
            tensor: "c",
            level: 2,
            buffer: Which::Values,
            needed: 6,
            capacity: 4
        })
    );
    is_empty_and_valid(&c);
}

#[test]
fn inserts_out_of_order_within_a_group_are_refused() {
    let mut mem = Mem::<u8, u8, f64, 3>::new(0, 8, 8, 0);
    let mut c = out::<f64, Nv24, 2, 3>([2, 8], &mut mem).unwrap();
    c.begin();
    c.insert([0, 0, 3], 1.0);
    c.insert([0, 0, 1], 2.0);
    assert!(matches!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder { level: 2, .. })
    ));
    reassembles(&c);
}

/// A matrix with at most `n` nonzeros in each group of `m` columns.
fn n_of_m(rows: usize, groups: usize, n: usize, m: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    proptest::collection::vec(
        proptest::collection::vec(
            (
                proptest::sample::subsequence((0..m).collect::<Vec<_>>(), 0..=n),
                1..9i32,
            ),
            groups,
        ),
        rows,
    )
    .prop_map(move |rows| {
        rows.into_iter()
            .map(|groups| {
                let mut r = std::vec![0.0; groups.len() * m];
                for (g, (keep, v)) in groups.into_iter().enumerate() {
                    for (t, k) in keep.into_iter().enumerate() {
                        r[g * m + k] = f64::from(v) + t as f64;
                    }
                }
                r
            })
            .collect()
    })
}

// Natively 256 cases each (or `PROPTEST_CASES`); under Miri one each
// (~7 s a case there): structured levels are safe code, and the `unsafe`
// they reach (the output's `view`) the hand-written tests above reach too.

#[test]
fn every_n_of_m_matrix_round_trips() {
    let strategy = (n_of_m(3, 3, 2, 4), n_of_m(4, 2, 1, 3));
    crate::testing::check(256, 1, strategy, |(m24, m13)| {
        let mut mem = Mem::<u8, u8, f64, 3>::new(0, 18, 18, 0);
        let mut c = out::<f64, Nv24, 2, 3>([3, 12], &mut mem).unwrap();
        insert_rows(&mut c, &m24, 4).unwrap();
        prop_assert_eq!(stored(&c, 2), m24.clone());

        let mut mem = Mem::<u8, u8, f64, 3>::new(4, 18, 18, 0);
        let mut c = out::<f64, Nv24c, 2, 3>([3, 12], &mut mem).unwrap();
        insert_rows(&mut c, &m24, 4).unwrap();
        prop_assert_eq!(stored(&c, 2), m24);

        let mut mem = Mem::<u16, u16, f64, 3>::new(0, 8, 8, 0);
        let mut c = out::<f64, Nv13, 2, 3>([4, 6], &mut mem).unwrap();
        insert_rows(&mut c, &m13, 3).unwrap();
        prop_assert_eq!(stored(&c, 1), m13);
        Ok(())
    });
}

#[test]
fn the_first_overflowing_group_is_reported() {
    crate::testing::check(256, 1, n_of_m(3, 3, 4, 4), |m| {
        let mut mem = Mem::<u8, u8, f64, 3>::new(0, 18, 18, 0);
        let mut c = out::<f64, Nv24, 2, 3>([3, 12], &mut mem).unwrap();
        let got = insert_rows(&mut c, &m, 4);
        // The reference: the first group, in row-major order, with three
        // entries, and the coordinate of its third.
        let first = m
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                r.chunks(4)
                    .enumerate()
                    .map(move |(g, grp)| (i * 3 + g, grp))
            })
            .find_map(|(g, grp)| {
                let third = grp.iter().enumerate().filter(|(_, &v)| v != 0.0).nth(2)?;
                Some((g, third.0))
            });
        match first {
            None => prop_assert_eq!(stored(&c, 2), m),
            Some((group, coordinate)) => {
                prop_assert_eq!(
                    got,
                    Err(KernelError::GroupOverflow {
                        tensor: "c",
                        level: 2,
                        group,
                        coordinate,
                        n: 2,
                        m: 4,
                    })
                );
                reassembles(&c);
            }
        }
        Ok(())
    });
}
