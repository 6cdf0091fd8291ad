//! The last step of the count-and-scatter conversions (`fast.rs`): after
//! the scatter each bucket (a row of the CSR or CSC result) holds its
//! entries in source order; this puts each bucket in coordinate order and
//! merges repeated coordinates (or refuses them), compacting the buckets
//! to the front of the buffers and rewriting the positions.
//!
//! A bucket of an unordered COO source is short and shuffled (the n = 2 000,
//! 20-per-row bench matrix: 20 entries spread over 2 000 columns). An
//! insertion sort of such a bucket moves about `k²/4` entries and
//! mispredicts about once per entry; a second counting pass (Eigen's
//! `setFromTriplets` scatters by column, then transposes by row) needs a
//! second buffer of `nnz` entries, which the output does not have. So on
//! 64-bit targets a bucket of at most 64 entries is sorted as packed keys
//! — its coordinate times 64 plus its place in the bucket, so equal
//! coordinates stay in source order — by the branch-free sorting networks
//! of `output/small_sort.rs` in a stack array (two halves of at most 32
//! merged without a branch when it is longer than 32), and written back in
//! that order with each value moved from a stack copy of the bucket's
//! values, repeats merged on the way: one pass, no bucket sorted twice.
//! A bucket whose coordinates fill at least half of their window (a banded
//! or clustered row) is written in order from a bitmap of that window instead of
//! by the networks: a bit per coordinate of the window (`write_window`).
//! Scratch: 2 × 64 keys and 64 values on the stack (made once per
//! conversion), nothing else. Longer buckets (heap sort), and 32-bit
//! targets (straight insertion sort up to 64 entries: no branch predictor
//! to miss, little stack), sort the coordinate and value buffers in place.

use crate::index::Index;

use super::sort::{heap_sort, Rows};
use super::{ConvertError, Merge};

/// One bucket's entries (coordinates and values side by side), for the
/// shared heap sort.
pub(super) struct Pairs<'a, C, V> {
    pub(super) crd: &'a mut [C],
    pub(super) val: &'a mut [V],
}

impl<C: Index, V> Rows for Pairs<'_, C, V> {
    fn cmp_rows(&self, a: usize, b: usize) -> core::cmp::Ordering {
        self.crd.get(a).cmp(&self.crd.get(b))
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        if a < self.crd.len() && b < self.crd.len() && a < self.val.len() && b < self.val.len() {
            self.crd.swap(a, b);
            self.val.swap(a, b);
        }
    }
}

/// Buckets up to this long are insertion-sorted.
pub(super) const INSERTION_MAX: usize = 64;

/// Sorts `crd[lo..hi]` (and the values with them), stably (repeats keep
/// their source order): a straight insertion sort for short buckets — a
/// compare and two moves per displaced entry, where a binary search and a
/// rotation (two `memmove` calls per entry) cost several times more on a
/// 20-entry row — and heap sort otherwise (`O(k log k)`, no recursion).
pub(super) fn sort_bucket<C: Index, V>(rows: &mut Pairs<'_, C, V>, lo: usize, hi: usize) {
    if hi.saturating_sub(lo) > INSERTION_MAX {
        heap_sort(rows, lo, hi);
        return;
    }
    let (Some(crd), Some(val)) = (rows.crd.get_mut(lo..hi), rows.val.get_mut(lo..hi)) else {
        return;
    };
    let n = crd.len().min(val.len());
    for i in 1..n {
        // `i < n`, so every access below is in range of both slices; each
        // is a `get`, whose `None` arm is unreachable (no panic path).
        let (Some(c), Some(v)) = (crd.get_mut(..=i), val.get_mut(..=i)) else {
            return;
        };
        let Some(&key) = c.last() else {
            return;
        };
        let mut j = i;
        // Strictly greater: an equal key stays behind (stable).
        while j > 0 {
            let Some(&prev) = c.get(j - 1) else {
                break;
            };
            if prev <= key {
                break;
            }
            if let Some(slot) = c.get_mut(j) {
                *slot = prev;
            }
            if let Some([a, b]) = v.get_mut(j - 1..=j) {
                core::mem::swap(a, b);
            }
            j -= 1;
        }
        if let Some(slot) = c.get_mut(j) {
            *slot = key;
        }
    }
}

