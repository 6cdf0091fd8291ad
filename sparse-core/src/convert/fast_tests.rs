//! Property tests of the count-and-scatter conversions (`fast.rs`, its
//! buckets in `buckets.rs`) against independent references: a map of
//! summed entries (`convert_sum`), a stable sort of the entries (a target
//! that keeps repeats), a dense transpose (CSR → CSC). Rows long enough to
//! cross the sorting network's 32 entries and the insertion sort's 64,
//! empty rows, repeats, shuffled input; overflowing sums, refused repeats
//! and buffers one slot short leave the output empty and reusable.

extern crate std;

use std::collections::BTreeMap;
#[cfg(feature = "alloc")]
use std::string::{String, ToString};
use std::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::encoding::Enc;
use crate::levels::{compressed, d0, d1, dense, nonordered, nonunique, singleton};
#[cfg(feature = "alloc")]
use crate::output::Owned;
use crate::output::{SliceBuffer, Slices};
use crate::tensor::Level;

type Csr = Enc<u32, u16, (dense, compressed), (d0, d1)>;
type Csc = Enc<u32, u16, (dense, compressed), (d1, d0)>;
type CsrKeep = Enc<u32, u16, (dense, compressed<nonunique>), (d0, d1)>;
type Coo = Enc<u32, u32, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
type Ucoo = Enc<
    u32,
    u32,
    (
        compressed<(nonunique, nonordered)>,
        singleton<(nonunique, nonordered)>,
    ),
    (d0, d1),
>;

/// `(row, column, value)` entries of an `m × n` matrix in random order,
/// with repeats (columns drawn from a narrow range) and rows of up to a few
/// hundred entries (few rows), some rows empty.
fn entries() -> impl Strategy<Value = (usize, usize, Vec<(usize, usize, i32)>)> {
    // Smaller under Miri (minutes otherwise); rows past 64 entries still
    // occur there (one or two rows).
    let (wide, most) = if cfg!(miri) { (80, 100) } else { (400, 500) };
    (1usize..24, 1usize..wide, 1usize..wide).prop_flat_map(move |(m, n, spread)| {
        let width = spread.min(n);
        let e = (0..m, 0..width, -1000i32..1000);
        (Just(m), Just(n), proptest::collection::vec(e, 0..most))
    })
}

/// The CSR arrays `(pos, crd, val)` of a converted output (caller slices,
/// or `Owned`: `Vec`s scattered into through their spare capacity).
fn arrays<V: Clone, E: Encoding<Pos = u32, Crd = u16>, B: OutputBuffers<u32, u16, V>>(
    out: &SparseTensorOut<V, E, B, 2, 2>,
) -> (Vec<u32>, Vec<u16>, Vec<V>) {
    let v = out.view();
    let l = v.level(1);
    (
        l.positions().to_vec(),
        l.coordinates().to_vec(),
        v.values().to_vec(),
    )
}

/// A CSR or CSC output over vectors of `room` slots (the positions `outer
/// + 1`).
struct Room {
    pos: Vec<u32>,
    crd: Vec<u16>,
    val: Vec<i32>,
}

impl Room {
    fn new(outer: usize, room: usize) -> Self {
        Room {
            pos: std::vec![0; outer + 1],
            crd: std::vec![7; room],
            val: std::vec![7; room],
        }
    }
    fn out<E: crate::StoresValues<Pos = u32, Crd = u16>>(
        &mut self,
        dims: [usize; 2],
    ) -> SparseTensorOut<i32, E, Slices<'_>, 2, 2> {
        SparseTensorOut::new(
            dims,
            [SliceBuffer::default(), SliceBuffer::new(&mut self.pos)],
            [SliceBuffer::default(), SliceBuffer::new(&mut self.crd)],
            SliceBuffer::new(&mut self.val),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
        .unwrap()
    }
}

/// The compressed arrays of `groups` (outer coordinate → its `(inner,
/// value)` entries in order).
fn compressed_of(
    outer: usize,
    groups: &BTreeMap<usize, Vec<(usize, i32)>>,
) -> (Vec<u32>, Vec<u16>, Vec<i32>) {
    let mut pos = std::vec![0u32];
    let (mut crd, mut val) = (Vec::new(), Vec::new());
    for o in 0..outer {
        for &(c, v) in groups.get(&o).map_or(&[][..], |g| &g[..]) {
            crd.push(c as u16);
            val.push(v);
        }
        pos.push(crd.len() as u32);
    }
    (pos, crd, val)
}

