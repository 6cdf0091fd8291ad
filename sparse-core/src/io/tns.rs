//! FROSTT (`.tns`): one line per entry, `i j k ... value`, 1-based; MLIR's
//! extended form starts with `rank nse` and a line of sizes.

use std::io::{BufRead, BufWriter, Write};
use std::string::ToString;

use crate::encoding::Encoding;
use crate::output::{Owned, SparseTensorOut};
use crate::tensor::SparseTensor;

use super::entries::{build, EntryList};
use super::lex::{coordinate, err, integer, tokens, Lines};
use super::{FileValue, IoError, ParseErrorKind};

/// Reads a FROSTT file into the encoding `E`, stored in `Vec`s.
///
/// The extended form (`rank nse`, then `rank` sizes, then `nse` entries,
/// as MLIR writes it) is checked against its header; the plain form (no
/// header, recognised when the first line has `DIM + 1` tokens and `DIM >=
/// 2`) takes each size as the largest coordinate of its dimension. Lines
/// starting with `#` and blank lines are skipped; repeated entries are
/// summed.
///
/// ```
/// use sparse_core::io::read_frostt;
/// use sparse_core::levels::{compressed, d0, d1, d2};
/// use sparse_core::Enc;
///
/// type Csf = Enc<u32, u32, (compressed, compressed, compressed), (d0, d1, d2)>;
///
/// let file = "# extended FROSTT\n3 2\n2 3 4\n1 1 1 1.5\n2 3 4 -2\n";
/// let t = read_frostt::<f64, Csf, _, 3, 3>(file.as_bytes())?;
/// assert_eq!(t.dim_sizes(), [2, 3, 4]);
/// assert_eq!(t.view().values(), &[1.5, -2.0]);
/// # Ok::<(), sparse_core::io::IoError>(())
/// ```
pub fn read_frostt<V, E, R, const DIM: usize, const LVL: usize>(
    reader: R,
) -> Result<SparseTensorOut<V, E, Owned, DIM, LVL>, IoError>
where
    V: FileValue,
    E: crate::StoresValues,
    R: BufRead,
{
    let mut lines = Lines::new(reader);
    if DIM == 0 {
        return Err(err(
            lines.line,
            1,
            ParseErrorKind::Unsupported {
                what: "rank",
                found: "0".to_string(),
            },
        ));
    }
    // The first line decides the form.
    let mut first: Option<std::string::String> = None;
    while let Some((_, line)) = lines.next_line()? {
        if !(line.trim().is_empty() || line.starts_with('#')) {
            first = Some(line.to_string());
            break;
        }
    }
    let Some(first) = first else {
        return Err(IoError::Parse {
            line: lines.line + 1,
            column: 1,
            kind: ParseErrorKind::UnexpectedEnd {
                expected: "a header or an entry",
            },
        });
    };
    let count = tokens(&first).count();
    if count == 2 && (DIM == 1 || count != DIM + 1) {
        let mut toks = tokens(&first);
        let (rc, rt) = toks.next().unwrap_or((1, ""));
        let rank = integer(rt).map_err(|e| err(lines.line, rc, e))?;
        if rank != DIM as u64 {
            return Err(err(
                lines.line,
                rc,
                ParseErrorKind::RankMismatch {
                    found: usize::try_from(rank).unwrap_or(usize::MAX),
                    expected: DIM,
                },
            ));
        }
        let (nc, nt) = toks.next().unwrap_or((1, ""));
        let nse = integer(nt)
            .ok()
            .and_then(|x| usize::try_from(x).ok())
            .ok_or_else(|| err(lines.line, nc, ParseErrorKind::NotAnInteger))?;
        let dims = sizes_line::<R, DIM>(&mut lines)?;
        let mut list = EntryList::<V, DIM>::new(dims);
        let mut read = 0usize;
        while let Some((ln, line)) = lines.next_line()? {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if read == nse {
                return Err(err(ln, 1, ParseErrorKind::TooManyEntries { declared: nse }));
            }
            let (c, v) = entry::<V, DIM>(line, Some(&dims)).map_err(|(col, k)| err(ln, col, k))?;
            list.push(c, v)?;
            read += 1;
        }
        if read < nse {
            return Err(IoError::Parse {
                line: lines.line + 1,
                column: 1,
                kind: ParseErrorKind::UnexpectedEnd {
                    expected: "another entry",
                },
            });
        }
        return build::<V, E, DIM, LVL>(&list);
    }
    if count != DIM + 1 {
        return Err(err(
            lines.line,
            1,
            ParseErrorKind::RankMismatch {
                found: count.saturating_sub(1),
                expected: DIM,
            },
        ));
    }
    // Plain form: sizes are the largest coordinates.
    let mut list = EntryList::<V, DIM>::new([0; DIM]);
    let first_line = lines.line;
    let (c, v) = entry::<V, DIM>(&first, None).map_err(|(col, k)| IoError::Parse {
        line: first_line,
        column: col,
        kind: k,
    })?;
    list.push(c, v)?;
    while let Some((ln, line)) = lines.next_line()? {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (c, v) = entry::<V, DIM>(line, None).map_err(|(col, k)| err(ln, col, k))?;
        list.push(c, v)?;
    }
    let mut dims = [0usize; DIM];
    for c in &list.coords {
        for (d, &x) in dims.iter_mut().zip(c) {
            *d = (*d).max(x + 1);
        }
    }
    list.dims = dims;
    build::<V, E, DIM, LVL>(&list)
}

