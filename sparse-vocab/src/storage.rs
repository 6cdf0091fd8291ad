//! The storage layout of a level, written once: where its coordinates live
//! (MLIR's AoS COO regions), which positions it stores under one parent
//! entry, and whether it groups duplicate coordinates into segments.
//!
//! sparse-core's layout (what `assemble` checks and every reader uses), the
//! compiler's compile-time constants (the buffers it writes) and its kernel
//! codegen (the loops that read them) all call these functions, so they
//! cannot disagree about a buffer (MLIR keeps the same rule in one place,
//! `StorageLayout::foreachField`).
//!
//! Which buffers a level owns follows from its format
//! ([`LevelType::has_positions`], [`LevelType::has_coordinates`]) and from
//! [`coordinate_slot`]: a singleton fused into an AoS region owns none.
//!
//! Example: sorted COO `(i : compressed(nonunique), j : singleton)` stores
//! the tuples `[i0, j0, i1, j1, ...]` in level 0's coordinate buffer:
//!
//! ```
//! use sparse_vocab::{coordinate_slot, CoordinateSlot, LevelFormat, LevelProps, LevelType};
//! let coo = [
//!     LevelType::new(LevelFormat::Compressed).with(LevelProps::NONUNIQUE),
//!     LevelType::new(LevelFormat::Singleton),
//! ];
//! assert_eq!(coordinate_slot(&coo, 0), CoordinateSlot { stride: 2, offset: 0 });
//! assert_eq!(coordinate_slot(&coo, 1), CoordinateSlot { stride: 2, offset: 1 });
//! ```

use crate::{LevelFormat, LevelType};

/// Where the coordinate of a level's entry at position `p` is stored:
/// `coordinates[p * stride + offset]` of the coordinate buffer of the
/// level that starts its AoS COO region (the level itself outside AoS
/// regions, where the slot is [`CoordinateSlot::OWN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoordinateSlot {
    /// Coordinates per entry in the buffer (the region's tuple length).
    pub stride: usize,
    /// This level's place in each tuple (0 for the region's start).
    pub offset: usize,
}

impl CoordinateSlot {
    /// One coordinate per entry, in the level's own buffer.
    pub const OWN: CoordinateSlot = CoordinateSlot {
        stride: 1,
        offset: 0,
    };

    /// A singleton level fused into its region's tuples: it owns no
    /// coordinate buffer and reads the region start's.
    pub const fn is_fused(self) -> bool {
        self.offset > 0
    }
}

/// A singleton level that joins the AoS tuples of the level above it.
const fn joins_tuples(ty: LevelType) -> bool {
    matches!(ty.format, LevelFormat::Singleton) && !ty.is_soa()
}

/// MLIR's AoS COO rule: a compressed or loose compressed level followed by
/// a run of singleton levels without `soa` stores the run's coordinates as
/// one tuple per entry in its own coordinate buffer, and the singletons
/// own no buffer. `levels` are a tensor's level types, outermost first;
/// past the end, [`CoordinateSlot::OWN`].
pub const fn coordinate_slot(levels: &[LevelType], l: usize) -> CoordinateSlot {
    if l >= levels.len() {
        return CoordinateSlot::OWN;
    }
    let mut start = l;
    while start > 0 && joins_tuples(levels[start]) {
        start -= 1;
    }
    if joins_tuples(levels[start]) || !levels[start].has_positions() {
        return CoordinateSlot::OWN;
    }
    let mut end = start + 1;
    while end < levels.len() && joins_tuples(levels[end]) {
        end += 1;
    }
    CoordinateSlot {
        stride: end - start,
        offset: l - start,
    }
}

/// Which positions a level stores under one entry `p` of its parent
/// (level 0 has the single parent entry 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParentRange {
    /// Read from the level's positions buffer: `pos[k * p] .. pos[k * p +
    /// 1]`, with `k = per_parent` positions per parent entry (1 for
    /// `compressed`, whose segments follow each other; 2 for
    /// `loose_compressed`, a lo/hi pair each).
    Positions {
        /// Positions stored per parent entry.
        per_parent: usize,
    },
    /// `count` entries per parent entry: `p * count .. p * count + count`
    /// (the level size for `dense`/`batch`, `n` for `structured[n, m]`, 1
    /// for a `singleton`).
    Fixed {
        /// Entries per parent entry.
        count: usize,
    },
}

impl ParentRange {
    /// The range under parent entry `parent`, given the level's positions
    /// (`load(i)` reads `pos[i]`); `None` on overflow or where `load` does.
    pub fn resolve(
        self,
        parent: usize,
        load: impl Fn(usize) -> Option<usize>,
    ) -> Option<(usize, usize)> {
        match self {
            ParentRange::Positions { per_parent } => {
                let i = parent.checked_mul(per_parent)?;
                Some((load(i)?, load(i.checked_add(1)?)?))
            }
            ParentRange::Fixed { count } => {
                let lo = parent.checked_mul(count)?;
                Some((lo, lo.checked_add(count)?))
            }
        }
    }
}

