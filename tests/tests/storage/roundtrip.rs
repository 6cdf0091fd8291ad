//! Property tests: random tensors built by the reference builder survive
//! assemble → disassemble (the same slices), assemble → disassemble_into
//! (the same contents), and assemble → for_each (the reference entries, in
//! storage order), for every storage format the runtime supports.

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use sparse_core::vocab::LevelExpr;
use sparse_core::{Encoding, Index, LevelBuffersMut, SparseTensor};
use sparse_tests::reference::*;

/// Value of the free slots of loose levels: never visited.
const GAP: i64 = -9999;

type Entries = Vec<(Vec<usize>, i64)>;

/// A random `rows x cols` matrix with distinct coordinates and non-zero values.
fn matrix(max_rows: usize, max_cols: usize) -> impl Strategy<Value = (usize, usize, Entries)> {
    (0..=max_rows, 0..=max_cols).prop_flat_map(|(r, c)| {
        let n = (r * c).min(24);
        let entries = btree_map((0..r.max(1), 0..c.max(1)), 1i64..1000, 0..=n).prop_map(move |m| {
            m.into_iter()
                .filter(|((i, j), _)| *i < r && *j < c)
                .map(|((i, j), v)| (vec![i, j], v))
                .collect::<Vec<_>>()
        });
        (Just(r), Just(c), entries)
    })
}

/// A random 3-D tensor with distinct coordinates.
fn tensor3() -> impl Strategy<Value = ([usize; 3], Entries)> {
    (0usize..5, 0usize..5, 0usize..5).prop_flat_map(|(a, b, c)| {
        let entries = btree_map((0..a.max(1), 0..b.max(1), 0..c.max(1)), 1i64..1000, 0..=20)
            .prop_map(move |m| {
                m.into_iter()
                    .filter(|((i, j, k), _)| *i < a && *j < b && *k < c)
                    .map(|((i, j, k), v)| (vec![i, j, k], v))
                    .collect::<Vec<_>>()
            });
        (Just([a, b, c]), entries)
    })
}

/// A random matrix whose coordinates may repeat (for nonunique COO).
fn matrix_with_duplicates() -> impl Strategy<Value = (usize, usize, Entries)> {
    (1usize..6, 1usize..6).prop_flat_map(|(r, c)| {
        let entries = vec(((0..r, 0..c), 1i64..1000), 0..16).prop_map(|v| {
            v.into_iter()
                .map(|((i, j), x)| (vec![i, j], x))
                .collect::<Vec<_>>()
        });
        (Just(r), Just(c), entries)
    })
}

/// Which `for_each` result to expect.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Exactly the entries, in level-coordinate order (no padding stored).
    Entries,
    /// The dense matrix: padding zeros are stored (block formats).
    Dense,
}

fn round_trip<E, const DIM: usize, const LVL: usize>(
    layout: &[RefLevel],
    dims: [usize; DIM],
    entries: &Entries,
    expect: Expect,
) -> Result<(), TestCaseError>
where
    E: Encoding,
{
    let built = build(layout, &dims, entries, 0, GAP);
    let typed = built.typed::<E::Pos, E::Crd>();
    let levels = typed.levels::<LVL>();
    let t = SparseTensor::<i64, E, DIM, LVL>::assemble(dims, levels, &typed.values);
    let t = match t {
        Ok(t) => t,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "assemble refused {built:?}: {e}"
            )))
        }
    };
    prop_assert_eq!(t.lvl_sizes().to_vec(), lvl_sizes(layout, &dims));
    prop_assert_eq!(t.number_of_entries(), typed.values.len());

    // disassemble gives back the very slices.
    let (d2, l2, v2) = t.disassemble();
    prop_assert_eq!(d2, dims);
    prop_assert!(std::ptr::eq(v2, &typed.values[..]));
    for (given, back) in levels.iter().zip(&l2) {
        prop_assert!(std::ptr::eq(given.positions, back.positions));
        prop_assert!(std::ptr::eq(given.coordinates, back.coordinates));
    }

    // disassemble_into copies the same contents into roomier buffers.
    let mut pos: Vec<Vec<E::Pos>> = typed
        .pos
        .iter()
        .map(|p| vec![fill(); p.len() + 2])
        .collect();
    let mut crd: Vec<Vec<E::Crd>> = typed
        .crd
        .iter()
        .map(|c| vec![fill(); c.len() + 3])
        .collect();
    let mut vals = vec![0i64; typed.values.len() + 1];
    let mut bufs = pos
        .iter_mut()
        .zip(crd.iter_mut())
        .map(|(p, c)| LevelBuffersMut::new(p, c));
    let bufs: [_; LVL] = std::array::from_fn(|_| bufs.next().expect("one per level"));
    let lens = t
        .disassemble_into(bufs, &mut vals)
        .expect("buffers are large enough");
    prop_assert_eq!(lens.values, typed.values.len());
    prop_assert_eq!(&vals[..lens.values], &typed.values[..]);
    for l in 0..LVL {
        prop_assert_eq!(&pos[l][..lens.levels[l].positions], &typed.pos[l][..]);
        prop_assert_eq!(&crd[l][..lens.levels[l].coordinates], &typed.crd[l][..]);
    }

    // for_each visits the reference entries.
    let mut got = Vec::new();
    t.for_each(|d, v| got.push((d.to_vec(), *v)));
    match expect {
        Expect::Entries => prop_assert_eq!(&got, &storage_order(layout, entries)),
        Expect::Dense => {
            let (rows, cols) = (dims[0], dims[1]);
            let want = dense(rows, cols, entries, 0);
            let mut seen = vec![false; rows * cols];
            for (d, v) in &got {
                let at = d[0] * cols + d[1];
                prop_assert!(!seen[at], "{:?} visited twice", d);
                seen[at] = true;
                prop_assert_eq!(*v, want[at]);
            }
            for (d, _) in entries {
                prop_assert!(seen[d[0] * cols + d[1]], "{:?} not visited", d);
            }
        }
    }

    // Level coordinates: in storage order, and consistent with the map.
    let mut lvl_seen = Vec::new();
    t.for_each_lvl(|l, v| lvl_seen.push((l, *v)));
    prop_assert_eq!(
        lvl_seen.len(),
        t.number_of_entries() - gaps(layout, &typed.values)
    );
    let mut from_lvl = Vec::new();
    for (l, v) in &lvl_seen {
        let d = t.lvl_to_dim(*l);
        prop_assert_eq!(t.dim_to_lvl(d), *l);
        if d.iter().zip(&dims).all(|(c, n)| c < n) {
            from_lvl.push((d.to_vec(), *v));
        }
    }
    prop_assert_eq!(&from_lvl, &got);
    let sorted_by_level = lvl_seen.windows(2).all(|w| w[0].0 <= w[1].0);
    prop_assert!(sorted_by_level || layout.iter().any(|l| l.kind == Kind::Loose));

    // The unchecked constructor builds the same tensor.
    // SAFETY: `assemble` accepted exactly these buffers above.
    let u = unsafe {
        SparseTensor::<i64, E, DIM, LVL>::assemble_unchecked(dims, levels, &typed.values)
    };
    prop_assert_eq!(format!("{u}"), format!("{t}"));
    prop_assert_eq!(format!("{u:#}"), format!("{t:#}"));
    Ok(())
}

