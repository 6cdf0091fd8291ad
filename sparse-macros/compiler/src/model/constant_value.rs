//! The values of a constant: MLIR's rules for reading a literal as an
//! element of a given type (`DenseIntOrFPElementsAttr`'s parser).
//!
//! - Floats take float literals (`1.0`, `-2.5e-3`) or a hexadecimal bit
//!   pattern (`0x7FC00000` is a NaN in `f32`); a decimal integer is refused
//!   (MLIR: "unexpected decimal integer literal for a floating point value").
//! - Integers take decimal literals in the type's range, or a hexadecimal
//!   bit pattern of at most the type's width (`0xFF` is -1 in `i8`); a
//!   float literal is refused, even `2.0`.
//! - `i1` takes `true`/`false` and `0`/`1`; `true`/`false` fit no other type.

use crate::model::ValueType;
use crate::syntax::ScalarLit;

/// One element of a constant, in its element type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// Any integer type (and `index`), its value.
    Int(i128),
    /// An `i1`.
    Bool(bool),
    /// An `f16`, its bits.
    F16(u16),
    /// A `bf16`, its bits.
    BF16(u16),
    /// A `complex<f32>`: real and imaginary parts.
    C32(f32, f32),
    /// A `complex<f64>`.
    C64(f64, f64),
}

impl Scalar {
    /// The zero of `elem`.
    pub fn zero(elem: ValueType) -> Scalar {
        match elem {
            ValueType::F32 => Scalar::F32(0.0),
            ValueType::F64 => Scalar::F64(0.0),
            ValueType::Bool => Scalar::Bool(false),
            ValueType::F16 => Scalar::F16(0),
            ValueType::BF16 => Scalar::BF16(0),
            ValueType::Complex32 => Scalar::C32(0.0, 0.0),
            ValueType::Complex64 => Scalar::C64(0.0, 0.0),
            _ => Scalar::Int(0),
        }
    }

    /// Whether it is zero (`-0.0` included, as MLIR's `!= 0` test sees it).
    pub fn is_zero(self) -> bool {
        match self {
            Scalar::F32(x) => x == 0.0,
            Scalar::F64(x) => x == 0.0,
            Scalar::Int(n) => n == 0,
            Scalar::Bool(b) => !b,
            // `-0.0`: the sign bit alone.
            Scalar::F16(b) | Scalar::BF16(b) => b & 0x7FFF == 0,
            Scalar::C32(re, im) => re == 0.0 && im == 0.0,
            Scalar::C64(re, im) => re == 0.0 && im == 0.0,
        }
    }

    /// Whether the value is exactly the zero of its type: `+0.0` (not
    /// `-0.0`), `0`, `false`. What a dense file may leave out without
    /// changing a dense array built from it.
    pub fn is_plain_zero(self) -> bool {
        match self {
            Scalar::F32(x) => x.to_bits() == 0,
            Scalar::F64(x) => x.to_bits() == 0,
            _ => self.is_zero(),
        }
    }

    /// The value as messages show it.
    pub fn describe(self) -> String {
        match self {
            Scalar::F32(x) => format!("{x:?}"),
            Scalar::F64(x) => format!("{x:?}"),
            Scalar::Int(n) => n.to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::F16(b) => format!("{:?}", half::f16::from_bits(b).to_f64()),
            Scalar::BF16(b) => format!("{:?}", half::bf16::from_bits(b).to_f64()),
            Scalar::C32(re, im) => format!("({re:?}, {im:?})"),
            Scalar::C64(re, im) => format!("({re:?}, {im:?})"),
        }
    }

