//! Files (feature `std`): Matrix Market (`.mtx`) and FROSTT (`.tns`), read
//! into any encoding and written from any tensor (MLIR's
//! `sparse_tensor.new` and `sparse_tensor.out`).
//!
//! Reading parses the file into a list of entries (1-based coordinates
//! checked against the sizes the file declares: zero, negative and
//! out-of-range coordinates are errors, as in MLIR's reader), then builds
//! the requested encoding from it with [`convert_sum`](crate::convert::convert_sum)
//! into an [`Owned`] output: entries repeated in a file are summed.
//! Malformed input is an [`IoError::Parse`] naming the 1-based line and
//! column of the offending token.
//!
//! | format | read | write |
//! | --- | --- | --- |
//! | Matrix Market `coordinate` | `real`/`double`, `integer`, `pattern` (every entry 1); `general`, `symmetric`, `skew-symmetric`, `hermitian` (real values: symmetric) | `coordinate real`/`integer general` (`pattern` for a tensor with an `explicitVal`) |
//! | Matrix Market `array` | the same fields but `pattern`, column-major, zeros dropped | — |
//! | FROSTT | MLIR's extended form (`rank nse`, then the sizes, then one `i j k ... value` line per entry), and the plain form (sizes = largest coordinates) when the rank is 2 or more | the extended form |
//!
//! Symmetric files are expanded: the mirror of every off-diagonal entry is
//! stored too (negated for skew-symmetric), so the tensor holds the matrix
//! the file describes. (MLIR's `sparse_tensor.new` keeps only the stored
//! triangle.)
//!
//! ```
//! use sparse_core::io::{read_matrix_market, write_matrix_market};
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::Enc;
//!
//! type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
//!
//! let file = "%%MatrixMarket matrix coordinate real symmetric\n\
//!             % a 3x3 example\n\
//!             3 3 2\n\
//!             1 1 4.0\n\
//!             3 1 -1.5\n";
//! let a = read_matrix_market::<f64, Csr, _, 2>(file.as_bytes())?;
//! assert_eq!(a.view().level(1).positions(), &[0, 2, 2, 3]);
//! assert_eq!(a.view().values(), &[4.0, -1.5, -1.5]);
//!
//! let mut out = Vec::new();
//! write_matrix_market(&a.view(), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 4\n1 3 -1.5\n3 1 -1.5\n"
//! );
//! # Ok::<(), sparse_core::io::IoError>(())
//! ```

mod entries;
mod lex;
mod mtx;
mod tns;
mod value;

pub use mtx::{read_matrix_market, write_matrix_market};
pub use tns::{read_frostt, write_frostt};
pub use value::FileValue;

use core::fmt;
use std::string::String;

use crate::convert::ConvertError;
use crate::error::AssembleError;
#[cfg(doc)]
use crate::output::Owned;

