//! A walk handed whole to sparse-core's `dot_s8` (the schedule's
//! `dual_mac` rule): the row's range, the loop-invariant offset once, one
//! call, and its sum folded into the reduction local as the walk's
//! entries would have been.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::expr::{acc, sum_acc};
use super::iterate::private;
use super::{Gen, Scope};
use crate::schedule::DualMac;
use crate::sparsifier::{Expr, Node, Value};
use crate::vocab::ValueType;

impl Gen<'_> {
    /// `range`, then `r += dot_s8(crd, val, lo, hi, x, off)`.
    pub(super) fn dual_mac_walk(
        &mut self,
        d: &DualMac,
        lv: usize,
        (lo, hi): (&Ident, &Ident),
        range: TokenStream,
        body: &[Node],
        scope: &Scope,
    ) -> TokenStream {
        let t = d.weights;
        let crd = self.coordinates(t, lv);
        let val = self.values(t);
        let x = self.data(d.input);
        let off = self.tlocal(t, "off");
        let bind_off = self.bind_offset(&off, d.offset.as_ref(), scope);
        let dot = self.tlocal(t, "dot");
        let fold = self.fold_dot(&dot, body);
        let (w, input) = (self.info(t).name.clone(), self.info(d.input).name.clone());
        let doc = format!(
            " SAFETY: `{lo}..{hi}` is the range level {lv} of `{w}` stores under one parent \
             entry; a validated tensor has `{lo}` <= `{hi}` <= its entry count, the length of \
             this level's coordinate buffer and of its values, and every coordinate below the \
             dimension size the prologue checked against `{input}`'s length."
        );
        let call = private("dot_s8");
        quote! {
            #range
            #bind_off
            #[doc = #doc]
            let #dot = unsafe { #call(#crd, #val, #lo, #hi, #x, #off) };
            #fold
        }
    }

    /// `let off: i32 = <offset or 0>;`.
    pub(super) fn bind_offset(
        &mut self,
        off: &Ident,
        offset: Option<&Expr>,
        scope: &Scope,
    ) -> TokenStream {
        match offset {
            Some(e) => self.with_value(
                &Value::Expr(e.clone()),
                scope,
                |_, v| quote!(let #off: ::core::primitive::i32 = #v;),
            ),
            None => quote!(let #off: ::core::primitive::i32 = 0;),
        }
    }

    /// The call's result `dot` added to the local the replaced `body`
    /// (one `SumAdd` or `Accumulate`) added into.
    pub(super) fn fold_dot(&mut self, dot: &Ident, body: &[Node]) -> TokenStream {
        match body {
            [Node::SumAdd { local, .. }] => {
                let r = sum_acc(*local);
                self.add_assign(ValueType::I32, quote!(#r), quote!(#dot))
            }
            _ => {
                let r = acc();
                self.fold(quote!(#r), quote!(#dot))
            }
        }
    }
}
