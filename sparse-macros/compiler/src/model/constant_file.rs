//! Readers for `file("...")` constants, run at expansion time: Matrix
//! Market (`.mtx`) and NumPy (`.npy`). The path is relative to the crate
//! being compiled (`CARGO_MANIFEST_DIR`). Errors are at the path literal,
//! with the file's line (Matrix Market) or element index (NumPy).
//!
//! - `.mtx`: `%%MatrixMarket matrix (coordinate | array) (real | double |
//!   integer | pattern) (general | symmetric | skew-symmetric)`; 1-based
//!   coordinates; `array` is column-major; symmetric and skew-symmetric
//!   files list one triangle and the other is mirrored (negated for
//!   skew-symmetric); a pattern entry has the value 1.
//! - `.npy`: versions 1 to 3, C order, little-endian (or byte-sized)
//!   `f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1`; a dense tensor of the file's shape.
//!
//! Values convert as literals do, by kind: real/float data to a float
//! type (rounded to `f32` if need be), integer data to an integer type in
//! range, integer data to a float type, booleans (or 0/1) to `i1`.

use std::path::{Path, PathBuf};

use proc_macro2::Span;

use super::constant::{Entries, Origin};
use super::constant_value::Scalar;
use super::ValueType;
use crate::errors::Errors;
use crate::syntax::ScalarLit;

/// The largest file a constant may read: more than `MAX_STORED` entries'
/// worth of text (a `.npy` of `MAX_STORED` `f64` values is 16 MiB).
pub(super) const MAX_FILE_BYTES: u64 = 64 << 20;

/// What a file holds.
pub(super) enum FileData {
    /// Every element, row-major, with its line (0 when lines mean nothing).
    Dense {
        shape: Vec<u64>,
        values: Vec<(Scalar, u32)>,
    },
    /// Coordinate entries.
    Coo { shape: Vec<u64>, entries: Entries },
    /// The elements of a dense file that are not exactly zero (`+0.0`, `0`,
    /// `false`), in any order; every other element is zero. A sparse
    /// encoding drops the ones `dense<>` drops (`-0.0` too), a dense array
    /// keeps them.
    Array { shape: Vec<u64>, entries: Entries },
}

/// Resolves `path` against the crate's directory, reads and parses it.
pub(super) fn read(
    path: &str,
    span: Span,
    elem: ValueType,
    errors: &mut Errors,
) -> Option<(PathBuf, FileData)> {
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let full = base.join(path);
    let kind = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(kind.as_deref(), Some("mtx" | "npy")) {
        errors.error(
            span,
            format!(
                "`{path}`: unknown file kind; expected a Matrix Market `.mtx` or a NumPy `.npy` \
                 file"
            ),
        );
        return None;
    }
    // Refused before reading: the file costs its bytes, then a few times
    // as much per value it holds (see `MAX_STORED`).
    match std::fs::metadata(&full) {
        Ok(meta) if meta.len() > MAX_FILE_BYTES => {
            errors.error(
                span,
                format!(
                    "`{path}` has {} bytes; a constant's file may have at most {MAX_FILE_BYTES} \
                     (larger ones cost rustc more memory than a build should), and at most \
                     {} stored entries",
                    meta.len(),
                    super::constant_layout::MAX_STORED
                ),
            );
            return None;
        }
        _ => {}
    }
    let bytes = match std::fs::read(&full) {
        Ok(bytes) => bytes,
        Err(e) => {
            errors.error(
                span,
                format!("cannot read `{path}` (relative to the crate's Cargo.toml): {e}"),
            );
            return None;
        }
    };
    let full = full.canonicalize().unwrap_or(full);
    let parsed = if kind.as_deref() == Some("npy") {
        super::constant_npy::read_npy(&bytes, elem)
    } else {
        match std::str::from_utf8(&bytes) {
            Ok(text) => read_mtx(text, elem, span),
            Err(e) => Err(format!("the file is not text (UTF-8): {e}")),
        }
    };
    match parsed {
        Ok(data) => Some((full, data)),
        Err(message) => {
            errors.error(span, format!("`{path}`: {message}"));
            None
        }
    }
}

