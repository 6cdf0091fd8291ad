//! Walks over one sparse level (`Iterate`), and what co-iteration shares
//! with them: the position range a level stores under its parent entry,
//! per level format, coordinate reads and duplicate segments.
//!
//! | format | range under parent entry `p` |
//! | --- | --- |
//! | compressed | `pos[p]..pos[p + 1]` |
//! | loose_compressed | `pos[2p]..pos[2p + 1]` |
//! | singleton | `p..p + 1`, or the parent's duplicate segment |
//!
//! Level 0 has the single parent entry 0. A non-unique level followed by a
//! singleton (the start of a COO region), or last, is walked by duplicate
//! segments: each distinct coordinate once, with the run of entries that
//! repeat it handed to the singleton level below, or summed as the value
//! (a tensor with duplicates means the sum of them, as in MLIR).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::{Gen, Kind, Pos, Scope};
use crate::schedule::Chunks;
use crate::sparsifier::{LoopId, Node, Space, TensorId};
use crate::vocab::{LevelFormat, ParentRange};

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

    fn parent_range(
        &mut self,
        t: TensorId,
        l: usize,
        scope: &Scope,
        lo: &Ident,
        hi: &Ident,
    ) -> Option<TokenStream> {
        let name = self.info(t).name.clone();
        let Some(lvl) = self.info(t).levels.get(l).copied() else {
            return self.internal(t, format!("level {l} of `{name}` does not exist"));
        };
        // Level 0 hangs below one implicit entry, 0.
        let parent = if l == 0 {
            Some((quote!(0), "the single entry above level 0".to_string()))
        } else {
            match scope.pos.get(&(t, l - 1)) {
                Some(Pos::At(p)) => Some((
                    quote!(#p),
                    format!("`{p}` is an entry of `{name}` level {}", l - 1),
                )),
                Some(Pos::Segment(s, e)) => {
                    return match lvl.ty.format {
                        LevelFormat::Singleton => Some(quote! {
                            let #lo = #s;
                            let #hi = #e;
                        }),
                        f => self.internal(
                            t,
                            format!(
                                "{} level {l} of `{name}` below a duplicate segment",
                                f.name()
                            ),
                        ),
                    };
                }
                None => None,
            }
        };
        let Some((p, why)) = parent else {
            return self.internal(
                t,
                format!("level {l} of `{name}` is walked before its parent"),
            );
        };
        let load = private("load_index");
        // Which positions the level stores under `p`: the storage rule of
        // `sparse_vocab::parent_range`; dense levels are not walked here.
        let range = match lvl.ty.format {
            LevelFormat::Dense | LevelFormat::Batch => None,
            LevelFormat::Singleton if l == 0 => None,
            format => Some(crate::vocab::parent_range(format, 0)),
        };
        match range {
            // `pos[k * p]..pos[k * p + 1]`; level 0 reads fixed slots:
            // `pos[0]..pos[1]`, not `pos[0]..pos[0 + 1]`.
            Some(ParentRange::Positions { per_parent }) => {
                let (at_lo, at_hi) = match (l, per_parent) {
                    (0, _) => (quote!(0), quote!(1)),
                    (_, 1) => (quote!(#p), quote!(#p + 1)),
                    (_, k) => {
                        let k = Literal::usize_unsuffixed(k);
                        (quote!(#k * #p), quote!(#k * #p + 1))
                    }
                };
                let pos = self.positions(t, l);
                let doc = if per_parent == 1 {
                    format!(
                        " SAFETY: {why}, and compressed level {l} stores one position per \
                         parent entry plus one."
                    )
                } else {
                    format!(
                        " SAFETY: {why}, and loose compressed level {l} stores a lo/hi pair \
                         per parent entry."
                    )
                };
                Some(quote! {
                    #[doc = #doc]
                    let #lo = unsafe { #load(#pos, #at_lo) };
                    #[doc = #doc]
                    let #hi = unsafe { #load(#pos, #at_hi) };
                })
            }
            // A singleton level stores one entry per parent entry, an n:m
            // level exactly `n`, at positions `p * n .. p * n + n`.
            Some(ParentRange::Fixed { count: 1 }) => Some(quote! {
                let #lo = #p;
                let #hi = #p + 1;
            }),
            Some(ParentRange::Fixed { count }) => {
                let n = Literal::usize_unsuffixed(count);
                Some(quote! {
                    let #lo = #p * #n;
                    let #hi = #lo + #n;
                })
            }
            None => self.internal(
                t,
                format!(
                    "level {l} of `{name}` ({}) cannot be walked here",
                    lvl.ty.format.name()
                ),
            ),
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

    /// `let into = coordinate of the entry at p` for level `l` of `t`.
    pub(super) fn read_coordinate(
        &mut self,
        t: TensorId,
        l: usize,
        p: &Ident,
        why: &str,
        into: &Ident,
    ) -> TokenStream {
        let Some(lvl) = self.info(t).levels.get(l).copied() else {
            let name = self.info(t).name.clone();
            self.internal::<()>(t, format!("level {l} of `{name}` does not exist"));
            return TokenStream::new();
        };
        let crd = self.coordinates(t, l);
        let at = if lvl.stride == 1 {
            quote!(#p)
        } else {
            let s = Literal::usize_unsuffixed(lvl.stride);
            if lvl.offset == 0 {
                quote!(#p * #s)
            } else {
                let o = Literal::usize_unsuffixed(lvl.offset);
                quote!(#p * #s + #o)
            }
        };
        let name = &self.info(t).name;
        let tuple = if lvl.stride == 1 {
            String::new()
        } else {
            format!(
                " (its COO buffer holds {} coordinates per entry)",
                lvl.stride
            )
        };
        let doc = format!(" SAFETY: {why}, so `{p}` is an entry of `{name}` level {l}{tuple}.");
        let load = private("load_index");
        // In the window of an affine subscript, relative to its start.
        let relative = self
            .window_offset(t, l)
            .map(|off| quote!(.wrapping_sub(#off)));
        quote! {
            #[doc = #doc]
            let #into = unsafe { #load(#crd, #at) } #relative;
        }
    }

    /// Binds `end` to the end of the duplicate segment starting at `p`
    /// (entries with coordinate `c`, stopping at `hi`).
    pub(super) fn segment_end(
        &mut self,
        t: TensorId,
        l: usize,
        p: &Ident,
        hi: &Ident,
        c: &Ident,
        end: &Ident,
    ) -> TokenStream {
        let next = self.tlocal(t, &format!("next{l}"));
        let why = format!("`{end}` < `{hi}`, the end of the walked range");
        let read = self.read_coordinate(t, l, end, &why, &next);
        quote! {
            let mut #end = #p + 1;
            while #end < #hi {
                #read
                if #next != #c {
                    break;
                }
                #end += 1;
            }
        }
    }

    /// Whether `t`'s coordinates are packed 2-bit ones (`crdWidth = 2`; no
    /// walk steps through them).
    pub(super) fn packed_coordinates(&self, t: TensorId) -> bool {
        self.info(t)
            .encoding
            .as_ref()
            .and_then(|e| self.kp.encoding_named(e))
            .is_some_and(|enc| enc.crd_width == crate::vocab::Width::W2)
    }

    /// Whether level `l` of `t` has a coordinate buffer of its own, which
    /// `sparse_core::__private::walk` can step through.
    fn own_coordinates(&self, t: TensorId, l: usize) -> bool {
        self.info(t)
            .levels
            .get(l)
            .is_some_and(|x| x.own_coordinates())
    }

    /// Whether a walk over level `l` of `t` reads the values too: the last
    /// level of a sparse input with values (the output updated in place
    /// writes its values: no walk holds them).
    pub(super) fn walk_has_values(&self, t: TensorId, l: usize) -> bool {
        let info = self.info(t);
        info.kind == Kind::Sparse
            && l + 1 == info.levels.len()
            && self.explicit_value(t).is_none()
            && self.in_place != Some(t)
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
        let is_singleton = space.level_type.format == LevelFormat::Singleton
            && self.level_subscript(t, lv).is_none();
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
        let lo = self.tlocal(t, &format!("lo{lv}"));
        let hi = self.tlocal(t, &format!("hi{lv}"));
        let Some(range) = self.range(t, lv, scope, &lo, &hi) else {
            return TokenStream::new();
        };
        // An n:m level stores exactly `n` entries under each parent: with
        // a small `n` they are written out, one copy of the body per entry
        // (a loop of two entries stays a loop at opt-level `s`).
        let written_out = self.sched.and_then(|s| s.written_out(l));
        if let (LevelFormat::Structured { n, .. }, Some(_)) = (space.level_type.format, written_out)
        {
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
                let copies = (0..usize::from(n)).map(|k| {
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
        let outer = self.chunk;
        if par.is_some() {
            self.chunk = par;
        }
        let out = self.nodes(body, inner);
        self.chunk = outer;
        out
    }
}
