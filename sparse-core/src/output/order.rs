//! Putting a workspace's added coordinates in increasing order: the sort
//! inside `compress` (Gustavson's SpGEMM spends most of its time here when
//! rows are short and spread out).
//!
//! No single method is best for every row, so [`order_added`] picks one per
//! row from what the workspace knows — how many coordinates were added
//! (`n`), the range they span, and whether scratch room is at hand — by
//! comparing estimated instruction counts, as GraphBLAS' saxpy3 and faer
//! choose between a dense scan and a sort:
//!
//! - **small sort** for rows of at most 32 (`small_sort`: sorting networks
//!   and a branch-free merge, no mispredicted branch per entry) on 64-bit
//!   targets, **insertion sort** elsewhere (no branch predictor to miss,
//!   no stack to spare) and for rows of up to 48 when cheapest;
//! - **nothing** when a longer row is increasing already (banded
//!   products, whose later rows only extend the span);
//! - **flag scan** when the coordinates are dense in their range: read the
//!   filled flags from the smallest to the largest coordinate, eight at a
//!   time, and list the set ones (about one instruction per flag and six
//!   per entry);
//! - **LSD radix sort** on the coordinates' offsets from the smallest, with
//!   digits sized to the row (`2^d` buckets, `d <= 8`, as few passes as the
//!   range needs), into scratch room of `n` coordinates: linear in `n`
//!   whatever the span (short rows over 20 000 columns: two or three passes
//!   of a few instructions per entry instead of a comparison sort's
//!   mispredicted branches);
//! - **heap sort** only when no scratch room is given and the range is too
//!   sparse to scan (a fixed-capacity workspace that is nearly full).
//!
//! None of them allocates or can panic: every access is a `get`/`get_mut`
//! or an index masked into a fixed array, and the results are the same
//! (the coordinates are distinct), so the choice changes only the time.

/// Rows up to this long always take the small sort (insertion sort off
/// 64-bit targets), with no pass over them to find their range first:
/// that pass and the choice cost about 15 instructions per entry of a
/// 25-entry row, and only a row packed into a few hundred columns would
/// scan faster.
const TINY: usize = 32;
#[cfg(target_pointer_width = "64")]
const _: () = assert!(TINY <= super::small_sort::SMALL_MAX);

/// Rows longer than this are never insertion-sorted (quadratic).
const INSERTION_MAX: usize = 48;

/// The most bits one radix digit takes: 256 buckets (1 KiB of counts on
/// the stack) on 64-bit targets; 16 buckets (64 bytes) elsewhere, where
/// the stack is a microcontroller's few KiB (the firmware bounds a SpGEMM
/// kernel's stack to 640 bytes). The cost model below counts the passes
/// either width needs.
#[cfg(target_pointer_width = "64")]
const DIGIT_MAX: u32 = 8;
#[cfg(not(target_pointer_width = "64"))]
const DIGIT_MAX: u32 = 4;

/// Estimated instructions of a scan per flag (an eighth of a word's load
/// and test) and per entry found (a bit count, a store, the bookkeeping).
const SCAN_FLAG: usize = 1;
const SCAN_ENTRY: usize = 6;

/// Estimated instructions per entry of one radix pass (histogram and
/// scatter) and per bucket (clearing and the prefix sum).
const RADIX_ENTRY: usize = 13;
const RADIX_BUCKET: usize = 4;

/// Estimated instructions per element move of insertion sort (a compare,
/// a store, the loop) and per heap-sort sift step (two compares, a swap,
/// a mispredicted branch).
const INSERTION_STEP: usize = 5;
const HEAP_STEP: usize = 12;

/// How one row's coordinates are put in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// Nothing: the coordinates are increasing already.
    Sorted,
    /// At most [`TINY`] coordinates: `small_sort` on 64-bit targets,
    /// insertion sort elsewhere.
    Small,
    /// Insertion sort, in place.
    Insertion,
    /// A scan of the filled flags over `lo..=hi`.
    Scan,
    /// LSD radix sort in `passes` passes of `bits`-bit digits, through
    /// scratch room.
    Radix { passes: u32, bits: u32 },
    /// Heap sort, in place.
    Heap,
}

