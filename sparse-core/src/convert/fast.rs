//! The specialised path for the common 2-D conversions into CSR or CSC
//! (`(dense, compressed)` under either map): CSR ↔ CSC (the transpose of
//! the storage) and COO (sorted or not, AoS or SoA, with or without
//! repeats) → CSR or CSC.
//!
//! It is the classic count-then-scatter (scipy's `csr_tocsc`, sprs'
//! `to_csc`), typed: one pass over the source counts the entries of each
//! outer coordinate into the result's positions, a prefix sum turns the
//! counts into bucket starts, a second pass scatters each entry's inner
//! coordinate and value into the result's own coordinate and value
//! buffers, and the starts are shifted back into positions. A COO source
//! then gets each bucket sorted (already sorted buckets cost one
//! comparison per entry) and repeats merged or refused, compacting in
//! place. No allocation, no memory beyond the output's buffers.
//!
//! It runs only when it gives what the general staging path (`stage.rs`)
//! or the streaming path gives (the same buffers; among repeated
//! coordinates a target keeps, the source's order, which streaming keeps
//! too and staging's heap sort does not promise), and never fails where
//! they would succeed: every buffer already has the room the staging needs
//! (`nse` coordinates and values, one position per outer coordinate plus
//! one), the entries fit `posWidth`, and the source stores values (not a
//! pattern). Otherwise [`two_level`] returns `None` and the caller takes the
//! general path, which reports exact capacity errors as before.

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::output::{Buffer, OutputBuffers, SparseTensorOut};
use crate::tensor::SparseTensor;
use crate::vocab::{LevelExpr, LevelFormat};

use super::engine::keeps_repeats;
use super::sort::{heap_sort, Rows};
use super::source::tensor_may_repeat;
use super::{ConvertError, Merge};

/// The 2-level source layouts the fast path reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `(dense, compressed)`: CSR or CSC.
    Compressed,
    /// `(compressed, singleton)`: COO, AoS or SoA.
    Coo,
}

fn kind<S: Encoding>() -> Option<Kind> {
    let (t0, t1) = (S::level_type(0)?, S::level_type(1)?);
    match (t0.format, t1.format) {
        (LevelFormat::Dense, LevelFormat::Compressed) => Some(Kind::Compressed),
        (LevelFormat::Compressed, LevelFormat::Singleton) => Some(Kind::Coo),
        _ => None,
    }
}

/// The dimensions of a 2-level map of plain dimensions.
fn dims<E: Encoding>() -> Option<(u8, u8)> {
    match (E::level_expr(0), E::level_expr(1)) {
        (LevelExpr::Dim(a), LevelExpr::Dim(b)) if a != b => Some((a, b)),
        _ => None,
    }
}

/// Calls `f(c0, c1, value)` for every stored entry of a 2-level source in
/// storage order, with its level-0 and level-1 coordinates. Monomorphised
/// per caller (no `dyn` call per entry).
#[inline(always)]
fn each<V, S: Encoding, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    kind: Kind,
    mut f: impl FnMut(usize, usize, &V),
) {
    let values = src.values();
    match kind {
        Kind::Compressed => {
            let level = src.level(1);
            let (pos, crd) = (level.positions(), level.coordinates());
            let mut lo = pos.first().map_or(0, |p| p.as_usize());
            for (i, hi) in pos.iter().skip(1).enumerate() {
                let hi = hi.as_usize();
                if let (Some(crd), Some(val)) = (crd.get(lo..hi), values.get(lo..hi)) {
                    for (c, v) in crd.iter().zip(val) {
                        f(i, c.as_usize(), v);
                    }
                }
                lo = hi;
            }
        }
        Kind::Coo => {
            let (l0, l1) = (src.level(0), src.level(1));
            let n = l0.positions().get(1).map_or(0, |p| p.as_usize());
            let (crd0, s0, o0) = (l0.coordinates(), l0.crd_stride(), l0.crd_offset());
            let (crd1, s1, o1) = (l1.coordinates(), l1.crd_stride(), l1.crd_offset());
            if s0 == 2 && s1 == 2 && o0 == 0 && o1 == 1 {
                // AoS tuples.
                for (t, v) in crd0.chunks_exact(2).zip(values).take(n) {
                    if let [a, b] = t {
                        f(a.as_usize(), b.as_usize(), v);
                    }
                }
            } else {
                for (p, v) in values.iter().enumerate().take(n) {
                    let a = crd0.get(p * s0 + o0);
                    let b = crd1.get(p * s1 + o1);
                    if let (Some(a), Some(b)) = (a, b) {
                        f(a.as_usize(), b.as_usize(), v);
                    }
                }
            }
        }
    }
}