// Natively 256 cases each (or `PROPTEST_CASES`); under Miri two each
// (9 to 17 s a case there): every case runs the fast path's unchecked
// stores, and the paths a random case may miss (rows past 64 entries, a
// sum overflowing inside a bucket, capacity errors) are reached by the
// hand-written tests of `convert::tests::fast_staging`, which Miri runs in
// full.

/// Unordered COO → CSR and CSC by `convert_sum`, `convert` and into a
/// target that keeps repeats, against the summed map and the stable
/// sort of the entries.
#[test]
fn unordered_coo_converts_like_the_references() {
    crate::testing::check(256, 2, entries(), |(m, n, e)| {
        let aos: Vec<u32> = e
            .iter()
            .flat_map(|&(i, j, _)| [i as u32, j as u32])
            .collect();
        let vals: Vec<i32> = e.iter().map(|t| t.2).collect();
        let top = [0, e.len() as u32];
        let coo = SparseTensor::<i32, Ucoo, 2, 2>::assemble(
            [m, n],
            [Level::compressed(&top, &aos), Level::fused()],
            &vals,
        )
        .unwrap();
        // References: sums per coordinate; each row's entries stably sorted.
        let mut sums = BTreeMap::<(usize, usize), i32>::new();
        for &(i, j, v) in &e {
            *sums.entry((i, j)).or_default() += v;
        }
        let mut by_row = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        let mut by_col = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        for (&(i, j), &v) in &sums {
            by_row.entry(i).or_default().push((j, v));
        }
        for (&(i, j), &v) in &sums {
            by_col.entry(j).or_default().push((i, v));
        }
        let mut stable = e.clone();
        stable.sort_by_key(|&(i, j, _)| (i, j));
        let mut kept = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        for &(i, j, v) in &stable {
            kept.entry(i).or_default().push((j, v));
        }
        // Rows of more than 64 entries are heap-sorted: repeats kept in
        // no promised order there (compared with their values sorted).
        let canonical = |(pos, crd, mut val): (Vec<u32>, Vec<u16>, Vec<i32>)| {
            for w in pos.windows(2) {
                let (lo, hi) = (w[0] as usize, w[1] as usize);
                if hi - lo > 64 {
                    let mut lo2 = lo;
                    while lo2 < hi {
                        let end = (lo2..hi).find(|&r| crd[r] != crd[lo2]).unwrap_or(hi);
                        val[lo2..end].sort_unstable();
                        lo2 = end;
                    }
                }
            }
            (pos, crd, val)
        };

        let repeats = sums.len() < e.len();

        let mut r = Room::new(m, e.len());
        let mut out = r.out::<Csr>([m, n]);
        prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
        prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
        let refused = convert(&coo, &mut out);
        if repeats {
            prop_assert_eq!(refused, Err(ConvertError::Duplicate));
            prop_assert_eq!(out.number_of_entries(), 0);
        } else {
            prop_assert_eq!(refused, Ok(()));
            prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
        }

        let mut r = Room::new(n, e.len());
        let mut out = r.out::<Csc>([m, n]);
        prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
        prop_assert_eq!(arrays(&out), compressed_of(n, &by_col));

        let mut r = Room::new(m, e.len());
        let mut out = r.out::<CsrKeep>([m, n]);
        prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
        prop_assert_eq!(canonical(arrays(&out)), canonical(compressed_of(m, &kept)));

        // The same into `Owned` outputs, each converted into twice (the
        // second time over the first result's buffers).
        #[cfg(feature = "alloc")]
        {
            let mut out = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([m, n]).unwrap();
            for _ in 0..2 {
                prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
                prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
            }
            let refused = convert(&coo, &mut out);
            if repeats {
                prop_assert_eq!(refused, Err(ConvertError::Duplicate));
                prop_assert_eq!(out.number_of_entries(), 0);
            } else {
                prop_assert_eq!(refused, Ok(()));
                prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
            }
            let mut out = SparseTensorOut::<i32, CsrKeep, Owned, 2, 2>::with_dims([m, n]).unwrap();
            for _ in 0..2 {
                prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
                prop_assert_eq!(canonical(arrays(&out)), canonical(compressed_of(m, &kept)));
            }
        }
        Ok(())
    });
}