    /// Reads `lit` as an element of `elem`, or says why it cannot be one.
    pub fn convert(lit: ScalarLit, elem: ValueType) -> Result<Scalar, String> {
        let ty = elem.mlir_name();
        if elem.is_half() || elem.is_complex() || matches!(lit, ScalarLit::Complex(..)) {
            return convert_wide(lit, elem);
        }
        match (lit, elem) {
            (ScalarLit::Float(x), ValueType::F32) => {
                let y = x as f32;
                if x.is_finite() && y.is_infinite() {
                    return Err(format!(
                        "{x:?} is too large for `f32` (at most {:e})",
                        f32::MAX
                    ));
                }
                Ok(Scalar::F32(y))
            }
            (ScalarLit::Float(x), ValueType::F64) => Ok(Scalar::F64(x)),
            (ScalarLit::Hex(bits), ValueType::F32) => u32::try_from(bits)
                .map(|b| Scalar::F32(f32::from_bits(b)))
                .map_err(|_| format!("0x{bits:X} is wider than the 32 bits of `f32`")),
            (ScalarLit::Hex(bits), ValueType::F64) => u64::try_from(bits)
                .map(|b| Scalar::F64(f64::from_bits(b)))
                .map_err(|_| format!("0x{bits:X} is wider than the 64 bits of `f64`")),
            (ScalarLit::Int(n), ValueType::F32 | ValueType::F64) => Err(format!(
                "`{n}` is an integer but `{ty}` is a floating-point type; write `{n}.0` \
                 (MLIR refuses a decimal integer for a float)"
            )),
            (ScalarLit::Bool(b), ValueType::Bool) => Ok(Scalar::Bool(b)),
            (ScalarLit::Bool(b), _) => Err(format!(
                "`{b}` is an `i1` value but the element type is `{ty}`"
            )),
            (ScalarLit::Float(x), _) => Err(format!(
                "`{x:?}` is a floating-point literal but `{ty}` is an integer type"
            )),
            (ScalarLit::Int(n), ValueType::Bool) => match n {
                0 | 1 => Ok(Scalar::Bool(n == 1)),
                _ => Err(format!("{n} does not fit `i1` (0 or 1, `false` or `true`)")),
            },
            (ScalarLit::Int(n), _) => {
                let (min, max) = elem.int_range().unwrap_or((0, 0));
                if n < min || n > max {
                    return Err(format!("{n} does not fit `{ty}` ({min}..={max})"));
                }
                Ok(Scalar::Int(n))
            }
            (ScalarLit::Complex(re, im), _) => Err(format!(
                "`({re:?}, {im:?})` is a complex literal but the element type is `{ty}`"
            )),
            (ScalarLit::Hex(bits), _) => {
                let width = int_width(elem);
                if width < 128 && bits >> width != 0 {
                    return Err(format!(
                        "0x{bits:X} is wider than the {width} bits of `{ty}`"
                    ));
                }
                if elem == ValueType::Bool {
                    return Ok(Scalar::Bool(bits == 1));
                }
                let (min, _) = elem.int_range().unwrap_or((0, 0));
                // Two's complement for signed types: the top bit is the sign.
                let value = if min < 0 && bits >> (width - 1) == 1 {
                    bits as i128 - (1i128 << width)
                } else {
                    bits as i128
                };
                Ok(Scalar::Int(value))
            }
        }
    }
}

