//! Lines and tokens with their 1-based positions.

use std::io::BufRead;
use std::string::String;

use super::{IoError, ParseErrorKind};

/// A reader of lines that knows its line number.
pub(crate) struct Lines<R> {
    reader: R,
    buf: String,
    /// The number of the line in `buf` (1-based; 0 before the first).
    pub(crate) line: usize,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: String::new(),
            line: 0,
        }
    }

    /// The next line's number and text (without its end), `None` at the
    /// end of the input.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, &str)>, IoError> {
        self.buf.clear();
        if self.reader.read_line(&mut self.buf)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some((self.line, self.buf.trim_end_matches(['\n', '\r']))))
    }
}

/// An error at `line`, `column`.
pub(crate) fn err(line: usize, column: usize, kind: ParseErrorKind) -> IoError {
    IoError::Parse { line, column, kind }
}

/// The whitespace-separated tokens of `line` with their 1-based columns
/// (counted in characters).
pub(crate) fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut column = 0usize;
    let mut rest = line;
    core::iter::from_fn(move || {
        let skip = rest
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map(|(i, _)| i)?;
        column += rest[..skip].chars().count();
        rest = &rest[skip..];
        let end = rest
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
            .map_or(rest.len(), |(i, _)| i);
        let token = &rest[..end];
        let at = column + 1;
        column += token.chars().count();
        rest = &rest[end..];
        Some((at, token))
    })
}

/// A non-negative integer token.
pub(crate) fn integer(token: &str) -> Result<u64, ParseErrorKind> {
    token
        .parse::<u64>()
        .map_err(|_| ParseErrorKind::NotAnInteger)
}

/// A 1-based coordinate of dimension `dim` of size `size`, as 0-based.
pub(crate) fn coordinate(token: &str, dim: usize, size: usize) -> Result<usize, ParseErrorKind> {
    if let Some(rest) = token.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseErrorKind::NegativeCoordinate);
        }
        return Err(ParseErrorKind::NotAnInteger);
    }
    let c = integer(token)?;
    if c == 0 {
        return Err(ParseErrorKind::ZeroCoordinate);
    }
    match usize::try_from(c) {
        Ok(c) if c <= size => Ok(c - 1),
        _ => Err(ParseErrorKind::CoordinateOutOfRange {
            dim,
            coordinate: c,
            size,
        }),
    }
}
