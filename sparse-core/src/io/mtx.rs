//! Matrix Market (`.mtx`): the banner, comments, the size line, then the
//! entries (`coordinate`) or the column-major values (`array`).

use std::io::{BufRead, BufWriter, Write};

use crate::encoding::Encoding;
use crate::output::{Owned, SparseTensorOut};
use crate::tensor::SparseTensor;

use super::entries::{build, EntryList};
use super::lex::{coordinate, err, integer, tokens, Lines};
use super::{FileValue, IoError, ParseErrorKind};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Real,
    Integer,
    Pattern,
    /// Two numbers per value, real part first.
    Complex,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Symmetry {
    General,
    Symmetric,
    Skew,
    /// Complex values: the mirror is the conjugate.
    Hermitian,
}

/// Reads a Matrix Market file into the encoding `E`, stored in `Vec`s.
///
/// See the [module docs](super) for what is accepted; every malformed
/// line is an [`IoError::Parse`] with its line and column. Repeated
/// entries are summed.
pub fn read_matrix_market<V, E, R, const LVL: usize>(
    reader: R,
) -> Result<SparseTensorOut<V, E, Owned, 2, LVL>, IoError>
where
    V: FileValue,
    E: crate::StoresValues,
    R: BufRead,
{
    let mut lines = Lines::new(reader);
    let (array, field, symmetry) = banner(&mut lines)?;
    // The size line, after comments and blank lines.
    let want = if array { 2 } else { 3 };
    let sizes = loop {
        let Some((ln, line)) = lines.next_line()? else {
            return Err(err(
                lines.line + 1,
                1,
                ParseErrorKind::UnexpectedEnd {
                    expected: "the size line",
                },
            ));
        };
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        let end = line.chars().count() + 1;
        let mut sizes = [0u64; 3];
        let mut toks = tokens(line);
        for (k, slot) in sizes.iter_mut().enumerate().take(want) {
            let Some((col, tok)) = toks.next() else {
                let expected = [
                    "the number of rows",
                    "the number of columns",
                    "the number of entries",
                ];
                return Err(err(
                    ln,
                    end,
                    ParseErrorKind::MissingToken {
                        expected: expected.get(k).copied().unwrap_or("a size"),
                    },
                ));
            };
            *slot = integer(tok).map_err(|e| err(ln, col, e))?;
        }
        if let Some((col, _)) = toks.next() {
            return Err(err(ln, col, ParseErrorKind::ExtraToken));
        }
        break sizes;
    };
    let size =
        |x: u64| usize::try_from(x).map_err(|_| err(lines.line, 1, ParseErrorKind::NotAnInteger));
    let (m, n) = (size(sizes[0])?, size(sizes[1])?);
    if symmetry != Symmetry::General && m != n {
        return Err(err(lines.line, 1, ParseErrorKind::NotSquare));
    }
    let mut list = EntryList::<V, 2>::new([m, n]);
    if array {
        read_array(&mut lines, &mut list, field, symmetry)?;
    } else {
        let nnz = size(sizes[2])?;
        read_coordinates(&mut lines, &mut list, nnz, field, symmetry)?;
    }
    build::<V, E, 2, LVL>(&list)
}

/// The banner: `%%MatrixMarket matrix <format> <field> <symmetry>`.
fn banner<R: BufRead>(lines: &mut Lines<R>) -> Result<(bool, Field, Symmetry), IoError> {
    let Some((ln, line)) = lines.next_line()? else {
        return Err(IoError::Parse {
            line: 1,
            column: 1,
            kind: ParseErrorKind::MissingBanner,
        });
    };
    let end = line.chars().count() + 1;
    let mut toks = tokens(line);
    match toks.next() {
        Some((_, t)) if t.eq_ignore_ascii_case("%%MatrixMarket") => {}
        _ => return Err(err(ln, 1, ParseErrorKind::MissingBanner)),
    }
    let mut word = |what: &'static str| match toks.next() {
        Some((col, t)) => Ok((col, t.to_ascii_lowercase())),
        None => Err((end, what)),
    };
    let mut words = [
        (0usize, std::string::String::new()),
        Default::default(),
        Default::default(),
        Default::default(),
    ];
    for (slot, what) in words.iter_mut().zip([
        "an object (matrix)",
        "a format (coordinate or array)",
        "a field (real, integer or pattern)",
        "a symmetry (general, symmetric, skew-symmetric or hermitian)",
    ]) {
        *slot = word(what)
            .map_err(|(col, expected)| err(ln, col, ParseErrorKind::MissingToken { expected }))?;
    }
    if let Some((col, _)) = toks.next() {
        return Err(err(ln, col, ParseErrorKind::ExtraToken));
    }
    let [(oc, object), (fc, format), (dc, field), (sc, symmetry)] = words;
    let unsupported = |col: usize, what: &'static str, found: std::string::String| {
        err(ln, col, ParseErrorKind::Unsupported { what, found })
    };
    if object != "matrix" {
        return Err(unsupported(oc, "object", object));
    }
    let array = match format.as_str() {
        "coordinate" => false,
        "array" => true,
        _ => return Err(unsupported(fc, "format", format)),
    };
    let field_kind = match field.as_str() {
        "real" | "double" => Field::Real,
        "integer" => Field::Integer,
        "complex" => Field::Complex,
        "pattern" if !array => Field::Pattern,
        _ => return Err(unsupported(dc, "field", field)),
    };
    let symmetry_kind = match symmetry.as_str() {
        "general" => Symmetry::General,
        "hermitian" if field_kind == Field::Complex => Symmetry::Hermitian,
        // Real values: hermitian is symmetric.
        "symmetric" | "hermitian" => Symmetry::Symmetric,
        "skew-symmetric" if field_kind != Field::Pattern => Symmetry::Skew,
        _ => return Err(unsupported(sc, "symmetry", symmetry)),
    };
    Ok((array, field_kind, symmetry_kind))
}

