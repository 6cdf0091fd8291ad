//! The count-and-scatter fast path (`fast.rs`) against the general
//! staging path on small hand-made and generated inputs: the same results,
//! errors and buffers, long buckets sorted and summed, capacity errors
//! exact, and what it declines left to staging. A child of `tests.rs` for
//! its test buffers, encodings and `out!`.

use std::vec::Vec;

use super::*;

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