/// What [`settle`] needs to know about the conversion.
pub(super) struct Settle<'m, V> {
    /// Whether buckets may be out of order (a COO source).
    pub(super) sort: bool,
    /// Whether repeated coordinates stay separate entries.
    pub(super) keeps: bool,
    /// How repeats are merged (or refused) otherwise.
    pub(super) merge: &'m Merge<V>,
}

/// Sorts every bucket `pos[b]..pos[b + 1]` (when `how.sort`), merges its
/// repeats (unless `how.keeps`) and compacts the buckets to the front of
/// `crd` and `val`, rewriting `pos`. Returns the number of entries kept.
/// `fail(why, b, c)` makes the error of an unmergeable repeat.
pub(super) fn settle<P, C, V>(
    pos: &mut [P],
    crd: &mut [C],
    val: &mut [V],
    how: &Settle<'_, V>,
    fail: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
) -> Result<usize, ConvertError>
where
    P: Index,
    C: Index,
    V: Clone + Default,
{
    if !how.sort && how.keeps {
        return Ok(crd.len().min(val.len()));
    }
    let mut stack = Stack::<V>::new();
    let mut w = 0usize;
    let mut lo = 0usize;
    for b in 1..pos.len() {
        let hi = pos.get(b).map_or(lo, |p| p.as_usize());
        let sorted = !how.sort
            || crd
                .get(lo..hi)
                .is_some_and(|s| s.windows(2).all(|w| w.first() <= w.get(1)));
        let done = !sorted && stack.sort_into(crd, val, lo, hi, &mut w, how, b, fail)?;
        if !done {
            if !sorted {
                sort_bucket(&mut Pairs { crd, val }, lo, hi);
            }
            compact(crd, val, lo, hi, &mut w, how, b, fail)?;
        }
        if let Some(slot) = pos.get_mut(b) {
            *slot = P::from_usize(w).unwrap_or(*slot);
        }
        lo = hi;
    }
    Ok(w)
}

/// Moves the sorted bucket `lo..hi` to `w..`, merging repeats unless the
/// target keeps them (`w <= lo`: the buckets before it were compacted).
#[allow(clippy::too_many_arguments)]
fn compact<C: Index, V: Default>(
    crd: &mut [C],
    val: &mut [V],
    lo: usize,
    hi: usize,
    w: &mut usize,
    how: &Settle<'_, V>,
    b: usize,
    fail: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
) -> Result<(), ConvertError> {
    let start = *w;
    for r in lo..hi {
        let c = crd.get(r).copied();
        if !how.keeps && *w > start && crd.get(*w - 1).copied() == c {
            let x = val.get_mut(r).map(core::mem::take).unwrap_or_default();
            if let Some(acc) = val.get_mut(*w - 1) {
                match how.merge.apply(core::mem::take(acc), x) {
                    Ok(sum) => *acc = sum,
                    Err(why) => return Err(fail(why, b - 1, c.map_or(0, |c| c.as_usize()))),
                }
            }
        } else {
            if r != *w {
                if let (Some(c), Some(slot)) = (c, crd.get_mut(*w)) {
                    *slot = c;
                }
                // `w < r`, but said so the bounds checks fold away.
                if r < val.len() && *w < val.len() {
                    val.swap(r, *w);
                }
            }
            *w += 1;
        }
    }
    Ok(())
}

/// The stack scratch of the network sort: none on 32-bit targets.
#[cfg(not(target_pointer_width = "64"))]
struct Stack<V>(core::marker::PhantomData<V>);

