//! Staging: a conversion whose source is not stored in the target's order
//! writes the entries into the output's own buffers as target level
//! coordinates, sorts them there and builds the levels in place (see the
//! [module docs](super) for the steps and their cost).
//!
//! Vocabulary: a *row* is one staged entry (its level coordinates across
//! the columns, and its value); a *bucket* is the set of rows with one
//! prefix of the leading dense levels (not stored: the rows are grouped by
//! bucket, and the first sparse level's positions buffer holds the bucket
//! bounds); a *column* is where level `l`'s coordinate of every row lives
//! (`coordinates[l - offset][row * stride + offset]`, as in the final
//! layout). Every index is checked (`get`): a broken invariant skips
//! work, it never panics.

use core::cmp::Ordering;

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::layout::{Layout, LevelInfo};
use crate::output::{Buffer, OutputBuffers, SparseTensorOut};
use crate::vocab::LevelFormat;

use super::engine::{first_nonunique, keeps_repeats};
use super::sort::Rows;
use super::source::Source;
use super::{ConvertError, Merge};

#[path = "stage_build.rs"]
mod build;
use build::build;

/// The decoded target and the staging geometry.
struct Plan<const LVL: usize> {
    levels: [LevelInfo; LVL],
    sizes: [usize; LVL],
    /// The first level that is not dense (stores coordinates).
    d: usize,
    /// The number of prefixes of the levels above `d`.
    buckets: usize,
    /// The first non-unique compressed or loose level (`LVL` if none).
    first_nonunique: usize,
}

impl<const LVL: usize> Plan<LVL> {
    fn info(&self, l: usize) -> Option<&LevelInfo> {
        self.levels.get(l)
    }
    fn dense(&self, l: usize) -> bool {
        self.info(l).is_some_and(|i| i.is_dense())
    }
    fn singleton(&self, l: usize) -> bool {
        self.info(l)
            .is_some_and(|i| !i.is_dense() && i.ty.format == LevelFormat::Singleton)
    }
    /// Levels where every row is an entry of its own (at and below the
    /// first non-unique level, as the insertion protocol makes them).
    fn per_row(&self, l: usize) -> bool {
        !self.dense(l) && !self.singleton(l) && l >= self.first_nonunique
    }
    /// The buffer holding level `l`'s column, its stride and offset.
    fn column(&self, l: usize) -> (usize, usize, usize) {
        match self.info(l) {
            Some(i) => (l.saturating_sub(i.offset), i.stride.max(1), i.offset),
            None => (l, 1, 0),
        }
    }
    /// Whether level `l` owns a staged buffer: levels from `d` on that are
    /// not fused into an AoS region's start.
    fn owns(&self, l: usize) -> bool {
        l >= self.d && self.info(l).is_some_and(|i| i.offset == 0)
    }
    fn size(&self, l: usize) -> usize {
        self.sizes.get(l).copied().unwrap_or(0)
    }
}

/// Level `l`'s coordinate of row `r`; `usize::MAX` past the buffer (never
/// for staged rows).
fn col<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    l: usize,
    r: usize,
) -> usize {
    let (owner, stride, offset) = plan.column(l);
    r.checked_mul(stride)
        .and_then(|i| i.checked_add(offset))
        .and_then(|i| crd.get(owner)?.as_slice().get(i))
        .map_or(usize::MAX, |c| c.as_usize())
}

/// Whether rows `a` and `b` (of one bucket) are the same entry of level
/// `m`: equal coordinates on every level `d..=m`, none of which gives
/// each row its own entry (singletons follow their parent).
fn same<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    m: usize,
    a: usize,
    b: usize,
) -> bool {
    for j in plan.d..=m {
        if plan.per_row(j) {
            return false;
        }
        if !plan.singleton(j) && col(crd, plan, j, a) != col(crd, plan, j, b) {
            return false;
        }
    }
    true
}

/// The number of entries of level `m` among rows `lo..hi` of one parent
/// entry (a sparse `m`).
fn children<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    m: usize,
    lo: usize,
    hi: usize,
) -> usize {
    if lo >= hi {
        return 0;
    }
    if plan.singleton(m) {
        return 1;
    }
    if plan.per_row(m) {
        return hi - lo;
    }
    1 + (lo + 1..hi)
        .filter(|&r| col(crd, plan, m, r - 1) != col(crd, plan, m, r))
        .count()
}

