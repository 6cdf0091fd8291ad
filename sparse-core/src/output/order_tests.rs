//! Every ordering method against `sort_unstable` (the old path's result:
//! the added coordinates are distinct, so any correct sort gives the same
//! list), on rows chosen to land on each method and on random ones.

extern crate std;
use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use super::{choose, order_added, radix_sort, sort_added, Method};

/// `len` distinct coordinates below `range` in random order, and their
/// flags (the workspace's invariant).
fn row(seed: &mut u64, len: usize, range: usize) -> (Vec<usize>, Vec<bool>) {
    let mut filled = vec![false; range];
    let mut added = Vec::new();
    while added.len() < len.min(range) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let j = (*seed % range as u64) as usize;
        if !filled[j] {
            filled[j] = true;
            added.push(j);
        }
    }
    (added, filled)
}

/// Orders `added` through `order_added` with or without scratch and
/// checks it against `sort_unstable`.
fn check(added: &[usize], filled: &[bool], with_scratch: bool) {
    let mut want = added.to_vec();
    want.sort_unstable();
    let mut got = added.to_vec();
    let mut scratch = if with_scratch {
        vec![usize::MAX; added.len()]
    } else {
        Vec::new()
    };
    order_added(&mut got, &mut scratch, filled);
    assert_eq!(got, want, "{} of {}", added.len(), filled.len());
}

/// The rows the bench measures take the methods the estimates intend:
/// short spread rows a radix sort, dense ones the scan, tiny ones the
/// small sort, spread ones without scratch the heap sort.
#[test]
fn choose_picks_by_count_and_span() {
    assert_eq!(choose(5, 20_000, true), Method::Small);
    assert_eq!(choose(32, 20_000, false), Method::Small);
    assert!(matches!(choose(100, 20_000, true), Method::Radix { .. }));
    assert!(matches!(choose(400, 100_000, true), Method::Radix { .. }));
    assert_eq!(choose(400, 2_000, true), Method::Scan);
    assert_eq!(choose(1000, 1000, false), Method::Scan);
    assert_eq!(choose(400, 100_000, false), Method::Heap);
    // Radix digits cover the span's bits in the passes chosen.
    for (n, span) in [(50, 20_000), (1000, 1 << 20), (60, 300), (9, usize::MAX)] {
        if let Method::Radix { passes, bits } = choose(n, span, true) {
            assert!(bits <= 8 && passes * bits >= usize::BITS - (span - 1).leading_zeros());
        }
    }
}

/// Rows of every shape, with and without scratch: each path (insertion,
/// scan, radix with 1–3 passes, heap) against `sort_unstable`.
#[test]
fn order_added_matches_sort_unstable() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (len, range) in [
        (0, 10),
        (5, 10),
        (8, 100_000),
        (9, 100_000),
        (17, 20),
        (25, 20_000),
        (40, 64),
        (48, 50_000),
        (100, 400),
        (100, 300),
        (130, 1 << 20),
        (400, 2_000),
        (400, 100_000),
        (3000, 1 << 24),
    ] {
        for with_scratch in [true, false] {
            let (added, filled) = row(&mut seed, len, range);
            check(&added, &filled, with_scratch);
        }
    }
}

/// Rows longer than the small sort's that are increasing already (a
/// banded product's) are left as they are; one descent sorts them.
#[test]
fn increasing_rows_are_kept() {
    let mut added: Vec<usize> = (0..100).map(|i| 3 * i + 1).collect();
    let mut filled = vec![false; 400];
    for &j in &added {
        filled[j] = true;
    }
    let want = added.clone();
    let mut scratch = vec![0; added.len()];
    assert_eq!(super::plan(&added, true).method, Method::Sorted);
    order_added(&mut added, &mut scratch, &filled);
    assert_eq!(added, want);
    added.swap(40, 41);
    assert_ne!(super::plan(&added, true).method, Method::Sorted);
    check(&added, &filled, true);
    check(&added, &filled, false);
}

/// Flags that do not match the list: sorted as given (a mix of flagged
/// and listed coordinates is not asked for), no panic, nothing read out of
/// range.
#[test]
fn broken_flags_never_read_out_of_range() {
    let mut added = vec![
        40, 3, 20, 10, 1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17,
    ];
    let filled = vec![true; 8];
    let mut scratch = vec![0; added.len()];
    order_added(&mut added, &mut scratch, &filled);
    let mut want = vec![
        40, 3, 20, 10, 1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17,
    ];
    want.sort_unstable();
    assert_eq!(added, want);
}

/// The radix sort alone, for every pass count and digit width it may be
/// given (up to the target's `DIGIT_MAX`), including the odd pass counts
/// that end in the scratch.
#[test]
fn radix_sort_every_digit_width() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for bits in 1..=super::DIGIT_MAX {
        for passes in 1..=4u32 {
            let range = 1usize << (bits * passes).min(30);
            let (mut got, _) = row(&mut seed, 60.min(range), range);
            let lo = 7;
            for x in got.iter_mut() {
                *x += lo;
            }
            let mut want = got.clone();
            want.sort_unstable();
            let mut tmp = vec![0; got.len()];
            radix_sort(&mut got, &mut tmp, lo, passes, bits);
            assert_eq!(got, want, "{passes} passes of {bits} bits");
        }
    }
}

/// Against `sort_unstable` on both sides of the insertion/heap
/// threshold, with duplicates too (not produced by the workspace).
#[test]
fn sort_added_sorts_like_sort_unstable() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for len in 0..80 {
        for round in 0..8 {
            let mut v = [0usize; 80];
            for x in v.iter_mut().take(len) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *x = (seed % if round % 2 == 0 { 1000 } else { 8 }) as usize;
            }
            let (mut got, mut want) = (v, v);
            sort_added(&mut got[..len]);
            want[..len].sort_unstable();
            assert_eq!(got, want);
        }
    }
    // Sorted, reversed and organ-pipe orders.
    let n = 100;
    let orders: [&dyn Fn(usize) -> usize; 3] =
        [&|i| i, &|i| n - i, &|i| if i < n / 2 { i } else { n - i }];
    for order in orders {
        let mut got: [usize; 100] = core::array::from_fn(order);
        let mut want = got;
        sort_added(&mut got);
        want.sort_unstable();
        assert_eq!(got, want);
    }
}

proptest! {
    /// Random distinct coordinates anywhere below a random width, with
    /// or without scratch: the order of `sort_unstable`.
    #[test]
    fn order_added_is_a_sort(
        width in 1usize..70_000,
        picks in proptest::collection::vec(any::<u32>(), 0..600),
        with_scratch in any::<bool>(),
        offset in 0usize..3,
    ) {
        let mut filled = vec![false; width];
        let mut added = Vec::new();
        for p in picks {
            // Clustered near a random base for some rows, spread for others.
            let j = (p as usize).wrapping_mul(offset * 7 + 1) % width;
            if !filled[j] {
                filled[j] = true;
                added.push(j);
            }
        }
        check(&added, &filled, with_scratch);
    }
}
