//! Row cursors: a dense loop over the rows of a CSR-like operand whose body
//! walks one row and stores one output element, `for i in 0..n { r = 0;
//! walk a[i, :]; y[i] = r }` (SpMV and every row reduction).
//!
//! Instead of loading `pos[i]` and `pos[i + 1]` and writing `y + i`, the loop
//! reads its rows from a `sparse_core::__private::rows` cursor (each row
//! starts where the previous one ended; one position load per row) and,
//! when the output is only written, its elements from a `slots` cursor (a
//! post-incremented store). On the Cortex-M4F the SpMV row costs 10
//! instructions instead of 16.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::Ident;

use super::iterate::private;
use super::{Gen, Kind, Scope};
use crate::sparsifier::{AssignOp, LoopId, Node, Value};
use crate::vocab::LevelFormat;

impl Gen<'_> {
    /// For the dense loop `l` with `body`, the cursors to declare before it
    /// (recorded in `inner` for the walk and the store to use), when the
    /// body has the shape above; empty otherwise. `scope` is the loop's
    /// outer scope, `inner` its body's (with the dense positions bound).
    pub(super) fn row_cursors(
        &mut self,
        l: LoopId,
        body: &[Node],
        scope: &Scope,
        inner: &mut Scope,
    ) -> TokenStream {
        if self.chunks().is_some() || self.chunk.is_some() {
            return TokenStream::new();
        }
        let [Node::Local { init, .. }, Node::Iterate {
            space,
            loop_id: row_loop,
            ..
        }, Node::Store { access, op, value }] = body
        else {
            return TokenStream::new();
        };
        // An unrolled row walk reads its range itself.
        if self.sched.and_then(|s| s.unroll_of(*row_loop)).is_some() {
            return TokenStream::new();
        }
        let t = space.tensor;
        let info = self.info(t);
        let row_level = space.level.index() == 1
            && space.level_type.format == LevelFormat::Compressed
            && info.kind == Kind::Sparse
            && info.parts.is_none()
            && info.levels.first().is_some_and(|x| x.ty.is_dense())
            && info.levels.get(1).is_some_and(|x| x.own_coordinates())
            && self.in_place != Some(t)
            && !self.segmented(t, 1)
            && self.sliced(t).is_none()
            // Rows read through affine subscripts (`a[i + 1, j]`) start
            // elsewhere, and windows narrow them.
            && self.level_subscript(t, 0).is_none()
            && self.level_subscript(t, 1).is_none()
            // Level 0 positioned by this loop (`p0 = i`), not above it.
            && !scope.pos.contains_key(&(t, 0))
            && inner.pos.contains_key(&(t, 0));
        if !row_level || self.packed_coordinates(t) {
            return TokenStream::new();
        }
        let mut out = TokenStream::new();
        let cursor = self.tlocal(t, "rows1");
        let pos = self.positions(t, 1);
        let crd = self.coordinates(t, 1);
        let call = if self.walk_has_values(t, 1) {
            let val = self.values(t);
            let f = private("rows_values");
            quote!(#f(#pos, #crd, #val))
        } else {
            let f = private("rows");
            quote!(#f(#pos, #crd))
        };
        let name = self.info(t).name.clone();
        let doc = format!(
            " SAFETY: `{name}` is validated, its level 0 is dense with one entry per row of \
             this loop, and the loop asks its compressed level 1 for each row once, in order."
        );
        out.extend(quote! {
            #[doc = #doc]
            let mut #cursor = unsafe { #call };
        });
        inner.rows.insert((t, 1), cursor);
        // The output written once per row and never read (not even at
        // another index: its slice then has no other user while the
        // cursor's pointer lives).
        let y = access.tensor;
        let yinfo = self.info(y).clone();
        let reads_output = self.stmt.is_some_and(|s| s.reads_output());
        if init.is_none()
            && !reads_output
            && *op == AssignOp::Assign
            && *value == Value::Local
            && matches!(yinfo.kind, Kind::Slice | Kind::Array)
            && yinfo.shape.len() == 1
            && access.indices == [l]
            && y != t
        {
            let slots = self.tlocal(y, "slots");
            let data = self.data(y);
            let f = private("slots");
            let yname = yinfo.name.clone();
            let doc = format!(
                " SAFETY: the loop writes one element of `{yname}` per row, in order, and \
                 runs over its size (checked in the prologue)."
            );
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
