//! Element types: MLIR's names, the Rust types that hold them, and the tag
//! an `explicitVal` code records. The one list both the compiler and the
//! runtime use.

/// The element type of a tensor, a typed constant or an `explicitVal` (the
/// element types `sparse_kernel!` accepts).
///
/// `f16`, `bf16` (Rust `half::f16`/`half::bf16`) and `complex<f32>`,
/// `complex<f64>` (Rust `num_complex::Complex<f32>`/`<f64>`) need
/// sparse-core's `half` and `complex` features in the crate that uses the
/// kernels; they cannot be an `explicitVal` (see [`ValueType::packs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueType {
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
    /// `ui16` (Rust `u16`)
    U16,
    /// `ui32` (Rust `u32`)
    U32,
    /// `ui64` (Rust `u64`)
    U64,
    /// `i1` (Rust `bool`)
    Bool,
    /// `index` (Rust `usize`)
    Index,
    /// `f16`, IEEE binary16 (Rust `half::f16`)
    F16,
    /// `bf16`, bfloat16 (Rust `half::bf16`)
    BF16,
    /// `complex<f32>` (Rust `num_complex::Complex<f32>`)
    Complex32,
    /// `complex<f64>` (Rust `num_complex::Complex<f64>`)
    Complex64,
}

impl ValueType {
    /// The MLIR names accepted, in tag order (for messages).
    pub const MLIR_NAMES: [&str; 16] = [
        "f32",
        "f64",
        "i8",
        "i16",
        "i32",
        "i64",
        "ui8",
        "ui16",
        "ui32",
        "ui64",
        "i1",
        "index",
        "f16",
        "bf16",
        "complex<f32>",
        "complex<f64>",
    ];

    /// Every value type, in tag order.
    pub const ALL: [ValueType; 16] = [
        ValueType::F32,
        ValueType::F64,
        ValueType::I8,
        ValueType::I16,
        ValueType::I32,
        ValueType::I64,
        ValueType::U8,
        ValueType::U16,
        ValueType::U32,
        ValueType::U64,
        ValueType::Bool,
        ValueType::Index,
        ValueType::F16,
        ValueType::BF16,
        ValueType::Complex32,
        ValueType::Complex64,
    ];

    /// The type for an MLIR name (`f32`, `ui8`, `i1`, `complex<f64>`, with
    /// or without spaces inside `<>`; the signless-integer spellings
    /// `si8`..`si64` and Rust's `u8`..`u64`, `bool`, `usize` too).
    pub fn from_name(name: &str) -> Option<ValueType> {
        Some(match name {
            "f32" => ValueType::F32,
            "f64" => ValueType::F64,
            "i8" | "si8" => ValueType::I8,
            "i16" | "si16" => ValueType::I16,
            "i32" | "si32" => ValueType::I32,
            "i64" | "si64" => ValueType::I64,
            "ui8" | "u8" => ValueType::U8,
            "ui16" | "u16" => ValueType::U16,
            "ui32" | "u32" => ValueType::U32,
            "ui64" | "u64" => ValueType::U64,
            "i1" | "bool" => ValueType::Bool,
            "index" | "usize" => ValueType::Index,
            "f16" => ValueType::F16,
            "bf16" => ValueType::BF16,
            _ => {
                let inner = name.strip_prefix("complex<")?.strip_suffix('>')?.trim();
                match inner {
                    "f32" => ValueType::Complex32,
                    "f64" => ValueType::Complex64,
                    _ => return None,
                }
            }
        })
    }

    /// The tag in a values code: 1..=16 (0 marks "no `explicitVal`").
    pub const fn tag(self) -> u8 {
        self as u8 + 1
    }

    /// The inverse of [`ValueType::tag`].
    pub const fn from_tag(tag: u8) -> Option<ValueType> {
        if tag == 0 || tag as usize > Self::ALL.len() {
            return None;
        }
        Some(Self::ALL[tag as usize - 1])
    }

    /// Whether an `explicitVal` of this type packs into a values code: its
    /// bits fit the code's 64 and `sparse-vocab` can compute them in a
    /// `const fn` (every type but `f16`, `bf16` and the complex ones).
    pub const fn packs(self) -> bool {
        !matches!(
            self,
            ValueType::F16 | ValueType::BF16 | ValueType::Complex32 | ValueType::Complex64
        )
    }

    /// How many bits the value occupies: the type's width (`index` counts
    /// as 64 bits on every target, as MLIR's does; a complex number as its
    /// two parts).
    pub const fn width(self) -> u32 {
        match self {
            ValueType::Bool => 1,
            ValueType::I8 | ValueType::U8 => 8,
            ValueType::I16 | ValueType::U16 | ValueType::F16 | ValueType::BF16 => 16,
            ValueType::F32 | ValueType::I32 | ValueType::U32 => 32,
            ValueType::F64
            | ValueType::I64
            | ValueType::U64
            | ValueType::Index
            | ValueType::Complex32 => 64,
            ValueType::Complex64 => 128,
        }
    }