impl Method {
    /// Whether the method needs scratch room of the row's length.
    pub(crate) fn needs_scratch(self) -> bool {
        matches!(self, Method::Radix { .. })
    }
}

/// `log2 n + 1` (0 for 0), without `ilog2`'s panic path.
fn bit_len(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// The cheapest method for `n` coordinates spanning `span` values
/// (`max - min + 1`), by the estimates above; radix sort only when
/// `scratch` (room for `n` more coordinates is at hand).
pub(crate) fn choose(n: usize, span: usize, scratch: bool) -> Method {
    if n <= TINY {
        return Method::Small;
    }
    let scan = span
        .saturating_mul(SCAN_FLAG)
        .saturating_add(n.saturating_mul(SCAN_ENTRY));
    let mut best = (Method::Scan, scan);
    let mut consider = |m: Method, cost: usize| {
        if cost < best.1 {
            best = (m, cost);
        }
    };
    if n <= INSERTION_MAX {
        let moves = n * (n - 1) / 4;
        consider(
            Method::Insertion,
            moves * INSERTION_STEP + n * INSERTION_STEP,
        );
    }
    // Radix sort of the offsets `0..span`: `bits` bits in all.
    let bits = bit_len(span.saturating_sub(1)).max(1);
    if scratch && u32::try_from(n).is_ok() {
        let fewest = bits.div_ceil(DIGIT_MAX);
        // More passes of smaller digits pay when the row is short: two
        // more are enough to reach the cheapest.
        for passes in fewest..=fewest.saturating_add(2).min(bits) {
            let digit = bits.div_ceil(passes);
            let per_pass = n
                .saturating_mul(RADIX_ENTRY)
                .saturating_add((1usize << digit).saturating_mul(RADIX_BUCKET));
            let cost = per_pass.saturating_mul(passes as usize);
            consider(
                Method::Radix {
                    passes,
                    bits: digit,
                },
                cost,
            );
        }
    } else {
        let steps = n.saturating_mul(bit_len(n) as usize).saturating_mul(2);
        consider(Method::Heap, steps.saturating_mul(HEAP_STEP));
    }
    best.0
}

/// How one row will be ordered: the method and the coordinates' range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) method: Method,
    lo: usize,
    hi: usize,
}

/// The plan for the added coordinates `s` (see the module docs); radix
/// sort only if `scratch` (room for `s.len()` more coordinates can be had).
pub(crate) fn plan(s: &[usize], scratch: bool) -> Plan {
    let n = s.len();
    if n <= TINY {
        return Plan {
            method: Method::Small,
            lo: 0,
            hi: 0,
        };
    }
    let (mut lo, mut hi) = (usize::MAX, 0);
    // Whether the row is increasing already, in the same pass (no branch
    // per entry; the first entry is not below 0).
    let (mut descents, mut prev) = (0usize, 0usize);
    for &j in s.iter() {
        lo = lo.min(j);
        hi = hi.max(j);
        descents += usize::from(j < prev);
        prev = j;
    }
    let span = hi.saturating_sub(lo).saturating_add(1);
    let method = if descents == 0 {
        Method::Sorted
    } else {
        choose(n, span, scratch)
    };
    Plan { method, lo, hi }
}

/// Puts `s` in increasing order by `plan` (made for this `s`). `filled`
/// must flag exactly the coordinates in `s` (the workspace's invariant; if
/// it does not, the coordinates are sorted as they are, never read out of
/// range). `scratch` is room the radix sort may overwrite, at least
/// `s.len()` long (else the plan's radix sort becomes a comparison sort).
pub(crate) fn apply(plan: Plan, s: &mut [usize], scratch: &mut [usize], filled: &[bool]) {
    let Plan { method, lo, hi } = plan;
    match (method, scratch.get_mut(..s.len())) {
        (Method::Sorted, _) => {}
        (Method::Small, _) => small(s),
        (Method::Insertion, _) => insertion_sort(s),
        (Method::Scan, _) => {
            if !scan(s, filled, lo, hi) {
                sort_added(s);
            }
        }
        (Method::Radix { passes, bits }, Some(room)) => radix_sort(s, room, lo, passes, bits),
        _ => sort_added(s),
    }
}

