//! Sorting a short workspace row (at most 32 coordinates) without a
//! data-dependent branch per entry: Gustavson's product over a matrix with
//! a few entries per row adds ~25 coordinates per row spread over the whole
//! width, and an insertion sort of them mispredicts about once per entry
//! (its inner loop stops at a data-dependent place) — on the n = 20 000,
//! 5-per-row bench matrix that was 0.95 mispredicted branches per
//! multiply-add, two thirds of the kernel's.
//!
//! The shape is the standard library's small sort for integers (ipnsort's
//! `small_sort_network`), in safe code: each half of the row (the whole
//! row up to 16 entries) is copied into a 32-slot array on the stack
//! filled with `usize::MAX`, put in order by the narrowest sorting network
//! that covers it (9, 10, 12, 13 or 16 inputs; the `usize::MAX` slots stay
//! last; every compare-exchange a `min` and a `max`, compiled to
//! conditional moves, unrolled), and the two halves are merged back into the row with
//! those `usize::MAX` slots as sentinels, so each merge step is two loads,
//! a compare, a select and two index updates, with no test for a half
//! running out. Indices into the arrays are masked to their length: no
//! bounds check, no panic path, no allocation.
//!
//! Also the sort of the conversions' COO rows (`convert/buckets.rs`), on
//! packed keys.
//!
//! 64-bit targets only: the two arrays are 512 bytes of stack, which a
//! microcontroller's SpGEMM kernel cannot spare (the firmware bounds it to
//! 640 bytes), and a Cortex-M has no branch predictor to miss; there the
//! rows are insertion-sorted as before.

/// The longest row this sorts.
pub(crate) const SMALL_MAX: usize = 32;

/// Slots of each half's array (a power of two, for the index masks): a
/// half of at most 16 entries and its sentinel fit.
const SLOTS: usize = 32;

/// Compare-exchanges with literal indices, unrolled: each is a compare
/// and two conditional moves on slots the compiler addresses directly.
macro_rules! network {
    ($v:ident; $(($a:literal, $b:literal)),* $(,)?) => {
        $(exchange($v, $a, $b);)*
    };
}

/// Puts `v[a]` and `v[b]` in order (`a < b`) with a `min` and a `max`.
#[inline(always)]
fn exchange(v: &mut [usize; SLOTS], a: usize, b: usize) {
    let (a, b) = (a % SLOTS, b % SLOTS);
    let (x, y) = (v[a], v[b]);
    v[a] = x.min(y);
    v[b] = x.max(y);
}

/// Sorts `v[..9]`: the optimal 9-input network (25 compare-exchanges,
/// depth 7) from Bert Dobbelaere's list, as in `core::slice::sort`.
#[inline(always)]
fn sort9(v: &mut [usize; SLOTS]) {
    network!(v;
        (0, 3), (1, 7), (2, 5), (4, 8), (0, 7), (2, 4),
        (3, 8), (5, 6), (0, 2), (1, 3), (4, 5), (7, 8),
        (1, 4), (3, 6), (5, 7), (0, 1), (2, 4), (3, 5),
        (6, 8), (2, 3), (4, 5), (6, 7), (1, 2), (3, 4),
        (5, 6),
    );
}

/// Sorts `v[..10]`: the optimal 10-input network (29 compare-exchanges,
/// depth 8), same source.
#[inline(always)]
fn sort10(v: &mut [usize; SLOTS]) {
    network!(v;
        (0, 8), (1, 9), (2, 7), (3, 5), (4, 6),
        (0, 2), (1, 4), (5, 8), (7, 9),
        (0, 3), (2, 4), (5, 7), (6, 9),
        (0, 1), (3, 6), (8, 9),
        (1, 5), (2, 3), (4, 8), (6, 7),
        (1, 2), (3, 5), (4, 6), (7, 8),
        (2, 3), (4, 5), (6, 7),
        (3, 4), (5, 6),
    );
}