/// Calls `f` with the rows of every entry of level `target` below a parent
/// entry of level `j - 1` whose rows are `lo..hi`, in storage order (dense
/// levels give every coordinate, empty ones included). Recursion depth is
/// at most `LVL`.
fn walk<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    j: usize,
    target: usize,
    lo: usize,
    hi: usize,
    f: &mut dyn FnMut(usize, usize),
) {
    let emit = |a: usize, b: usize, f: &mut dyn FnMut(usize, usize)| {
        if j >= target {
            f(a, b);
        } else {
            walk(crd, plan, j + 1, target, a, b, f);
        }
    };
    if plan.dense(j) {
        let mut at = lo;
        for c in 0..plan.size(j) {
            let start = at;
            while at < hi && col(crd, plan, j, at) == c {
                at += 1;
            }
            emit(start, at, f);
        }
    } else if plan.singleton(j) {
        if lo < hi {
            emit(lo, hi, f);
        }
    } else if plan.per_row(j) {
        for r in lo..hi {
            emit(r, r + 1, f);
        }
    } else {
        let mut start = lo;
        for r in lo..hi {
            if r + 1 == hi || col(crd, plan, j, r) != col(crd, plan, j, r + 1) {
                emit(start, r + 1, f);
                start = r + 1;
            }
        }
    }
}

/// Rows `a` and `b` compared on the columns of levels `d..`, in level order.
fn cmp_cols<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    a: usize,
    b: usize,
) -> Ordering {
    for l in plan.d..LVL {
        match col(crd, plan, l, a).cmp(&col(crd, plan, l, b)) {
            Ordering::Equal => continue,
            other => return other,
        }
    }
    Ordering::Equal
}

/// The staged rows, for sorting: compared on the columns of levels `d..`,
/// swapped in every staged buffer and the values.
struct Staged<'o, C, V, BC, BV, const LVL: usize> {
    crd: &'o mut [BC; LVL],
    val: &'o mut BV,
    plan: &'o Plan<LVL>,
    _types: core::marker::PhantomData<fn() -> (C, V)>,
}

impl<C: Index, V, BC: Buffer<C>, BV: Buffer<V>, const LVL: usize> Rows
    for Staged<'_, C, V, BC, BV, LVL>
{
    fn cmp_rows(&self, a: usize, b: usize) -> Ordering {
        cmp_cols(self.crd, self.plan, a, b)
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        for l in self.plan.d..LVL {
            if !self.plan.owns(l) {
                continue;
            }
            let (_, stride, _) = self.plan.column(l);
            if let Some(buf) = self.crd.get_mut(l) {
                let s = buf.as_mut_slice();
                for k in 0..stride {
                    let (i, j) = (a * stride + k, b * stride + k);
                    if i < s.len() && j < s.len() {
                        s.swap(i, j);
                    }
                }
            }
        }
        let v = self.val.as_mut_slice();
        if a < v.len() && b < v.len() {
            v.swap(a, b);
        }
    }
}

/// The row-major index of the first `n` level coordinates of `lvl`.
fn linear<const LVL: usize>(
    lvl: &[usize; LVL],
    sizes: &[usize; LVL],
    from: usize,
    to: usize,
) -> usize {
    let mut at = 0usize;
    for l in from..to {
        let c = lvl.get(l).copied().unwrap_or(0);
        at = at
            .wrapping_mul(sizes.get(l).copied().unwrap_or(0))
            .wrapping_add(c);
    }
    at
}

fn capacity<T, BT: Buffer<T>>(
    buf: Option<&BT>,
    level: usize,
    buffer: Which,
    needed: usize,
) -> Result<(), ConvertError> {
    let have = buf.map_or(0, |b| b.capacity());
    if needed <= have {
        Ok(())
    } else {
        Err(ConvertError::Capacity {
            level,
            buffer,
            needed,
            capacity: have,
        })
    }
}

/// Pushes `n` copies of `x` (after a capacity check; a failing push is
/// reported anyway).
fn grow<T: Clone, BT: Buffer<T>>(
    buf: &mut BT,
    n: usize,
    x: &T,
    level: usize,
    buffer: Which,
) -> Result<(), ConvertError> {
    if buf.extend_fill(n, x.clone()) {
        Ok(())
    } else {
        Err(ConvertError::Capacity {
            level,
            buffer,
            needed: buf.len().saturating_add(n),
            capacity: buf.capacity(),
        })
    }
}

fn pos_of<P: Index>(x: usize, level: usize) -> Result<P, ConvertError> {
    P::from_usize(x).ok_or(ConvertError::PositionOverflow {
        level,
        entries: x,
        max: P::MAX,
    })
}