#[cfg(not(target_pointer_width = "64"))]
impl<V> Stack<V> {
    fn new() -> Self {
        Stack(core::marker::PhantomData)
    }
    /// Never sorts: the caller's insertion or heap sort does.
    #[allow(clippy::too_many_arguments, clippy::unnecessary_wraps)]
    fn sort_into<C>(
        &mut self,
        _: &mut [C],
        _: &mut [V],
        _: usize,
        _: usize,
        _: &mut usize,
        _: &Settle<'_, V>,
        _: usize,
        _: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
    ) -> Result<bool, ConvertError> {
        Ok(false)
    }
}

#[cfg(target_pointer_width = "64")]
use crate::output::small_sort::{small_sort, SMALL_MAX};

/// The longest bucket sorted by packed keys: two halves of at most
/// [`SMALL_MAX`], each sorted by the networks, merged without a branch.
#[cfg(target_pointer_width = "64")]
const BUCKET_MAX: usize = 2 * SMALL_MAX;

/// Bits of a packed key that hold the entry's place in its bucket.
#[cfg(target_pointer_width = "64")]
const PLACE_BITS: u32 = BUCKET_MAX.trailing_zeros();

#[cfg(target_pointer_width = "64")]
const _: () = assert!(BUCKET_MAX == 1 << PLACE_BITS);

/// The stack scratch of the bucket sort: a bucket's packed keys and its
/// values.
#[cfg(target_pointer_width = "64")]
struct Stack<V> {
    keys: [usize; BUCKET_MAX],
    merged: [usize; BUCKET_MAX],
    vals: [V; BUCKET_MAX],
}

#[cfg(target_pointer_width = "64")]
impl<V: Default> Stack<V> {
    fn new() -> Self {
        Stack {
            keys: [0; BUCKET_MAX],
            merged: [0; BUCKET_MAX],
            vals: core::array::from_fn(|_| V::default()),
        }
    }

    /// Sorts the bucket `lo..hi` by packed keys and writes it, repeats
    /// merged unless kept, to `w..` (`w <= lo`). `Ok(false)`, nothing
    /// touched: the bucket is too long, or a coordinate too large to
    /// pack; the caller sorts it its own way.
    #[allow(clippy::too_many_arguments)]
    fn sort_into<C: Index>(
        &mut self,
        crd: &mut [C],
        val: &mut [V],
        lo: usize,
        hi: usize,
        w: &mut usize,
        how: &Settle<'_, V>,
        b: usize,
        fail: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
    ) -> Result<bool, ConvertError> {
        let (Some(c), Some(v)) = (crd.get(lo..hi), val.get_mut(lo..hi)) else {
            return Ok(false);
        };
        let k = c.len();
        if k > BUCKET_MAX || k != v.len() {
            return Ok(false);
        }
        if let Some(low) = window(c) {
            if self.write_window(crd, val, lo, hi, low, w, how, b, fail)? {
                return Ok(true);
            }
        }
        let (Some(c), Some(v)) = (crd.get(lo..hi), val.get_mut(lo..hi)) else {
            return Ok(false);
        };
        let mut fits = true;
        for ((t, key), c) in self.keys.iter_mut().enumerate().zip(c) {
            let c = c.as_usize();
            fits &= c <= usize::MAX >> (PLACE_BITS + 1);
            *key = (c << PLACE_BITS) | t;
        }
        if !fits {
            return Ok(false);
        }
        for (slot, x) in self.vals.iter_mut().zip(v.iter_mut()) {
            *slot = core::mem::take(x);
        }
        let order = match k {
            ..=SMALL_MAX => {
                let keys = self.keys.get_mut(..k).unwrap_or_default();
                small_sort(keys);
                &*keys
            }
            _ => merge_halves(&mut self.keys, &mut self.merged, k),
        };
        write_back(order, &mut self.vals, crd, val, w, how, b, fail)?;
        Ok(true)
    }