/// Sorts `v[..12]`: the optimal 12-input network (39 compare-exchanges,
/// depth 9), same source.
#[inline(always)]
fn sort12(v: &mut [usize; SLOTS]) {
    network!(v;
        (0, 8), (1, 7), (2, 6), (3, 11), (4, 10), (5, 9),
        (0, 1), (2, 5), (3, 4), (6, 9), (7, 8), (10, 11),
        (0, 2), (1, 6), (5, 10), (9, 11),
        (0, 3), (1, 2), (4, 6), (5, 7), (8, 11), (9, 10),
        (1, 4), (3, 5), (6, 8), (7, 10),
        (1, 3), (2, 5), (6, 9), (8, 10),
        (2, 3), (4, 5), (6, 7), (8, 9),
        (4, 6), (5, 7),
        (3, 4), (5, 6), (7, 8),
    );
}

/// Sorts `v[..13]`: the optimal 13-input network (45 compare-exchanges,
/// depth 10), same source.
#[inline(always)]
fn sort13(v: &mut [usize; SLOTS]) {
    network!(v;
        (0, 12), (1, 10), (2, 9), (3, 7), (5, 11), (6, 8),
        (1, 6), (2, 3), (4, 11), (7, 9), (8, 10), (0, 4),
        (1, 2), (3, 6), (7, 8), (9, 10), (11, 12), (4, 6),
        (5, 9), (8, 11), (10, 12), (0, 5), (3, 8), (4, 7),
        (6, 11), (9, 10), (0, 1), (2, 5), (6, 9), (7, 8),
        (10, 11), (1, 3), (2, 4), (5, 6), (9, 10), (1, 2),
        (3, 4), (5, 7), (6, 8), (2, 3), (4, 5), (6, 7),
        (8, 9), (3, 4), (5, 6),
    );
}

/// Sorts `v[..16]`: Batcher's odd-even merge sort network (63
/// compare-exchanges, depth 10).
#[inline(always)]
fn sort16(v: &mut [usize; SLOTS]) {
    network!(v;
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11),
        (12, 13), (14, 15), (0, 2), (1, 3), (4, 6), (5, 7),
        (8, 10), (9, 11), (12, 14), (13, 15), (1, 2), (5, 6),
        (9, 10), (13, 14), (0, 4), (1, 5), (2, 6), (3, 7),
        (8, 12), (9, 13), (10, 14), (11, 15), (2, 4), (3, 5),
        (10, 12), (11, 13), (1, 2), (3, 4), (5, 6), (9, 10),
        (11, 12), (13, 14), (0, 8), (1, 9), (2, 10), (3, 11),
        (4, 12), (5, 13), (6, 14), (7, 15), (4, 8), (5, 9),
        (6, 10), (7, 11), (2, 4), (3, 5), (6, 8), (7, 9),
        (10, 12), (11, 13), (1, 2), (3, 4), (5, 6), (7, 8),
        (9, 10), (11, 12), (13, 14),
    );
}

/// Sorts `v[..m]` (`m <= 16`; every slot from `m` on holds `usize::MAX`,
/// so a network wider than `m` leaves them last): the narrowest network
/// that covers `m`, or for up to four entries an insertion sort (a
/// network of 25 exchanges costs more than its few mispredictions).
#[inline(always)]
fn sort_prefix(v: &mut [usize; SLOTS], m: usize) {
    match m {
        0..=4 => {
            for i in 1..m {
                let x = v[i % SLOTS];
                let mut j = i;
                while j > 0 && v[(j - 1) % SLOTS] > x {
                    v[j % SLOTS] = v[(j - 1) % SLOTS];
                    j -= 1;
                }
                v[j % SLOTS] = x;
            }
        }
        5..=9 => sort9(v),
        10 => sort10(v),
        11..=12 => sort12(v),
        13 => sort13(v),
        _ => sort16(v),
    }
}

