//! Dense outputs written at affine subscripts (`x[4 * i + j] = a[i, j]`,
//! the model's `kernel_check/linear_out.rs`): the sparsifier plans them as
//! a scatter (the output zeroed for `=`, each point's value added at its
//! element), the store addresses the element at the subscript's value
//! (`loads.rs`), and the prologue range-checks the subscript (`affine.rs`).
//! What is left here is where the output's sizes are read, and a sparse
//! output staged in any order (`OutputStrategy::SparseUnordered`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, Kind, Scope};
use crate::sparsifier::{Access, TensorId, Value};

impl Gen<'_> {
    /// The declarations of the dimension sizes of outputs, moved ahead of
    /// the other declarations: a store at an affine subscript names the
    /// output's size (`__sk_x_dim0`, read as `x.len()`), and the
    /// declarations run in name order, which puts `__sk_x_data` (the
    /// output's `&mut` reborrow) first; the size read after it would
    /// borrow `x` while it is mutably borrowed. Read in the prologue, the
    /// sizes are plain `usize` values.
    pub(super) fn hoist_output_dims(&mut self) -> TokenStream {
        let mut out = TokenStream::new();
        for t in 0..self.k.tensors.len() {
            let t = crate::sparsifier::TensorId(t as u32);
            let info = self.info(t);
            if !info.mutable || info.kind == Kind::Sparse {
                continue;
            }
            for d in 0..info.shape.len() {
                let name = self.tlocal(t, &format!("dim{d}")).to_string();
                if let Some(decl) = self.decls.remove(&name) {
                    out.extend(decl);
                }
            }
        }
        out
    }
}

impl Gen<'_> {
    /// The start and the end of a sparse output written at an affine
    /// subscript (`OutputStrategy::SparseUnordered`): `c.begin_unordered()`,
    /// and `c.finish_unordered("c", Repeats::Combine(add))?`, which sorts
    /// the staged entries and adds those at one coordinate (wrapping for
    /// integers, as every sum of a kernel). A workspace too small for the
    /// staged entries is `KernelError::Capacity` naming the workspace, and
    /// the output is left a valid empty tensor.
    pub(super) fn unordered_begin_finish(&mut self, t: TensorId) -> (TokenStream, TokenStream) {
        let info = self.info(t).clone();
        if info.parts.is_some() {
            let span = self.span_of(t);
            self.error(
                span,
                format!(
                    "the block output `{}` is written at an affine subscript; write a dense \
                     output and convert it",
                    info.name
                ),
            );
        }
        let c = &info.ident;
        let name = &info.name;
        let ty = super::elem_type(info.elem);
        let add = self.add_assign(info.elem, quote!(a), quote!(b));
        let begin = quote!(#c.begin_unordered(););
        let finish = quote! {
            #c.finish_unordered(
                #name,
                ::sparse_core::output::Repeats::Combine(|mut a: #ty, b: #ty| -> #ty { #add a }),
            )?;
        };
        (begin, finish)
    }

    /// `c.insert_unordered([level coordinates], v)` at an `Insert` leaf of
    /// a staged output: each level's coordinate is its dimension's
    /// subscript (below the dimension's size: the prologue checked it),
    /// and a statement reading no sparse input stages only its nonzero
    /// values, as [`Gen::insert`] stores them.
    pub(super) fn insert_unordered(
        &mut self,
        access: &Access,
        value: &Value,
        scope: &Scope,
    ) -> TokenStream {
        let info = self.info(access.tensor).clone();
        let coords: Vec<TokenStream> = info
            .levels
            .iter()
            .map(|lvl| match access.affine_dim(lvl.dim) {
                Some(sub) => self.affine_value(sub, None),
                None => {
                    let v = access.indices.get(lvl.dim).map(|&l| self.var(l));
                    quote!(#v)
                }
            })
            .collect();
        let c = &info.ident;
        let nonzero_only = self.reads_no_sparse_input();
        let zero = super::zero(info.elem);
        self.with_value(value, scope, |_, v| {
            if nonzero_only {
                quote! {
                    let __sk_new = #v;
                    if __sk_new != #zero {
                        #c.insert_unordered([#(#coords),*], __sk_new);
                    }
                }
            } else {
                quote!(#c.insert_unordered([#(#coords),*], #v);)
            }
        })
    }
}
