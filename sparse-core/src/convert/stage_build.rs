//! Building the target's levels in place from the staged rows: sort them
//! by their level coordinates, merge (or keep) repeats, then write each
//! sparse level's positions and compact its coordinates, level by level
//! (see the parent module for the vocabulary: rows, buckets, columns).

use core::cmp::Ordering;

use super::{
    capacity, children, cmp_cols, col, get_pos, grow, pos_of, same, set_pos, staged_row, walk,
    Plan, Staged,
};
use crate::convert::sort::{heap_sort, is_sorted};
use crate::convert::{ConvertError, Merge};
use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::output::{Buffer, OutputBuffers, SparseTensorOut};
use crate::vocab::LevelFormat;

/// Sorts the staged rows, merges repeats and builds the levels.
pub(super) fn build<V, E, B, const DIM: usize, const LVL: usize>(
    plan: &Plan<LVL>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
    // Whether rows with equal coordinates stay apart (the target keeps
    // repeats, or the source has none).
    keeps: bool,
    n: usize,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let d = plan.d;
    let buckets = plan.buckets;
    let last = LVL - 1;
    let (positions, coordinates, values) =
        (&mut out.positions, &mut out.coordinates, &mut out.values);
    // `_checked`: no panic path (scripts/kernel-asm-check.sh).
    let Some((upper, lower)) = positions.split_at_mut_checked(d + 1) else {
        return Err(ConvertError::TooLarge { level: d });
    };
    let Some(bounds) = upper.get_mut(d) else {
        return Err(ConvertError::TooLarge { level: d });
    };

    // Sort each bucket (already sorted buckets, as CSR -> CSC gives, cost
    // one comparison per row).
    {
        let mut rows = Staged {
            crd: coordinates,
            val: values,
            plan,
            _types: core::marker::PhantomData,
        };
        for b in 0..buckets {
            let (lo, hi) = (get_pos(bounds, b), get_pos(bounds, b + 1));
            if !is_sorted(&rows, lo, hi) {
                heap_sort(&mut rows, lo, hi);
            }
        }
    }

    // Merge repeated rows (identical coordinates) unless the target keeps
    // them, compacting every column and the values.
    let mut rows_n = n;
    if !keeps {
        let mut w = 0usize;
        let mut lo = 0usize;
        for b in 0..buckets {
            let hi = get_pos(bounds, b + 1);
            let start = w;
            for r in lo..hi {
                let repeat = w > start && cmp_cols(coordinates, plan, w - 1, r) == Ordering::Equal;
                if repeat {
                    let v = values.as_mut_slice();
                    let x = v.get_mut(r).map(core::mem::take).unwrap_or_default();
                    if let Some(acc) = v.get_mut(w - 1) {
                        match merge.apply(core::mem::take(acc), x) {
                            Ok(sum) => *acc = sum,
                            Err(why) => {
                                let lvl = staged_row(coordinates, plan, b, w - 1);
                                return Err(why.error(&out.layout.lvl_to_dim(&lvl)));
                            }
                        }
                    }
                } else {
                    move_row(coordinates, values, plan, r, w);
                    w += 1;
                }
            }
            set_pos(bounds, b + 1, w, d)?;
            lo = hi;
        }
        rows_n = w;
    }
    let n = rows_n;

    // A singleton holds one coordinate per parent entry, and a unique one
    // no repeated tuple (region start .. itself) within a segment of its
    // region's start (the rule `assemble` checks).
    for s in d..LVL {
        if !plan.singleton(s) {
            continue;
        }
        let start = plan.info(s).map_or(s, |i| i.region_start);
        let unique = plan.info(s).is_some_and(|i| i.ty.is_unique());
        for b in 0..buckets {
            let (lo, hi) = (get_pos(bounds, b), get_pos(bounds, b + 1));
            for r in lo.saturating_add(1)..hi {
                let differs =
                    |j: usize| col(coordinates, plan, j, r - 1) != col(coordinates, plan, j, r);
                let two_children = same(coordinates, plan, s - 1, r - 1, r) && differs(s);
                let repeated = unique
                    && start
                        .checked_sub(1)
                        .is_none_or(|p| same(coordinates, plan, p, r - 1, r))
                    && !(start..=s).any(differs);
                if two_children || repeated {
                    return Err(ConvertError::NotRepresentable { level: s });
                }
            }
        }
    }

    // Entries per level. Rows are distinct tuples now (or per-row entries),
    // so a sparse last level has one entry per row.
    let mut count = [0usize; LVL];
    let mut parent = 1usize;
    for l in 0..LVL {
        let c = if l < d || plan.dense(l) {
            parent
                .checked_mul(plan.size(l))
                .ok_or(ConvertError::TooLarge { level: l })?
        } else if plan.singleton(l) {
            parent
        } else if l + 1 == LVL {
            n
        } else {
            let mut groups = 0usize;
            for b in 0..buckets {
                let (lo, hi) = (get_pos(bounds, b), get_pos(bounds, b + 1));
                if lo < hi {
                    groups += 1
                        + (lo + 1..hi)
                            .filter(|&r| !same(coordinates, plan, l, r - 1, r))
                            .count();
                }
            }
            groups
        };
        if let Some(slot) = count.get_mut(l) {
            *slot = c;
        }
        parent = c;
    }

    // The result's room and widths, checked before anything is moved.
    for l in d..LVL {
        let Some(info) = plan.info(l) else { continue };
        if !info.ty.has_positions() || info.is_dense() {
            continue;
        }
        let parents = l
            .checked_sub(1)
            .map_or(1, |p| count.get(p).copied().unwrap_or(0));
        let too_large = ConvertError::TooLarge { level: l };
        let need = if info.ty.format == LevelFormat::LooseCompressed {
            parents.checked_mul(2).ok_or(too_large)?
        } else {
            parents.checked_add(1).ok_or(too_large)?
        };
        let buf = if l == d {
            Some(&*bounds)
        } else {
            lower.get(l - d - 1)
        };
        capacity(buf, l, Which::Positions, need)?;
        let entries = count.get(l).copied().unwrap_or(0);
        if entries as u64 > <E::Pos as Index>::MAX {
            return Err(ConvertError::PositionOverflow {
                level: l,
                entries,
                max: <E::Pos as Index>::MAX,
            });
        }
    }
    let m_star = (d..LVL).rev().find(|&l| !plan.dense(l)).unwrap_or(d);
    let mut block = 1usize;
    for l in m_star + 1..LVL {
        block = block
            .checked_mul(plan.size(l))
            .ok_or(ConvertError::TooLarge { level: l })?;
    }
    let val_len = count
        .get(m_star)
        .copied()
        .unwrap_or(0)
        .checked_mul(block)
        .ok_or(ConvertError::TooLarge { level: last })?;
    capacity(Some(&*values), last, Which::Values, val_len)?;

    // Values below trailing dense levels go to their slot in a zero-filled
    // block, moving backwards (a row's slot is never before the row).
    if m_star < last {
        let have = values.len();
        if have < val_len {
            grow(values, val_len - have, &V::default(), last, Which::Values)?;
        }
        let groups = count.get(m_star).copied().unwrap_or(0);
        let v = values.as_mut_slice();
        let mut next_free = val_len;
        let mut g = groups;
        let mut b = buckets - 1;
        for r in (0..n).rev() {
            // The bucket of row r, and whether row r + 1 starts another
            // entry of level m_star (then row r ends the previous one).
            while b > 0 && get_pos(bounds, b) > r {
                b -= 1;
            }
            let bucket_ends = r + 1 == get_pos(bounds, b + 1);
            let new_entry = r + 1 == n || bucket_ends || !same(coordinates, plan, m_star, r, r + 1);
            if new_entry {
                g = g.saturating_sub(1);
            }
            let mut off = 0usize;
            for l in m_star + 1..LVL {
                off = off * plan.size(l) + col(coordinates, plan, l, r);
            }
            let slot = g.saturating_mul(block).saturating_add(off);
            for x in v.iter_mut().take(next_free).skip(slot.saturating_add(1)) {
                *x = V::default();
            }
            if slot != r && slot < v.len() && r < v.len() {
                v.swap(r, slot);
            }
            next_free = slot;
        }
        for x in v.iter_mut().take(next_free) {
            *x = V::default();
        }
    }
    values.truncate(val_len);

    // Levels bottom-up: positions from the rows, then the column compacted
    // to one coordinate (tuple) per entry.
    for m in (d..LVL).rev() {
        if !plan.owns(m) || plan.dense(m) {
            continue;
        }
        let entries = count.get(m).copied().unwrap_or(0);
        let loose = plan
            .info(m)
            .is_some_and(|i| i.ty.format == LevelFormat::LooseCompressed);
        let has_positions = plan.info(m).is_some_and(|i| i.ty.has_positions());
        if m > d && has_positions {
            let Some(pos) = lower.get_mut(m - d - 1) else {
                continue;
            };
            let mut sum = 0usize;
            let mut fault = None;
            let mut push = |x: usize, pos: &mut B::Pos| match <E::Pos as Index>::from_usize(x) {
                Some(p) if pos.push(p).is_ok() => {}
                _ => {
                    fault.get_or_insert(ConvertError::PositionOverflow {
                        level: m,
                        entries: x,
                        max: <E::Pos as Index>::MAX,
                    });
                }
            };
            if !loose {
                push(0, pos);
            }
            for b in 0..buckets {
                let (lo, hi) = (get_pos(bounds, b), get_pos(bounds, b + 1));
                walk(coordinates, plan, d, m - 1, lo, hi, &mut |a, z| {
                    let k = children(coordinates, plan, m, a, z);
                    if loose {
                        push(sum, pos);
                    }
                    sum += k;
                    push(sum, pos);
                });
            }
            if let Some(f) = fault {
                return Err(f);
            }
        }
        // Compact: the first row of each entry gives its coordinates
        // (nothing moves when every row is an entry).
        let (owner, stride, _) = plan.column(m);
        if entries == n {
            if let Some(buf) = coordinates.get_mut(owner) {
                buf.truncate(n.saturating_mul(stride));
            }
            continue;
        }
        let mut e = 0usize;
        let mut lo = 0usize;
        for b in 0..buckets {
            let hi = get_pos(bounds, b + 1);
            for r in lo..hi {
                let starts = r == lo || !same(coordinates, plan, m, r - 1, r);
                if starts {
                    if let Some(buf) = coordinates.get_mut(owner) {
                        let s = buf.as_mut_slice();
                        for k in 0..stride {
                            let x = s.get(r * stride + k).copied();
                            if let (Some(x), Some(slot)) = (x, s.get_mut(e * stride + k)) {
                                *slot = x;
                            }
                        }
                    }
                    e += 1;
                }
            }
            if m == d {
                // Bucket b's entries of level d end at e: its position.
                set_pos(bounds, b + 1, e, d)?;
            }
            lo = hi;
        }
        if let Some(buf) = coordinates.get_mut(owner) {
            buf.truncate(entries.saturating_mul(stride));
        }
    }
    // The first sparse level as lo/hi pairs if it is loose (from the back:
    // pair b's slots are never before the positions b, b + 1 it reads).
    let loose_d = plan
        .info(d)
        .is_some_and(|i| i.ty.format == LevelFormat::LooseCompressed);
    if loose_d {
        let zero = pos_of::<E::Pos>(0, d)?;
        let have = bounds.len();
        if have < 2 * buckets {
            grow(bounds, 2 * buckets - have, &zero, d, Which::Positions)?;
        }
        let s = bounds.as_mut_slice();
        for b in (0..buckets).rev() {
            let (lo, hi) = (s.get(b).copied(), s.get(b + 1).copied());
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if let Some(x) = s.get_mut(2 * b + 1) {
                    *x = hi;
                }
                if let Some(x) = s.get_mut(2 * b) {
                    *x = lo;
                }
            }
        }
        bounds.truncate(2 * buckets);
    }
    // Dense levels below a sparse one staged a column they do not keep.
    for l in d..LVL {
        if plan.dense(l) {
            if let Some(buf) = coordinates.get_mut(l) {
                buf.clear();
            }
        }
    }
    Ok(())
}

/// Copies row `r` to row `w <= r` in every staged buffer and the values.
fn move_row<C: Index, V, BC: Buffer<C>, BV: Buffer<V>, const LVL: usize>(
    crd: &mut [BC; LVL],
    val: &mut BV,
    plan: &Plan<LVL>,
    r: usize,
    w: usize,
) {
    if r == w {
        return;
    }
    for l in plan.d..LVL {
        if !plan.owns(l) {
            continue;
        }
        let (_, stride, _) = plan.column(l);
        if let Some(buf) = crd.get_mut(l) {
            let s = buf.as_mut_slice();
            for k in 0..stride {
                let x = s.get(r * stride + k).copied();
                if let (Some(x), Some(slot)) = (x, s.get_mut(w * stride + k)) {
                    *slot = x;
                }
            }
        }
    }
    let v = val.as_mut_slice();
    if r < v.len() && w < v.len() {
        v.swap(r, w);
    }
}