/// What is wrong at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The file does not start with a `%%MatrixMarket` banner.
    MissingBanner,
    /// A banner word is not one this reader knows (`found`, in the banner's
    /// `what` position: object, format, field or symmetry).
    Unsupported {
        /// Which banner word.
        what: &'static str,
        /// The word found.
        found: String,
    },
    /// The file ended before the size line, or before all entries.
    UnexpectedEnd {
        /// What was still expected.
        expected: &'static str,
    },
    /// A token is missing on this line.
    MissingToken {
        /// What was expected.
        expected: &'static str,
    },
    /// A line has more tokens than its kind takes.
    ExtraToken,
    /// More entries than the size line declares.
    TooManyEntries {
        /// The number declared.
        declared: usize,
    },
    /// A token is not a non-negative integer (sizes, counts, coordinates).
    NotAnInteger,
    /// A coordinate is 0 (coordinates are 1-based).
    ZeroCoordinate,
    /// A coordinate is negative.
    NegativeCoordinate,
    /// A coordinate is larger than the dimension's size.
    CoordinateOutOfRange {
        /// The dimension (0-based).
        dim: usize,
        /// The 1-based coordinate read.
        coordinate: u64,
        /// The dimension's size.
        size: usize,
    },
    /// A value cannot be read as the tensor's element type (not a number,
    /// not integral for an integer type, out of its range, or negative
    /// where a skew-symmetric mirror needs a negation it lacks).
    BadValue,
    /// The file's rank is not the tensor type's.
    RankMismatch {
        /// The rank the file declares or has.
        found: usize,
        /// The rank of the requested type.
        expected: usize,
    },
    /// A symmetric, skew-symmetric or hermitian matrix that is not square.
    NotSquare,
    /// An entry on the diagonal of a skew-symmetric matrix, whose diagonal
    /// is zero and not listed.
    SkewDiagonal,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::MissingBanner => f.write_str(
                "expected the banner `%%MatrixMarket matrix <format> <field> <symmetry>`",
            ),
            ParseErrorKind::Unsupported { what, found } => {
                write!(f, "unsupported {what} `{found}`")
            }
            ParseErrorKind::UnexpectedEnd { expected } => {
                write!(f, "the file ends where {expected} is expected")
            }
            ParseErrorKind::MissingToken { expected } => write!(f, "expected {expected}"),
            ParseErrorKind::ExtraToken => f.write_str("unexpected token at the end of the line"),
            ParseErrorKind::TooManyEntries { declared } => {
                write!(f, "more entries than the {declared} declared")
            }
            ParseErrorKind::NotAnInteger => f.write_str("expected a non-negative integer"),
            ParseErrorKind::ZeroCoordinate => f.write_str("coordinate 0: coordinates are 1-based"),
            ParseErrorKind::NegativeCoordinate => f.write_str("negative coordinate"),
            ParseErrorKind::CoordinateOutOfRange {
                dim,
                coordinate,
                size,
            } => write!(
                f,
                "coordinate {coordinate} of dimension {dim} is larger than its size {size}"
            ),
            ParseErrorKind::BadValue => {
                f.write_str("the value cannot be read as the tensor's element type")
            }
            ParseErrorKind::RankMismatch { found, expected } => write!(
                f,
                "the file has rank {found}, the tensor type rank {expected}"
            ),
            ParseErrorKind::NotSquare => f.write_str("a symmetric matrix must be square"),
            ParseErrorKind::SkewDiagonal => f.write_str(
                "an entry on the diagonal of a skew-symmetric matrix, which has zeros there \
                 and does not list them",
            ),
        }
    }
}

/// Why reading or writing a file failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum IoError {
    /// The reader or writer failed.
    Io(std::io::Error),
    /// The file is malformed at this 1-based line and column.
    Parse {
        /// The line.
        line: usize,
        /// The column (of the token's first character; 1 for a whole line).
        column: usize,
        /// What is wrong.
        kind: ParseErrorKind,
    },
    /// The requested encoding cannot hold a tensor of the file's sizes
    /// (e.g. a size whose coordinates do not fit `crdWidth`).
    Assemble(AssembleError),
    /// The entries do not fit the requested encoding (e.g. more entries
    /// than `posWidth` counts, or repeated integer entries whose sum
    /// overflows the element type: [`ConvertError::SumOverflow`]), or the
    /// result's buffers could not be allocated (`ConvertError::Capacity`
    /// of an [`Owned`] output: see the module docs' memory bound).
    Convert(ConvertError),
    /// Memory for the entries read so far could not be allocated (the
    /// reader asks for memory in proportion to the entries a file really
    /// holds, and reports a failed allocation instead of aborting).
    Memory {
        /// The number of entries it was making room for.
        entries: usize,
    },
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoError::Io(e) => write!(f, "i/o error: {e}"),
            IoError::Parse { line, column, kind } => {
                write!(f, "line {line}, column {column}: {kind}")
            }
            IoError::Assemble(e) => write!(f, "{e}"),
            IoError::Convert(e) => write!(f, "{e}"),
            IoError::Memory { entries } => {
                write!(f, "out of memory making room for {entries} entries")
            }
        }
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IoError::Io(e) => Some(e),
            IoError::Assemble(e) => Some(e),
            IoError::Convert(e) => Some(e),
            IoError::Parse { .. } | IoError::Memory { .. } => None,
        }
    }
}

impl From<std::io::Error> for IoError {
    fn from(e: std::io::Error) -> Self {
        IoError::Io(e)
    }
}

impl From<AssembleError> for IoError {
    fn from(e: AssembleError) -> Self {
        IoError::Assemble(e)
    }
}

impl From<ConvertError> for IoError {
    fn from(e: ConvertError) -> Self {
        IoError::Convert(e)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_hostile;