    /// Writes the bucket `lo..hi`, whose coordinates all lie in the
    /// window of [`BUCKET_MAX`] from `low` (see [`window`]), to `w..` in
    /// coordinate order by
    /// marking each coordinate's bit in one word and moving its value to
    /// the coordinate's slot of the stack window, then reading the word's
    /// bits upwards. Repeats are merged in source order, as the sorted path
    /// merges them. `Ok(false)`, nothing touched: a coordinate repeats and
    /// the target keeps repeats (the caller's stable sort keeps them in
    /// source order).
    ///
    /// A banded or clustered row — a stencil's 33 neighbours, a finite
    /// element's row — fills most of its window: a few instructions per
    /// entry, where the networks cost about 34 on 33 entries.
    #[allow(clippy::too_many_arguments)]
    fn write_window<C: Index>(
        &mut self,
        crd: &mut [C],
        val: &mut [V],
        lo: usize,
        hi: usize,
        low: usize,
        w: &mut usize,
        how: &Settle<'_, V>,
        b: usize,
        fail: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
    ) -> Result<bool, ConvertError> {
        let (Some(c), Some(v)) = (crd.get(lo..hi), val.get_mut(lo..hi)) else {
            return Ok(false);
        };
        // Offsets are below `window <= BUCKET_MAX = 64`; the `%` says so to
        // the compiler (a mask: no bounds check, no shift overflow).
        let offset = |c: &C| c.as_usize().wrapping_sub(low) % BUCKET_MAX;
        let (mut bits, mut repeats) = (0u64, false);
        for c in c {
            let bit = 1u64 << offset(c);
            repeats |= bits & bit != 0;
            bits |= bit;
        }
        if repeats && how.keeps {
            return Ok(false);
        }
        if repeats {
            let mut seen = 0u64;
            for (c, x) in c.iter().zip(v.iter_mut()) {
                let (o, x) = (offset(c), core::mem::take(x));
                let slot = &mut self.vals[o];
                if seen & (1u64 << o) == 0 {
                    *slot = x;
                } else {
                    match how.merge.apply(core::mem::take(slot), x) {
                        Ok(sum) => *slot = sum,
                        Err(why) => return Err(fail(why, b - 1, low + o)),
                    }
                }
                seen |= 1u64 << o;
            }
        } else {
            for (c, x) in c.iter().zip(v.iter_mut()) {
                self.vals[offset(c)] = core::mem::take(x);
            }
        }
        while bits != 0 {
            let o = bits.trailing_zeros() as usize % BUCKET_MAX;
            bits &= bits - 1;
            if let (Some(slot), Some(y)) = (crd.get_mut(*w), val.get_mut(*w)) {
                // At most the bucket's highest coordinate, which fits `C`.
                *slot = C::from_usize_wrapping(low + o);
                *y = core::mem::take(&mut self.vals[o]);
            }
            *w += 1;
        }
        Ok(true)
    }
}

/// The lowest coordinate of a bucket whose coordinates fill at least half
/// of the window they span (`high - low < 2 k`, and `< BUCKET_MAX`: one
/// bit each in a word); `None` otherwise. The first and the last entry
/// lie in the window too, so a bucket they are further apart in is refused
/// before the scan: a row spread over many columns pays two loads, not a
/// min/max pass (which does not vectorize on baseline x86-64: 9 to 16
/// instructions per entry measured).
#[cfg(target_pointer_width = "64")]
fn window<C: Index>(c: &[C]) -> Option<usize> {
    let limit = BUCKET_MAX.min(2 * c.len());
    let (&first, &last) = (c.first()?, c.last()?);
    if first.as_usize().abs_diff(last.as_usize()) >= limit {
        return None;
    }
    let (low, high) = c
        .iter()
        .fold((first, first), |(lo, hi), &c| (lo.min(c), hi.max(c)));
    (high.as_usize() - low.as_usize() < limit).then_some(low.as_usize())
}