/// Runs the `.mtx` (`npy == false`) or `.npy` reader on `bytes` as a
/// `file(..)` constant of element type `elem` would, without a file on
/// disk: the number of values or entries read, or the message. For the
/// `file_readers` fuzz target.
#[doc(hidden)]
pub fn read_bytes(bytes: &[u8], npy: bool, elem: ValueType) -> Result<usize, String> {
    let data = if npy {
        super::constant_npy::read_npy(bytes, elem)?
    } else {
        let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
        read_mtx(text, elem, Span::call_site())?
    };
    Ok(match data {
        FileData::Dense { values, .. } => values.len(),
        FileData::Coo { entries, .. } | FileData::Array { entries, .. } => entries.len(),
    })
}

/// The header of a Matrix Market file.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Real,
    Integer,
    Pattern,
}

#[derive(Clone, Copy, PartialEq)]
enum Symmetry {
    General,
    Symmetric,
    Skew,
}

/// Parses Matrix Market text; errors start with `line N:`.
pub(super) fn read_mtx(text: &str, elem: ValueType, span: Span) -> Result<FileData, String> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i as u32 + 1, l));
    let (_, header) = lines
        .next()
        .ok_or_else(|| "the file is empty; expected a `%%MatrixMarket` header".to_string())?;
    let words: Vec<String> = header
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    if words.first().map(String::as_str) != Some("%%matrixmarket") || words.len() != 5 {
        return Err(
            "line 1: expected the header `%%MatrixMarket matrix coordinate real general`"
                .to_string(),
        );
    }
    if words[1] != "matrix" {
        return Err(format!(
            "line 1: only `matrix` objects are supported, found `{}`",
            words[1]
        ));
    }
    let coordinate = match words[2].as_str() {
        "coordinate" => true,
        "array" => false,
        other => {
            return Err(format!(
                "line 1: expected `coordinate` or `array`, found `{other}`"
            ))
        }
    };
    let field = match words[3].as_str() {
        "real" | "double" => Field::Real,
        "integer" => Field::Integer,
        "pattern" if coordinate => Field::Pattern,
        other => {
            return Err(format!(
                "line 1: unsupported field `{other}`; expected `real`, `integer` or `pattern` \
                 (`pattern` only with `coordinate`)"
            ))
        }
    };
    let symmetry = match words[4].as_str() {
        "general" => Symmetry::General,
        "symmetric" => Symmetry::Symmetric,
        "skew-symmetric" => Symmetry::Skew,
        other => {
            return Err(format!(
                "line 1: unsupported symmetry `{other}`; expected `general`, `symmetric` or \
                 `skew-symmetric`"
            ))
        }
    };
    let mut data = lines.filter(|(_, l)| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('%')
    });
    let (size_line, sizes) = data
        .next()
        .ok_or_else(|| "expected the size line after the header".to_string())?;
    let sizes: Vec<u64> = sizes
        .split_whitespace()
        .map(|w| w.parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("line {size_line}: expected sizes (non-negative integers)"))?;
    let want = if coordinate { 3 } else { 2 };
    if sizes.len() != want {
        return Err(format!(
            "line {size_line}: expected {} on the size line, found {} number(s)",
            if coordinate {
                "`rows cols entries`"
            } else {
                "`rows cols`"
            },
            sizes.len()
        ));
    }
    let (rows, cols) = (sizes[0], sizes[1]);
    if symmetry != Symmetry::General && rows != cols {
        return Err(format!(
            "line {size_line}: a symmetric or skew-symmetric matrix must be square, this one is \
             {rows}x{cols}"
        ));
    }
    let value = |word: Option<&str>, line: u32| -> Result<Scalar, String> {
        if field == Field::Pattern {
            return Ok(one(elem));
        }
        let word = word.ok_or_else(|| format!("line {line}: expected a value"))?;
        convert_text(word, field, elem).map_err(|m| format!("line {line}: {m}"))
    };
    if coordinate {
        let nnz = sizes[2];
        let mut entries = Entries {
            rank: 2,
            ..Entries::default()
        };
        let mut read = 0u64;
        for (line, text) in data {
            read += 1;
            if read > nnz {
                return Err(format!(
                    "line {line}: more entries than the {nnz} the size line announced"
                ));
            }
            let mut words = text.split_whitespace();
            let mut index = |what: &str, size: u64| -> Result<u64, String> {
                let w = words
                    .next()
                    .ok_or_else(|| format!("line {line}: expected the {what} index"))?;
                match w.parse::<u64>() {
                    Ok(i) if (1..=size).contains(&i) => Ok(i - 1),
                    Ok(i) => Err(format!(
                        "line {line}: {what} {i} is outside 1..={size} (Matrix Market is 1-based)"
                    )),
                    Err(_) => Err(format!(
                        "line {line}: expected the {what} index, found `{w}`"
                    )),
                }
            };
            let i = index("row", rows)?;
            let j = index("column", cols)?;
            let v = value(words.next(), line)?;
            if let Some(extra) = words.next() {
                return Err(format!("line {line}: unexpected `{extra}` after the entry"));
            }
            let origin = Origin {
                span,
                value: span,
                line,
            };
            if entries.len() >= super::constant_layout::MAX_STORED {
                return Err(format!(
                    "line {line}: more than {} entries (mirrors included); at most that many \
                     are supported in a constant",
                    super::constant_layout::MAX_STORED
                ));
            }
            if symmetry == Symmetry::Skew && i == j {
                return Err(format!(
                    "line {line}: a skew-symmetric matrix has zeros on its diagonal, which are \
                     not listed"
                ));
            }
            entries.push(&[i, j], v, origin);
            if symmetry != Symmetry::General && i != j {
                let mirrored = if symmetry == Symmetry::Skew {
                    negate(v, elem, line)?
                } else {
                    v
                };
                entries.push(&[j, i], mirrored, origin);
            }
        }
        if read != nnz {
            return Err(format!(
                "the size line (line {size_line}) announces {nnz} entries but the file has {read}"
            ));
        }
        Ok(FileData::Coo {
            shape: vec![rows, cols],
            entries,
        })
    } else {
        check_dense_shape(&[rows, cols]).map_err(|m| format!("line {size_line}: {m}"))?;
        read_array(data, (rows, cols), symmetry, elem, span, value)
    }
}

