//! Row cursors: a dense loop over the rows of a CSR-like operand whose body
//! walks one row and stores one output element, `for i in 0..n { r = 0;
//! walk a[i, :]; y[i] = r }` (SpMV and every row reduction).
//!
//! Instead of loading `pos[i]` and `pos[i + 1]` and writing `y + i`, the loop
//! reads its rows from a `sparse_core::__private::rows` cursor (each row
//! starts where the previous one ended; one position load per row) and,
//! when the output is only written, its elements from a `slots` cursor (a
//! post-incremented store). On the Cortex-M4F the SpMV row costs 10
//! instructions instead of 16. Which loops qualify is the schedule's
//! decision (`schedule/rows.rs`); this file lowers it.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::Ident;

use super::iterate::private;
use super::{Gen, Scope};
use crate::sparsifier::LoopId;

impl Gen<'_> {
    /// For the dense loop `l`, the cursors to declare before it (recorded
    /// in `inner` for the walk and the store to use), when the schedule
    /// gives it a row cursor (`schedule/rows.rs`); empty otherwise.
    /// `scope` is the loop's outer scope, `inner` its body's (with the
    /// dense positions bound).
    pub(super) fn row_cursors(
        &mut self,
        l: LoopId,
        scope: &Scope,
        inner: &mut Scope,
    ) -> TokenStream {
        let Some(decided) = self.sched.and_then(|s| s.row_cursor(l)) else {
            return TokenStream::new();
        };
        let par = self.chunks().filter(|c| c.loop_id == l);
        let t = decided.tensor;
        // The schedule chose the loop that positions level 0 of `t`.
        if scope.pos.contains_key(&(t, 0)) || !inner.pos.contains_key(&(t, 0)) {
            let name = self.info(t).name.clone();
            self.internal::<()>(
                t,
                format!("the row cursor of `{name}` is not positioned by its loop"),
            );
            return TokenStream::new();
        }
        let mut out = TokenStream::new();
        let cursor = self.tlocal(t, "rows1");
        let pos = self.positions(t, 1);
        let crd = self.coordinates(t, 1);
        let values = self.walk_has_values(t, 1).then(|| self.values(t));
        let name = self.info(t).name.clone();
        let (call, doc) = match (par, values) {
            (None, Some(val)) => {
                let f = private("rows_values");
                (quote!(#f(#pos, #crd, #val)), String::new())
            }
            (None, None) => {
                let f = private("rows");
                (quote!(#f(#pos, #crd)), String::new())
            }
            (Some(par), val) => {
                let (row0, hi) = self.chunk_rows(par);
                let call = match val {
                    Some(val) => {
                        let f = private("rows_values_from");
                        quote!(#f(#pos, #crd, #val, #row0))
                    }
                    None => {
                        let f = private("rows_from");
                        quote!(#f(#pos, #crd, #row0))
                    }
                };
                let doc = format!(
                    " The chunk's rows are `{row0}..{hi}`, within the loop's, so `{row0}` < \
                     the positions' length, and the chunk asks for `{hi} - {row0}` rows."
                );
                (call, doc)
            }
        };
        let doc = format!(
            " SAFETY: `{name}` is validated, its level 0 is dense with one entry per row of \
             this loop, and the loop asks its compressed level 1 for each row once, in order.{doc}"
        );
        out.extend(quote! {
            #[doc = #doc]
            let mut #cursor = unsafe { #call };
        });
        inner.rows.insert((t, 1), cursor);
        if let Some(y) = decided.slots {
            let yinfo = self.info(y).clone();
            let slots = self.tlocal(y, "slots");
            let data = self.data(y);
            let f = private("slots");
            let yname = yinfo.name.clone();
            let doc = match par {
                None => format!(
                    " SAFETY: the loop writes one element of `{yname}` per row, in order, and \
                     runs over its size (checked in the prologue)."
                ),
                Some(_) => format!(
                    " SAFETY: the chunk writes one element of `{yname}` per row, in order, and \
                     runs over its rows, whose elements the chunk's part of `{yname}` holds."
                ),
            };
            out.extend(quote! {
                #[doc = #doc]
                let mut #slots = unsafe { #f(#data) };
            });
            inner.slots.insert(y, slots);
        }
        out
    }
}

/// Whether `tokens` name `ident` anywhere (inside groups too).
pub(super) fn mentions(tokens: &TokenStream, ident: &Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *ident,
        TokenTree::Group(g) => mentions(&g.stream(), ident),
        _ => false,
    })
}

/// Whether `body` names `var` or any identifier of `bindings`.
pub(super) fn uses_any(body: &TokenStream, bindings: &TokenStream, var: &Ident) -> bool {
    fn idents(tokens: &TokenStream, out: &mut Vec<Ident>) {
        for t in tokens.clone() {
            match t {
                TokenTree::Ident(i) if i != "let" => out.push(i),
                TokenTree::Group(g) => idents(&g.stream(), out),
                _ => {}
            }
        }
    }
    let mut names = vec![var.clone()];
    idents(bindings, &mut names);
    names.iter().any(|n| mentions(body, n))
}