/// One bucket's entries (coordinates and values side by side), for the
/// shared heap sort.
struct Pairs<'a, C, V> {
    crd: &'a mut [C],
    val: &'a mut [V],
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
const INSERTION_MAX: usize = 64;

/// Sorts `crd[lo..hi]` (and the values with them), stably (repeats keep
/// their source order): a straight insertion sort for short buckets — a
/// compare and two moves per displaced entry, where a binary search and a
/// rotation (two `memmove` calls per entry) cost several times more on a
/// 20-entry row — and heap sort otherwise (`O(k log k)`, no recursion),
/// for the same buckets as before, so the result is the same entry for
/// entry.
fn sort_bucket<C: Index, V>(rows: &mut Pairs<'_, C, V>, lo: usize, hi: usize) {
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

/// Appends `n` copies of `x` (the caller checked the room).
fn fill<T: Clone, BT: Buffer<T>>(buf: &mut BT, n: usize, x: &T) -> bool {
    buf.extend_fill(n, x.clone())
}

/// Pass 1 counts the entries of each bucket into `pos[b + 1]`, a prefix
/// sum makes `pos[b]` the first slot of bucket `b`, pass 2 moves each
/// entry's stored coordinate and value to the next free slot of its bucket
/// (leaving `pos[b]` at the bucket's end). `split` gives an entry's bucket
/// and stored coordinate from its source level coordinates. Returns the
/// number of entries written.
#[inline(always)]
fn count_and_scatter<V, S, P, C, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    kind: Kind,
    pos: &mut [P],
    crd: &mut [C],
    val: &mut [V],
    split: impl Fn(usize, usize) -> (usize, usize) + Copy,
) -> usize
where
    V: Clone,
    S: Encoding,
    P: Index,
    C: Index,
{
    // nnz fits P (checked by the caller): no count or cursor overflows,
    // so they convert without a test.
    each(src, kind, |c0, c1, _| {
        let (b, _) = split(c0, c1);
        if let Some(slot) = pos.get_mut(b + 1) {
            *slot = P::from_usize_wrapping(slot.as_usize() + 1);
        }
    });
    let mut sum = 0usize;
    for slot in pos.iter_mut() {
        sum += slot.as_usize();
        *slot = P::from_usize_wrapping(sum);
    }
    // One length for both: one range test per entry.
    let n = crd.len().min(val.len());
    let (Some(crd), Some(val)) = (crd.get_mut(..n), val.get_mut(..n)) else {
        return 0;
    };
    let mut written = 0usize;
    each(src, kind, |c0, c1, v| {
        let (b, c) = split(c0, c1);
        let Some(next) = pos.get_mut(b) else { return };
        let q = next.as_usize();
        if let (Some(x), Some(y)) = (crd.get_mut(q), val.get_mut(q)) {
            // A validated source coordinate is below the size the caller
            // checked fits `C`.
            let c = C::from_usize_wrapping(c);
            *x = c;
            *y = v.clone();
            *next = P::from_usize_wrapping(q + 1);
            written += 1;
        }
    });
    written
}

