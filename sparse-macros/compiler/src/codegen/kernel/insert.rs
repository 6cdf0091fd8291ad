//! Sparse outputs built by direct insertion (the `SparseInsert` strategy):
//! `c.begin()`, one `c.insert([level coordinates], v)` per `Insert` leaf,
//! `c.finish("c")?`.
//!
//! The sparsifier only plans insertion when every loop over an output
//! index is a parallel loop enclosing all reductions, in the output's level
//! order, so the leaves run in strictly increasing lexicographic order of
//! level coordinates, which is what `SparseTensorOut::insert` requires
//! (MLIR's `lexInsert`). A reduction is scalarised in `__sk_acc` and
//! inserted once per output coordinate. The runtime writes nothing past a
//! full buffer and `finish` reports the first overflow as
//! `KernelError::Capacity`, leaving the output a valid empty tensor.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, Scope};
use crate::sparsifier::{Access, TensorId, Value};

impl Gen<'_> {
    /// Starts building sparse output `t`: clears it.
    pub(super) fn sparse_begin(&self, t: TensorId) -> TokenStream {
        let c = &self.info(t).ident;
        quote!(#c.begin();)
    }

    /// Finishes sparse output `t`: its positions are completed, or the
    /// capacity error is returned with the output left empty.
    pub(super) fn sparse_finish(&self, t: TensorId) -> TokenStream {
        let c = &self.info(t).ident;
        let name = &self.info(t).name;
        quote!(#c.finish(#name)?;)
    }

    /// The level coordinates of output element `access`, from the loop
    /// variables through the output's dim→lvl permutation.
    pub(super) fn level_coords(&self, access: &Access) -> Vec<TokenStream> {
        self.info(access.tensor)
            .levels
            .iter()
            .map(|lvl| match access.indices.get(lvl.dim) {
                Some(&l) => {
                    let v = self.var(l);
                    quote!(#v)
                }
                None => quote!(0),
            })
            .collect()
    }

    /// `c.insert([i, j], v)` at an `Insert` leaf.
    pub(super) fn insert(&mut self, access: &Access, value: &Value, scope: &Scope) -> TokenStream {
        let c = self.info(access.tensor).ident.clone();
        let coords = self.level_coords(access);
        self.with_value(value, scope, |_, v| quote!(#c.insert([#(#coords),*], #v);))
    }
}
