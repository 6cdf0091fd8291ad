//! Names in the generated function: loop variables, sizes, per-tensor
//! locals, and the storage buffers (positions, coordinates, values, dense
//! data) each declared once after the prologue.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::{elem_type, Gen};
use crate::plan::Kind;
use crate::sparsifier::{Access, LoopId, TensorId};

impl Gen<'_> {
    pub(super) fn loop_name(&self, l: LoopId) -> String {
        self.k.loop_name(l).trim_start_matches("r#").to_string()
    }
    /// The loop variable of index `l`.
    pub(super) fn var(&self, l: LoopId) -> Ident {
        format_ident!("__sk_{}", self.loop_name(l))
    }
    /// The size of index `l`, fixed by the prologue.
    pub(super) fn size(&self, l: LoopId) -> Ident {
        format_ident!("__sk_n_{}", self.loop_name(l))
    }
    /// A local belonging to tensor `t`: `__sk_<name>_<suffix>`.
    pub(super) fn tlocal(&self, t: TensorId, suffix: &str) -> Ident {
        let name = self.info(t).name.trim_start_matches("r#").to_string();
        format_ident!("__sk_{}_{}", name, suffix)
    }

    /// Declares (once) and names a local initialised after the prologue.
    pub(super) fn declare(
        &mut self,
        name: Ident,
        ty: Option<TokenStream>,
        init: TokenStream,
    ) -> Ident {
        let ty = ty.map(|t| quote!(: #t));
        self.decls
            .entry(name.to_string())
            .or_insert_with(|| quote!(let #name #ty = #init;));
        name
    }

    /// How level `l` of sparse tensor `t` is reached: `a.level(l)`, or
    /// for the output updated in place its opened storage.
    pub(super) fn level_storage(&self, t: TensorId, l: usize) -> TokenStream {
        let l = proc_macro2::Literal::usize_unsuffixed(l);
        if self.in_place() == Some(t) {
            let parts = self.tlocal(t, "ip");
            quote!(#parts.levels[#l])
        } else if self.sliced(t).is_some() {
            // A slice walked in place: the whole tensor's storage
            // (`slices.rs`).
            let a = self.info(t).ident.clone();
            quote!(#a.tensor().level(#l))
        } else {
            let a = self.info(t).ident.clone();
            quote!(#a.level(#l))
        }
    }
    /// The positions array of level `l` of sparse tensor `t`.
    pub(super) fn positions(&mut self, t: TensorId, l: usize) -> Ident {
        let name = self.tlocal(t, &format!("pos{l}"));
        let level = self.level_storage(t, l);
        self.declare(name, None, quote!(#level.positions()))
    }
    /// The coordinate buffer level `l` of sparse tensor `t` reads.
    pub(super) fn coordinates(&mut self, t: TensorId, l: usize) -> Ident {
        let name = self.tlocal(t, &format!("crd{l}"));
        let level = self.level_storage(t, l);
        self.declare(name, None, quote!(#level.coordinates()))
    }
    /// The values of sparse tensor `t` (writable for the output updated in
    /// place).
    pub(super) fn values(&mut self, t: TensorId) -> Ident {
        let name = self.tlocal(t, "val");
        if self.in_place() == Some(t) {
            let parts = self.tlocal(t, "ip");
            return self.declare(name, None, quote!(#parts.values));
        }
        let a = self.info(t).ident.clone();
        if self.sliced(t).is_some() {
            return self.declare(name, None, quote!(#a.tensor().values()));
        }
        self.declare(name, None, quote!(#a.values()))
    }
    /// The row-major elements of dense tensor `t` (rank ≥ 1) as a slice.
    pub(super) fn data(&mut self, t: TensorId) -> Ident {
        let info = self.info(t).clone();
        let x = &info.ident;
        let elem = elem_type(info.elem);
        let name = self.tlocal(t, "data");
        let flatten = info.shape.len().saturating_sub(1);
        let (ty, init) = match (info.kind, info.mutable) {
            (Kind::View, false) => (quote!(&[#elem]), quote!(#x.as_slice())),
            (Kind::View, true) => (quote!(&mut [#elem]), quote!(#x.into_mut_slice())),
            (_, false) => {
                let f = (0..flatten).map(|_| quote!(.as_flattened()));
                (quote!(&[#elem]), quote!(#x #(#f)*))
            }
            (_, true) => {
                let f = (0..flatten).map(|_| quote!(.as_flattened_mut()));
                (quote!(&mut [#elem]), quote!(#x #(#f)*))
            }
        };
        self.declare(name, Some(ty), init)
    }

    /// The accesses of the current statement to sparse inputs, by tensor
    /// (a checked statement accesses each sparse tensor one way).
    pub(super) fn sparse_accesses(&self) -> Vec<Access> {
        let Some(stmt) = self.stmt else {
            return Vec::new();
        };
        let mut all = vec![&stmt.lhs];
        all.extend(stmt.rhs.accesses());
        let mut out: Vec<Access> = Vec::new();
        for a in all {
            let info = self.info(a.tensor);
            // A sparse output has no positions to track: it is written by
            // coordinates (`insert`).
            if info.kind == Kind::Sparse
                && (!info.mutable || self.in_place() == Some(a.tensor))
                && !out.iter().any(|b| b.tensor == a.tensor)
            {
                out.push(a.clone());
            }
        }
        out
    }
}