/// A value token of `field`.
fn value<V: FileValue>(token: &str, field: Field) -> Option<V> {
    match field {
        Field::Real => V::parse_real(token),
        Field::Integer => V::parse_integer(token),
        Field::Pattern => Some(V::one()),
        // Read by `complex_value`: two tokens.
        Field::Complex => None,
    }
}

/// The value at the front of `toks`: one token, or two for a `complex`
/// file; the column of its first token.
fn next_value<'l, V: FileValue>(
    toks: &mut impl Iterator<Item = (usize, &'l str)>,
    field: Field,
    end: usize,
) -> Result<(usize, V), (usize, ParseErrorKind)> {
    let (vc, vt) = toks.next().ok_or((
        end,
        ParseErrorKind::MissingToken {
            expected: "a value",
        },
    ))?;
    let v = if field == Field::Complex {
        let (_, it) = toks.next().ok_or((
            end,
            ParseErrorKind::MissingToken {
                expected: "the imaginary part",
            },
        ))?;
        V::parse_complex(vt, it)
    } else {
        value::<V>(vt, field)
    };
    Ok((vc, v.ok_or((vc, ParseErrorKind::BadValue))?))
}

/// Adds `(i, j, v)`, read at line `ln`, value column `vc`, and, off the
/// diagonal of a symmetric matrix, its mirror. A skew-symmetric matrix has
/// zeros on its diagonal, which its files do not list: an entry there is
/// [`ParseErrorKind::SkewDiagonal`] (the rule of the compile-time reader
/// too), and a mirror that cannot be negated is `BadValue`.
fn add_entry<V: FileValue>(
    list: &mut EntryList<V, 2>,
    (i, j, v): (usize, usize, V),
    symmetry: Symmetry,
    (ln, vc): (usize, usize),
) -> Result<(), IoError> {
    if i == j && symmetry == Symmetry::Skew {
        return Err(err(ln, 1, ParseErrorKind::SkewDiagonal));
    }
    if i != j {
        match symmetry {
            Symmetry::General => {}
            Symmetry::Symmetric => list.push([j, i], v.clone())?,
            Symmetry::Skew => {
                let m = v
                    .negate()
                    .ok_or_else(|| err(ln, vc, ParseErrorKind::BadValue))?;
                list.push([j, i], m)?;
            }
            Symmetry::Hermitian => list.push([j, i], v.conjugate())?,
        }
    }
    list.push([i, j], v)
}

fn read_coordinates<V: FileValue, R: BufRead>(
    lines: &mut Lines<R>,
    list: &mut EntryList<V, 2>,
    nnz: usize,
    field: Field,
    symmetry: Symmetry,
) -> Result<(), IoError> {
    let [m, n] = list.dims;
    let mut read = 0usize;
    while let Some((ln, line)) = lines.next_line()? {
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        if read == nnz {
            return Err(err(ln, 1, ParseErrorKind::TooManyEntries { declared: nnz }));
        }
        let end = line.chars().count() + 1;
        let mut toks = tokens(line);
        let parsed = (|| {
            let mut next = |expected: &'static str| {
                toks.next()
                    .ok_or((end, ParseErrorKind::MissingToken { expected }))
            };
            let (ic, it) = next("a row coordinate")?;
            let i = coordinate(it, 0, m).map_err(|e| (ic, e))?;
            let (jc, jt) = next("a column coordinate")?;
            let j = coordinate(jt, 1, n).map_err(|e| (jc, e))?;
            let (vc, v) = if field == Field::Pattern {
                (1, V::one())
            } else {
                next_value::<V>(&mut toks, field, end)?
            };
            Ok((i, j, vc, v))
        })();
        let (i, j, vc, v) = parsed.map_err(|(col, kind)| err(ln, col, kind))?;
        if let Some((col, _)) = toks.next() {
            return Err(err(ln, col, ParseErrorKind::ExtraToken));
        }
        add_entry(list, (i, j, v), symmetry, (ln, vc))?;
        read += 1;
    }
    if read < nnz {
        return Err(IoError::Parse {
            line: lines.line + 1,
            column: 1,
            kind: ParseErrorKind::UnexpectedEnd {
                expected: "another entry",
            },
        });
    }
    Ok(())
}