/// The positions a level of format `format` and size `level_size` stores
/// under one parent entry (see [`ParentRange`]).
pub const fn parent_range(format: LevelFormat, level_size: usize) -> ParentRange {
    match format {
        LevelFormat::Compressed => ParentRange::Positions { per_parent: 1 },
        LevelFormat::LooseCompressed => ParentRange::Positions { per_parent: 2 },
        LevelFormat::Singleton => ParentRange::Fixed { count: 1 },
        LevelFormat::Structured { n, .. } => ParentRange::Fixed { count: n as usize },
        LevelFormat::Dense | LevelFormat::Batch => ParentRange::Fixed { count: level_size },
    }
}

/// Whether a level groups its duplicate coordinates into segments: a
/// non-unique level that is the last (a tensor with repeats means their
/// sum, so the segment's values add up) or is followed by a singleton
/// level (the start of a COO region, which hands the segment to the
/// singleton). `below` is the next level's type, `None` for the last.
/// Any other non-unique level is walked entry by entry, each entry's
/// subtree on its own.
pub const fn groups_duplicates(level: LevelType, below: Option<LevelType>) -> bool {
    let grouped = match below {
        None => true,
        Some(next) => matches!(next.format, LevelFormat::Singleton),
    };
    !level.is_unique() && grouped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LevelProps;

    const C: LevelType = LevelType::new(LevelFormat::Compressed);
    const L: LevelType = LevelType::new(LevelFormat::LooseCompressed);
    const D: LevelType = LevelType::new(LevelFormat::Dense);
    const S: LevelType = LevelType::new(LevelFormat::Singleton);

    fn slots(levels: &[LevelType]) -> [(usize, usize); 4] {
        let mut out = [(0, 0); 4];
        for (l, o) in out.iter_mut().enumerate() {
            let s = coordinate_slot(levels, l);
            *o = (s.stride, s.offset);
        }
        out
    }

    #[test]
    fn aos_regions_fuse_runs_of_singletons_below_a_positions_level() {
        let nu = C.with(LevelProps::NONUNIQUE);
        let soa = S.with(LevelProps::SOA);
        // COO 3-D: one tuple of three.
        assert_eq!(slots(&[nu, S, S]), [(3, 0), (3, 1), (3, 2), (1, 0)]);
        // Loose compressed starts a region too.
        assert_eq!(slots(&[L, S]), [(2, 0), (2, 1), (1, 0), (1, 0)]);
        // SoA singletons own their buffer and end the run.
        assert_eq!(slots(&[nu, soa, S]), [(1, 0); 4]);
        assert_eq!(slots(&[nu, S, soa]), [(2, 0), (2, 1), (1, 0), (1, 0)]);
        // A dense level starts no region; a singleton below it stays alone.
        assert_eq!(slots(&[D, S]), [(1, 0); 4]);
        // CSR: no singletons, no tuples.
        assert_eq!(slots(&[D, C]), [(1, 0); 4]);
        // A second region after the first.
        assert_eq!(slots(&[nu, S, C, S]), [(2, 0), (2, 1), (2, 0), (2, 1)]);
        // Singleton at level 0 (invalid, still total).
        assert_eq!(slots(&[S, S]), [(1, 0); 4]);
    }

    #[test]
    fn parent_ranges_per_format() {
        let pos = [0usize, 2, 3, 7];
        let load = |i: usize| pos.get(i).copied();
        let r = |f, size, p| parent_range(f, size).resolve(p, load);
        assert_eq!(r(LevelFormat::Compressed, 9, 1), Some((2, 3)));
        assert_eq!(r(LevelFormat::LooseCompressed, 9, 1), Some((3, 7)));
        assert_eq!(r(LevelFormat::LooseCompressed, 9, 2), None);
        assert_eq!(r(LevelFormat::Singleton, 9, 5), Some((5, 6)));
        assert_eq!(
            r(LevelFormat::Structured { n: 2, m: 4 }, 4, 3),
            Some((6, 8))
        );
        assert_eq!(r(LevelFormat::Dense, 4, 2), Some((8, 12)));
        assert_eq!(r(LevelFormat::Dense, 2, usize::MAX), None);
    }

    #[test]
    fn duplicates_are_grouped_last_or_above_a_singleton() {
        let nu = C.with(LevelProps::NONUNIQUE);
        assert!(groups_duplicates(nu, None));
        assert!(groups_duplicates(nu, Some(S)));
        assert!(!groups_duplicates(nu, Some(C)));
        assert!(!groups_duplicates(C, Some(S)));
        assert!(!groups_duplicates(C, None));
    }
}
