//! Statements that only copy a sparse input into a sparse output in an
//! order no loop nest can walk (the `Convert` strategy: `c[j, i] = a[i, j]`
//! with DCSR in and out, CSR → CSC written `c[i, j] = a[i, j]`).
//!
//! Lowered as MLIR lowers a `sparse_tensor.convert`: the input is viewed in
//! the output's dimension order without a copy (the same levels under a
//! renamed map; sparse-core checks the view's encoding in `O(levels)`),
//! then `convert` counts and scatters it into the output's own buffers.
//! The kernel's meaning of repeated coordinates is a sum (wrapping for
//! integers, `|` for `i1`), which the conversion applies while it merges.

use proc_macro2::TokenStream;
use quote::quote;

use super::Gen;
use crate::sparsifier::TensorId;
use crate::vocab::LevelExpr;

impl Gen<'_> {
    /// A statement that copies the sparse input `source` into the sparse
    /// output `out` in another order: `source` viewed in the output's
    /// dimension order (its levels renamed, no copy), then converted into
    /// the output's buffers, repeats summed as the kernel means them.
    pub(super) fn convert_statement(
        &mut self,
        out: TensorId,
        source: TensorId,
        perm: &[u8; 8],
    ) -> TokenStream {
        let src = self.info(source).clone();
        let out_info = self.info(out).clone();
        let rank = src.shape.len();
        let perm: Vec<usize> = perm[..rank].iter().map(|&p| usize::from(p)).collect();
        let merge = super::slices::merge_fn(src.elem);
        let a = &src.ident;
        let c = &out_info.ident;
        let name = out_info.name.clone();
        if self.sliced(source).is_some() {
            // A slice, converted in the output's dimension order.
            let perm = perm
                .iter()
                .map(|&p| proc_macro2::Literal::usize_unsuffixed(p));
            return quote! {
                ::sparse_core::__private::convert_slice_into(#a, [#(#perm),*], #c, #name, #merge)?;
            };
        }
        if perm.iter().enumerate().all(|(d, &p)| d == p) {
            // Same dimension order (CSR → BSR, BSR → CSR, a reordered copy
            // into 2:4): no view. A reordered copy is a local view, not a
            // reference parameter.
            let reordered = self.def.params.iter().any(|p| {
                matches!(&p.kind, crate::model::ParamKind::Reordered { tensor, .. } if *tensor == source)
            });
            let a = if reordered { quote!(&#a) } else { quote!(#a) };
            return quote! {
                ::sparse_core::__private::convert_same(#a, #c, #name, #merge)?;
            };
        }
        let Some(enc) = src
            .encoding
            .as_ref()
            .and_then(|e| self.kp.encoding_named(e))
        else {
            // An input with an encoding is checked at its parameter; a
            // reordered copy (no encoding of its own) is only ever
            // converted in its dimension order.
            return self
                .internal::<TokenStream>(
                    source,
                    format!("`{}` cannot be viewed in another dimension order", src.name),
                )
                .unwrap_or_default();
        };
        // Level `l` stores source dimension `e`, which is view dimension
        // `d` with `perm[d] == e`.
        let exprs: Vec<LevelExpr> = src
            .levels
            .iter()
            .map(|l| {
                let d = perm.iter().position(|&p| p == l.dim).unwrap_or(l.dim);
                LevelExpr::Dim(d as u8)
            })
            .collect();
        let (pos, crd) = src
            .encoding
            .as_ref()
            .map(|e| self.widths(e))
            .unwrap_or_default();
        // Literals need no braces as const arguments (and get an
        // `unused_braces` warning with them in expression position).
        let values = match enc.explicit_val.as_ref() {
            Some(v) => {
                let code = proc_macro2::Literal::u128_suffixed(crate::codegen::values_code(v));
                quote!(, #code)
            }
            None => quote!(),
        };
        let enc_ty = crate::codegen::enc_type(&pos, &crd, &enc.level_types(), &exprs, &values);
        let perm = perm
            .iter()
            .map(|&p| proc_macro2::Literal::usize_unsuffixed(p));
        quote! {
            ::sparse_core::__private::convert_into(
                #a,
                [#(#perm),*],
                ::core::marker::PhantomData::<#enc_ty>,
                #c,
                #name,
                #merge,
            )?;
        }
    }
}