/// [`count_and_scatter`] for CSR ↔ CSC (a compressed source read
/// transposed), row by row, on validated input: the stored coordinate is
/// the row's, converted once per row; counts and cursors are below `nnz`,
/// which the caller checked fits `P`, so they convert without a test; and
/// the coordinate and value buffers are cut to one length, so each entry
/// costs one range test (of its cursor) where it cost two — a bucket
/// load, two stores and a bucket increment, as Eigen's and GraphBLAS'
/// transposes.
fn transpose_compressed<V, S, P, C, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    pos: &mut [P],
    crd: &mut [C],
    val: &mut [V],
) -> usize
where
    V: Clone,
    S: Encoding,
    P: Index,
    C: Index,
{
    let level = src.level(1);
    let (spos, scrd, svals) = (level.positions(), level.coordinates(), src.values());
    // Pass 1: the entries of each column, at `pos[j + 1]`.
    for j in scrd {
        if let Some(slot) = pos.get_mut(j.as_usize() + 1) {
            *slot = P::from_usize_wrapping(slot.as_usize() + 1);
        }
    }
    let mut sum = 0usize;
    for slot in pos.iter_mut() {
        sum += slot.as_usize();
        *slot = P::from_usize_wrapping(sum);
    }
    // Pass 2: each row's entries to the next free slot of their column.
    let n = crd.len().min(val.len());
    let (Some(crd), Some(val)) = (crd.get_mut(..n), val.get_mut(..n)) else {
        return 0;
    };
    let mut written = 0usize;
    let mut lo = spos.first().map_or(0, |p| p.as_usize());
    for (i, hi) in spos.iter().skip(1).enumerate() {
        let hi = hi.as_usize();
        let (Some(row), Some(vals), Some(ci)) =
            (scrd.get(lo..hi), svals.get(lo..hi), C::from_usize(i))
        else {
            lo = hi;
            continue;
        };
        for (j, v) in row.iter().zip(vals) {
            let Some(next) = pos.get_mut(j.as_usize()) else {
                continue;
            };
            let q = next.as_usize();
            // Both slices are `n` long: the compiler folds the two range
            // tests into one (and no panic path).
            if let (Some(x), Some(y)) = (crd.get_mut(q), val.get_mut(q)) {
                *x = ci;
                *y = v.clone();
                *next = P::from_usize_wrapping(q + 1);
                written += 1;
            }
        }
        lo = hi;
    }
    written
}

/// Converts a 2-level source into a `(dense, compressed)` target by
/// counting and scattering, if the pair is one this path handles and the
/// buffers have room (`None`: take the general path; `out` untouched).
pub(crate) fn two_level<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Option<Result<(), ConvertError>>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if DIM != 2 || LS != 2 || LVL != 2 || S::is_pattern() {
        return None;
    }
    let kind = kind::<S>()?;
    if E::level_type(0)?.format != LevelFormat::Dense
        || E::level_type(1)?.format != LevelFormat::Compressed
    {
        return None;
    }
    let ((s0, s1), (e0, _)) = (dims::<S>()?, dims::<E>()?);
    // Whether the target's outer level reads the source's inner one.
    let transposed = e0 == s1;
    if !transposed && e0 != s0 {
        return None;
    }
    if kind == Kind::Compressed && !transposed {
        // CSR -> CSR streams: nothing to sort.
        return None;
    }
    let nnz = src.number_of_entries();
    let buckets = *out.lvl_sizes.first()?;
    let inner = *out.lvl_sizes.get(1)?;
    // Room for the staging (exactly the result for a source without
    // repeats), positions and coordinates that fit their widths.
    let room = |cap: usize, need: Option<usize>| need.is_some_and(|n| n <= cap);
    if nnz == 0
        || buckets == 0
        || src.values().len() != nnz
        || nnz as u64 > <E::Pos as Index>::MAX
        || inner.saturating_sub(1) as u64 > <E::Crd as Index>::MAX
        || !room(out.positions.get(1)?.capacity(), buckets.checked_add(1))
        || !room(out.coordinates.get(1)?.capacity(), Some(nnz))
        || !room(out.values.capacity(), Some(nnz))
    {
        return None;
    }
    Some(scatter(src, out, merge, kind, transposed, nnz, buckets))
}