/// Sorted COO (repeats adjacent) → CSR, copied in order: against the
/// summed map, and into a target that keeps repeats, the source itself.
#[test]
fn sorted_coo_converts_like_the_references() {
    crate::testing::check(256, 2, entries(), |(m, n, mut e)| {
        e.sort_by_key(|&(i, j, _)| (i, j));
        let aos: Vec<u32> = e
            .iter()
            .flat_map(|&(i, j, _)| [i as u32, j as u32])
            .collect();
        let vals: Vec<i32> = e.iter().map(|t| t.2).collect();
        let top = [0, e.len() as u32];
        let coo = SparseTensor::<i32, Coo, 2, 2>::assemble(
            [m, n],
            [Level::compressed(&top, &aos), Level::fused()],
            &vals,
        )
        .unwrap();
        let mut sums = BTreeMap::<(usize, usize), i32>::new();
        for &(i, j, v) in &e {
            *sums.entry((i, j)).or_default() += v;
        }
        let mut by_row = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        for (&(i, j), &v) in &sums {
            by_row.entry(i).or_default().push((j, v));
        }
        let mut kept = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        for &(i, j, v) in &e {
            kept.entry(i).or_default().push((j, v));
        }
        let mut r = Room::new(m, e.len());
        let mut out = r.out::<Csr>([m, n]);
        prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
        prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
        let mut r = Room::new(m, e.len());
        let mut out = r.out::<CsrKeep>([m, n]);
        prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
        prop_assert_eq!(arrays(&out), compressed_of(m, &kept));
        #[cfg(feature = "alloc")]
        {
            let mut out = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([m, n]).unwrap();
            prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
            prop_assert_eq!(arrays(&out), compressed_of(m, &by_row));
            let mut out = SparseTensorOut::<i32, CsrKeep, Owned, 2, 2>::with_dims([m, n]).unwrap();
            prop_assert_eq!(convert_sum(&coo, &mut out), Ok(()));
            prop_assert_eq!(arrays(&out), compressed_of(m, &kept));
        }
        Ok(())
    });
}

/// A sum that overflows `i32` in a long, shuffled row stops the
/// conversion with `SumOverflow` at that element and leaves the output
/// empty; the same output then converts a good source.
#[test]
fn overflow_in_a_bucket_leaves_the_output_reusable() {
    let len = 2usize..if cfg!(miri) { 70 } else { 120 };
    let strategy = (len, 0usize..1000, any::<u64>());
    crate::testing::check(256, 2, strategy, |(len, at, seed)| {
        let n = 300;
        let hot = at % n;
        // Column `hot` twice with `i32::MAX`, the rest distinct columns.
        let mut e: Vec<(usize, usize, i32)> = (0..len)
            .map(|k| {
                (
                    1,
                    if k < 2 { hot } else { (hot + k) % n },
                    if k < 2 { i32::MAX } else { 1 },
                )
            })
            .collect();
        let mut s = seed | 1;
        for k in (1..e.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            e.swap(k, (s % (k as u64 + 1)) as usize);
        }
        let aos: Vec<u32> = e
            .iter()
            .flat_map(|&(i, j, _)| [i as u32, j as u32])
            .collect();
        let vals: Vec<i32> = e.iter().map(|t| t.2).collect();
        let top = [0, e.len() as u32];
        let coo = SparseTensor::<i32, Ucoo, 2, 2>::assemble(
            [3, n],
            [Level::compressed(&top, &aos), Level::fused()],
            &vals,
        )
        .unwrap();
        let mut r = Room::new(3, e.len());
        let mut out = r.out::<Csr>([3, n]);
        let got = convert_sum(&coo, &mut out);
        prop_assert_eq!(
            got,
            Err(ConvertError::SumOverflow {
                at: Coordinates::new(&[1, hot])
            })
        );
        prop_assert_eq!(out.number_of_entries(), 0);
        prop_assert_eq!(arrays(&out), (std::vec![0u32; 4], Vec::new(), Vec::new()));
        let ok: Vec<i32> = std::vec![1; e.len()];
        let fine = SparseTensor::<i32, Ucoo, 2, 2>::assemble(
            [3, n],
            [Level::compressed(&top, &aos), Level::fused()],
            &ok,
        )
        .unwrap();
        prop_assert_eq!(convert_sum(&fine, &mut out), Ok(()));
        prop_assert_eq!(out.number_of_entries(), e.len() - 1);
        Ok(())
    });
}

