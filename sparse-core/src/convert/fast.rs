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
//! place (`buckets.rs`). No allocation, no memory beyond the output's
//! buffers and a few hundred bytes of stack.
//!
//! It runs only when it gives what the general staging path (`stage.rs`)
//! or the streaming path gives (the same buffers; among repeated
//! coordinates a target keeps, the source's order in buckets of up to 64
//! entries, which streaming keeps too and staging's heap sort does not
//! promise; longer buckets are heap-sorted too), and never fails where
//! they would succeed: every buffer already has the room the staging needs
//! (`nse` coordinates and values, one position per outer coordinate plus
//! one), the entries fit `posWidth`, and the source stores values (not a
//! pattern). Otherwise [`two_level`] returns `None` and the caller takes the
//! general path, which reports exact capacity errors as before.

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::kernel::unchecked::slot;
use crate::output::{Buffer, OutputBuffers, SparseTensorOut};
use crate::tensor::SparseTensor;
use crate::vocab::{LevelExpr, LevelFormat};

use super::buckets::{settle, Settle};
use super::engine::keeps_repeats;
use super::merge::Unmerged;
use super::slots::Slots;
use super::source::tensor_may_repeat;
use super::transpose::transpose_compressed;
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

/// Appends `n` copies of `x` (the caller checked the room).
fn fill<T: Clone, BT: Buffer<T>>(buf: &mut BT, n: usize, x: &T) -> bool {
    buf.extend_fill(n, x.clone())
}

/// Pass 1 counts the entries of each bucket into `pos[b + 1]`, a prefix
/// sum makes `pos[b]` the first slot of bucket `b`, pass 2 moves each
/// entry's stored coordinate and value to the next free slot of its bucket
/// (leaving `pos[b]` at the bucket's end). `split` gives an entry's bucket
/// and stored coordinate from its source level coordinates. Returns the
/// number of entries written, `0` for a source that broke its invariants.
///
/// Pass 2's cursor load, stores and increment are unchecked, on what this
/// function checks itself: pass 1 refuses a bucket outside `pos` (so every
/// bucket index of pass 2, which visits the same entries of the same
/// source, is in range), and the entries' total is within the coordinate
/// and value buffers and fits `P` (so bucket `b`'s cursor, advanced once
/// per entry of `b`, stays below the start of bucket `b + 1`).
// Off x86-64 the passes and the slots' reserve and commit stay out of
// line: inlined into `scatter`, all their locals sat in its one frame, and
// a Cortex-M0's CSR transpose into `Fixed` buffers took 1204 B of stack
// against its 1 KiB budget (firmware `stack of transpose`).
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
fn count_and_scatter<V, S, P, C, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    kind: Kind,
    pos: &mut [P],
    crd: &mut Slots<C>,
    val: &mut Slots<V>,
    split: impl Fn(usize, usize) -> (usize, usize) + Copy,
) -> usize
where
    V: Clone,
    S: Encoding,
    P: Index,
    C: Index,
{
    // The total is at most the source's values, which the caller checked
    // fit `P`: no count or cursor overflows, so they convert without a
    // test.
    let mut outside = false;
    each(src, kind, |c0, c1, _| {
        let (b, _) = split(c0, c1);
        match pos.get_mut(b + 1) {
            Some(slot) => *slot = P::from_usize_wrapping(slot.as_usize() + 1),
            None => outside = true,
        }
    });
    let mut sum = 0usize;
    for slot in pos.iter_mut() {
        sum += slot.as_usize();
        *slot = P::from_usize_wrapping(sum);
    }
    if outside || sum > crd.len() || sum > val.len() || sum as u64 > P::MAX {
        return 0;
    }
    each(src, kind, |c0, c1, v| {
        let (b, c) = split(c0, c1);
        // SAFETY: `b + 1 < pos.len()`, checked for this entry in pass 1.
        let next = unsafe { slot(pos, b) };
        let q = next.as_usize();
        // SAFETY: `q < sum <= crd.len(), val.len()`: bucket `b`'s cursor
        // started at the entries of the buckets before it and advances
        // once per entry of `b`, as counted in pass 1.
        unsafe {
            // A validated source coordinate is below the size the caller
            // checked fits `C`.
            crd.put(q, C::from_usize_wrapping(c));
            val.put(q, v.clone());
        }
        *next = P::from_usize_wrapping(q + 1);
    });
    sum
}

