//! A float walk handed whole to sparse-core's `dot_gather` (the
//! schedule's `gather_dot` rule, `#[reassociate]`): the row's range, one
//! call, and its sum added to the reduction local the walk's entries
//! would have been added to.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::expr::{acc, sum_acc};
use super::iterate::private;
use super::Gen;
use crate::schedule::GatherDot;
use crate::sparsifier::Node;

impl Gen<'_> {
    /// `range`, then `r += dot_gather(isa, crd, val, lo, hi, x)`, `isa`
    /// the running copy's token (`vector_isa.rs`).
    pub(super) fn gather_dot_walk(
        &mut self,
        g: GatherDot,
        lv: usize,
        (lo, hi): (&Ident, &Ident),
        range: TokenStream,
        body: &[Node],
    ) -> TokenStream {
        let t = g.values;
        let crd = self.coordinates(t, lv);
        let val = self.values(t);
        let x = self.data(g.input);
        let dot = self.tlocal(t, "dot");
        let fold = match body {
            [Node::SumAdd { local, .. }] => {
                let r = sum_acc(*local);
                self.add_assign(g.elem, quote!(#r), quote!(#dot))
            }
            _ => {
                let r = acc();
                self.fold(quote!(#r), quote!(#dot))
            }
        };
        let (a, input) = (self.info(t).name.clone(), self.info(g.input).name.clone());
        let doc = format!(
            " SAFETY: `{lo}..{hi}` is the range level {lv} of `{a}` stores under one parent \
             entry; a validated tensor has `{lo}` <= `{hi}` <= its entry count, the length of \
             this level's coordinate buffer and of its values, and every coordinate below the \
             dimension size the prologue checked against `{input}`'s length{}.",
            if g.increasing {
                "; the level is ordered and unique, so its coordinates strictly increase \
                 under one parent entry (validation checked it)"
            } else {
                ""
            }
        );
        let call = private(if g.increasing {
            "dot_gather_increasing"
        } else {
            "dot_gather"
        });
        let isa = super::vector_isa::isa_token();
        quote! {
            #range
            #[doc = #doc]
            let #dot = unsafe { #call(#isa, #crd, #val, #lo, #hi, #x) };
            #fold
        }
    }
}