/// The conversion proper, once [`two_level`] has checked the pair and the
/// room. `out` is cleared first; on error the caller clears it again.
fn scatter<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
    kind: Kind,
    transposed: bool,
    nnz: usize,
    buckets: usize,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    // Empty, then built below (on error the caller clears `out`, which
    // makes it the empty tensor again).
    out.reset_for_build();
    let keeps = keeps_repeats(&out.layout) || !tensor_may_repeat::<S, LS>();
    let layout = out.layout;
    let (Some(zero_p), Some(zero_c)) = (
        <E::Pos as Index>::from_usize(0),
        <E::Crd as Index>::from_usize(0),
    ) else {
        return Err(ConvertError::TooLarge { level: 1 });
    };
    let (positions, coordinates, values) =
        (&mut out.positions, &mut out.coordinates, &mut out.values);
    let (Some(pos_buf), Some(crd_buf)) = (positions.get_mut(1), coordinates.get_mut(1)) else {
        return Err(ConvertError::TooLarge { level: 1 });
    };
    let full = |buffer, needed, capacity| ConvertError::Capacity {
        level: 1,
        buffer,
        needed,
        capacity,
    };
    if !fill(pos_buf, buckets + 1, &zero_p) {
        return Err(full(Which::Positions, buckets + 1, pos_buf.capacity()));
    }
    // Every coordinate and value slot is written by the scatter (checked
    // below), so what they hold before does not matter.
    if !crd_buf.extend_unspecified(nnz, zero_c) {
        return Err(full(Which::Coordinates, nnz, crd_buf.capacity()));
    }
    if !values.extend_unspecified(nnz, V::default()) {
        return Err(full(Which::Values, nnz, values.capacity()));
    }
    let (pos, crd, val) = (
        pos_buf.as_mut_slice(),
        crd_buf.as_mut_slice(),
        values.as_mut_slice(),
    );
    // Which source coordinate is the bucket, which the stored one: one
    // copy of the passes per orientation.
    let written = if transposed && kind == Kind::Compressed {
        transpose_compressed(src, pos, crd, val)
    } else if transposed {
        count_and_scatter(src, kind, pos, crd, val, |c0, c1| (c1, c0))
    } else {
        count_and_scatter(src, kind, pos, crd, val, |c0, c1| (c0, c1))
    };
    if written != nnz {
        // Only a tensor that broke its invariants gets here; the slots not
        // written may hold stale coordinates, so the output must not keep
        // them (the caller clears it).
        return Err(ConvertError::TooLarge { level: 1 });
    }
    // Each start moved to its bucket's end: shift back by one.
    for b in (1..=buckets).rev() {
        if let Some(&prev) = pos.get(b - 1) {
            if let Some(slot) = pos.get_mut(b) {
                *slot = prev;
            }
        }
    }
    if let Some(first) = pos.first_mut() {
        *first = zero_p;
    }

    // A COO source's buckets are in source order: sort each (CSR <-> CSC
    // buckets are sorted by construction, the rows being visited in order).
    if kind == Kind::Coo {
        let mut rows = Pairs {
            crd: &mut *crd,
            val: &mut *val,
        };
        let mut lo = 0usize;
        for b in 1..=buckets {
            let hi = pos.get(b).map_or(lo, |p| p.as_usize());
            let sorted = rows
                .crd
                .get(lo..hi)
                .is_some_and(|s| s.windows(2).all(|w| w.first() <= w.get(1)));
            if !sorted {
                sort_bucket(&mut rows, lo, hi);
            }
            lo = hi;
        }
    }

    // Repeats (adjacent now) merged, or refused, unless the target keeps
    // them or the source cannot have any; compacting in place.
    if !keeps {
        let mut w = 0usize;
        let mut lo = 0usize;
        for b in 1..=buckets {
            let hi = pos.get(b).map_or(lo, |p| p.as_usize());
            let start = w;
            for r in lo..hi {
                let c = crd.get(r).copied();
                if w > start && crd.get(w - 1).copied() == c {
                    let x = val.get_mut(r).map(core::mem::take).unwrap_or_default();
                    if let Some(acc) = val.get_mut(w - 1) {
                        match merge.apply(core::mem::take(acc), x) {
                            Ok(sum) => *acc = sum,
                            Err(why) => {
                                let inner = c.map_or(0, |c| c.as_usize());
                                let lvl = core::array::from_fn(|l| [b - 1, inner][l % 2]);
                                return Err(why.error(&layout.lvl_to_dim(&lvl)));
                            }
                        }
                    }
                } else {
                    if r != w {
                        if let (Some(c), Some(slot)) = (c, crd.get_mut(w)) {
                            *slot = c;
                        }
                        // `w < r`, but said so the bounds checks fold away.
                        if r < val.len() && w < val.len() {
                            val.swap(r, w);
                        }
                    }
                    w += 1;
                }
            }
            if let Some(slot) = pos.get_mut(b) {
                *slot = <E::Pos as Index>::from_usize(w).unwrap_or(*slot);
            }
            lo = hi;
        }
        crd_buf.truncate(w);
        values.truncate(w);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{sort_bucket, Pairs, INSERTION_MAX};
    use std::vec::Vec;

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
