//! Affine subscripts in generated code (`y[i] = x[i + k] * f[k]`).
//!
//! Three uses, each a value of the subscript's variables in `usize`:
//! - a dense dimension (of a dense tensor, or a dense level of a sparse
//!   one) is addressed at the whole subscript, within the dimension's size;
//! - a level that stores coordinates is walked by the subscript's driving
//!   variable (coefficient 1) over the *window* of coordinates `off ..
//!   off + n`, where `off` is the subscript without the driving variable
//!   and `n` the driving variable's size: the window's ends are found by
//!   binary search in the parent's sorted segment (`lower_bound`), and
//!   each coordinate `c` read is the driving variable's `c - off`;
//! - the prologue checks, before any loop, that the subscript stays in
//!   `0..size` over the whole iteration space (`subscript_range`; a
//!   compile error when every size is static). Under that check no value
//!   computed here leaves `0..size`: the positive terms are added first,
//!   so no intermediate exceeds the subscript's maximum, and subtracting
//!   the negative ones ends at a value ≥ its minimum ≥ 0. The operations
//!   still wrap, so a kernel whose loops run zero times (a size 0 skips
//!   the check) cannot panic in a debug build either.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::signature::Size;
use super::Gen;
use crate::sparsifier::{Affine, LoopId, TensorId};