/// Sorts `s` in increasing order if it holds at most [`SMALL_MAX`]
/// entries; returns `false` and leaves `s` as it is otherwise.
pub(crate) fn small_sort(s: &mut [usize]) -> bool {
    let n = s.len();
    if n > SMALL_MAX {
        return false;
    }
    // Up to 16 entries: one network, no merge.
    let h = if n <= 16 { n } else { n / 2 };
    let (left, right) = s.split_at_mut(h);
    let mut a = [usize::MAX; SLOTS];
    let mut b = [usize::MAX; SLOTS];
    for (slot, &x) in a.iter_mut().zip(left.iter()) {
        *slot = x;
    }
    for (slot, &x) in b.iter_mut().zip(right.iter()) {
        *slot = x;
    }
    let (la, lb) = (left.len(), right.len());
    sort_prefix(&mut a, la);
    sort_prefix(&mut b, lb);
    // The slot before each half (index `SLOTS - 1`, one below 0 in the
    // masked indices) holds 0, no entry is below it; the network never
    // reaches it (a half has at most 16 entries).
    a[SLOTS - 1] = 0;
    b[SLOTS - 1] = 0;
    // Merge from both ends at once (as the standard library's
    // `bidirectional_merge`): the front takes the smaller head, the back
    // the larger tail. Each step's index update waits for its loads and
    // compare, so one chain of `n` steps is latency-bound; two
    // independent chains of `n / 2` steps overlap. Slots past each half
    // hold `usize::MAX` and the slot before it 0, so a used-up half is
    // taken again only when the other half's next entry equals the
    // sentinel (then either gives the same value), and no step tests for
    // it. The front's `ceil(n / 2)` steps write the smallest entries in
    // order, the back's `floor(n / 2)` the largest: `n` in all.
    let (mut i, mut j) = (0usize, 0usize);
    let (mut ib, mut jb) = (la.wrapping_sub(1) % SLOTS, lb.wrapping_sub(1) % SLOTS);
    let half = n / 2;
    let (front, back) = s.split_at_mut(n - half);
    for (f, b_slot) in front.iter_mut().zip(back.iter_mut().rev()) {
        let (x, y) = (a[i % SLOTS], b[j % SLOTS]);
        let take_b = y < x;
        *f = if take_b { y } else { x };
        i += usize::from(!take_b);
        j += usize::from(take_b);
        let (xb, yb) = (a[ib % SLOTS], b[jb % SLOTS]);
        let take_a = yb < xb;
        *b_slot = if take_a { xb } else { yb };
        ib = ib.wrapping_sub(usize::from(take_a)) % SLOTS;
        jb = jb.wrapping_sub(usize::from(!take_a)) % SLOTS;
    }
    if let Some(mid) = front.get_mut(half) {
        let (x, y) = (a[i % SLOTS], b[j % SLOTS]);
        *mid = x.min(y);
    }
    true
}

// Safe code: tested natively (Miri would add minutes and check nothing
// the native run does not).
#[cfg(all(test, not(miri)))]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::{small_sort, sort10, sort12, sort13, sort16, sort9, SLOTS, SMALL_MAX};

    /// The five networks sort every 0-1 input of their width, with the
    /// slots past it holding `usize::MAX` as `small_sort` leaves them (the
    /// 0-1 principle: then they sort every input).
    #[test]
    fn networks_sort_every_zero_one_input() {
        type Network = fn(&mut [usize; SLOTS]);
        let nets: [(Network, usize); 5] = [
            (sort9, 9),
            (sort10, 10),
            (sort12, 12),
            (sort13, 13),
            (sort16, 16),
        ];
        for (net, n) in nets {
            for bits in 0u32..1 << n {
                let mut v = [usize::MAX; SLOTS];
                for (k, x) in v.iter_mut().take(n).enumerate() {
                    *x = ((bits >> k) & 1) as usize;
                }
                net(&mut v);
                assert!(v.windows(2).all(|w| w[0] <= w[1]), "{n}: {bits:b}");
            }
        }
    }

    /// Every length up to `SMALL_MAX` (one and two halves, with and without
    /// a network, insertions past it), random, sorted, reversed, with
    /// repeats and `usize::MAX` entries: the order of `sort_unstable`.
    /// Longer rows are refused untouched.
    #[test]
    fn small_sort_sorts_like_sort_unstable() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 0..=SMALL_MAX + 1 {
            for round in 0..40 {
                let mut v: Vec<usize> = (0..n)
                    .map(|i| match round % 5 {
                        0 => i,
                        1 => n - i,
                        2 => (next() % 4) as usize,
                        3 if i % 3 == 0 => usize::MAX,
                        _ => (next() % 20_000) as usize,
                    })
                    .collect();
                let before = v.clone();
                let mut want = v.clone();
                want.sort_unstable();
                let sorted = small_sort(&mut v);
                if n <= SMALL_MAX {
                    assert!(sorted);
                    assert_eq!(v, want, "{n} entries, round {round}");
                } else {
                    assert!(!sorted);
                    assert_eq!(v, before);
                }
            }
        }
    }
}
