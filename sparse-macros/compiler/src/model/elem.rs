//! Element types: MLIR's names read into `sparse_vocab::ValueType`, the one
//! element type of the compiler and the runtime.

use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::syntax::ElemSyntax;
pub use crate::vocab::ValueType;

/// The former name of [`ValueType`], kept for the code generation of loops
/// until it is renamed there.
pub use crate::vocab::ValueType as ElemType;

/// The type for an MLIR name (Rust's own spellings `u8`, `bool`, `usize`
/// are accepted too), or the message that says what to write instead.
pub fn parse_elem(name: &str) -> Result<ValueType, String> {
    if let Some(ty) = ValueType::from_name(name) {
        return Ok(ty);
    }
    let names = ValueType::MLIR_NAMES;
    Err(match name {
        "f8E4M3FN" | "f8E5M2" | "tf32" | "f80" | "f128" => {
            format!("the element type `{name}` has no Rust type; use `f32` instead")
        }
        _ if name.starts_with("complex<") => format!(
            "`{name}` is not a complex type `sparse_kernel!` has; write `complex<f32>` or \
             `complex<f64>`"
        ),
        _ => format!(
            "unknown element type `{name}`; expected one of {}{}",
            names.map(|n| format!("`{n}`")).join(", "),
            did_you_mean(name, &names)
        ),
    })
}

/// Reads a written element type, recording an error if it is unknown.
pub(crate) fn check(syntax: &ElemSyntax, errors: &mut Errors) -> Option<ValueType> {
    parse_elem(&syntax.name)
        .map_err(|message| errors.error(syntax.span, message))
        .ok()
}
