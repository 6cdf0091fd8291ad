//! NumPy `.npy` files for `file("...")` constants: versions 1 to 3, C
//! order, little-endian (or byte-sized) `f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1`,
//! read as a dense tensor of the file's shape.

use super::constant_file::{int_value, FileData};
use super::constant_value::Scalar;
use super::ValueType;
use crate::syntax::ScalarLit;

/// Parses a `.npy` file (dense, C order).
pub(super) fn read_npy(bytes: &[u8], elem: ValueType) -> Result<FileData, String> {
    let rest = bytes
        .strip_prefix(b"\x93NUMPY")
        .ok_or("not a NumPy file (no `\\x93NUMPY` magic)")?;
    let (&major, rest) = rest.split_first().ok_or("truncated header")?;
    let rest = rest.get(1..).ok_or("truncated header")?;
    let (len, rest) = match major {
        1 => {
            let b = rest.get(..2).ok_or("truncated header")?;
            (u16::from_le_bytes([b[0], b[1]]) as usize, &rest[2..])
        }
        2 | 3 => {
            let b = rest.get(..4).ok_or("truncated header")?;
            (
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
                &rest[4..],
            )
        }
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = rest.get(..len).ok_or("truncated header")?;
    let data = &rest[len..];
    let header = std::str::from_utf8(header).map_err(|_| "the header is not text")?;
    let descr = dict_value(header, "descr").ok_or("the header has no 'descr'")?;
    let descr = descr.trim_matches(|c| c == '\'' || c == '"');
    let fortran = dict_value(header, "fortran_order").ok_or("the header has no 'fortran_order'")?;
    if fortran.trim() != "False" {
        return Err("Fortran-order arrays are not supported; save it in C order".to_string());
    }
    let shape_text = dict_value(header, "shape").ok_or("the header has no 'shape'")?;
    let shape: Vec<u64> = shape_text
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("cannot read the shape `{shape_text}`"))?;
    let (order, kind, size) = {
        let mut chars = descr.chars();
        let order = chars.next().unwrap_or(' ');
        let kind = chars.next().unwrap_or(' ');
        let size: usize = chars.as_str().parse().unwrap_or(0);
        (order, kind, size)
    };
    if order == '>' && size > 1 {
        return Err(format!(
            "big-endian data (`{descr}`) is not supported; save it little-endian"
        ));
    }
    if !matches!(order, '<' | '|' | '=') {
        return Err(format!(
            "unsupported dtype `{descr}`; a dtype starts with its byte order, `<` (little-endian), \
             `|` (bytes) or `=`, e.g. `<f4` or `|b1`"
        ));
    }
    let valid = matches!(
        (kind, size),
        ('f', 2 | 4 | 8) | ('c', 8 | 16) | ('i', 1 | 2 | 4 | 8) | ('u', 1 | 2 | 4 | 8) | ('b', 1)
    );
    if !valid {
        return Err(format!(
            "unsupported dtype `{descr}`; expected f2, f4, f8, c8, c16, i1..i8, u1..u8 or b1"
        ));
    }
    super::constant_file::check_dense_shape(&shape)?;
    let count = shape
        .iter()
        .try_fold(1u64, |acc, &n| acc.checked_mul(n))
        .filter(|&c| c <= super::constant_layout::MAX_STORED as u64)
        .ok_or("the array is too large")? as usize;
    if data.len() != count * size {
        return Err(format!(
            "the data holds {} bytes, but {count} elements of `{descr}` need {}",
            data.len(),
            count * size
        ));
    }
    let mut values = Vec::with_capacity(count);
    for (k, chunk) in data.chunks_exact(size).enumerate() {
        if kind == 'c' {
            let value = complex_value(chunk, descr, elem);
            values.push((value.map_err(|m| format!("element {k}: {m}"))?, 0));
            continue;
        }
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(chunk);
        let raw = u64::from_le_bytes(b);
        let value = match kind {
            'f' => {
                if !elem.is_float() {
                    return Err(format!(
                        "the file holds floats (`{descr}`) but the element type is `{}`; use \
                         `f32` or `f64`, or save the array with an integer dtype",
                        elem.mlir_name()
                    ));
                }
                let x = match size {
                    2 => half::f16::from_bits(raw as u16).to_f64(),
                    4 => f64::from(f32::from_bits(raw as u32)),
                    _ => f64::from_bits(raw),
                };
                match elem {
                    ValueType::F32 => Ok(Scalar::F32(x as f32)),
                    ValueType::F64 => Ok(Scalar::F64(x)),
                    // `<f2` into `f16`: the bits as they are.
                    ValueType::F16 if size == 2 => Ok(Scalar::F16(raw as u16)),
                    e if e.is_complex() => Scalar::convert(ScalarLit::Complex(x, 0.0), e),
                    e => Scalar::convert(ScalarLit::Float(x), e),
                }
            }
            'b' => match (elem, raw) {
                (ValueType::Bool, 0 | 1) => Ok(Scalar::Bool(raw == 1)),
                (ValueType::Bool, _) => Err(format!("{raw} is not a bool")),
                _ => {
                    return Err(format!(
                        "the file holds booleans but the element type is `{}`; use `i1`",
                        elem.mlir_name()
                    ))
                }
            },
            'i' => {
                let shift = 64 - 8 * size as u32;
                int_value(i128::from(((raw << shift) as i64) >> shift), elem)
            }
            _ => int_value(i128::from(raw), elem),
        };
        values.push((value.map_err(|m| format!("element {k}: {m}"))?, 0));
    }
    Ok(FileData::Dense { shape, values })
}

