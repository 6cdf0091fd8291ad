//! Element types as generated Rust: the type, its zero, literals of it.
//!
//! The primitives are named through `::core::primitive`; `f16`/`bf16`
//! (crate `half`) and `Complex<f32>`/`Complex<f64>` (crate `num_complex`)
//! through `::sparse_core::__private::elem`, which exists with
//! sparse-core's `half` and `complex` features and otherwise holds the
//! `#[diagnostic::on_unimplemented]` marker that names the feature.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::vocab::ValueType;

/// The Rust type of an element type, hygienically.
pub(crate) fn elem_type(elem: ValueType) -> TokenStream {
    match elem {
        ValueType::F16 => quote!(::sparse_core::__private::elem::f16),
        ValueType::BF16 => quote!(::sparse_core::__private::elem::bf16),
        ValueType::Complex32 => {
            quote!(::sparse_core::__private::elem::Complex<::core::primitive::f32>)
        }
        ValueType::Complex64 => {
            quote!(::sparse_core::__private::elem::Complex<::core::primitive::f64>)
        }
        _ => {
            let ident = format_ident!("{}", elem.rust_name());
            quote!(::core::primitive::#ident)
        }
    }
}

/// The zero of an element type, as a constant expression of that type.
pub(crate) fn zero(elem: ValueType) -> TokenStream {
    match elem {
        ValueType::F16 | ValueType::BF16 => {
            let ty = elem_type(elem);
            quote!(<#ty>::ZERO)
        }
        ValueType::Complex32 | ValueType::Complex64 => {
            let ty = elem_type(elem);
            quote!(<#ty>::new(0.0, 0.0))
        }
        ValueType::Bool => quote!(false),
        _ if elem.is_float() => parse(&format!("0.0_{}", elem.rust_name())),
        _ => parse(&format!("0_{}", elem.rust_name())),
    }
}

/// A number literal (`2.5`, `-1`, `1e3`) as a value of a non-primitive
/// element type: `f16`/`bf16` rounded from the `f64` it reads as, a complex
/// number with that real part. `None` for the primitives, whose literals
/// Rust types itself.
pub(crate) fn typed_number(elem: ValueType, literal: &TokenStream) -> Option<TokenStream> {
    let ty = elem_type(elem);
    match elem {
        ValueType::F16 | ValueType::BF16 => Some(quote!(<#ty>::from_f64_const(#literal as f64))),
        ValueType::Complex32 => Some(quote!(<#ty>::new(#literal as ::core::primitive::f32, 0.0))),
        ValueType::Complex64 => Some(quote!(<#ty>::new(#literal as ::core::primitive::f64, 0.0))),
        _ => None,
    }
}

fn parse(text: &str) -> TokenStream {
    text.parse().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_type_has_a_type_and_a_zero() {
        for ty in ValueType::ALL {
            assert!(!elem_type(ty).is_empty(), "{ty:?}");
            assert!(!zero(ty).is_empty(), "{ty:?}");
        }
        assert_eq!(zero(ValueType::F32).to_string(), "0.0_f32");
        assert_eq!(zero(ValueType::U8).to_string(), "0_u8");
    }
}
