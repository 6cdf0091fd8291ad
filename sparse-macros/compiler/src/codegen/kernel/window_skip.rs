//! The lowering of a window skip (`schedule/window_skip.rs`): a dense loop
//! over `v` that jumps to the next offset whose window holds a stored
//! coordinate.
//!
//! ```text
//! let mut from = 0;
//! while from < n {
//!     let v = { let v = from; next = MAX; <probe: for each iteration of
//!               the loops the window depends on, next = min(next, the
//!               first v' >= v whose window holds an entry)>; next };
//!     if v >= n { break }
//!     <body at v>
//!     from = v + 1;
//! }
//! ```
//!
//! The probe is the chain of loops the schedule named, lowered by the
//! ordinary loop code with the gate's walk replaced by one binary search
//! (`__private::next_window`) under the walk's parent range. Its offsets
//! are computed as the body computes them, at a `v` below `n`, so the
//! prologue's subscript check keeps them in range; the candidate is
//! `v + ceil((next offset - offset) / coefficient)`, saturating (a
//! candidate at `usize::MAX` ends the loop: no `v` at or above it is below
//! `n`).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use super::{Gen, Scope};
use crate::schedule::WindowSkip;
use crate::sparsifier::{LoopId, Node};

/// What the probe's gate updates: the skip, and the local holding the
/// least candidate so far.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    /// The skip the probe serves.
    pub skip: WindowSkip,
    /// The candidate local.
    pub next: Ident,
}

impl Gen<'_> {
    /// The skipping walk of dense loop `l` over `0..n` (see the module
    /// docs): `positions` binds the dense levels `v` locates, `inner` is
    /// the scope inside the loop, `nodes` the loop's body and `body` its
    /// lowering.
    pub(super) fn skipping_walk(
        &mut self,
        skip: &WindowSkip,
        (nodes, body): (&[Node], TokenStream),
        positions: &TokenStream,
        inner: &Scope,
    ) -> TokenStream {
        let l = skip.loop_id;
        let var = self.var(l);
        let n = self.size(l);
        let name = self.loop_name(l);
        let from = format_ident!("__sk_from_{}", name);
        let next = format_ident!("__sk_next_{}", name);
        let probe = match probe_chain(nodes, skip) {
            Some(chain) => {
                let mut scope = inner.clone();
                scope.probe = Some(Probe {
                    skip: skip.clone(),
                    next: next.clone(),
                });
                self.node(&chain, &scope)
            }
            // The schedule found the gate in this body: not reached.
            None => quote!(#next = #var;),
        };
        let usize = quote!(::core::primitive::usize);
        quote! {
            let mut #from: #usize = 0;
            while #from < #n {
                let #var: #usize = {
                    let #var: #usize = #from;
                    #positions
                    let mut #next: #usize = #usize::MAX;
                    #probe
                    #next
                };
                if #var >= #n {
                    break;
                }
                #positions
                #body
                #from = #var.wrapping_add(1);
            }
        }
    }

    /// The gate's walk inside the probe: the first offset at or after the
    /// current one whose window holds a stored coordinate of the walk's
    /// range, turned into a candidate `v` (see the module docs).
    pub(super) fn window_probe(&mut self, scope: &Scope) -> TokenStream {
        let Some(probe) = scope.probe.clone() else {
            return TokenStream::new();
        };
        let (t, lv) = (probe.skip.tensor, probe.skip.level);
        let Some((driving, sub)) = self.level_subscript(t, lv) else {
            return TokenStream::new();
        };
        let lo = self.tlocal(t, &format!("lo{lv}"));
        let hi = self.tlocal(t, &format!("hi{lv}"));
        let Some(whole) = self.parent_range(t, lv, scope, &lo, &hi) else {
            return TokenStream::new();
        };
        let off = self.affine_value(&sub, Some(driving));
        let width = self.size(driving);
        let crd = self.coordinates(t, lv);
        let (stride, slot) = self.tuple_slot(t, lv);
        let var = self.var(probe.skip.loop_id);
        let next = &probe.next;
        let step = match probe.skip.coefficient {
            1 => quote!(__sk_d),
            a => {
                let a = Literal::usize_unsuffixed(a as usize);
                quote!(__sk_d / #a + ::core::primitive::usize::from(__sk_d % #a != 0))
            }
        };
        let next_window = super::iterate::private("next_window");
        let usize = quote!(::core::primitive::usize);
        quote! {
            {
                #whole
                let __sk_off: #usize = #off;
                let __sk_o = #next_window(#crd, (#lo, #hi), __sk_off, #width, (#stride, #slot));
                if __sk_o != #usize::MAX {
                    // `next_window` answers at or after `__sk_off`.
                    let __sk_d: #usize = __sk_o.wrapping_sub(__sk_off);
                    let __sk_candidate = #var.saturating_add(#step);
                    if __sk_candidate < #next {
                        #next = __sk_candidate;
                    }
                }
            }
        }
    }
}

/// The probe's loops around the gate, as one node: the loops of `nodes`
/// on the way to the gate that the schedule named, each holding only the
/// next, the innermost holding the gate.
fn probe_chain(nodes: &[Node], skip: &WindowSkip) -> Option<Node> {
    let mut path = Vec::new();
    if !find(nodes, skip.gate, &mut path) {
        return None;
    }
    let (gate, around) = path.split_last()?;
    let mut chain = (*gate).clone();
    for node in around.iter().rev() {
        if !skip.probe.contains(&loop_of(node)?) {
            continue;
        }
        let mut outer = (*node).clone();
        match &mut outer {
            Node::For { body, .. } | Node::Iterate { body, .. } => *body = vec![chain],
            _ => return None,
        }
        chain = outer;
    }
    Some(chain)
}

/// The loop a `For`, `Iterate` or `CoIterate` node runs.
fn loop_of(node: &Node) -> Option<LoopId> {
    match node {
        Node::For { loop_id, .. }
        | Node::Iterate { loop_id, .. }
        | Node::CoIterate { loop_id, .. } => Some(*loop_id),
        _ => None,
    }
}

/// Pushes onto `path` the loops from `nodes` down to the walk `gate`
/// (included); whether it was found.
fn find<'a>(nodes: &'a [Node], gate: LoopId, path: &mut Vec<&'a Node>) -> bool {
    for node in nodes {
        if let Node::CoIterate { loop_id, .. } = node {
            if *loop_id == gate {
                path.push(node);
                return true;
            }
        }
        let (Node::For { body, .. } | Node::Iterate { body, .. }) = node else {
            continue;
        };
        path.push(node);
        if loop_of(node) == Some(gate) || find(body, gate, path) {
            return true;
        }
        path.pop();
    }
    false
}