/// Sorts `keys[..k]` (`SMALL_MAX < k <= BUCKET_MAX`) into `merged[..k]`:
/// each half by the networks, then merged, one entry per step with no
/// branch (a used-up half reads as `usize::MAX`, above every key).
#[cfg(target_pointer_width = "64")]
fn merge_halves<'m>(
    keys: &mut [usize; BUCKET_MAX],
    merged: &'m mut [usize; BUCKET_MAX],
    k: usize,
) -> &'m [usize] {
    let k = k.min(BUCKET_MAX);
    let h = k / 2;
    let (left, right) = keys.split_at_mut(h);
    small_sort(left);
    small_sort(right.get_mut(..k - h).unwrap_or_default());
    let (mut i, mut j) = (0usize, h);
    for slot in merged.iter_mut().take(k) {
        let x = if i < h {
            keys[i % BUCKET_MAX]
        } else {
            usize::MAX
        };
        let y = if j < k {
            keys[j % BUCKET_MAX]
        } else {
            usize::MAX
        };
        let take_right = y < x;
        *slot = if take_right { y } else { x };
        i += usize::from(!take_right);
        j += usize::from(take_right);
    }
    merged.get(..k).unwrap_or_default()
}

/// Writes a bucket's entries in the order of their packed keys (each a
/// coordinate and the entry's place in `vals`) to `w..`, repeats merged
/// unless the target keeps them. Slots `w..w + k` lie within the bucket's
/// old range: every bucket before it was compacted to below its start.
#[cfg(target_pointer_width = "64")]
#[allow(clippy::too_many_arguments)]
fn write_back<C: Index, V: Default>(
    order: &[usize],
    vals: &mut [V; BUCKET_MAX],
    crd: &mut [C],
    val: &mut [V],
    w: &mut usize,
    how: &Settle<'_, V>,
    b: usize,
    fail: &dyn Fn(super::merge::Unmerged, usize, usize) -> ConvertError,
) -> Result<(), ConvertError> {
    // The coordinate of the entry at `w - 1` of this bucket (none yet:
    // `usize::MAX`, above every packed coordinate).
    let mut last = usize::MAX;
    for &key in order {
        let c = key >> PLACE_BITS;
        let x = vals
            .get_mut(key % BUCKET_MAX)
            .map(core::mem::take)
            .unwrap_or_default();
        if c == last && !how.keeps {
            if let Some(acc) = w.checked_sub(1).and_then(|p| val.get_mut(p)) {
                match how.merge.apply(core::mem::take(acc), x) {
                    Ok(sum) => *acc = sum,
                    Err(why) => return Err(fail(why, b - 1, c)),
                }
            }
        } else {
            if let (Some(slot), Some(y)) = (crd.get_mut(*w), val.get_mut(*w)) {
                // Below the level size, which fits `C` (checked).
                *slot = C::from_usize_wrapping(c);
                *y = x;
            }
            *w += 1;
            last = c;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{sort_bucket, Pairs, INSERTION_MAX};
    use std::vec::Vec;

    /// `settle` over buckets whose coordinates fill their window (the
    /// bitmap path) and buckets that do not (the networks), shuffled, with
    /// repeats: coordinates in order, repeats summed in source order (or
    /// kept in source order, or refused), against a stable sort of the
    /// entries; for every bucket length up to 64 and windows narrower and
    /// wider than twice the length.
    // Safe code only (the bucket pass has no `unsafe`): it runs natively;
    // under Miri it would cost half a minute of the suite for nothing
    // Miri checks.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn settled_buckets_match_a_stable_sort() {
        use super::super::merge::{Merge, Unmerged};
        use super::super::ConvertError;
        use super::{settle, Settle};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed as usize) % m
        };
        let lens = [1usize, 2, 3, 7, 20, 32, 33, 40, 63, 64];
        let fail = |why: Unmerged, b: usize, c: usize| why.error(&[b, c]);
        for k in lens {
            for window in [1usize, 2, k, 2 * k - 1, 2 * k, 64, 1000] {
                for low in [0usize, 5, 60_000] {
                    // Two buckets: the second one shuffled over the window.
                    let first: Vec<u32> = (0..k as u32).collect();
                    let second: Vec<u32> = (0..k).map(|_| (low + next(window)) as u32).collect();
                    let crd0: Vec<u32> = first.iter().chain(&second).copied().collect();
                    let val0: Vec<i64> = (0..2 * k as i64).map(|v| v * 10 + 1).collect();
                    let pos0 = [0u32, k as u32, 2 * k as u32];
                    let mut sorted: Vec<(u32, i64)> = second
                        .iter()
                        .copied()
                        .zip(k as i64..)
                        .map(|(c, t)| (c, t * 10 + 1))
                        .collect();
                    sorted.sort_by_key(|e| e.0);
                    for keeps in [false, true] {
                        let merge = Merge::<i64>::sum();
                        let how = Settle {
                            sort: true,
                            keeps,
                            merge: &merge,
                        };
                        let (mut pos, mut crd, mut val) = (pos0, crd0.clone(), val0.clone());
                        let n =
                            settle(&mut pos, &mut crd, &mut val, &how, &fail).expect("sums fit");
                        let mut want: Vec<(u32, i64)> =
                            first.iter().copied().zip(val0.iter().copied()).collect();
                        for &(c, v) in &sorted {
                            let len = want.len();
                            match want.last_mut() {
                                Some(last) if !keeps && len > k && last.0 == c => last.1 += v,
                                _ => want.push((c, v)),
                            }
                        }
                        let got: Vec<(u32, i64)> = crd[..n]
                            .iter()
                            .copied()
                            .zip(val[..n].iter().copied())
                            .collect();
                        assert_eq!(got, want, "k {k} window {window} low {low} keeps {keeps}");
                        assert_eq!(pos, [0, k as u32, want.len() as u32]);
                    }
                    let refuse = Merge::<i64>::Refuse;
                    let how = Settle {
                        sort: true,
                        keeps: false,
                        merge: &refuse,
                    };
                    let (mut pos, mut crd, mut val) = (pos0, crd0.clone(), val0.clone());
                    let repeats = sorted.windows(2).any(|p| p[0].0 == p[1].0);
                    let got = settle(&mut pos, &mut crd, &mut val, &how, &fail);
                    assert_eq!(got.is_err(), repeats, "k {k} window {window}");
                    if let Err(e) = got {
                        assert_eq!(e, ConvertError::Duplicate);
                    }
                }
            }
        }
    }

    /// Buckets of every length up to past the insertion threshold, with
    /// many repeats: coordinates sorted; up to the threshold the values of
    /// equal coordinates in their source order (what a stable sort gives,
    /// as the binary insertion before did).
    // Exhaustive over safe code (it reaches no `unsafe`): it runs natively;
    // under Miri it cost minutes of the suite for nothing Miri checks.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn sort_bucket_sorts_and_keeps_repeats_in_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=INSERTION_MAX + 20 {
            for range in [4u32, 1000] {
                let mut crd: Vec<u32> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed % u64::from(range)) as u32
                    })
                    .collect();
                // Values number the entries in source order.
                let mut val: Vec<usize> = (0..len).collect();
                let mut want: Vec<(u32, usize)> = crd.iter().copied().zip(0..).collect();
                want.sort_by_key(|&(c, _)| c);
                // One bucket in the middle of the arrays.
                crd.splice(0..0, [7, 3]);
                val.splice(0..0, [100, 101]);
                let mut rows = Pairs {
                    crd: &mut crd,
                    val: &mut val,
                };
                sort_bucket(&mut rows, 2, 2 + len);
                assert_eq!(&crd[..2], &[7, 3]);
                let got: Vec<(u32, usize)> = crd[2..]
                    .iter()
                    .copied()
                    .zip(val[2..].iter().copied())
                    .collect();
                if len <= INSERTION_MAX {
                    assert_eq!(got, want, "{len} of {range}");
                } else {
                    let keys = |v: &[(u32, usize)]| v.iter().map(|p| p.0).collect::<Vec<_>>();
                    assert_eq!(keys(&got), keys(&want), "{len} of {range}");
                }
            }
        }
    }
}