/// [`count_and_scatter`] for a COO source already in the target's order
/// (row-major COO into CSR, ordered): one pass, copying the entries in
/// source order, which is their order in the result, and closing each
/// bucket when the next begins — no count pass and no cursor per bucket.
/// Leaves `pos` as the scatter does (`pos[b]` at bucket `b`'s end).
/// Returns the number of entries written (`0` for a source that broke
/// its invariants: a bucket outside `pos`, buckets out of order, more
/// entries than the buffers hold) and whether two adjacent entries had
/// the same coordinates (the only way an ordered source repeats one).
// (Out of line off x86-64: see `count_and_scatter`.)
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
fn copy_in_order<V, S, P, C, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    pos: &mut [P],
    crd: &mut Slots<C>,
    val: &mut Slots<V>,
) -> (usize, bool)
where
    V: Clone,
    S: Encoding,
    P: Index,
    C: Index,
{
    let buckets = pos.len().saturating_sub(1);
    let room = crd.len().min(val.len());
    // `q` fits `P`: the caller checked the source's entries do.
    let (mut q, mut open, mut broken, mut repeats) = (0usize, 0usize, false, false);
    let mut last = (usize::MAX, usize::MAX);
    each(src, Kind::Coo, |b, c, v| {
        if b < open || b >= buckets || q >= room {
            broken = true;
            return;
        }
        // Buckets `open..b` end here (`open` holds the entries since the
        // last close).
        while open < b {
            if let Some(end) = pos.get_mut(open) {
                *end = P::from_usize_wrapping(q);
            }
            open += 1;
        }
        repeats |= (b, c) == last;
        last = (b, c);
        // SAFETY: `q < room <= crd.len(), val.len()` (checked above).
        unsafe {
            crd.put(q, C::from_usize_wrapping(c));
            val.put(q, v.clone());
        }
        q += 1;
    });
    if broken {
        return (0, repeats);
    }
    for end in pos.iter_mut().take(buckets).skip(open) {
        *end = P::from_usize_wrapping(q);
    }
    (q, repeats)
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
    // below), so what they hold before does not matter: a `Vec` lends its
    // spare capacity, unfilled.
    let Some(mut crd) = Slots::reserve(crd_buf, nnz, zero_c) else {
        return Err(full(Which::Coordinates, nnz, crd_buf.capacity()));
    };
    let Some(mut val) = Slots::reserve(values, nnz, V::default()) else {
        return Err(full(Which::Values, nnz, values.capacity()));
    };
    let pos = pos_buf.as_mut_slice();
    // Which source coordinate is the bucket, which the stored one: one
    // copy of the passes per orientation.
    // A COO source stored in the target's order (both levels ordered)
    // needs no scatter: its entries are copied as they come.
    let in_order = kind == Kind::Coo
        && !transposed
        && (0..2).all(|l| S::level_type(l).is_some_and(|t| t.is_ordered()));
    let mut repeats = true;
    let (c, v) = (&mut crd, &mut val);
    let written = if transposed && kind == Kind::Compressed {
        transpose_compressed(src, pos, c, v)
    } else if in_order {
        let (written, seen) = copy_in_order(src, pos, c, v);
        repeats = seen;
        written
    } else if transposed {
        count_and_scatter(src, kind, pos, c, v, |c0, c1| (c1, c0))
    } else {
        count_and_scatter(src, kind, pos, c, v, |c0, c1| (c0, c1))
    };
    if written != nnz {
        // Only a tensor that broke its invariants gets here; the slots not
        // written may hold stale coordinates or nothing, so the output must
        // not keep them (spare slots stay past the length; the caller
        // clears the output).
        return Err(ConvertError::TooLarge { level: 1 });
    }
    // SAFETY: both came from `Slots::reserve` on these buffers, untouched
    // since, and the scatter wrote all `nnz` slots of each: it returns
    // `nnz` only when its entries' total is `nnz` and each entry took one
    // slot of each buffer, distinct per entry (bucket cursors never
    // overlap; the in-order copy writes slots `0..q` in turn).
    unsafe {
        crd.commit(crd_buf);
        val.commit(values);
    }
    let (crd, val) = (crd_buf.as_mut_slice(), values.as_mut_slice());
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
    // buckets are sorted by construction, the rows being visited in order);
    // repeats (adjacent then) merged, or refused, unless the target keeps
    // them or the source cannot have any; compacting in place.
    let how = Settle {
        sort: kind == Kind::Coo && !in_order,
        keeps,
        merge: &merge,
    };
    let fail = |why: Unmerged, b: usize, inner: usize| {
        let lvl = core::array::from_fn(|l| [b, inner][l % 2]);
        why.error(&layout.lvl_to_dim(&lvl))
    };
    // An ordered source copied without an adjacent repeat is the result
    // already: nothing to sort, merge or refuse.
    if !repeats {
        return Ok(());
    }
    let kept = settle(pos, crd, val, &how, &fail)?;
    crd_buf.truncate(kept);
    values.truncate(kept);
    Ok(())
}