/// The level coordinates of staged row `r` of bucket `b`: the dense prefix
/// from the bucket number, the rest from the staged columns (for errors).
fn staged_row<C: Index, BC: Buffer<C>, const LVL: usize>(
    crd: &[BC; LVL],
    plan: &Plan<LVL>,
    b: usize,
    r: usize,
) -> [usize; LVL] {
    let mut lvl = [0usize; LVL];
    let mut rest = b;
    for l in (0..plan.d).rev() {
        let size = plan.sizes.get(l).copied().unwrap_or(1).max(1);
        if let Some(x) = lvl.get_mut(l) {
            *x = rest % size;
        }
        rest /= size;
    }
    for (l, x) in lvl.iter_mut().enumerate().skip(plan.d) {
        *x = col(crd, plan, l, r);
    }
    lvl
}

fn get_pos<P: Index, BP: Buffer<P>>(buf: &BP, i: usize) -> usize {
    buf.as_slice().get(i).map_or(0, |p| p.as_usize())
}

fn set_pos<P: Index, BP: Buffer<P>>(
    buf: &mut BP,
    i: usize,
    x: usize,
    level: usize,
) -> Result<(), ConvertError> {
    let p = pos_of::<P>(x, level)?;
    if let Some(slot) = buf.as_mut_slice().get_mut(i) {
        *slot = p;
    }
    Ok(())
}

