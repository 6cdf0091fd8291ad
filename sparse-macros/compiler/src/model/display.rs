//! The canonical MLIR text of encodings and tensor types, as MLIR prints
//! them: dimensions `d0, d1, ...`, symbols `s0`, default fields left out.
//! Parsing the text again gives the same meaning (a round-trip test checks
//! it for every example), so it is what generated doc comments show.

use std::fmt;

use super::{Encoding, Slice, TensorType, Value};
use crate::syntax::LiteralValue;
use crate::vocab::{LevelExpr, LevelFormat, LevelType, Width};

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#sparse_tensor.encoding<{{ map = ")?;
        let counting = self
            .levels
            .iter()
            .any(|l| matches!(l.expr, LevelExpr::Counting { .. }));
        if counting {
            write!(f, "[s0]")?;
        }
        write!(f, "(")?;
        for (d, dim) in self.dims.iter().enumerate() {
            if d > 0 {
                write!(f, ", ")?;
            }
            write!(f, "d{d}")?;
            if let Some(slice) = &dim.slice {
                write!(f, " : {slice}")?;
            }
        }
        write!(f, ") -> (")?;
        for (l, level) in self.levels.iter().enumerate() {
            if l > 0 {
                write!(f, ", ")?;
            }
            write_expr(f, level.expr)?;
            write!(f, " : ")?;
            write_level_type(f, level.ty)?;
        }
        write!(f, ")")?;
        for (key, width) in [("posWidth", self.pos_width), ("crdWidth", self.crd_width)] {
            if width != Width::Native {
                write!(f, ", {key} = {}", width_bits(width))?;
            }
        }
        for (key, value) in [
            ("explicitVal", &self.explicit_val),
            ("implicitVal", &self.implicit_val),
        ] {
            if let Some(value) = value {
                write!(f, ", {key} = {}", ValueText(value))?;
            }
        }
        write!(f, " }}>")
    }
}

/// A value as MLIR writes it: `1 : i64`, `1.5 : f32`, `true : i1`.
struct ValueText<'a>(&'a Value);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        match value.literal {
            LiteralValue::Int(n) if value.ty == super::ValueType::Bool => write!(f, "{}", n != 0)?,
            LiteralValue::Int(n) => write!(f, "{n}")?,
            LiteralValue::Float(x) => write!(f, "{x:?}")?,
        }
        write!(f, " : {}", value.ty.mlir_name())
    }
}

fn width_bits(width: Width) -> u32 {
    match width {
        Width::Native => 0,
        Width::W2 => 2,
        Width::W8 => 8,
        Width::W16 => 16,
        Width::W32 => 32,
        Width::W64 => 64,
    }
}

impl Encoding {
    /// The levels in words, for type-mismatch messages: `(dense,
    /// compressed)` when level `l` stores dimension `l` (CSR), each
    /// level's expression otherwise (`(d1 : dense, d0 : compressed)` for
    /// CSC), then the widths and the explicit value when given.
    pub fn summary(&self) -> String {
        struct Expr(LevelExpr);
        impl fmt::Display for Expr {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_expr(f, self.0)
            }
        }
        struct Ty(LevelType);
        impl fmt::Display for Ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_level_type(f, self.0)
            }
        }
        let identity =
            self.levels.len() == self.dims.len()
                && self.levels.iter().enumerate().all(
                    |(l, level)| matches!(level.expr, LevelExpr::Dim(d) if usize::from(d) == l),
                );
        let mut parts: Vec<String> = self
            .levels
            .iter()
            .map(|level| {
                if identity {
                    Ty(level.ty).to_string()
                } else {
                    format!("{} : {}", Expr(level.expr), Ty(level.ty))
                }
            })
            .collect();
        for (key, width) in [("posWidth", self.pos_width), ("crdWidth", self.crd_width)] {
            if width != Width::Native {
                parts.push(format!("{key} = {}", width_bits(width)));
            }
        }
        if let Some(value) = &self.explicit_val {
            parts.push(format!("explicitVal = {}", ValueText(value)));
        }
        format!("({})", parts.join(", "))
    }
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: Option<u64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
        write!(
            f,
            "#sparse_tensor<slice({}, {}, {})>",
            show(self.offset),
            show(self.size),
            show(self.stride)
        )
    }
}

fn write_expr(f: &mut fmt::Formatter<'_>, expr: LevelExpr) -> fmt::Result {
    match expr {
        LevelExpr::Dim(d) => write!(f, "d{d}"),
        LevelExpr::FloorDiv { dim, divisor } => write!(f, "d{dim} floordiv {divisor}"),
        LevelExpr::Mod { dim, modulus } => write!(f, "d{dim} mod {modulus}"),
        LevelExpr::Counting { dim, slices } => write!(f, "s0 * {slices} * d{dim}"),
    }
}

fn write_level_type(f: &mut fmt::Formatter<'_>, ty: LevelType) -> fmt::Result {
    match ty.format {
        LevelFormat::Structured { n, m } => write!(f, "structured[{n}, {m}]")?,
        format => write!(f, "{}", format.name())?,
    }
    let props: Vec<&str> = ty.props.names().collect();
    if !props.is_empty() {
        write!(f, "({})", props.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor<")?;
        for size in &self.shape {
            match size {
                Some(n) => write!(f, "{n}x")?,
                None => write!(f, "?x")?,
            }
        }
        write!(f, "{}", self.elem.mlir_name())?;
        if let Some(enc) = &self.encoding {
            write!(f, ", #{enc}")?;
        }
        write!(f, ">")
    }
}