/// [`Scalar::convert`] for `f16`, `bf16` and complex elements, and for
/// complex literals: a half takes a float literal, rounded to nearest even
/// (too large is an error, as for `f32`) or its 16-bit pattern; a complex
/// element takes `(re, im)` only, each part rounded as its type.
fn convert_wide(lit: ScalarLit, elem: ValueType) -> Result<Scalar, String> {
    let ty = elem.mlir_name();
    let half = |x: f64| -> Result<u16, String> {
        let (bits, back) = match elem {
            ValueType::F16 => {
                let h = half::f16::from_f64(x);
                (h.to_bits(), h.to_f64())
            }
            _ => {
                let h = half::bf16::from_f64(x);
                (h.to_bits(), h.to_f64())
            }
        };
        if x.is_finite() && back.is_infinite() {
            return Err(format!("{x:?} is too large for `{ty}`"));
        }
        Ok(bits)
    };
    let single = |x: f64| -> Result<f32, String> {
        let y = x as f32;
        if x.is_finite() && y.is_infinite() {
            return Err(format!("{x:?} is too large for the `f32` parts of `{ty}`"));
        }
        Ok(y)
    };
    match (lit, elem) {
        (ScalarLit::Float(x), ValueType::F16) => half(x).map(Scalar::F16),
        (ScalarLit::Float(x), ValueType::BF16) => half(x).map(Scalar::BF16),
        (ScalarLit::Hex(bits), ValueType::F16 | ValueType::BF16) => match u16::try_from(bits) {
            Ok(b) if elem == ValueType::F16 => Ok(Scalar::F16(b)),
            Ok(b) => Ok(Scalar::BF16(b)),
            Err(_) => Err(format!("0x{bits:X} is wider than the 16 bits of `{ty}`")),
        },
        (ScalarLit::Int(n), ValueType::F16 | ValueType::BF16) => Err(format!(
            "`{n}` is an integer but `{ty}` is a floating-point type; write `{n}.0` \
             (MLIR refuses a decimal integer for a float)"
        )),
        (ScalarLit::Complex(re, im), ValueType::Complex32) => {
            Ok(Scalar::C32(single(re)?, single(im)?))
        }
        (ScalarLit::Complex(re, im), ValueType::Complex64) => Ok(Scalar::C64(re, im)),
        (ScalarLit::Complex(re, im), _) => Err(format!(
            "`({re:?}, {im:?})` is a complex literal but the element type is `{ty}`"
        )),
        (lit, _) if elem.is_complex() => {
            let text = match lit {
                ScalarLit::Int(n) => format!("{n}.0"),
                ScalarLit::Float(x) => format!("{x:?}"),
                _ => "x".to_string(),
            };
            Err(format!(
                "a `{ty}` element is written `(re, im)`, as in MLIR: write `({text}, 0.0)`"
            ))
        }
        (ScalarLit::Bool(b), _) => Err(format!(
            "`{b}` is an `i1` value but the element type is `{ty}`"
        )),
        (lit, _) => Err(format!("{lit:?} is not a literal of `{ty}`")),
    }
}

/// The width in bits of an integer element type (`index` as 64).
fn int_width(elem: ValueType) -> u32 {
    match elem {
        ValueType::I8 | ValueType::U8 => 8,
        ValueType::I16 | ValueType::U16 => 16,
        ValueType::I32 | ValueType::U32 | ValueType::F32 => 32,
        ValueType::Bool => 1,
        _ => 64,
    }
}

/// The bytes one element of `elem` takes in flash (`index`, a `usize`, as
/// on 32-bit targets).
pub fn elem_bytes(elem: ValueType) -> usize {
    match elem {
        ValueType::Bool | ValueType::I8 | ValueType::U8 => 1,
        ValueType::I16 | ValueType::U16 | ValueType::F16 | ValueType::BF16 => 2,
        ValueType::F32 | ValueType::I32 | ValueType::U32 | ValueType::Index => 4,
        ValueType::Complex64 => 16,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_as_mlir_reads_them() {
        use ValueType::*;
        assert_eq!(
            Scalar::convert(ScalarLit::Float(1.5), F32),
            Ok(Scalar::F32(1.5))
        );
        assert_eq!(
            Scalar::convert(ScalarLit::Hex(0x3F80_0000), F32),
            Ok(Scalar::F32(1.0))
        );
        assert_eq!(
            Scalar::convert(ScalarLit::Hex(0xFF), I8),
            Ok(Scalar::Int(-1))
        );
        assert_eq!(
            Scalar::convert(ScalarLit::Hex(0xFF), U8),
            Ok(Scalar::Int(255))
        );
        assert_eq!(
            Scalar::convert(ScalarLit::Int(1), Bool),
            Ok(Scalar::Bool(true))
        );
        assert_eq!(
            Scalar::convert(ScalarLit::Int(-128), I8),
            Ok(Scalar::Int(-128))
        );
        let err = |lit, ty| Scalar::convert(lit, ty).unwrap_err();
        assert!(err(ScalarLit::Int(300), I8).contains("300 does not fit `i8` (-128..=127)"));
        assert!(err(ScalarLit::Float(1.5), I32).contains("floating-point literal"));
        assert!(err(ScalarLit::Float(1.0), Bool).contains("integer type"));
        assert!(err(ScalarLit::Int(1), F64).contains("write `1.0`"));
        assert!(err(ScalarLit::Bool(true), F32).contains("`i1` value"));
        assert!(err(ScalarLit::Hex(0x1FF), U8).contains("wider than the 8 bits"));
        assert!(err(ScalarLit::Float(1e39), F32).contains("too large for `f32`"));
    }
}
