//! A dense loop over 2:4 groups handed whole to sparse-core's
//! `dot_s8_2_4` (the schedule's `dual_mac_2_4` rule): the row's first
//! group, the loop-invariant offset once, one call, and its sum folded
//! into the reduction local as the groups' entries would have been.

use proc_macro2::TokenStream;
use quote::quote;

use super::iterate::private;
use super::{Gen, Pos, Scope};
use crate::schedule::GroupMac;
use crate::sparsifier::Node;

impl Gen<'_> {
    /// `first = parent * n`, then `r += dot_s8_2_4(crd, val, first, n, x,
    /// off)`; `None` (the loop as planned) if the groups' parent entry is
    /// not bound, which the sparsifier's loop order rules out.
    pub(super) fn group_mac_loop(
        &mut self,
        g: &GroupMac,
        body: &[Node],
        scope: &Scope,
    ) -> Option<TokenStream> {
        let t = g.weights;
        let lv = g.level;
        let n = self.size(g.loop_id);
        let first = self.tlocal(t, &format!("first{lv}"));
        // The groups are the dense level `lv - 1`: `n` entries per entry
        // of the level above it, if there is one.
        let (bind_first, parent) = match lv.checked_sub(2) {
            None => (quote!(let #first: ::core::primitive::usize = 0;), None),
            Some(up) => match scope.pos.get(&(t, up)) {
                Some(Pos::At(p)) => (quote!(let #first = #p * #n;), Some(p.clone())),
                _ => return None,
            },
        };
        let crd = self.coordinates(t, lv);
        let val = self.values(t);
        let x = self.data(g.input);
        let off = self.tlocal(t, "off");
        let bind_off = self.bind_offset(&off, g.offset.as_ref(), scope);
        let dot = self.tlocal(t, "dot");
        let fold = self.fold_dot(&dot, body);
        let (w, input) = (self.info(t).name.clone(), self.info(g.input).name.clone());
        let under = parent.map_or(String::new(), |p| {
            format!(" under entry `{p}` of level {}", lv - 2)
        });
        let doc = format!(
            " SAFETY: the groups `{first}..{first} + {n}` are the entries of the dense level {} \
             of `{w}`{under}; a validated tensor stores two coordinates (each below 4) and two \
             values per group at its `structured[2, 4]` level {lv}, and the prologue checked \
             that `{input}` has 4 x `{n}` elements.",
            lv - 1
        );
        let call = private("dot_s8_2_4");
        Some(quote! {
            #bind_first
            #bind_off
            #[doc = #doc]
            let #dot = unsafe { #call(#crd, #val, #first, #n, #x, #off) };
            #fold
        })
    }
}