impl Gen<'_> {
    /// The affine subscript of the dimension level `l` of sparse tensor
    /// `t` stores, in the current statement, with its driving variable.
    pub(super) fn level_subscript(&self, t: TensorId, l: usize) -> Option<(LoopId, Affine)> {
        let dim = self.info(t).levels.get(l)?.dim;
        let a = self.sparse_accesses().into_iter().find(|a| a.tensor == t)?;
        let sub = a.affine_dim(dim)?.clone();
        Some((*a.indices.get(dim)?, sub))
    }

    /// The subscript's value in `usize`, without the variable `skip`.
    pub(super) fn affine_value(&self, sub: &Affine, skip: Option<LoopId>) -> TokenStream {
        let term = |l: LoopId, c: i64| {
            let v = self.var(l);
            match c.unsigned_abs() {
                1 => quote!(#v),
                m => {
                    let m = Literal::u64_unsuffixed(m);
                    quote!(#v.wrapping_mul(#m))
                }
            }
        };
        let mut out: Option<TokenStream> = None;
        let positive = sub.terms.iter().filter(|&&(l, c)| c > 0 && Some(l) != skip);
        for &(l, c) in positive {
            let t = term(l, c);
            out = Some(match out {
                None => t,
                Some(acc) => quote!(#acc.wrapping_add(#t)),
            });
        }
        // A slice walked in place: the view's offset, a local the
        // prologue binds (`slices.rs`, `slice_offsets`).
        if let Some((t, d)) = sub.slice {
            let off = self.slice_offset(t, d);
            out = Some(match out {
                None => quote!(#off),
                Some(acc) => quote!(#acc.wrapping_add(#off)),
            });
        }
        if sub.constant > 0 {
            let c = sub.constant.unsigned_abs();
            out = Some(match out {
                None => {
                    let c = Literal::usize_suffixed(c as usize);
                    quote!(#c)
                }
                Some(acc) => {
                    let c = Literal::u64_unsuffixed(c);
                    quote!(#acc.wrapping_add(#c))
                }
            });
        }
        let mut acc = out.unwrap_or_else(|| quote!(0usize));
        let negative = sub.terms.iter().filter(|&&(l, c)| c < 0 && Some(l) != skip);
        for &(l, c) in negative {
            let t = term(l, c);
            acc = quote!(#acc.wrapping_sub(#t));
        }
        if sub.constant < 0 {
            let c = Literal::u64_unsuffixed(sub.constant.unsigned_abs());
            acc = quote!(#acc.wrapping_sub(#c));
        }
        acc
    }

    /// Whether every variable of `sub` is bound in `bound`.
    pub(super) fn subscript_bound(&self, sub: &Affine, bound: &[bool]) -> bool {
        sub.terms
            .iter()
            .all(|(l, _)| bound.get(l.index()).copied().unwrap_or(false))
    }

    /// The size of dimension `d` of `t`, as a literal or a local bound
    /// after the prologue.
    pub(super) fn dim_tokens(&mut self, t: TensorId, d: usize) -> TokenStream {
        match self.dim_size(t, d) {
            Size::Static(n) => {
                let n = Literal::u64_unsuffixed(n);
                quote!(#n)
            }
            Size::Dynamic(tokens) => {
                let name = self.tlocal(t, &format!("dim{d}"));
                let name = self.declare(name, Some(quote!(::core::primitive::usize)), tokens);
                quote!(#name)
            }
        }
    }

    /// For the window an affine subscript reads of level `lv` of `t`:
    /// binds `off` and narrows `lo..hi` (the level's range under its
    /// parent) to the positions whose coordinates lie in `off .. off + n`.
    pub(super) fn window(
        &mut self,
        t: TensorId,
        lv: usize,
        (lo, hi): (&Ident, &Ident),
    ) -> TokenStream {
        let Some((driving, sub)) = self.level_subscript(t, lv) else {
            return TokenStream::new();
        };
        let off = self.tlocal(t, &format!("off{lv}"));
        let value = self.affine_value(&sub, Some(driving));
        let n = self.size(driving);
        let narrow = self.narrow(
            t,
            lv,
            (lo, hi),
            (quote!(#off), quote!(#off.wrapping_add(#n))),
        );
        quote! {
            let #off: ::core::primitive::usize = #value;
            #narrow
        }
    }

    /// Narrows `lo..hi`, entries of the sorted level `lv` of `t`, to those
    /// whose coordinates lie in `first..end`: two binary searches
    /// (`lower_bound`), for a window and for a chunk's rows alike.
    pub(super) fn narrow(
        &mut self,
        t: TensorId,
        lv: usize,
        (lo, hi): (&Ident, &Ident),
        (first, end): (TokenStream, TokenStream),
    ) -> TokenStream {
        let crd = self.coordinates(t, lv);
        let lower = super::iterate::private("lower_bound");
        let (stride, slot) = self.tuple_slot(t, lv);
        quote! {
            let #lo = #lower(#crd, (#lo, #hi), #first, (#stride, #slot));
            let #hi = #lower(#crd, (#lo, #hi), #end, (#stride, #slot));
        }
    }

    /// Where level `lv` of `t` finds the coordinate of position `p` in its
    /// buffer, `crd[p * stride + slot]`: `(stride, slot)` as literals
    /// (`(1, 0)` but in the tuples of an array-of-structs COO buffer).
    pub(super) fn tuple_slot(&self, t: TensorId, lv: usize) -> (Literal, Literal) {
        let (stride, slot) = self
            .info(t)
            .levels
            .get(lv)
            .map_or((1, 0), |x| (x.stride, x.offset));
        (
            Literal::usize_unsuffixed(stride),
            Literal::usize_unsuffixed(slot),
        )
    }

    /// The local holding the start of the window of level `lv` of `t`, if
    /// an affine subscript reads it (coordinates read there are relative).
    pub(super) fn window_offset(&self, t: TensorId, lv: usize) -> Option<Ident> {
        let levels = &self.info(t).levels;
        let ty = levels.get(lv)?.ty;
        if ty.is_dense() {
            return None;
        }
        self.level_subscript(t, lv)
            .map(|_| self.tlocal(t, &format!("off{lv}")))
    }

    /// The prologue's checks that every affine subscript stays inside its
    /// dimension; a compile error where all sizes are static.
    pub(super) fn subscript_checks(&mut self) -> TokenStream {
        let private = quote!(::sparse_core::__private);
        let mut out = TokenStream::new();
        let mut seen: Vec<(TensorId, usize, Affine)> = Vec::new();
        for (n, stmt) in self.k.stmts.iter().enumerate() {
            if self.unbound_stmts.contains(&n) {
                continue;
            }
            let mut all = vec![&stmt.lhs];
            all.extend(stmt.rhs.accesses());
            for a in all {
                for (d, sub) in &a.affine {
                    // A slice's subscript `i + offset` is in range by the
                    // view's invariant (`slices.rs`), not by sizes.
                    if sub.slice.is_some() {
                        continue;
                    }
                    let key = (a.tensor, *d, sub.clone());
                    if !seen.contains(&key) {
                        seen.push(key);
                    }
                }
            }
        }
        // The size of each index, where a type fixes it.
        let bindings = self.bindings();
        let static_size = |g: &Self, l: LoopId| {
            if let Some(n) = g.k.range_of(l) {
                return Some(n);
            }
            let &(t, d) = bindings.get(l.index())?.first()?;
            g.static_dim(t, d)
        };
        for (t, d, sub) in seen {
            let tensor = self.info(t).name.clone();
            let text = sub.show(self.k);
            let sizes: Vec<Option<u64>> = sub
                .terms
                .iter()
                .map(|(l, _)| static_size(self, *l))
                .collect();
            let dim = self.dim_size(t, d);
            if let (Some(sizes), Size::Static(size)) =
                (sizes.iter().copied().collect::<Option<Vec<u64>>>(), &dim)
            {
                let terms = sub.terms.iter().map(|&(_, c)| c).zip(sizes);
                if let Some((min, max)) = crate::vocab::affine_range(terms, sub.constant) {
                    if min < 0 || max >= i128::from(*size) {
                        let msg = format!(
                            "the subscript `{text}` of dimension {d} of `{tensor}` ranges over \
                             {min}..={max} for the index sizes the types fix, outside the \
                             dimension's size {size}; a convolution `y[i] = x[i + k] * f[k]` \
                             needs `len(y) + len(f) - 1 <= len(x)`"
                        );
                        let span = self.span_of(t);
                        self.errors
                            .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
                    }
                }
                continue;
            }
            let coefficients = sub.terms.iter().map(|(_, c)| Literal::i64_unsuffixed(*c));
            let ranges = sub.terms.iter().map(|(l, _)| self.size(*l));
            let constant = Literal::i64_unsuffixed(sub.constant);
            let dim = dim.tokens();
            let d = Literal::usize_unsuffixed(d);
            out.extend(quote! {
                #private::subscript_range(
                    &#private::SubscriptSite {
                        tensor: #tensor,
                        dim: #d,
                        subscript: #text,
                        coefficients: &[#(#coefficients),*],
                        constant: #constant,
                    },
                    &[#(#ranges),*],
                    #dim,
                )?;
            });
        }
        out
    }
}