/// The line of `DIM` sizes of the extended form.
fn sizes_line<R: BufRead, const DIM: usize>(lines: &mut Lines<R>) -> Result<[usize; DIM], IoError> {
    while let Some((ln, line)) = lines.next_line()? {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let end = line.chars().count() + 1;
        let mut toks = tokens(line);
        let mut dims = [0usize; DIM];
        for d in dims.iter_mut() {
            let Some((col, t)) = toks.next() else {
                return Err(err(
                    ln,
                    end,
                    ParseErrorKind::MissingToken {
                        expected: "a dimension size",
                    },
                ));
            };
            *d = integer(t)
                .ok()
                .and_then(|x| usize::try_from(x).ok())
                .ok_or_else(|| err(ln, col, ParseErrorKind::NotAnInteger))?;
        }
        if let Some((col, _)) = toks.next() {
            return Err(err(ln, col, ParseErrorKind::ExtraToken));
        }
        return Ok(dims);
    }
    Err(IoError::Parse {
        line: lines.line + 1,
        column: 1,
        kind: ParseErrorKind::UnexpectedEnd {
            expected: "the line of sizes",
        },
    })
}

/// One entry line: `DIM` 1-based coordinates (checked against `dims` if
/// given) and a value.
fn entry<V: FileValue, const DIM: usize>(
    line: &str,
    dims: Option<&[usize; DIM]>,
) -> Result<([usize; DIM], V), (usize, ParseErrorKind)> {
    let end = line.chars().count() + 1;
    let mut toks = tokens(line);
    let mut c = [0usize; DIM];
    for (d, slot) in c.iter_mut().enumerate() {
        let (col, t) = toks.next().ok_or((
            end,
            ParseErrorKind::MissingToken {
                expected: "a coordinate",
            },
        ))?;
        let size = dims.map_or(usize::MAX, |s| s.get(d).copied().unwrap_or(0));
        *slot = coordinate(t, d, size).map_err(|k| (col, k))?;
    }
    let (vc, vt) = toks.next().ok_or((
        end,
        ParseErrorKind::MissingToken {
            expected: "a value",
        },
    ))?;
    // A complex value is two numbers, real part first (as `write_frostt`
    // writes it).
    let v = if V::COMPLEX {
        let (_, it) = toks.next().ok_or((
            end,
            ParseErrorKind::MissingToken {
                expected: "the imaginary part",
            },
        ))?;
        V::parse_complex(vt, it)
    } else {
        V::parse_real(vt)
    };
    let v = v.ok_or((vc, ParseErrorKind::BadValue))?;
    if let Some((col, _)) = toks.next() {
        return Err((col, ParseErrorKind::ExtraToken));
    }
    Ok((c, v))
}

/// Writes a tensor in MLIR's extended FROSTT form: `rank nse`, the sizes,
/// then one line per stored entry (1-based coordinates, then the value),
/// in storage order.
pub fn write_frostt<V, E, W, const DIM: usize, const LVL: usize>(
    tensor: &SparseTensor<'_, V, E, DIM, LVL>,
    writer: W,
) -> Result<(), IoError>
where
    V: FileValue,
    E: Encoding,
    W: Write,
{
    let mut w = BufWriter::new(writer);
    let mut nse = 0usize;
    tensor.for_each(|_, _| nse += 1);
    writeln!(w, "{DIM} {nse}")?;
    let mut first = true;
    for d in tensor.dim_sizes() {
        if !first {
            write!(w, " ")?;
        }
        write!(w, "{d}")?;
        first = false;
    }
    writeln!(w)?;
    let mut result = Ok(());
    tensor.for_each(|c, v| {
        if result.is_err() {
            return;
        }
        for x in c {
            if let Err(e) = write!(w, "{} ", x + 1) {
                result = Err(e);
                return;
            }
        }
        result = writeln!(w, "{}", super::value::InFile(v));
    });
    result?;
    w.flush()?;
    Ok(())
}