    /// The MLIR name (`i64`, `ui8`, `i1`, `index`, `complex<f32>`, ...).
    pub const fn mlir_name(self) -> &'static str {
        Self::MLIR_NAMES[self as usize]
    }

    /// The Rust type that holds it, as a user writes it (`f32`, `u8`,
    /// `f16` from `half`, `Complex<f64>` from `num_complex`).
    pub const fn rust_name(self) -> &'static str {
        match self {
            ValueType::F32 => "f32",
            ValueType::F64 => "f64",
            ValueType::I8 => "i8",
            ValueType::I16 => "i16",
            ValueType::I32 => "i32",
            ValueType::I64 => "i64",
            ValueType::U8 => "u8",
            ValueType::U16 => "u16",
            ValueType::U32 => "u32",
            ValueType::U64 => "u64",
            ValueType::Bool => "bool",
            ValueType::Index => "usize",
            ValueType::F16 => "f16",
            ValueType::BF16 => "bf16",
            ValueType::Complex32 => "Complex<f32>",
            ValueType::Complex64 => "Complex<f64>",
        }
    }

    /// Whether `core` has the type (a primitive); `f16`, `bf16` and the
    /// complex types come from `half` and `num_complex`.
    pub const fn is_primitive(self) -> bool {
        self.packs()
    }

    /// Whether arithmetic is floating point (no wrapping, no integer
    /// division rule): the real float types and the complex ones.
    pub const fn is_float(self) -> bool {
        self.int_range().is_none()
    }

    /// Whether the type is a real floating-point type (`f16`, `bf16`,
    /// `f32`, `f64`), which has an order and the real math functions.
    pub const fn is_real_float(self) -> bool {
        matches!(
            self,
            ValueType::F32 | ValueType::F64 | ValueType::F16 | ValueType::BF16
        )
    }

    /// Whether the type is a half-precision float (`f16`, `bf16`), whose
    /// math functions are computed in `f32`.
    pub const fn is_half(self) -> bool {
        matches!(self, ValueType::F16 | ValueType::BF16)
    }

    /// Whether the type is complex.
    pub const fn is_complex(self) -> bool {
        matches!(self, ValueType::Complex32 | ValueType::Complex64)
    }

    /// The type of a complex number's parts (`f32` for `complex<f32>`),
    /// `None` for the other types.
    pub const fn complex_part(self) -> Option<ValueType> {
        match self {
            ValueType::Complex32 => Some(ValueType::F32),
            ValueType::Complex64 => Some(ValueType::F64),
            _ => None,
        }
    }

    /// Whether values may be negated: signed integers and every float.
    pub const fn is_signed(self) -> bool {
        matches!(
            self,
            ValueType::I8 | ValueType::I16 | ValueType::I32 | ValueType::I64
        ) || self.is_float()
    }

    /// The range of an integer type (`index` as 64 bits, `i1` as 0..=1),
    /// `None` for floats and complex numbers.
    pub const fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            ValueType::I8 => (i8::MIN as i128, i8::MAX as i128),
            ValueType::I16 => (i16::MIN as i128, i16::MAX as i128),
            ValueType::I32 => (i32::MIN as i128, i32::MAX as i128),
            ValueType::I64 => (i64::MIN as i128, i64::MAX as i128),
            ValueType::U8 => (0, u8::MAX as i128),
            ValueType::U16 => (0, u16::MAX as i128),
            ValueType::U32 => (0, u32::MAX as i128),
            ValueType::U64 | ValueType::Index => (0, u64::MAX as i128),
            ValueType::Bool => (0, 1),
            ValueType::F32
            | ValueType::F64
            | ValueType::F16
            | ValueType::BF16
            | ValueType::Complex32
            | ValueType::Complex64 => return None,
        })
    }

    /// The mask of the low [`ValueType::width`] bits of a values code
    /// (types that do not pack have none).
    pub(crate) const fn mask(self) -> u64 {
        if !self.packs() {
            return 0;
        }
        u64::MAX >> (64 - self.width())
    }
}

/// Errors of `sparse-core` that name an element type print it as MLIR
/// does (`f32`, `ui8`, `i1`) on firmware too.
#[cfg(feature = "defmt")]
impl defmt::Format for ValueType {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.mlir_name());
    }
}

#[cfg(test)]
mod tests {
    use super::ValueType;

    #[test]
    fn names_round_trip() {
        for ty in ValueType::ALL {
            assert_eq!(ValueType::from_name(ty.mlir_name()), Some(ty));
            assert_eq!(ValueType::from_tag(ty.tag()), Some(ty));
        }
        assert_eq!(
            ValueType::from_name("complex< f64 >"),
            Some(ValueType::Complex64)
        );
        assert_eq!(ValueType::from_name("complex<i32>"), None);
        assert_eq!(ValueType::from_name("f8E4M3FN"), None);
    }

    #[test]
    fn kinds() {
        assert!(ValueType::Complex32.is_float() && !ValueType::Complex32.is_real_float());
        assert!(ValueType::BF16.is_half() && ValueType::BF16.is_real_float());
        assert!(!ValueType::U8.is_float() && !ValueType::Bool.is_float());
        assert!(!ValueType::U8.is_signed() && ValueType::F16.is_signed());
        assert_eq!(ValueType::Complex64.complex_part(), Some(ValueType::F64));
        assert_eq!(ValueType::Complex64.width(), 128);
        assert!(ValueType::ALL.iter().all(|t| t.packs() == t.is_primitive()));
    }
}
