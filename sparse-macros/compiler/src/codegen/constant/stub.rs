//! The `static` of a constant whose value has errors (a `ConstantStub`):
//! its name and type with an empty value, so uses of it add no errors of
//! their own next to the value's.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::super::elem_type;
use crate::model::{ConstantStub, Model, ValueType};

/// The static of a constant whose value has errors: the right type, an
/// empty value (a sparse tensor of size 0, a zeroed array), so that uses
/// of it type-check and only the value's own errors are reported.
pub(super) fn stub_static(model: &Model, stub: &ConstantStub, generated: &[String]) -> TokenStream {
    let name = &stub.name;
    let attrs = &stub.attrs;
    let vis = &stub.vis;
    let elem = elem_type(stub.elem);
    match &stub.encoding {
        Some(enc_name) => {
            let Some(enc) = model
                .encoding(&enc_name.to_string())
                .filter(|_| generated.contains(&enc_name.to_string()))
            else {
                return TokenStream::new();
            };
            let dim = Literal::usize_unsuffixed(enc.dims.len());
            let lvl = Literal::usize_unsuffixed(enc.levels.len());
            quote! {
                #(#attrs)*
                #vis static #name: #enc_name<'static, #elem> =
                    // SAFETY: never runs: the block has compile errors.
                    unsafe {
                        ::sparse_core::__private::constant_tensor(
                            [0; #dim],
                            [0; #lvl],
                            [::sparse_core::__private::constant_level(&[], &[], 1, 0); #lvl],
                            &[],
                            0,
                        )
                    };
            }
        }
        None => {
            let elements = stub
                .shape
                .iter()
                .try_fold(1u64, |acc, s| s.and_then(|n| acc.checked_mul(n)));
            // rustc evaluates the stub's zeros even though the block has
            // errors: a refused 8192x8192 splat cost 630 MB of rustc memory
            // as a stub. Past the constants' own limit there is no stub (a
            // use of the name is then one more error, not a gigabyte).
            if elements.is_none_or(|n| n > crate::model::MAX_STORED as u64) {
                return TokenStream::new();
            }
            let mut ty = elem.clone();
            let mut init = match stub.elem {
                ValueType::F32 | ValueType::F64 => quote!(0.0),
                ValueType::Bool => quote!(false),
                _ => quote!(0),
            };
            for size in stub.shape.iter().rev() {
                let Some(n) = size else {
                    return TokenStream::new();
                };
                let n = Literal::u64_unsuffixed(*n);
                ty = quote!([#ty; #n]);
                init = quote!([#init; #n]);
            }
            quote! {
                #(#attrs)*
                #vis static #name: #ty = #init;
            }
        }
    }
}