/// CSR → CSC against a dense transpose, with empty rows and columns;
/// buffers one slot short give a capacity error and an empty output.
#[test]
fn csr_to_csc_matches_the_dense_transpose() {
    crate::testing::check(256, 2, entries(), |(m, n, e)| {
        let mut sums = BTreeMap::<(usize, usize), i32>::new();
        for &(i, j, v) in &e {
            sums.insert((i, j), v);
        }
        let mut by_row = BTreeMap::<usize, Vec<(usize, i32)>>::new();
        for (&(i, j), &v) in &sums {
            by_row.entry(i).or_default().push((j, v));
        }
        let (pos, crd, val) = compressed_of(m, &by_row);
        let a = SparseTensor::<i32, Csr, 2, 2>::assemble(
            [m, n],
            [Level::dense(), Level::compressed(&pos, &crd)],
            &val,
        )
        .unwrap();
        let mut dense_t = std::vec![None; n * m];
        for (&(i, j), &v) in &sums {
            dense_t[j * m + i] = Some(v);
        }
        let mut want = (std::vec![0u32], Vec::new(), Vec::new());
        for j in 0..n {
            for i in 0..m {
                if let Some(v) = dense_t[j * m + i] {
                    want.1.push(i as u16);
                    want.2.push(v);
                }
            }
            want.0.push(want.1.len() as u32);
        }
        let mut r = Room::new(n, sums.len());
        let mut out = r.out::<Csc>([m, n]);
        prop_assert_eq!(convert(&a, &mut out), Ok(()));
        prop_assert_eq!(arrays(&out), want.clone());
        if !sums.is_empty() {
            let mut short = Room::new(n, sums.len() - 1);
            let mut out = short.out::<Csc>([m, n]);
            let got = convert(&a, &mut out);
            let is_capacity = matches!(got, Err(ConvertError::Capacity { .. }));
            prop_assert!(is_capacity, "{:?}", got);
            prop_assert_eq!(out.number_of_entries(), 0);
            prop_assert_eq!(out.view().level(1).positions(), &std::vec![0u32; n + 1][..]);
        }
        #[cfg(feature = "alloc")]
        {
            // Into an `Owned` output, twice (the second conversion over
            // the first one's buffers).
            let mut out = SparseTensorOut::<i32, Csc, Owned, 2, 2>::with_dims([m, n]).unwrap();
            for _ in 0..2 {
                prop_assert_eq!(convert(&a, &mut out), Ok(()));
                prop_assert_eq!(arrays(&out), want.clone());
            }
            // Values with drop glue: written into spare capacity without
            // dropping (`Owned`), and over caller slots, dropping what
            // they held (Miri reports a leak or a double drop).
            let text: Vec<String> = val.iter().map(|v| v.to_string()).collect();
            let a = SparseTensor::<String, Csr, 2, 2>::assemble(
                [m, n],
                [Level::dense(), Level::compressed(&pos, &crd)],
                &text,
            )
            .unwrap();
            let want_text = (
                want.0.clone(),
                want.1.clone(),
                want.2.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            );
            let mut out = SparseTensorOut::<String, Csc, Owned, 2, 2>::with_dims([m, n]).unwrap();
            prop_assert_eq!(convert(&a, &mut out), Ok(()));
            prop_assert_eq!(arrays(&out), want_text.clone());
            let (mut p, mut c) = (std::vec![0u32; n + 1], std::vec![7u16; sums.len()]);
            let mut v = std::vec![String::from("stale"); sums.len()];
            let mut out = SparseTensorOut::<String, Csc, Slices<'_>, 2, 2>::new(
                [m, n],
                [SliceBuffer::default(), SliceBuffer::new(&mut p)],
                [SliceBuffer::default(), SliceBuffer::new(&mut c)],
                SliceBuffer::new(&mut v),
                SliceBuffer::default(),
                SliceBuffer::default(),
                SliceBuffer::default(),
            )
            .unwrap();
            prop_assert_eq!(convert(&a, &mut out), Ok(()));
            prop_assert_eq!(arrays(&out), want_text);
        }
        Ok(())
    });
}