/// [`plan`] and [`apply`] in one: `scratch` if at least `s.len()` long
/// (the tests' entry point).
#[cfg(test)]
pub(crate) fn order_added(s: &mut [usize], scratch: &mut [usize], filled: &[bool]) {
    let p = plan(s, scratch.len() >= s.len());
    apply(p, s, scratch, filled);
}

/// Lists the set flags of `filled[lo..=hi]` into `s` in order. Returns
/// `false` if they are not exactly `s.len()` many (a broken workspace
/// invariant; `s` then holds some of the flagged coordinates, and the
/// caller sorts whatever it holds).
///
/// Eight flags at a time: the eight bytes are packed into one word (a
/// single load), a word of unset flags costs a compare, and each set flag
/// a trailing-zeros count and a store — about one instruction per flag
/// plus six per entry, where a flag-by-flag loop costs ten per flag.
fn scan(s: &mut [usize], filled: &[bool], lo: usize, hi: usize) -> bool {
    let Some(flags) = filled.get(lo..=hi) else {
        return false;
    };
    let mut k = 0;
    let mut base = lo;
    let mut push = |j: usize| {
        if let Some(slot) = s.get_mut(k) {
            *slot = j;
        }
        k += 1;
    };
    let mut words = flags.chunks_exact(8);
    for chunk in &mut words {
        let mut bytes = [0u8; 8];
        for (b, &f) in bytes.iter_mut().zip(chunk) {
            *b = u8::from(f);
        }
        let mut w = u64::from_le_bytes(bytes);
        while w != 0 {
            // The lowest set byte's index: its flag is the next entry.
            push(base + (w.trailing_zeros() / 8) as usize);
            w &= w - 1;
        }
        base += 8;
    }
    for (j, &f) in words.remainder().iter().enumerate() {
        if f {
            push(base + j);
        }
    }
    k == s.len()
}

/// LSD radix sort of `s` by the offsets `j - lo` (all below `2^(passes *
/// bits)`), `bits <= 8`, ping-ponging through `tmp` (`s.len()` long); the
/// result ends in `s`. Stable per pass, so the order is exact.
fn radix_sort(s: &mut [usize], tmp: &mut [usize], lo: usize, passes: u32, bits: u32) {
    let mask = (1usize << bits.min(DIGIT_MAX)) - 1;
    let mut counts = [0u32; 1 << DIGIT_MAX];
    let mut in_s = true;
    for pass in 0..passes {
        let shift = pass.saturating_mul(bits);
        let (src, dst): (&[usize], &mut [usize]) = if in_s {
            (&*s, &mut *tmp)
        } else {
            (&*tmp, &mut *s)
        };
        radix_pass(src, dst, lo, shift, mask, &mut counts);
        in_s = !in_s;
    }
    if !in_s {
        for (d, &x) in s.iter_mut().zip(tmp.iter()) {
            *d = x;
        }
    }
}