/// Converts `src` by staging. `out` is cleared first; on error the caller
/// clears it again.
pub(crate) fn stage<V, E, B, Src, const DIM: usize, const LVL: usize>(
    src: &Src,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    Src: Source<V, DIM>,
{
    out.clear();
    let layout: Layout<DIM, LVL> = out.layout;
    let sizes = out.lvl_sizes;
    let Some(d) = layout.levels.iter().position(|i| !i.is_dense()) else {
        return all_dense(src, out, merge);
    };
    let mut buckets = 1usize;
    for l in 0..d {
        buckets = buckets
            .checked_mul(sizes.get(l).copied().unwrap_or(0))
            .ok_or(ConvertError::TooLarge { level: l })?;
    }
    let plan = Plan {
        levels: layout.levels,
        sizes,
        d,
        buckets,
        first_nonunique: first_nonunique(&layout).unwrap_or(LVL),
    };
    // A dense level below a sparse one stages its coordinates in its own
    // coordinate buffer: they must fit the width.
    for l in d..LVL {
        let size = plan.size(l);
        if plan.dense(l) && size > 0 && (size - 1) as u64 > <E::Crd as Index>::MAX {
            return Err(ConvertError::StagingWidth {
                level: l,
                size,
                max: <E::Crd as Index>::MAX,
            });
        }
    }
    if buckets == 0 {
        return Ok(());
    }
    let loose_d = plan
        .info(d)
        .is_some_and(|i| i.ty.format == LevelFormat::LooseCompressed);
    let too_large = ConvertError::TooLarge { level: d };
    let pos_need = if loose_d {
        buckets.checked_mul(2).ok_or(too_large)?
    } else {
        buckets.checked_add(1).ok_or(too_large)?
    };
    capacity(out.positions.get(d), d, Which::Positions, pos_need)?;

    // Empty every buffer: the rows and the bucket counters go in.
    for b in &mut out.positions {
        b.clear();
    }
    for b in &mut out.coordinates {
        b.clear();
    }
    out.values.clear();
    let zero_p = pos_of::<E::Pos>(0, d)?;
    let zero_c = <E::Crd as Index>::from_usize(0).ok_or(ConvertError::TooLarge { level: d })?;

    // Pass 1: count the entries of each bucket into positions[d][b + 1].
    let mut n = 0usize;
    {
        let Some(counters) = out.positions.get_mut(d) else {
            return Err(ConvertError::TooLarge { level: d });
        };
        grow(counters, buckets + 1, &zero_p, d, Which::Positions)?;
        let slots = counters.as_mut_slice();
        src.each_mapped(&layout, &mut |lvl, _| {
            let b = linear(&lvl, &sizes, 0, d);
            if let Some(slot) = slots.get_mut(b + 1) {
                let x = slot.as_usize().saturating_add(1);
                *slot = <E::Pos as Index>::from_usize(x).unwrap_or(*slot);
            }
            n = n.saturating_add(1);
        });
    }
    if n as u64 > <E::Pos as Index>::MAX {
        return Err(ConvertError::PositionOverflow {
            level: d,
            entries: n,
            max: <E::Pos as Index>::MAX,
        });
    }
    if n == 0 {
        out.clear();
        return Ok(());
    }

    // Room for the rows, then the rows themselves.
    for l in d..LVL {
        if plan.owns(l) {
            let (_, stride, _) = plan.column(l);
            let need = n
                .checked_mul(stride)
                .ok_or(ConvertError::TooLarge { level: l })?;
            capacity(out.coordinates.get(l), l, Which::Coordinates, need)?;
        }
    }
    let last = LVL - 1;
    capacity(Some(&out.values), last, Which::Values, n)?;
    for l in d..LVL {
        if plan.owns(l) {
            let (_, stride, _) = plan.column(l);
            if let Some(buf) = out.coordinates.get_mut(l) {
                grow(buf, n * stride, &zero_c, l, Which::Coordinates)?;
            }
        }
    }
    grow(&mut out.values, n, &V::default(), last, Which::Values)?;
    // Bucket starts: positions[d][b] becomes the first row of bucket b.
    if let Some(counters) = out.positions.get_mut(d) {
        let mut sum = 0usize;
        for slot in counters.as_mut_slice() {
            sum += slot.as_usize();
            *slot = pos_of::<E::Pos>(sum, d)?;
        }
    }
    // Pass 2: scatter each entry to the next free row of its bucket.
    {
        let (positions, coordinates, values) =
            (&mut out.positions, &mut out.coordinates, &mut out.values);
        let Some(starts) = positions.get_mut(d) else {
            return Err(ConvertError::TooLarge { level: d });
        };
        let starts = starts.as_mut_slice();
        let vals = values.as_mut_slice();
        // Every level's buffer as a slice, and where each level writes.
        let mut columns = coordinates.each_mut().map(|b| b.as_mut_slice());
        let places: [(usize, usize, usize); LVL] = core::array::from_fn(|l| plan.column(l));
        src.each_mapped(&layout, &mut |lvl, v| {
            let b = linear(&lvl, &sizes, 0, d);
            let Some(slot) = starts.get_mut(b) else {
                return;
            };
            let r = slot.as_usize();
            if r >= n {
                return;
            }
            *slot = <E::Pos as Index>::from_usize(r + 1).unwrap_or(*slot);
            for l in d..LVL {
                let (Some(&(owner, stride, offset)), Some(&c)) = (places.get(l), lvl.get(l)) else {
                    continue;
                };
                let c = <E::Crd as Index>::from_usize(c);
                let at = columns
                    .get_mut(owner)
                    .and_then(|col| col.get_mut(r * stride + offset));
                if let (Some(at), Some(c)) = (at, c) {
                    *at = c;
                }
            }
            if let Some(slot) = vals.get_mut(r) {
                *slot = v.clone();
            }
        });
        // Each start moved to its bucket's end: shift back by one.
        for b in (1..=buckets).rev() {
            let prev = starts.get(b - 1).copied().unwrap_or(zero_p);
            if let Some(slot) = starts.get_mut(b) {
                *slot = prev;
            }
        }
        if let Some(first) = starts.first_mut() {
            *first = zero_p;
        }
    }
    // A source that cannot repeat a coordinate has no repeats to merge.
    let keeps = keeps_repeats(&layout) || !src.may_repeat();
    build(&plan, out, merge, keeps, n)
}

/// An all-dense target: one value per coordinate, each entry added (or
/// written) at its slot.
fn all_dense<V, E, B, Src, const DIM: usize, const LVL: usize>(
    src: &Src,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    Src: Source<V, DIM>,
{
    if merge.refuses() && src.may_repeat() {
        return Err(ConvertError::Duplicate);
    }
    let layout = out.layout;
    let sizes = out.lvl_sizes;
    let mut total = 1usize;
    for (l, &n) in sizes.iter().enumerate() {
        total = total
            .checked_mul(n)
            .ok_or(ConvertError::TooLarge { level: l })?;
    }
    let last = LVL.saturating_sub(1);
    capacity(Some(&out.values), last, Which::Values, total)?;
    out.values.clear();
    grow(&mut out.values, total, &V::default(), last, Which::Values)?;
    let v = out.values.as_mut_slice();
    let mut fault = None;
    src.each_mapped(&layout, &mut |lvl, x| {
        let at = linear(&lvl, &sizes, 0, LVL);
        if let (Some(slot), None) = (v.get_mut(at), fault) {
            *slot = match merge {
                // Refused repeats were ruled out above: none can come.
                Merge::Refuse => x.clone(),
                _ => match merge.apply(core::mem::take(slot), x.clone()) {
                    Ok(sum) => sum,
                    Err(why) => {
                        fault = Some(why.error(&layout.lvl_to_dim(&lvl)));
                        V::default()
                    }
                },
            };
        }
    });
    fault.map_or(Ok(()), Err)
}