/// One element of a complex dtype (`<c8`: two `f32`, `<c16`: two `f64`,
/// real part first) as an element of `elem`, which must be complex.
fn complex_value(chunk: &[u8], descr: &str, elem: ValueType) -> Result<Scalar, String> {
    if !elem.is_complex() {
        return Err(format!(
            "the file holds complex numbers (`{descr}`) but the element type is `{}`; use \
             `complex<f32>` or `complex<f64>`",
            elem.mlir_name()
        ));
    }
    let half = chunk.len() / 2;
    let part = |bytes: &[u8]| -> f64 {
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        if bytes.len() == 4 {
            f64::from(f32::from_bits(u64::from_le_bytes(b) as u32))
        } else {
            f64::from_bits(u64::from_le_bytes(b))
        }
    };
    let (re, im) = (part(&chunk[..half]), part(&chunk[half..]));
    Scalar::convert(ScalarLit::Complex(re, im), elem)
}

/// The text of `'key': VALUE` in a Python dict literal, up to the next
/// top-level comma (parentheses nest).
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = &header[at + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' | '}' if depth == 0 => return Some(rest[..i].trim()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut header =
            format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(' ');
        }
        header.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn npy_reads_little_endian_c_order() {
        let data: Vec<u8> = [1.0f32, 0.0, -2.0, 0.5, 0.0, 3.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let FileData::Dense { shape, values } =
            read_npy(&npy("<f4", "(2, 3)", &data), ValueType::F32).unwrap()
        else {
            panic!("expected dense data");
        };
        assert_eq!(shape, [2, 3]);
        let v: Vec<Scalar> = values.into_iter().map(|(v, _)| v).collect();
        assert_eq!(v, [1.0, 0.0, -2.0, 0.5, 0.0, 3.0].map(Scalar::F32));
        let FileData::Dense { values, .. } =
            read_npy(&npy("|i1", "(2,)", &[0xFF, 7]), ValueType::I16).unwrap()
        else {
            panic!("expected dense data");
        };
        assert_eq!(values[0].0, Scalar::Int(-1));
        assert_eq!(values[1].0, Scalar::Int(7));
    }

    #[test]
    fn npy_errors() {
        let err = |bytes: &[u8], elem| match read_npy(bytes, elem) {
            Err(m) => m,
            Ok(_) => panic!("expected an error"),
        };
        assert!(err(&npy(">f8", "(1,)", &[0; 8]), ValueType::F64).contains("big-endian"));
        assert!(err(&npy("<f4", "(2,)", &[0; 4]), ValueType::F32).contains("need 8"));
        assert!(err(&npy("<i2", "(1,)", &[0x2C, 0x01]), ValueType::I8)
            .contains("element 0: 300 does not fit `i8`"));
        assert_eq!(
            err(&npy("<f4", "(1,)", &[0; 4]), ValueType::I32),
            "the file holds floats (`<f4`) but the element type is `i32`; use `f32` or `f64`, or \
             save the array with an integer dtype"
        );
        // A dtype without its byte order is told what it lacks.
        assert_eq!(
            err(&npy("f4", "(1,)", &[0; 4]), ValueType::F32),
            "unsupported dtype `f4`; a dtype starts with its byte order, `<` (little-endian), \
             `|` (bytes) or `=`, e.g. `<f4` or `|b1`"
        );
        assert!(err(b"PK\x03\x04", ValueType::F32).contains("not a NumPy file"));
        // A size no element backs (beside a 0) would reach rustc as an
        // array type of that length: refused here, with the reason.
        let e = err(
            &npy("<f4", "(0, 18446744073709551615)", &[]),
            ValueType::F32,
        );
        assert!(
            e.contains("a dense file of shape 0x18446744073709551615 is too large"),
            "{e}"
        );
    }
}