/// The values of an `array` file, column-major (symmetric: the lower
/// triangle with the diagonal, skew-symmetric: without it), as the entries
/// that are not exactly zero. Memory and time follow the values the file
/// holds: nothing is allocated for the `rows x cols` the size line claims,
/// and a cursor skips empty columns at once (`0 x 10^19` is read in no
/// time).
fn read_array<'a>(
    data: impl Iterator<Item = (u32, &'a str)>,
    (rows, cols): (u64, u64),
    symmetry: Symmetry,
    elem: ValueType,
    span: Span,
    value: impl Fn(Option<&str>, u32) -> Result<Scalar, String>,
) -> Result<FileData, String> {
    let first_row = |j: u64| match symmetry {
        Symmetry::General => 0,
        Symmetry::Symmetric => j,
        Symmetry::Skew => j.saturating_add(1),
    };
    // The cursor (i, j) is on the next stored element; j == cols at the
    // end. A column is empty only with no rows at all, or as the last one
    // of a skew-symmetric matrix: `settle` loops at most twice.
    let settle = |i: &mut u64, j: &mut u64| {
        if rows == 0 {
            *j = cols;
        }
        while *j < cols && *i >= rows {
            *j += 1;
            *i = first_row(*j);
        }
    };
    let (mut i, mut j) = (first_row(0), 0u64);
    settle(&mut i, &mut j);
    let mut entries = Entries {
        rank: 2,
        ..Entries::default()
    };
    for (line, text) in data {
        for word in text.split_whitespace() {
            if j >= cols {
                return Err(format!(
                    "line {line}: more values than a {rows}x{cols} array holds"
                ));
            }
            let v = value(Some(word), line)?;
            if !v.is_plain_zero() {
                if entries.len() >= super::constant_layout::MAX_STORED {
                    return Err(format!(
                        "line {line}: more than {} nonzero values; at most that many are \
                         supported in a constant",
                        super::constant_layout::MAX_STORED
                    ));
                }
                let origin = Origin {
                    span,
                    value: span,
                    line,
                };
                entries.push(&[i, j], v, origin);
                if i != j && symmetry != Symmetry::General {
                    let m = if symmetry == Symmetry::Skew {
                        negate(v, elem, line)?
                    } else {
                        v
                    };
                    entries.push(&[j, i], m, origin);
                }
            }
            i += 1;
            settle(&mut i, &mut j);
        }
    }
    if j < cols {
        return Err(format!(
            "the array ends early: a {rows}x{cols} {} array needs more values",
            match symmetry {
                Symmetry::General => "general",
                Symmetry::Symmetric => "symmetric",
                Symmetry::Skew => "skew-symmetric",
            }
        ));
    }
    Ok(FileData::Array {
        shape: vec![rows, cols],
        entries,
    })
}