fn fill<I: Index>() -> I {
    I::from_usize(7).expect("7 fits every width")
}

/// The free slots a loose last level stores.
fn gaps(layout: &[RefLevel], values: &[i64]) -> usize {
    if layout.last().is_some_and(|l| l.kind == Kind::Loose) {
        values.iter().filter(|&&v| v == GAP).count()
    } else {
        0
    }
}

const I: LevelExpr = LevelExpr::Dim(0);
const J: LevelExpr = LevelExpr::Dim(1);
const K: LevelExpr = LevelExpr::Dim(2);
const DENSE_I: RefLevel = lvl(Kind::Dense, I);
const CSR: [RefLevel; 2] = [DENSE_I, lvl(Kind::Compressed { unique: true }, J)];
const CSC: [RefLevel; 2] = [
    lvl(Kind::Dense, J),
    lvl(Kind::Compressed { unique: true }, I),
];
const DCSR: [RefLevel; 2] = [
    lvl(Kind::Compressed { unique: true }, I),
    lvl(Kind::Compressed { unique: true }, J),
];
const COO: [RefLevel; 2] = [lvl(Kind::Compressed { unique: false }, I), fused(J)];
const COO_SOA: [RefLevel; 2] = [
    lvl(Kind::Compressed { unique: false }, I),
    lvl(Kind::Singleton, J),
];
const LOOSE_CSR: [RefLevel; 2] = [DENSE_I, lvl(Kind::Loose, J)];
const CSF: [RefLevel; 3] = [
    lvl(Kind::Compressed { unique: true }, I),
    lvl(Kind::Compressed { unique: true }, J),
    lvl(Kind::Compressed { unique: true }, K),
];

fn bsr(r: u32, c: u32) -> [RefLevel; 4] {
    let m = bsr_map(r, c);
    [
        lvl(Kind::Dense, m[0]),
        lvl(Kind::Compressed { unique: true }, m[1]),
        lvl(Kind::Dense, m[2]),
        lvl(Kind::Dense, m[3]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn csr((r, c, e) in matrix(7, 9)) {
        round_trip::<Csr<usize, usize>, 2, 2>(&CSR, [r, c], &e, Expect::Entries)?;
        round_trip::<Csr<u8, u8>, 2, 2>(&CSR, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn csc((r, c, e) in matrix(7, 9)) {
        round_trip::<Csc<u16, u32>, 2, 2>(&CSC, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn dcsr((r, c, e) in matrix(7, 9)) {
        round_trip::<Dcsr<u32, u16>, 2, 2>(&DCSR, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn coo_aos((r, c, e) in matrix(7, 9)) {
        round_trip::<Coo<usize, u8>, 2, 2>(&COO, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn coo_soa((r, c, e) in matrix(7, 9)) {
        round_trip::<CooSoa<u64, usize>, 2, 2>(&COO_SOA, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn coo_nonunique_keeps_duplicates((r, c, e) in matrix_with_duplicates()) {
        round_trip::<CooNu<usize, usize>, 2, 2>(&COO, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn loose_compressed_with_gaps_and_reversed_segments((r, c, e) in matrix(7, 9)) {
        prop_assume!(c > 0 || r == 0);
        round_trip::<Loose<u16, u16>, 2, 2>(&LOOSE_CSR, [r, c], &e, Expect::Entries)?;
    }

    #[test]
    fn csf_3d((dims, e) in tensor3()) {
        round_trip::<Csf<u8, usize>, 3, 3>(&CSF, dims, &e, Expect::Entries)?;
    }

    #[test]
    fn bsr_2x3((r, c, e) in matrix(9, 10)) {
        round_trip::<Bsr23<usize, usize>, 2, 4>(&bsr(2, 3), [r, c], &e, Expect::Dense)?;
    }
}
