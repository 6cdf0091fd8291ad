//! Typed errors of the runtime: each names what is wrong and where.

use core::fmt;

use crate::vocab::ValueType;

mod kernel;
pub use kernel::KernelError;

/// Which buffer of a level an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Buffer {
    /// The positions array (`pos[l]`; lo/hi pairs for loose compressed).
    Positions,
    /// The coordinates array (`crd[l]`).
    Coordinates,
    /// The values array.
    Values,
    /// The workspace (access pattern expansion) of a sparse output: its
    /// dense values, filled flags and added coordinates.
    Workspace,
}

impl fmt::Display for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Buffer::Positions => "positions",
            Buffer::Coordinates => "coordinates",
            Buffer::Values => "values",
            Buffer::Workspace => "workspace",
        })
    }
}

/// Why [`assemble`](crate::SparseTensor::assemble) refused its input.
///
/// Levels are numbered in storage order (level 0 outermost); `index` is an
/// offset into the named buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum AssembleError {
    /// The encoding type's codes do not describe a valid encoding of this
    /// rank (only possible for a hand-written `Enc`).
    InvalidEncoding {
        /// The first level (or dimension) that is wrong.
        level: usize,
    },
    /// A buffer has the wrong length.
    WrongLength {
        /// The level (for `Values`, the last level).
        level: usize,
        /// Which buffer.
        buffer: Buffer,
        /// The length the layout requires.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// Packed 2-bit coordinates (`crdWidth = 2`, [`Packed2`](crate::Packed2)):
    /// a field of the last byte past the level's coordinates is not 0.
    PackingPadding {
        /// The level.
        level: usize,
        /// The coordinate slot (counted in coordinates, not bytes) that
        /// should be 0.
        position: usize,
    },
    /// A level that stores no such buffer was given one (e.g. positions for
    /// a dense level).
    UnexpectedBuffer {
        /// The level.
        level: usize,
        /// Which buffer.
        buffer: Buffer,
    },
    /// `positions[index] > positions[index + 1]` (or, for loose compressed,
    /// `lo > hi` of the pair at `index`).
    NonMonotonePositions {
        /// The level.
        level: usize,
        /// The offset into the positions array.
        index: usize,
    },
    /// A position points past the end of the level's coordinates, or the
    /// first position is not 0.
    PositionOutOfRange {
        /// The level.
        level: usize,
        /// The offset into the positions array.
        index: usize,
        /// The position stored there.
        position: u64,
        /// The length of the coordinates array it must stay within.
        limit: usize,
    },
    /// A coordinate is not below the level size.
    CoordinateOutOfRange {
        /// The level.
        level: usize,
        /// The position of the entry.
        position: usize,
        /// The coordinate stored.
        coordinate: u64,
        /// The level size.
        size: usize,
    },
    /// Coordinates decrease within a segment of an ordered level.
    Unsorted {
        /// The level.
        level: usize,
        /// The position of the entry out of order.
        position: usize,
    },
    /// A coordinate repeats within a segment of a unique level.
    Duplicate {
        /// The level.
        level: usize,
        /// The position of the repeated entry.
        position: usize,
    },
    /// A size or count does not fit the declared index width: a level size
    /// whose coordinates `crdWidth` cannot hold, or a number of entries
    /// `posWidth` cannot hold.
    WidthOverflow {
        /// The level.
        level: usize,
        /// The buffer whose index type is too narrow.
        buffer: Buffer,
        /// The value that does not fit.
        value: u64,
        /// The largest value the width holds.
        max: u64,
    },
    /// The storage would hold more entries than `usize` can count, or a
    /// buffer of more than `isize::MAX` bytes, which no slice or
    /// allocation can be (the empty tensor of a CSR of `usize::MAX` rows).
    TooLarge {
        /// The level at which the count overflowed.
        level: usize,
    },
    /// A buffer given to [`SparseTensorOut::new`](crate::SparseTensorOut::new)
    /// cannot hold even the empty tensor of these sizes (e.g. CSR with `n`
    /// rows needs `n + 1` positions).
    Capacity {
        /// The level of the buffer (for `Values`, the last level).
        level: usize,
        /// Which buffer.
        buffer: Buffer,
        /// The length the empty tensor needs.
        needed: usize,
        /// The buffer's capacity.
        capacity: usize,
    },
    /// A level format a sparse output cannot be written in by insertion:
    /// counting (ELL) levels, a `structured[n, m]` level that is not the
    /// last level, or a `mod` level above every level whose size comes
    /// from a dimension.
    UnsupportedOutput {
        /// The level.
        level: usize,
    },
    /// A pattern tensor (an encoding with `explicitVal`) was given a
    /// non-empty values array: every entry holds the `explicitVal`, so it
    /// takes `&[]`.
    PatternValues {
        /// The number of values given.
        found: usize,
    },
    /// The encoding's `explicitVal` has another type than the tensor's
    /// element type `V` (e.g. `explicitVal = 1 : i64` with `V = f64`).
    ExplicitValueType {
        /// The `explicitVal`'s type.
        explicit: ValueType,
    },
    /// The encoding's `VALUES` code is no `explicitVal` (only possible for a
    /// hand-written `Enc`), or its `index` value exceeds this target's
    /// `usize`.
    InvalidExplicitValue,
    /// A sparse output cannot have a pattern encoding (`explicitVal`): the
    /// kernels that write outputs store values. The constructors require
    /// [`StoresValues`](crate::StoresValues), so this is a compile error
    /// for every `Enc`; only an encoding type written by hand that claims
    /// `StoresValues` reaches it at run time.
    PatternOutput,
}

