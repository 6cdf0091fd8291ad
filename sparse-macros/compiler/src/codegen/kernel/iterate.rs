//! Walks over one sparse level (`Iterate`): the position range the level's
//! iterator (`levels/`) gives under the parent entry, narrowed to a window
//! (`affine.rs`), walked in the shape the schedule chose: one entry (a
//! singleton under one parent entry), written-out copies (a small n:m
//! group), an unrolled walk, duplicate segments, a `walk` over a
//! coordinate buffer, or positions one by one; as chunks when the
//! schedule splits the loop (`parallel.rs`).
//!
//! A non-unique level followed by a
//! singleton (the start of a COO region), or last, is walked by duplicate
//! segments: each distinct coordinate once, with the run of entries that
//! repeat it handed to the singleton level below, or summed as the value
//! (a tensor with duplicates means the sum of them, as in MLIR).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::levels::{self, Parent};
use super::{Gen, Kind, Pos, Scope};
use crate::schedule::Chunks;
use crate::sparsifier::{LoopId, Node, Space, TensorId};

/// The load helpers generated code calls.
pub(super) fn private(name: &str) -> TokenStream {
    let name = syn::Ident::new(name, proc_macro2::Span::call_site());
    quote!(::sparse_core::__private::#name)
}

impl Gen<'_> {
    /// Whether level `l` of `t` is walked by duplicate segments (see
    /// [`TensorInfo::segmented`](crate::plan::TensorInfo::segmented)).
    pub(super) fn segmented(&self, t: TensorId, l: usize) -> bool {
        self.info(t).segmented(l)
    }

    /// Statements binding `lo` and `hi`, the positions level `l` of `t`
    /// stores under its parent's position (narrowed to the window an
    /// affine subscript reads, see `affine.rs`); `None` (with an error
    /// recorded) if the plan walks a level whose parent has no position.
    pub(super) fn range(
        &mut self,
        t: TensorId,
        l: usize,
        scope: &Scope,
        lo: &Ident,
        hi: &Ident,
    ) -> Option<TokenStream> {
        let whole = self.parent_range(t, l, scope, lo, hi)?;
        let window = self.window(t, l, (lo, hi));
        Some(quote!(#whole #window))
    }

    pub(super) fn parent_range(
        &mut self,
        t: TensorId,
        l: usize,
        scope: &Scope,
        lo: &Ident,
        hi: &Ident,
    ) -> Option<TokenStream> {
        let name = self.info(t).name.clone();
        let Some(at) = self.level_at(t, l) else {
            return self.internal(t, format!("level {l} of `{name}` does not exist"));
        };
        let why;
        let parent = if l == 0 {
            Parent::Root
        } else {
            match scope.pos.get(&(t, l - 1)) {
                Some(Pos::At(p)) => {
                    why = format!("`{p}` is an entry of `{name}` level {}", l - 1);
                    Parent::Entry(p, &why)
                }
                Some(Pos::Segment(s, e)) => Parent::Segment(s, e),
                None => {
                    return self.internal(
                        t,
                        format!("level {l} of `{name}` is walked before its parent"),
                    )
                }
            }
        };
        match levels::iterator(at.lvl.ty.format).range(self, at, parent, (lo, hi)) {
            Ok(range) => Some(range),
            Err(why) => self.internal(t, format!("`{name}`: {why}")),
        }
    }

    /// Records an internal error (a plan codegen does not expect).
    pub(super) fn internal<T>(&mut self, t: TensorId, message: String) -> Option<T> {
        let span = self.span_of(t);
        self.error(
            span,
            format!("internal error in sparse_kernel! codegen: {message}"),
        );
        None
    }

    /// Whether a walk over level `l` of `t` reads the values too: the last
    /// level of a sparse input with values (the output updated in place
    /// writes its values: no walk holds them).
    pub(super) fn walk_has_values(&self, t: TensorId, l: usize) -> bool {
        let info = self.info(t);
        info.kind == Kind::Sparse
            && l + 1 == info.levels.len()
            && self.explicit_value(t).is_none()
            && self.in_place() != Some(t)
    }

    /// Binds an iterator over the entries `lo..hi` of level `l` of `t` (its
    /// own coordinate buffer): `walk` yields `(p, coordinate)`; at the last
    /// level of a tensor with values `walk_values` also yields the value,
    /// recorded in `inner.walked` so the leaf reads no `val[p]`. Returns the
    /// `let`, the iterator and the loop pattern. (The loop shape per target
    /// is sparse-core's choice; see `__private::walk_values`.)
    fn walk(
        &mut self,
        t: TensorId,
        l: usize,
        p: &Ident,
        var: &Ident,
        (lo, hi): (&Ident, &Ident),
        inner: &mut Scope,
    ) -> (TokenStream, Ident, TokenStream) {
        let crd = self.coordinates(t, l);
        let entries = self.tlocal(t, &format!("walk{l}"));
        let name = self.info(t).name.clone();
        let with_values = self.walk_has_values(t, l);
        if let Some(rows) = inner.rows.get(&(t, l)).cloned() {
            // One row of a `rows.rs` cursor: its range is the cursor's.
            let pattern = if with_values {
                let v = self.tlocal(t, &format!("w{l}"));
                inner.walked.insert(t, v.clone());
                quote!((#p, #var, #v))
            } else {
                quote!((#p, #var, _))
            };
            let doc = format!(
                " SAFETY: the loop around asks `{rows}` for one row per entry of level {} of \
                 `{name}`.",
                l - 1
            );
            let binding = quote! {
                #[doc = #doc]
                let #entries = unsafe { #rows.row() };
            };
            return (binding, entries, pattern);
        }
        let mut doc = format!(
            " SAFETY: `{lo}..{hi}` is the range level {l} of `{name}` stores under one parent \
             entry; a validated tensor has `{lo}` <= `{hi}` <= its entry count, the length of \
             this level's coordinate buffer"
        );
        let (call, pattern) = if with_values {
            let val = self.values(t);
            let v = self.tlocal(t, &format!("w{l}"));
            inner.walked.insert(t, v.clone());
            doc.push_str(" and, at the last level, of its values");
            let walk = private("walk_values");
            (quote!(#walk(#crd, #val, #lo, #hi)), quote!((#p, #var, #v)))
        } else {
            let walk = private("walk");
            (quote!(#walk(#crd, #lo, #hi)), quote!((#p, #var)))
        };
        doc.push('.');
        let binding = quote! {
            #[doc = #doc]
            let #entries = unsafe { #call };
        };
        (binding, entries, pattern)
    }

    /// `Iterate`: every stored coordinate of one level, in storage order.
    pub(super) fn iterate(
        &mut self,
        l: LoopId,
        space: &Space,
        body: &[Node],
        scope: &Scope,
    ) -> TokenStream {
        let (t, lv) = (space.tensor, space.level.index());
        let var = self.var(l);
        let p = self.tlocal(t, &format!("p{lv}"));
        let mut inner = scope.clone();
        if let Some(b) = inner.bound.get_mut(l.index()) {
            *b = true;
        }
        // A singleton read through an affine subscript is filtered by its
        // window: it takes the general walk below.
        let iterator = levels::iterator(space.level_type.format);
        let is_singleton =
            iterator.fixed_count() == Some(1) && self.level_subscript(t, lv).is_none();
        // A singleton under one parent entry stores exactly one coordinate.
        if is_singleton {
            if let Some(Pos::At(parent)) = scope.pos.get(&(t, lv.wrapping_sub(1))).cloned() {
                let name = self.info(t).name.clone();
                let why = format!(
                    "`{p}` = `{parent}`, an entry of `{name}` level {}, and a singleton level \
                     has one entry per parent entry",
                    lv - 1
                );
                let read = self.read_coordinate(t, lv, &p, &why, &var);
                inner.pos.insert((t, lv), Pos::At(p.clone()));
                let positions = self.bind_dense(&mut inner);
                let body = self.nodes(body, &inner);
                return quote! {
                    let #p = #parent;
                    #read
                    #positions
                    #body
                };
            }
        }
        // A row of a specialized constant's int8 products summed from its
        // packed stream (no range: `W`'s arrays are not read) (`schedule::specialize_packed`).
        if let Some(pw) = self.sched.and_then(|s| s.packed(l)).cloned() {
            return self.packed_walk(&pw, lv, body, scope);
        }
        let lo = self.tlocal(t, &format!("lo{lv}"));
        let hi = self.tlocal(t, &format!("hi{lv}"));
        let Some(range) = self.range(t, lv, scope, &lo, &hi) else {
            return TokenStream::new();
        };
        // An n:m level stores exactly `n` entries under each parent: with
        // a small `n` they are written out, one copy of the body per entry
        // (a loop of two entries stays a loop at opt-level `s`).
        let written_out = self.sched.and_then(|s| s.written_out(l));
        if let (Some(n), Some(_)) = (iterator.fixed_count(), written_out) {
            {
                let name = self.info(t).name.clone();
                let why = format!(
                    "`{p}` < `{lo}` + {n} = `{hi}`, within the {n} entries level {lv} of \
                     `{name}` stores under its parent entry"
                );
                // 2:4 with packed coordinates: both of a group's 2-bit
                // coordinates come from one byte, read once per group.
                let pair = (n == 2 && self.packed_coordinates(t)).then(|| {
                    let pair = self.tlocal(t, &format!("pair{lv}"));
                    let crd = self.coordinates(t, lv);
                    let load = private("load_pair2");
                    let doc = format!(
                        " SAFETY: `{lo}` is 2 x an entry of the parent level, so it is even and \
                         `{lo}`, `{lo}` + 1 are the two entries level {lv} of `{name}` stores \
                         under it."
                    );
                    let bind = quote! {
                        #[doc = #doc]
                        let #pair = unsafe { #load(#crd, #lo) };
                    };
                    (pair, bind)
                });
                let read = self.read_coordinate(t, lv, &p, &why, &var);
                inner.pos.insert((t, lv), Pos::At(p.clone()));
                let positions = self.bind_dense(&mut inner);
                let body = self.nodes(body, &inner);
                let copies = (0..n).map(|k| {
                    let read = match &pair {
                        Some((pair, _)) => {
                            let shift = Literal::usize_unsuffixed(2 * k);
                            quote!(let #var = (#pair >> #shift) & 3;)
                        }
                        None => read.clone(),
                    };
                    let k = Literal::usize_unsuffixed(k);
                    quote! {
                        {
                            let #p = #lo + #k;
                            #read
                            #positions
                            #body
                        }
                    }
                });
                let copies: Vec<TokenStream> = copies.collect();
                let bind = pair.map(|(_, bind)| bind);
                return quote! {
                    #range
                    #bind
                    #(#copies)*
                };
            }
        }
        // A row of int8 products summed by one call (`schedule::dual_mac`).
        if let Some(d) = self.sched.and_then(|s| s.dual_mac(l)).cloned() {
            return self.dual_mac_walk(&d, lv, (&lo, &hi), range, body, scope);
        }
        // A row of float products summed by one call under `#[reassociate]`
        // (`schedule::gather_dot`).
        if let Some(g) = self.sched.and_then(|s| s.gather_dot(l)) {
            return self.gather_dot_walk(g, lv, (&lo, &hi), range, body);
        }
        // The walk of the loop that runs in chunks (`#[parallel]`): the
        // same walk over each chunk's sub-range, inside `par::compressed`.
        let par = self.chunks().filter(|x| x.loop_id == l);
        let unroll = self.sched.and_then(|s| s.unroll_of(l));
        let walk = if let Some(factor) = unroll {
            self.unrolled_walk(t, lv, (&p, &var), (&lo, &hi), factor, body, &mut inner)
        } else if self.segmented(t, lv) {
            let e = self.tlocal(t, &format!("e{lv}"));
            let why = format!("`{p}` < `{hi}`, the end of the walked range");
            let read = self.read_coordinate(t, lv, &p, &why, &var);
            let end = self.segment_end(t, lv, &p, &hi, &var, &e);
            inner
                .pos
                .insert((t, lv), Pos::Segment(p.clone(), e.clone()));
            let positions = self.bind_dense(&mut inner);
            let body = self.chunked_nodes(par, body, &inner);
            quote! {
                let mut #p = #lo;
                while #p < #hi {
                    #read
                    #end
                    #positions
                    #body
                    #p = #e;
                }
            }
        } else if self.own_coordinates(t, lv) {
            inner.pos.insert((t, lv), Pos::At(p.clone()));
            let positions = self.bind_dense(&mut inner);
            let (walk, entries, pattern) = self.walk(t, lv, &p, &var, (&lo, &hi), &mut inner);
            let body = self.chunked_nodes(par, body, &inner);
            let relative = self
                .window_offset(t, lv)
                .map(|off| quote!(let #var = #var.wrapping_sub(#off);));
            quote! {
                #walk
                for #pattern in #entries {
                    #relative
                    #positions
                    #body
                }
            }
        } else {
            let why = format!("`{p}` < `{hi}`, the end of the walked range");
            let read = self.read_coordinate(t, lv, &p, &why, &var);
            inner.pos.insert((t, lv), Pos::At(p.clone()));
            let positions = self.bind_dense(&mut inner);
            let body = self.chunked_nodes(par, body, &inner);
            quote! {
                for #p in #lo..#hi {
                    #read
                    #positions
                    #body
                }
            }
        };
        match par {
            // Through a window (a slice walked in place, an affine
            // subscript) the coordinates are shifted from the rows: chunks
            // of rows, each walking the window's part that is its rows.
            Some(par) if self.window_offset(t, lv).is_some() => {
                let narrow = self.narrow_to_rows(par, t, lv, (&lo, &hi));
                let weights = super::parallel::no_weights();
                self.parallel_rows(par, weights, quote!(#range #narrow #walk))
            }
            Some(par) => {
                let chunks = self.parallel_walk(par, t, (&lo, &hi), walk);
                quote!(#range #chunks)
            }
            // A row cursor knows the range.
            None if scope.rows.contains_key(&(t, lv)) => walk,
            None => quote!(#range #walk),
        }
    }

    /// The entries `lo..hi` of level `lv` of `t`, `factor` per step with the
    /// body written out `factor` times, then the rest one at a time
    /// (`#[unroll(n)]`, see `schedule::unroll`).
    #[allow(clippy::too_many_arguments)]
    fn unrolled_walk(
        &mut self,
        t: TensorId,
        lv: usize,
        (p, var): (&Ident, &Ident),
        (lo, hi): (&Ident, &Ident),
        factor: u32,
        body: &[Node],
        inner: &mut Scope,
    ) -> TokenStream {
        let base = self.tlocal(t, &format!("u{lv}"));
        let n = Literal::usize_unsuffixed(factor as usize);
        inner.pos.insert((t, lv), Pos::At(p.clone()));
        let positions = self.bind_dense(inner);
        let body = self.nodes(body, inner);
        let why = format!("`{p}` < `{base}` + {factor} <= `{hi}`, the end of the walked range");
        let read = self.read_coordinate(t, lv, p, &why, var);
        let copies = (0..factor).map(|k| {
            let k = Literal::usize_unsuffixed(k as usize);
            quote! {
                {
                    let #p = #base + #k;
                    #read
                    #positions
                    #body
                }
            }
        });
        let why = format!("`{p}` < `{hi}`, the end of the walked range");
        let read_one = self.read_coordinate(t, lv, p, &why, var);
        quote! {
            let mut #base = #lo;
            while #hi - #base >= #n {
                #(#copies)*
                #base += #n;
            }
            while #base < #hi {
                let #p = #base;
                #read_one
                #positions
                #body
                #base += 1;
            }
        }
    }

    /// The body of a walk, with the output's offsets relative to the
    /// chunk's first row when the walk is the loop that runs in chunks.
    fn chunked_nodes(&mut self, par: Option<Chunks>, body: &[Node], inner: &Scope) -> TokenStream {
        match par {
            Some(par) => {
                let mut chunk = inner.clone();
                chunk.chunk = Some(par);
                self.nodes(body, &chunk)
            }
            None => self.nodes(body, inner),
        }
    }
}