/// A dense file's shape: the product of its sizes other than 0 at most
/// `MAX_STORED`. A dense file lists every element, so a larger size is
/// either more data than a constant may hold or, beside a 0, a size no
/// element backs (`0 x u64::MAX`), which would make rustc walk or refuse
/// an array type of that length.
pub(super) fn check_dense_shape(shape: &[u64]) -> Result<(), String> {
    let max = super::constant_layout::MAX_STORED as u64;
    match super::constant_layout::dense_within_limit(shape) {
        true => Ok(()),
        false => Err(format!(
            "a dense file of shape {} is too large: the product of its sizes (zeros left out) \
             may be at most {max}",
            super::constant::sizes_text(shape)
        )),
    }
}

/// One in the element type (the value of a pattern entry).
fn one(elem: ValueType) -> Scalar {
    match elem {
        ValueType::F32 => Scalar::F32(1.0),
        ValueType::F64 => Scalar::F64(1.0),
        ValueType::Bool => Scalar::Bool(true),
        ValueType::F16 => Scalar::F16(half::f16::ONE.to_bits()),
        ValueType::BF16 => Scalar::BF16(half::bf16::ONE.to_bits()),
        ValueType::Complex32 => Scalar::C32(1.0, 0.0),
        ValueType::Complex64 => Scalar::C64(1.0, 0.0),
        _ => Scalar::Int(1),
    }
}

/// The mirrored value of a skew-symmetric entry, in range of `elem`.
fn negate(v: Scalar, elem: ValueType, line: u32) -> Result<Scalar, String> {
    let mirrored = match v {
        Scalar::F32(x) => Ok(Scalar::F32(-x)),
        Scalar::F64(x) => Ok(Scalar::F64(-x)),
        Scalar::Int(n) => Scalar::convert(ScalarLit::Int(-n), elem),
        Scalar::Bool(_) => Err("`i1` cannot be negated".to_string()),
        // The sign bit.
        Scalar::F16(b) => Ok(Scalar::F16(b ^ 0x8000)),
        Scalar::BF16(b) => Ok(Scalar::BF16(b ^ 0x8000)),
        Scalar::C32(re, im) => Ok(Scalar::C32(-re, -im)),
        Scalar::C64(re, im) => Ok(Scalar::C64(-re, -im)),
    };
    mirrored.map_err(|m| format!("line {line}: the mirrored entry of a skew-symmetric matrix: {m}"))
}

/// A value of the file's field as an element of `elem`.
fn convert_text(word: &str, field: Field, elem: ValueType) -> Result<Scalar, String> {
    match field {
        Field::Real => {
            let x: f64 = word
                .parse()
                .map_err(|_| format!("expected a real number, found `{word}`"))?;
            if elem.is_complex() {
                return Scalar::convert(ScalarLit::Complex(x, 0.0), elem);
            }
            if !elem.is_float() {
                return Err(format!(
                    "the file holds real values but the element type is `{}`; use `f32` or \
                     `f64`, or an `integer` file",
                    elem.mlir_name()
                ));
            }
            Scalar::convert(ScalarLit::Float(x), elem)
        }
        Field::Integer | Field::Pattern => {
            let n: i128 = word
                .parse()
                .map_err(|_| format!("expected an integer, found `{word}`"))?;
            int_value(n, elem)
        }
    }
}

/// An integer from a file as an element of `elem` (floats take it as a
/// number, `i1` takes 0 and 1).
pub(super) fn int_value(n: i128, elem: ValueType) -> Result<Scalar, String> {
    match elem {
        ValueType::F32 => Ok(Scalar::F32(n as f32)),
        ValueType::F64 => Ok(Scalar::F64(n as f64)),
        ValueType::F16 | ValueType::BF16 => Scalar::convert(ScalarLit::Float(n as f64), elem),
        ValueType::Complex32 | ValueType::Complex64 => {
            Scalar::convert(ScalarLit::Complex(n as f64, 0.0), elem)
        }
        _ => Scalar::convert(ScalarLit::Int(n), elem),
    }
}

#[cfg(test)]
#[path = "constant_file_tests.rs"]
mod tests;