impl fmt::Display for AssembleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AssembleError::InvalidEncoding { level } => {
                write!(f, "the encoding type is invalid at level {level}")
            }
            AssembleError::WrongLength { level, buffer, expected, found } => write!(
                f,
                "level {level}: {buffer} has length {found}, expected {expected}"
            ),
            AssembleError::PackingPadding { level, position } => write!(
                f,
                "level {level}: packed coordinate slot {position}, past the level's \
                 coordinates in their last byte, is not 0"
            ),
            AssembleError::UnexpectedBuffer { level, buffer } => {
                write!(f, "level {level}: this level format stores no {buffer} array")
            }
            AssembleError::NonMonotonePositions { level, index } => {
                write!(f, "level {level}: positions decrease at index {index}")
            }
            AssembleError::PositionOutOfRange { level, index, position, limit } => write!(
                f,
                "level {level}: position {position} at index {index} is outside 0..={limit}"
            ),
            AssembleError::CoordinateOutOfRange { level, position, coordinate, size } => write!(
                f,
                "level {level}: coordinate {coordinate} at position {position} is not below the level size {size}"
            ),
            AssembleError::Unsorted { level, position } => write!(
                f,
                "level {level}: coordinates are not sorted at position {position}, but the level is ordered"
            ),
            AssembleError::Duplicate { level, position } => write!(
                f,
                "level {level}: duplicate coordinate at position {position}, but the level is unique"
            ),
            AssembleError::WidthOverflow { level, buffer, value, max } => {
                let field = match buffer {
                    Buffer::Positions => "posWidth",
                    Buffer::Coordinates | Buffer::Values | Buffer::Workspace => "crdWidth",
                };
                write!(
                    f,
                    "level {level}: {value} does not fit the {buffer} width (at most {max}); \
                     the encoding needs a wider `{field}`"
                )
            }
            AssembleError::TooLarge { level } => {
                write!(
                    f,
                    "level {level}: more entries than usize counts or any buffer's memory holds"
                )
            }
            AssembleError::Capacity { level, buffer, needed, capacity } if capacity == usize::MAX => write!(
                f,
                "level {level}: could not allocate the {needed} elements of the {buffer} buffer the empty tensor needs"
            ),
            AssembleError::Capacity { level, buffer, needed, capacity } => write!(
                f,
                "level {level}: the {buffer} buffer holds {capacity} but the empty tensor needs {needed}"
            ),
            AssembleError::UnsupportedOutput { level } => write!(
                f,
                "level {level}: a sparse output cannot be written in this level format"
            ),
            AssembleError::PatternValues { found } => write!(
                f,
                "pattern tensor (explicitVal) takes no values array, but {found} values were given; pass `&[]`"
            ),
            AssembleError::ExplicitValueType { explicit } => write!(
                f,
                "the encoding's explicitVal is of type `{}` (Rust `{}`), not the tensor's element type",
                explicit.mlir_name(),
                explicit.rust_name()
            ),
            AssembleError::InvalidExplicitValue => f.write_str(
                "the encoding's explicitVal code is invalid, or its index value does not fit this target's usize",
            ),
            AssembleError::PatternOutput => f.write_str(
                "a sparse output cannot have a pattern encoding (explicitVal): outputs store their values",
            ),
        }
    }
}

/// A caller-provided output buffer was too small (for
/// [`disassemble_into`](crate::SparseTensor::disassemble_into)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CapacityError {
    /// The level of the buffer (for `Values`, the last level).
    pub level: usize,
    /// Which buffer overflowed.
    pub buffer: Buffer,
    /// The length needed.
    pub needed: usize,
    /// The length available.
    pub capacity: usize,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level {}: the {} buffer holds {} but {} are needed",
            self.level, self.buffer, self.capacity, self.needed
        )
    }
}

impl core::error::Error for AssembleError {}
impl core::error::Error for CapacityError {}
