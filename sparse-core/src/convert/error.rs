//! The error of every conversion.

use core::fmt;

use crate::error::Buffer;
use crate::vocab::MAX_RANK;

/// The dimension coordinates of one element, as an error reports them
/// (0-based; a tensor has at most [`MAX_RANK`] dimensions).
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Coordinates {
    rank: u8,
    at: [usize; MAX_RANK],
}

impl Coordinates {
    /// The coordinates `dims` (those past [`MAX_RANK`] are dropped; no
    /// tensor has them).
    pub fn new(dims: &[usize]) -> Self {
        let mut at = [0; MAX_RANK];
        for (slot, &c) in at.iter_mut().zip(dims) {
            *slot = c;
        }
        Coordinates {
            rank: dims.len().min(MAX_RANK) as u8,
            at,
        }
    }
    /// One coordinate per dimension.
    pub fn as_slice(&self) -> &[usize] {
        self.at.get(..usize::from(self.rank)).unwrap_or(&[])
    }
}

impl fmt::Debug for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (k, c) in self.as_slice().iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{c}")?;
        }
        f.write_str(")")
    }
}

/// Why a conversion failed. The output is left empty (a valid tensor) and
/// can be reused.
///
/// Levels are the target's, numbered in storage order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConvertError {
    /// The output's dimension `dim` has another size than the source's
    /// (for a concatenation: than the inputs' sizes, summed along the
    /// concatenated dimension).
    DimensionMismatch {
        /// The dimension.
        dim: usize,
        /// The output's size.
        size: usize,
        /// The size the source requires.
        expected: usize,
    },
    /// A dense source's slice length is not the product of its dimensions
    /// (`None`: the product overflows `usize`).
    ViewLength {
        /// The slice length.
        len: usize,
        /// The product of the dimensions.
        expected: Option<usize>,
    },
    /// A concatenation along a dimension the tensors do not have.
    ConcatDimension {
        /// The dimension asked for.
        dim: usize,
        /// The tensors' rank.
        rank: usize,
    },
    /// [`reorder_coo`](super::reorder_coo) between encodings with different
    /// dim→lvl maps.
    MapMismatch,
    /// A buffer of the output is too small. `needed` is the exact length
    /// the step that failed needs in that buffer: staging (a reordering
    /// conversion first writes one slot per source entry, see the
    /// [module docs](super)) or the result.
    Capacity {
        /// The level of the buffer (for values, the last level).
        level: usize,
        /// Which buffer.
        buffer: Buffer,
        /// The length needed.
        needed: usize,
        /// The buffer's capacity.
        capacity: usize,
    },
    /// A level of the result has more entries than `posWidth` can count.
    /// (While staging, the count is taken before repeated coordinates are
    /// merged.)
    PositionOverflow {
        /// The level.
        level: usize,
        /// Its number of entries.
        entries: usize,
        /// The largest position the width holds.
        max: u64,
    },
    /// The source stores a coordinate more than once and the target cannot
    /// keep repeats: [`convert_sum`](super::convert_sum) adds them up.
    /// (Into an all-dense target from a source whose encoding admits
    /// repeats — a `nonunique` level, or loose segments, which may
    /// overlap — and is not walked in the target's order, `convert`
    /// reports this without looking: it cannot find repeats without
    /// scratch memory.)
    Duplicate,
    /// The target's storage cannot hold the source's entries: a `singleton`
    /// level holds one coordinate per parent entry, so a unique parent with
    /// two children (`(i : compressed, j : singleton)` with two entries in
    /// a row) has no layout.
    NotRepresentable {
        /// The level that cannot hold them.
        level: usize,
    },
    /// A `structured[n, m]` level of the target would hold more than `n`
    /// entries in one group of `m` coordinates: the source does not have
    /// the n:m pattern. `group` numbers the level's groups in storage
    /// order (see [`KernelError::GroupOverflow`](crate::KernelError::GroupOverflow)).
    GroupOverflow {
        /// The structured level.
        level: usize,
        /// The group, numbered in storage order.
        group: usize,
        /// The level coordinate (below `m`) of the first entry that did not
        /// fit.
        coordinate: usize,
        /// Entries a group holds (`n`).
        n: usize,
        /// Coordinates a group covers (`m`).
        m: usize,
    },
    /// The target has a `structured[n, m]` level, which a conversion
    /// writes in one pass in the target's level order, and the source is
    /// not stored in that order (nor dense): convert it first into an
    /// encoding stored in dimension order (CSR, DCSR, sorted COO) or into
    /// one with the target's map.
    StructuredOrder {
        /// The structured level of the target.
        level: usize,
    },
    /// A reordering conversion stages the coordinates of a dense level
    /// below a sparse one in that level's (otherwise unused) coordinate
    /// buffer, and its size does not fit `crdWidth`.
    StagingWidth {
        /// The dense level.
        level: usize,
        /// Its size.
        size: usize,
        /// The largest coordinate the width holds.
        max: u64,
    },
    /// A count of the result overflows `usize`.
    TooLarge {
        /// The level at which it overflowed.
        level: usize,
    },
    /// Summing the entries stored at one coordinate overflows the integer
    /// element type (two `i8` entries of 100). A conversion that sums
    /// ([`convert_sum`](super::convert_sum), [`to_dense`](super::to_dense),
    /// the file readers) never wraps: it stops here, in debug and release
    /// builds alike. (Kernels wrap, as MLIR's `arith` does.)
    SumOverflow {
        /// The element's dimension coordinates (0-based).
        at: Coordinates,
    },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ConvertError::DimensionMismatch {
                dim,
                size,
                expected,
            } => write!(
                f,
                "dimension {dim} of the output has size {size}, but the source needs {expected}"
            ),
            ConvertError::ViewLength { len, expected } => match expected {
                Some(n) => write!(
                    f,
                    "the dense source has {len} elements, but its dimensions hold {n}"
                ),
                None => write!(
                    f,
                    "the dense source's dimensions overflow usize ({len} elements given)"
                ),
            },
            ConvertError::ConcatDimension { dim, rank } => write!(
                f,
                "cannot concatenate along dimension {dim} of tensors of rank {rank}"
            ),
            ConvertError::MapMismatch => f.write_str(
                "reorder_coo needs the same dim-to-lvl map in the source and the target",
            ),
            ConvertError::Capacity {
                level,
                buffer,
                needed,
                capacity,
            } if capacity == usize::MAX => write!(
                f,
                "level {level}: could not allocate the {needed} elements the {buffer} buffer \
                 needs"
            ),
            ConvertError::Capacity {
                level,
                buffer,
                needed,
                capacity,
            } => write!(
                f,
                "level {level}: the {buffer} buffer holds {capacity} but the conversion needs {needed}"
            ),
            ConvertError::PositionOverflow {
                level,
                entries,
                max,
            } => write!(
                f,
                "level {level}: {entries} entries do not fit the positions width (at most {max}); \
                 the target needs a wider `posWidth`"
            ),
            ConvertError::Duplicate => f.write_str(
                "the source stores a coordinate more than once and the target cannot keep repeats; \
                 use convert_sum to add them up",
            ),
            ConvertError::NotRepresentable { level } => write!(
                f,
                "level {level}: a singleton level holds one coordinate per parent entry, \
                 but the source has several under one parent"
            ),
            ConvertError::StagingWidth { level, size, max } => write!(
                f,
                "level {level}: staging needs coordinates up to {} in this dense level's \
                 coordinate buffer, but crdWidth holds at most {max}",
                size.saturating_sub(1)
            ),
            ConvertError::GroupOverflow {
                level,
                group,
                coordinate,
                n,
                m,
            } => write!(
                f,
                "level {level}: group {group} (`structured[{n}, {m}]`) gets more than {n} \
                 entries (the first that does not fit is at coordinate {coordinate} of the \
                 group); the source does not have the {n}:{m} pattern"
            ),
            ConvertError::StructuredOrder { level } => write!(
                f,
                "level {level} is `structured[n, m]`, which is written in one pass in the \
                 target's order, and the source is not stored in that order; convert it first \
                 into an encoding stored in dimension order (CSR, DCSR, sorted COO)"
            ),
            ConvertError::TooLarge { level } => {
                write!(f, "level {level}: the number of entries overflows usize")
            }
            ConvertError::SumOverflow { at } => write!(
                f,
                "the entries stored at {at} (0-based) add up to more than the element type holds"
            ),
        }
    }
}

impl core::error::Error for ConvertError {}
