//! Element types: MLIR's names and the Rust types they become.

use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::syntax::ElemSyntax;

/// The element type of a tensor or of a typed constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `ui8` (Rust `u8`)
    U8,
    /// `ui16`
    U16,
    /// `ui32`
    U32,
    /// `ui64`
    U64,
    /// `i1` (Rust `bool`)
    Bool,
    /// `index` (Rust `usize`)
    Index,
}

/// The MLIR names accepted, for messages.
const NAMES: [&str; 12] = [
    "f32", "f64", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "i1", "index",
];

impl ElemType {
    /// The type for an MLIR name (Rust's own spellings `u8`, `bool`,
    /// `usize` are accepted too).
    pub fn from_name(name: &str) -> Result<ElemType, String> {
        Ok(match name {
            "f32" => ElemType::F32,
            "f64" => ElemType::F64,
            "i8" | "si8" => ElemType::I8,
            "i16" | "si16" => ElemType::I16,
            "i32" | "si32" => ElemType::I32,
            "i64" | "si64" => ElemType::I64,
            "ui8" | "u8" => ElemType::U8,
            "ui16" | "u16" => ElemType::U16,
            "ui32" | "u32" => ElemType::U32,
            "ui64" | "u64" => ElemType::U64,
            "i1" | "bool" => ElemType::Bool,
            "index" | "usize" => ElemType::Index,
            "f16" | "bf16" | "f8E4M3FN" | "f8E5M2" | "tf32" | "f80" | "f128" => {
                return Err(format!(
                    "the element type `{name}` has no Rust type in `core`; use `f32` instead"
                ))
            }
            _ => {
                return Err(format!(
                    "unknown element type `{name}`; expected one of {}{}",
                    NAMES.map(|n| format!("`{n}`")).join(", "),
                    did_you_mean(name, &NAMES)
                ))
            }
        })
    }

    /// Reads a written element type, recording an error if it is unknown.
    pub(crate) fn check(syntax: &ElemSyntax, errors: &mut Errors) -> Option<ElemType> {
        ElemType::from_name(&syntax.name)
            .map_err(|message| errors.error(syntax.span, message))
            .ok()
    }

    /// The MLIR name.
    pub fn mlir_name(self) -> &'static str {
        match self {
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I8 => "i8",
            ElemType::I16 => "i16",
            ElemType::I32 => "i32",
            ElemType::I64 => "i64",
            ElemType::U8 => "ui8",
            ElemType::U16 => "ui16",
            ElemType::U32 => "ui32",
            ElemType::U64 => "ui64",
            ElemType::Bool => "i1",
            ElemType::Index => "index",
        }
    }

    /// The Rust primitive type.
    pub fn rust_name(self) -> &'static str {
        match self {
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I8 => "i8",
            ElemType::I16 => "i16",
            ElemType::I32 => "i32",
            ElemType::I64 => "i64",
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::U64 => "u64",
            ElemType::Bool => "bool",
            ElemType::Index => "usize",
        }
    }

    /// Whether values are floating point.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// The range of an integer type (`index` as 64 bits), `None` for floats.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            ElemType::I8 => (i8::MIN.into(), i8::MAX.into()),
            ElemType::I16 => (i16::MIN.into(), i16::MAX.into()),
            ElemType::I32 => (i32::MIN.into(), i32::MAX.into()),
            ElemType::I64 => (i64::MIN.into(), i64::MAX.into()),
            ElemType::U8 => (0, u8::MAX.into()),
            ElemType::U16 => (0, u16::MAX.into()),
            ElemType::U32 => (0, u32::MAX.into()),
            ElemType::U64 | ElemType::Index => (0, u64::MAX.into()),
            ElemType::Bool => (0, 1),
            ElemType::F32 | ElemType::F64 => return None,
        })
    }
}
