//! Order and uniqueness of a level's coordinates, as `assemble` checks
//! them (rule 2's last item, and the lexicographic rule of COO regions):
//! neighbours compared on an ordered level, every pair within a segment on
//! a unique `nonordered` one.

use crate::encoding::Encoding;
use crate::error::AssembleError;
use crate::index::Index;
use crate::layout::{Layout, LevelInfo};
use crate::tensor::{LevelStorage, SparseTensor};

/// Order and uniqueness of a compressed, loose compressed or structured
/// level within each parent's segment.
pub(super) fn check_segment_order<P: Index, C: Index>(
    info: &LevelInfo,
    storage: &LevelStorage<'_, P, C>,
    l: usize,
    parent: usize,
    size: usize,
) -> Result<(), AssembleError> {
    let (ordered, unique) = (info.ty.is_ordered(), info.ty.is_unique());
    if !ordered && !unique {
        return Ok(());
    }
    // Coordinates are in range by now, so reads only fail on a layout bug;
    // `usize::MAX` keeps them total without hiding a real violation.
    let crd = |q: usize| info.coordinate(storage, q).unwrap_or(usize::MAX);
    for p in 0..parent {
        let Some((a, b)) = info.segment(storage, size, p) else {
            continue;
        };
        for q in a.saturating_add(1)..b {
            if ordered {
                check_adjacent(l, q, crd(q - 1), crd(q), unique)?;
            } else if (a..q).any(|r| crd(r) == crd(q)) {
                return Err(AssembleError::Duplicate {
                    level: l,
                    position: q,
                });
            }
        }
    }
    Ok(())
}

/// The rule for two neighbours of an ordered level: coordinate `x` at
/// position `q - 1` may not exceed `y` at `q`, nor equal it on a unique level.
fn check_adjacent(
    l: usize,
    q: usize,
    x: usize,
    y: usize,
    unique: bool,
) -> Result<(), AssembleError> {
    if x > y {
        return Err(AssembleError::Unsorted {
            level: l,
            position: q,
        });
    }
    if x == y && unique {
        return Err(AssembleError::Duplicate {
            level: l,
            position: q,
        });
    }
    Ok(())
}

/// Lexicographic order and uniqueness of singleton level `l` over its COO
/// region, within each segment of the region's start.
pub(super) fn check_region_order<V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    tensor: &SparseTensor<'_, V, E, DIM, LVL>,
    counts: &[usize; LVL],
    l: usize,
) -> Result<(), AssembleError> {
    let Some(info) = layout.levels.get(l) else {
        return Ok(());
    };
    let s = info.region_start;
    let region = layout.levels.get(s..=l).unwrap_or(&[]);
    let all_ordered = region.iter().all(|i| i.ty.is_ordered());
    let unique = info.ty.is_unique();
    if !all_ordered && !unique {
        return Ok(());
    }
    let (Some(start), Some(start_storage), Some(&start_size)) = (
        layout.levels.get(s),
        tensor.levels.get(s),
        tensor.lvl_sizes.get(s),
    ) else {
        return Ok(());
    };
    let parents = s
        .checked_sub(1)
        .map_or(Some(&1), |p| counts.get(p))
        .copied()
        .unwrap_or(0);
    // Levels s..=l share entry positions (singletons map one to one).
    let crd = |k: usize, q: usize| {
        layout
            .levels
            .get(k)
            .zip(tensor.levels.get(k))
            .and_then(|(i, st)| i.coordinate(st, q))
            .unwrap_or(usize::MAX)
    };
    let same = |levels: core::ops::Range<usize>, q: usize, r: usize| {
        levels.into_iter().all(|k| crd(k, q) == crd(k, r))
    };
    for p in 0..parents {
        let Some((a, b)) = start.segment(start_storage, start_size, p) else {
            continue;
        };
        for q in a.saturating_add(1)..b {
            if all_ordered {
                if !same(s..l, q - 1, q) {
                    continue;
                }
                check_adjacent(l, q, crd(l, q - 1), crd(l, q), unique)?;
            } else if (a..q).any(|r| same(s..l + 1, q, r)) {
                return Err(AssembleError::Duplicate {
                    level: l,
                    position: q,
                });
            }
        }
    }
    Ok(())
}