/// One stable counting pass: `dst` gets `src` ordered by digit
/// `((j - lo) >> shift) & mask`.
fn radix_pass(
    src: &[usize],
    dst: &mut [usize],
    lo: usize,
    shift: u32,
    mask: usize,
    counts: &mut [u32; 1 << DIGIT_MAX],
) {
    // `& (len - 1)` after `& mask` (mask < len, a power of two): the index
    // is provably in range.
    const LAST: usize = (1 << DIGIT_MAX) - 1;
    let digit = |j: usize| (j.wrapping_sub(lo).wrapping_shr(shift) & mask) & LAST;
    let buckets = counts.get_mut(..=mask).unwrap_or_default();
    buckets.fill(0);
    for &j in src {
        let d = digit(j);
        counts[d] = counts[d].wrapping_add(1);
    }
    let mut sum = 0u32;
    for c in counts.iter_mut().take(mask + 1) {
        let here = *c;
        *c = sum;
        sum = sum.wrapping_add(here);
    }
    for &j in src {
        let d = digit(j);
        let at = counts[d];
        counts[d] = at.wrapping_add(1);
        if let Some(slot) = dst.get_mut(at as usize) {
            *slot = j;
        }
    }
}

/// Sorts a row of at most [`TINY`] coordinates.
#[cfg(target_pointer_width = "64")]
fn small(s: &mut [usize]) {
    if !super::small_sort::small_sort(s) {
        sort_added(s);
    }
}

/// Sorts a row of at most [`TINY`] coordinates.
#[cfg(not(target_pointer_width = "64"))]
fn small(s: &mut [usize]) {
    insertion_sort(s);
}

/// Sorts the workspace's added coordinates in increasing order, in place,
/// with no panic path (`sort_unstable` links `core::slice::sort`'s
/// `panic_on_ord_violation`, which `scripts/kernel-asm-check.sh` rejects):
/// every access is a `get`/`get_mut`, whose `None` arms are unreachable.
/// The coordinates are distinct, so the result is the one of any sort.
pub(crate) fn sort_added(s: &mut [usize]) {
    if s.len() <= INSERTION_MAX {
        insertion_sort(s);
    } else {
        heap_sort(s);
    }
}

fn insertion_sort(s: &mut [usize]) {
    for i in 1..s.len() {
        // `head` ends at `i`, so every index below is provably in range
        // and the inner loop is a load, a compare, a store.
        let Some(head) = s.get_mut(..=i) else { return };
        let Some(&x) = head.last() else { return };
        let mut j = head.len() - 1;
        while j > 0 {
            let Some(&y) = head.get(j - 1) else {
                break;
            };
            if y <= x {
                break;
            }
            if let Some(slot) = head.get_mut(j) {
                *slot = y;
            }
            j -= 1;
        }
        if let Some(slot) = head.get_mut(j) {
            *slot = x;
        }
    }
}

/// Swaps `s[a]` and `s[b]` (nothing if either is out of range).
fn swap(s: &mut [usize], a: usize, b: usize) {
    if let (Some(&x), Some(&y)) = (s.get(a), s.get(b)) {
        if let Some(slot) = s.get_mut(a) {
            *slot = y;
        }
        if let Some(slot) = s.get_mut(b) {
            *slot = x;
        }
    }
}

/// Moves `s[k]` down the max-heap `s[..end]` (children `2k+1`, `2k+2`).
fn sift_down(s: &mut [usize], mut k: usize, end: usize) {
    loop {
        let left = match k.checked_mul(2).and_then(|c| c.checked_add(1)) {
            Some(c) if c < end => c,
            _ => return,
        };
        let right = left + 1;
        let (Some(&l), Some(&at)) = (s.get(left), s.get(k)) else {
            return;
        };
        let (big, v) = match s.get(right) {
            Some(&r) if right < end && r > l => (right, r),
            _ => (left, l),
        };
        if v <= at {
            return;
        }
        swap(s, k, big);
        k = big;
    }
}

fn heap_sort(s: &mut [usize]) {
    let n = s.len();
    for k in (0..n / 2).rev() {
        sift_down(s, k, n);
    }
    for end in (1..n).rev() {
        swap(s, 0, end);
        sift_down(s, 0, end);
    }
}

// Safe code (every access a `get`): Miri would add minutes to the suite
// and check nothing the native run does not. The sorts are tested natively
// (8-bit digits) and by the firmware's SpGEMM checks on Cortex-M (4-bit).
#[cfg(all(test, not(miri)))]
#[path = "order_tests.rs"]
mod tests;