fn read_array<V: FileValue, R: BufRead>(
    lines: &mut Lines<R>,
    list: &mut EntryList<V, 2>,
    field: Field,
    symmetry: Symmetry,
) -> Result<(), IoError> {
    let [m, n] = list.dims;
    // Column-major; symmetric files store the lower triangle (strictly
    // lower for skew-symmetric).
    let first_row = |j: usize| match symmetry {
        Symmetry::General => 0,
        Symmetry::Symmetric | Symmetry::Hermitian => j,
        Symmetry::Skew => j + 1,
    };
    let zero = V::default();
    // The cursor (i, j) is on the next stored element; j == n at the end.
    // A column is empty only when there are no rows (`m == 0`: then all of
    // them, ended at once, so a header's `0 x 10^11` costs nothing) or it
    // is a skew-symmetric matrix's last one: the loop runs at most twice.
    let settle = |i: &mut usize, j: &mut usize| {
        if m == 0 {
            *j = n;
        }
        while *j < n && *i >= m {
            *j += 1;
            *i = first_row(*j);
        }
    };
    let (mut i, mut j) = (first_row(0), 0usize);
    settle(&mut i, &mut j);
    while let Some((ln, line)) = lines.next_line()? {
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        let end = line.chars().count() + 1;
        let mut toks = tokens(line).peekable();
        if toks.peek().is_none() {
            continue;
        }
        if j >= n {
            return Err(err(
                ln,
                1,
                ParseErrorKind::TooManyEntries {
                    declared: stored_count(m, n, symmetry),
                },
            ));
        }
        let (col, v) = next_value::<V>(&mut toks, field, end).map_err(|(c, k)| err(ln, c, k))?;
        if let Some((extra, _)) = toks.next() {
            return Err(err(ln, extra, ParseErrorKind::ExtraToken));
        }
        if v != zero {
            add_entry(list, (i, j, v), symmetry, (ln, col))?;
        }
        i += 1;
        settle(&mut i, &mut j);
    }
    if j < n {
        return Err(IoError::Parse {
            line: lines.line + 1,
            column: 1,
            kind: ParseErrorKind::UnexpectedEnd {
                expected: "another value",
            },
        });
    }
    Ok(())
}

/// The number of values an array file stores.
fn stored_count(m: usize, n: usize, symmetry: Symmetry) -> usize {
    match symmetry {
        Symmetry::General => m.saturating_mul(n),
        Symmetry::Symmetric | Symmetry::Hermitian => n.saturating_mul(n.saturating_add(1)) / 2,
        Symmetry::Skew => n.saturating_mul(n.saturating_sub(1)) / 2,
    }
}

/// Writes a 2-D tensor as a Matrix Market `coordinate general` file:
/// `integer` for integer element types, `real` for floats, `complex` for
/// complex numbers (`re im` per value), `pattern` for
/// a pattern tensor (an `explicitVal`); one line per stored entry, in
/// storage order (repeated coordinates of a `nonunique` tensor are written
/// as stored: readers sum them).
pub fn write_matrix_market<V, E, W, const LVL: usize>(
    tensor: &SparseTensor<'_, V, E, 2, LVL>,
    writer: W,
) -> Result<(), IoError>
where
    V: FileValue,
    E: Encoding,
    W: Write,
{
    let mut w = BufWriter::new(writer);
    let field = if E::is_pattern() {
        "pattern"
    } else if V::INTEGER {
        "integer"
    } else if V::COMPLEX {
        "complex"
    } else {
        "real"
    };
    let mut nnz = 0usize;
    tensor.for_each(|_, _| nnz += 1);
    let [m, n] = tensor.dim_sizes();
    writeln!(w, "%%MatrixMarket matrix coordinate {field} general")?;
    writeln!(w, "{m} {n} {nnz}")?;
    let mut result = Ok(());
    tensor.for_each(|[i, j], v| {
        if result.is_ok() {
            result = if E::is_pattern() {
                writeln!(w, "{} {}", i + 1, j + 1)
            } else {
                writeln!(w, "{} {} {}", i + 1, j + 1, super::value::InFile(v))
            };
        }
    });
    result?;
    w.flush()?;
    Ok(())
}
