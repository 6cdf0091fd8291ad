//! Dense loops (`For` → `for i in 0..n`) and the positions of dense levels
//! of sparse operands (`parent * n + i`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Gen, Pos, Scope};
use crate::sparsifier::{LoopId, Node};

impl Gen<'_> {
    /// `for __sk_i in 0..__sk_n_i { ... }`: every coordinate of the range,
    /// or, where the schedule writes the loop out (the offsets inside a
    /// small block), one copy of the body per offset.
    pub(super) fn for_loop(&mut self, l: LoopId, body: &[Node], scope: &Scope) -> TokenStream {
        // The groups of a 2:4 int8 row summed by one call
        // (`schedule::dual_mac_2_4`).
        if let (Some(g), [Node::Iterate { body: inner, .. }]) =
            (self.sched.and_then(|s| s.group_mac(l)).cloned(), body)
        {
            if let Some(call) = self.group_mac_loop(&g, inner, scope) {
                return call;
            }
        }
        let var = self.var(l);
        let n = self.size(l);
        let mut inner = scope.clone();
        if let Some(b) = inner.bound.get_mut(l.index()) {
            *b = true;
        }
        let positions = self.bind_dense(&mut inner);
        if let Some(block) = self.sched.and_then(|s| s.written_out(l)) {
            let body = self.nodes(body, &inner);
            let copies = (0..block).map(|k| {
                let k = proc_macro2::Literal::usize_suffixed(k as usize);
                quote! {
                    {
                        let #var = #k;
                        #positions
                        #body
                    }
                }
            });
            return quote!(#(#copies)*);
        }
        let busy = self.busy_when(body);
        let mut cursors = self.row_cursors(l, scope, &mut inner);
        // One segment for every row of a CSR/CSC output, opened before
        // the loop (inside each chunk of a parallel one).
        let hoisted = self.hoist_segment(l, body, scope);
        if let Some((open, h)) = &hoisted {
            inner.hoisted = Some(h.clone());
            cursors = quote!(#open #cursors);
        }
        let par = self.chunks().filter(|p| p.loop_id == l);
        if par.is_some() {
            inner.chunk = par;
        }
        let skip = self.sched.and_then(|s| s.window_skip(l)).cloned();
        let nodes = body;
        let body = self.nodes(body, &inner);
        let walk = match par {
            // A body that does nothing outside a window jumps between the
            // offsets whose windows hold entries (`window_skip.rs`).
            None if skip.is_some() => match &skip {
                Some(skip) => {
                    let walk = self.skipping_walk(skip, (nodes, body), &positions, &inner);
                    quote!(#cursors #walk)
                }
                None => TokenStream::new(),
            },
            Some(par) => {
                if !cursors.is_empty() && !super::rows::uses_any(&body, &positions, &var) {
                    let (row0, hi) = self.chunk_rows(par);
                    let rows = self.countdown(l, quote!(#hi - #row0), &body);
                    let weights = self.weights(par.loop_id, None);
                    self.parallel_rows(par, weights, quote!(#cursors #rows))
                } else {
                    self.parallel_for(par, &var, cursors, quote!(#positions #body))
                }
            }
            // With row cursors and no use of the index or of the positions
            // it binds, the rows are counted down (`subs; bne`: one
            // instruction less per row).
            None if !cursors.is_empty() && !super::rows::uses_any(&body, &positions, &var) => {
                let rows = self.countdown(l, quote!(#n), &body);
                quote!(#cursors #rows)
            }
            None => quote! {
                #cursors
                for #var in 0..#n {
                    #positions
                    #body
                }
            },
        };
        // The held segment drops (settling the rows) before `finish` (in
        // a parallel loop, with each chunk's closure).
        let walk = match hoisted {
            Some(_) if par.is_none() => quote!({ #walk }),
            _ => walk,
        };
        match busy {
            // A loop whose body is only dense loops over empty ranges does
            // nothing: skipping it keeps the walk bounded by the data. An
            // all-dense `[2^40, 0]` operand stores nothing and must not
            // cost 2^40 iterations (a reduction over it).
            Some(busy) => quote! {
                if #(#busy)||* {
                    #walk
                }
            },
            None => walk,
        }
    }

    /// `count` rows of `body`, counted down (the index is unused).
    fn countdown(&self, l: LoopId, count: TokenStream, body: &TokenStream) -> TokenStream {
        let left = format_ident!("__sk_left_{}", self.loop_name(l));
        quote! {
            let mut #left: ::core::primitive::usize = #count;
            while #left != 0 {
                #left -= 1;
                #body
            }
        }
    }

    /// A condition without which running `nodes` does nothing, when every
    /// node is a dense loop (its range nonempty, and its own body busy),
    /// as alternatives to join with `||`. `None` when some node does work
    /// of its own (a store, a local, a walk over stored entries, which the
    /// data bounds).
    fn busy_when(&self, nodes: &[Node]) -> Option<Vec<TokenStream>> {
        if nodes.is_empty() {
            return None;
        }
        let mut alternatives = Vec::new();
        for node in nodes {
            let Node::For { loop_id, body, .. } = node else {
                return None;
            };
            let n = self.size(*loop_id);
            alternatives.push(match self.busy_when(body).as_deref() {
                Some([one]) => quote!(#n != 0 && #one),
                Some(inner) => quote!(#n != 0 && (#(#inner)||*)),
                None => quote!(#n != 0),
            });
        }
        Some(alternatives)
    }

    /// Gives a position to every dense level of a sparse operand whose
    /// index variable is bound and whose parent has a position: level 0 at
    /// `i`, deeper levels at `parent * n + i` (MLIR's dense level
    /// addressing). In range because `i < n`, `n` is the level's size (the
    /// prologue bound it to the dimension's size), and a validated tensor
    /// has `parent entries * size` entries at a dense level.
    pub(super) fn bind_dense(&mut self, scope: &mut Scope) -> TokenStream {
        let mut out = TokenStream::new();
        for access in self.sparse_accesses() {
            let t = access.tensor;
            let levels = self.info(t).levels.clone();
            for (l, lvl) in levels.iter().enumerate() {
                if scope.pos.contains_key(&(t, l)) {
                    continue;
                }
                if !lvl.ty.is_dense() {
                    break;
                }
                let Some(&v) = access.indices.get(lvl.dim) else {
                    break;
                };
                if !scope.bound.get(v.index()).copied().unwrap_or(false) {
                    break;
                }
                let parent = if l == 0 {
                    None
                } else {
                    match scope.pos.get(&(t, l - 1)) {
                        Some(Pos::At(p)) => Some(p.clone()),
                        // A dense level below a duplicate segment has no
                        // single parent entry; the sparsifier never plans it.
                        _ => break,
                    }
                };
                // An affine subscript (`a[i + k, j]`) addresses the level
                // at its value, below the dimension's size (the prologue
                // checked it), once all its variables are bound.
                let (var, n) = match access.affine_dim(lvl.dim) {
                    Some(sub) => {
                        if !self.subscript_bound(sub, &scope.bound) {
                            break;
                        }
                        let value = self.affine_value(sub, None);
                        // A slice walked in place linearizes over the
                        // whole tensor's level size, not the slice's.
                        let n = match (l, sub.slice) {
                            (0, _) => TokenStream::new(),
                            (_, Some(_)) => self.whole_dim(t, lvl.dim),
                            _ => self.dim_tokens(t, lvl.dim),
                        };
                        (value, n)
                    }
                    None => {
                        let (var, n) = (self.var(v), self.size(v));
                        (quote!(#var), quote!(#n))
                    }
                };
                let name = self.tlocal(t, &format!("p{l}"));
                let Some(at) =
                    super::levels::iterator(lvl.ty.format).locate(parent.as_ref(), var, n)
                else {
                    break;
                };
                out.extend(quote!(let #name = #at;));
                scope.pos.insert((t, l), Pos::At(name));
            }
        }
        out
    }
}
