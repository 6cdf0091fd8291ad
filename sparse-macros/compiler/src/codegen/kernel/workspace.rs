//! Sparse outputs built through a workspace (the `SparseExpand` strategy,
//! access-pattern expansion; Gustavson's SpGEMM `c[i, j] = a[i, k] * b[k, j]`).
//!
//! A reduction loop encloses the loop over the output's last level, so one
//! segment of that level (a row of CSR) is produced piecemeal and out of
//! order. It is scattered into a dense workspace over the last level —
//! values, a filled flag per coordinate, the list of coordinates added so
//! far (MLIR's `expand`) — then compressed: the added coordinates are
//! sorted and inserted in order, and only the entries the segment touched
//! are reset (MLIR's `compress`), so a segment costs its own entries, not
//! the level size.
//!
//! The workspace lives in the output (`SparseTensorOut`'s `ws_*` buffers):
//!
//! - before the loops, `c.workspace(n)` sizes it for the whole call (`n`
//!   the last level's size); when it cannot, the kernel returns
//!   `c.finish("c")`, the typed `KernelError::Capacity` (buffer
//!   `Workspace`) with the output left a valid empty tensor;
//! - `Expand` borrows it for one segment (`c.workspace(n)` again, which
//!   only checks the length it already has);
//! - `WorkspaceAdd` is `*ws.entry(j) += v` (the first touch marks `j` filled
//!   and adds it, starting from zero);
//! - `Compress` drops the borrowed workspace (which hands its added count
//!   to the output) and calls `c.compress([outer coordinates.., _])`: sort,
//!   insert in order, reset sparsely.
//!
//! Zeros: exactly the coordinates some lattice point produced a value for
//! are stored, explicit zeros (cancelling sums) included, as MLIR does.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, Scope};
use crate::sparsifier::{LoopId, TensorLevel, Value};

/// The workspace borrowed for one segment.
fn ws() -> syn::Ident {
    quote::format_ident!("__sk_ws")
}

impl Gen<'_> {
    /// The index variable of the output's expanded level.
    fn expanded_index(&mut self, level: TensorLevel) -> Option<LoopId> {
        let found = self.stmt.and_then(|stmt| {
            let lvl = self.info(level.tensor).levels.get(level.level.index())?;
            stmt.lhs.indices.get(lvl.dim).copied()
        });
        if found.is_none() {
            let msg = "the expanded level has no index variable".to_string();
            return self.internal(level.tensor, msg);
        }
        found
    }

    /// `let Ok(binding) = c.workspace(n) else { return c.finish(name) };`:
    /// the workspace, or the named capacity error returned from the kernel
    /// when the workspace buffers are too small. A `let`-`else`, not a
    /// `match`: the workspace hands its count back when it drops, and the
    /// `match`'s scrutinee (holding the borrow) would live on into the
    /// error arm's `finish`.
    fn borrow_workspace(
        &mut self,
        level: TensorLevel,
        binding: TokenStream,
    ) -> Option<TokenStream> {
        let l = self.expanded_index(level)?;
        let c = self.info(level.tensor).ident.clone();
        let name = self.info(level.tensor).name.clone();
        let n = self.size(l);
        Some(quote! {
            let ::core::result::Result::Ok(#binding) = #c.workspace(#n) else {
                // The output is already a valid empty tensor; `finish`
                // names it in the error.
                return #c.finish(#name);
            };
        })
    }

    /// Sizes the workspace once per call, before the loops, so that a
    /// capacity error comes before any work.
    pub(super) fn workspace_setup(&mut self, level: TensorLevel) -> TokenStream {
        self.borrow_workspace(level, quote!(_)).unwrap_or_default()
    }

    /// `Expand`: borrows the (empty) workspace for one segment.
    pub(super) fn expand(&mut self, level: TensorLevel) -> TokenStream {
        let w = ws();
        self.borrow_workspace(level, quote!(mut #w))
            .unwrap_or_default()
    }

    /// `w[j] += v`: the first touch of `j` marks it filled and adds it.
    pub(super) fn workspace_add(
        &mut self,
        index: LoopId,
        value: &Value,
        scope: &Scope,
    ) -> TokenStream {
        let j = self.var(index);
        let w = ws();
        if self.stmt.is_some_and(|s| s.reduce.is_some()) {
            // A custom reduction: the slot starts from its identity on the
            // first touch, and each present value is folded into it.
            let start = self.start_value();
            return self.with_value(value, scope, |g, v| {
                let fold = g.fold(quote!(*__sk_slot), v);
                quote! {
                    if let ::core::option::Option::Some(__sk_slot) = #w.entry_from(#j, #start) {
                        #fold
                    }
                }
            });
        }
        let elem = self.out_elem();
        self.with_value(value, scope, |g, v| {
            let add = g.add_assign(elem, quote!(*__sk_slot), v);
            quote! {
                // `j` is below the workspace length (a loop bound or a stored
                // coordinate below the size the prologue checked), so the
                // entry exists.
                if let ::core::option::Option::Some(__sk_slot) = #w.entry(#j) {
                    #add
                }
            }
        })
    }

    /// `Compress`: inserts the segment's added entries in coordinate order
    /// under the enclosing output coordinates, then resets them.
    pub(super) fn compress(&mut self, level: TensorLevel, scope: &Scope) -> TokenStream {
        let Some(stmt) = self.stmt else {
            return TokenStream::new();
        };
        let c = self.info(level.tensor).ident.clone();
        let mut coords = self.level_coords(&stmt.lhs, scope);
        // The expanded (last) level's coordinate comes from the workspace.
        if let Some(last) = coords.get_mut(level.level.index()) {
            *last = quote!(0);
        }
        // The workspace writes its added count back into the output when
        // it drops, so it ends here, before the output is used again.
        let w = ws();
        quote! {
            ::core::mem::drop(#w);
            #c.compress([#(#coords),*]);
        }
    }
}
