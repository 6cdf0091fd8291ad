//! The lowering of the schedule's partial sums (`schedule/partial_sums.rs`):
//! `LANES` iterations per step written out, each adding into its own
//! partial sum, the rest of the range one at a time into the local, then
//! the partial sums added to it in a fixed tree.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{elem_type, zero, Gen, Scope};
use crate::schedule::partial_sums::{PartialSums, LANES};
use crate::sparsifier::Node;

impl Gen<'_> {
    /// Dense loop `ps.loop_id` with body `body`, summed in partial sums.
    pub(super) fn partial_sum_loop(
        &mut self,
        ps: PartialSums,
        body: &[Node],
        scope: &Scope,
    ) -> TokenStream {
        let l = ps.loop_id;
        let (var, n) = (self.var(l), self.size(l));
        let mut inner = scope.clone();
        if let Some(b) = inner.bound.get_mut(l.index()) {
            *b = true;
        }
        let positions = self.bind_dense(&mut inner);
        let acc = super::expr::sum_acc(ps.local);
        let elem = self
            .sum_types
            .get(&ps.local)
            .copied()
            .unwrap_or(self.out_elem());
        let (ty, z) = (elem_type(elem), zero(elem));
        let slots: Vec<_> = (0..LANES)
            .map(|k| format_ident!("__sk_acc{}_l{}", ps.local, k))
            .collect();
        let base = format_ident!("__sk_{}_base", self.loop_name(l));
        // One copy of the body per lane, each adding into its own local:
        // adjacent lanes read adjacent elements, which the compiler packs
        // into vectors as they are (a loop over an array of lanes came out
        // with a shuffle per pair of lanes).
        let mut copies = TokenStream::new();
        for (k, slot) in slots.iter().enumerate() {
            let mut lane_scope = inner.clone();
            lane_scope.lane = Some((ps.local, slot.clone()));
            let body = self.nodes(body, &lane_scope);
            let k = Literal::usize_unsuffixed(k);
            copies.extend(quote! {
                {
                    let #var = #base + #k;
                    #positions
                    #body
                }
            });
        }
        let rest = self.nodes(body, &inner);
        let w = Literal::usize_unsuffixed(LANES as usize);
        // Halves added lane by lane: ((s0 + s4) + (s2 + s6)) + ((s1 + s5) +
        // (s3 + s7)), the order a vector of 2 or 4 lanes sums in, so the
        // compiler keeps the partial sums in vectors to the end.
        let mut terms: Vec<TokenStream> = slots.iter().map(|s| quote!(#s)).collect();
        while terms.len() > 2 {
            let half = terms.len() / 2;
            let (lo, hi) = terms.split_at(half);
            terms = lo.iter().zip(hi).map(|(a, b)| quote!((#a + #b))).collect();
        }
        // The last add unparenthesised (`unused_parens` in the caller's crate).
        let tree = match terms.as_slice() {
            [a, b] => quote!(#a + #b),
            _ => terms.pop().unwrap_or_default(),
        };
        let fold = self.add_assign(elem, quote!(#acc), tree);
        quote! {
            #(let mut #slots: #ty = #z;)*
            let mut #base: ::core::primitive::usize = 0;
            while #n - #base >= #w {
                #copies
                #base += #w;
            }
            for #var in #base..#n {
                #positions
                #rest
            }
            #fold
        }
    }
}
