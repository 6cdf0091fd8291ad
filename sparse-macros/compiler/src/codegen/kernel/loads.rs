//! Where an expression's tensor elements come from: each element read is
//! loaded once into a local (`__sk_a_v`) with its `SAFETY:` line — a dense
//! operand at its row-major offset (relative to the chunk's first row
//! inside a `#[parallel]` chunk), a sparse operand at its positioned
//! entry (or the value a walk already read, or its `explicitVal`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::expr::Loaded;
use super::iterate::private;
use super::{Gen, Kind, Pos, Scope};
use crate::sparsifier::{Access, Expr, TensorId};

impl Gen<'_> {
    /// Loads for every access of `e`, then `e` over the loaded locals.
    pub(super) fn value_expr(&mut self, e: &Expr, scope: &Scope) -> (TokenStream, TokenStream) {
        let mut loaded = Loaded::new();
        let mut loads = TokenStream::new();
        for a in e.accesses() {
            loads.extend(self.load(a, scope, &mut loaded));
        }
        let ty = self.expr_type(e).unwrap_or(self.out_elem());
        let e = self.type_int_literals(e, Some(ty));
        let tokens = self.typed_operand(&e, 0, &loaded, Some(ty));
        (loads, tokens)
    }

    /// The row-major offset of a dense access, with why it is in range.
    pub(super) fn dense_offset(
        &mut self,
        a: &Access,
        scope: &Scope,
    ) -> Option<(TokenStream, String)> {
        let info = self.info(a.tensor).clone();
        let mut offset: Option<TokenStream> = None;
        let mut bounds = Vec::new();
        for (d, &l) in a.indices.iter().enumerate() {
            // An affine subscript (`x[i + k]`): its value, below the
            // dimension's size (checked by the prologue).
            if let Some(sub) = a.affine_dim(d) {
                if !self.subscript_bound(sub, &scope.bound) {
                    return self.internal(
                        a.tensor,
                        format!(
                            "`{}` is read outside the loops of its subscript",
                            self.k.show_access(a)
                        ),
                    );
                }
                let value = self.affine_value(sub, None);
                let size = match self.static_dim(a.tensor, d) {
                    Some(n) => {
                        let n = Literal::u64_unsuffixed(n);
                        quote!(#n)
                    }
                    None => self.dim_tokens(a.tensor, d),
                };
                bounds.push(format!(
                    "`{}` < `{size}` (the prologue checked the subscript's range)",
                    sub.show(self.k)
                ));
                offset = Some(match offset {
                    None => value,
                    Some(prev) if d == 1 => quote!(#prev * #size + #value),
                    Some(prev) => quote!((#prev) * #size + #value),
                });
                continue;
            }
            if !scope.bound.get(l.index()).copied().unwrap_or(false) {
                return self.internal(
                    a.tensor,
                    format!(
                        "`{}` is read outside the loop of `{}`",
                        info.name,
                        self.k.loop_name(l)
                    ),
                );
            }
            let var = self.var(l);
            let size = match self.static_dim(a.tensor, d) {
                Some(n) => {
                    let n = Literal::u64_unsuffixed(n);
                    quote!(#n)
                }
                _ => {
                    let n = self.size(l);
                    quote!(#n)
                }
            };
            bounds.push(format!("`{var}` < `{size}`"));
            // Inside a chunk of a `#[parallel]` loop the output's data is
            // the chunk, which starts at row `row0`.
            let chunk_row = scope
                .chunk
                .filter(|c| c.output == a.tensor && d == 0)
                .map(|c| self.chunk_row(c));
            offset = Some(match offset {
                None => match &chunk_row {
                    Some(row0) => {
                        bounds.push(format!(
                            "`{row0}` <= `{var}`, and the chunk holds the rows of its iterations \
                             from `{row0}` on (`sparse_core::__private::par`)"
                        ));
                        quote!((#var - #row0))
                    }
                    None => quote!(#var),
                },
                Some(prev) if d == 1 => quote!(#prev * #size + #var),
                Some(prev) => quote!((#prev) * #size + #var),
            });
        }
        // A chunk's row alone needs no parentheses (`unused_parens`).
        if let (Some(c), [l]) = (scope.chunk.filter(|c| c.output == a.tensor), &a.indices[..]) {
            let (var, row0) = (self.var(*l), self.chunk_row(c));
            offset = Some(quote!(#var - #row0));
        }
        let why = format!(
            "{} (loop bounds and coordinates are below the sizes the prologue checked against \
             `{}`), so the row-major offset is below its length",
            bounds.join(", "),
            info.name
        );
        Some((offset.unwrap_or_else(|| quote!(0)), why))
    }

    /// Loads the element `a` into a new local (once per distinct access).
    pub(super) fn load(&mut self, a: &Access, scope: &Scope, loaded: &mut Loaded) -> TokenStream {
        if loaded.iter().any(|(b, _)| b == a) {
            return TokenStream::new();
        }
        let t = a.tensor;
        let same = loaded.iter().filter(|(b, _)| b.tensor == t).count();
        let name = if same == 0 {
            self.tlocal(t, "v")
        } else {
            self.tlocal(t, &format!("v{same}"))
        };
        let info = self.info(t).clone();
        let tokens = match info.kind {
            Kind::Scalar => {
                let x = &info.ident;
                quote!(let #name = *#x;)
            }
            Kind::Sparse if self.explicit_value(t).is_some() => {
                let last = info.levels.len().saturating_sub(1);
                let c = self.explicit_value(t);
                match scope.pos.get(&(t, last)).cloned() {
                    // A pattern tensor (`explicitVal`) stores no values:
                    // every entry holds the constant.
                    Some(Pos::At(_)) => quote!(let #name = #c;),
                    // Duplicates of one coordinate: the element is their sum.
                    Some(Pos::Segment(p, e)) => {
                        let q = self.tlocal(t, "q");
                        let add = self.add_assign(
                            info.elem,
                            quote!(#name),
                            c.clone().unwrap_or_default(),
                        );
                        quote! {
                            let mut #name = #c;
                            for #q in #p + 1..#e {
                                #add
                            }
                        }
                    }
                    None => {
                        self.internal::<()>(
                            t,
                            format!("`{}` is read where its last level has no entry", info.name),
                        );
                        return TokenStream::new();
                    }
                }
            }
            Kind::Sparse => {
                let last = info.levels.len().saturating_sub(1);
                let val = self.values(t);
                let load = private("load");
                match scope.pos.get(&(t, last)).cloned() {
                    Some(Pos::At(_)) if scope.walked.contains_key(&t) => {
                        let v = &scope.walked[&t];
                        quote!(let #name = #v;)
                    }
                    Some(Pos::At(p)) => {
                        let doc = format!(
                            " SAFETY: `{p}` is an entry of `{}`'s last level, and a validated \
                             tensor stores one value per entry.",
                            info.name
                        );
                        quote! {
                            #[doc = #doc]
                            let #name = unsafe { #load(#val, #p) };
                        }
                    }
                    // Duplicates of one coordinate: the element is their sum.
                    Some(Pos::Segment(p, e)) => {
                        let q = self.tlocal(t, "q");
                        let dup = self.tlocal(t, "dup");
                        let doc = format!(
                            " SAFETY: `{p}` is an entry of `{}`'s last level (a segment \
                             `{p}..{e}` of its entries), and a validated tensor stores one value \
                             per entry.",
                            info.name
                        );
                        let doc_q =
                            format!(" SAFETY: `{q}` < `{e}`, within the same segment of entries.");
                        let add = self.add_assign(info.elem, quote!(#name), quote!(#dup));
                        quote! {
                            #[doc = #doc]
                            let mut #name = unsafe { #load(#val, #p) };
                            for #q in #p + 1..#e {
                                #[doc = #doc_q]
                                let #dup = unsafe { #load(#val, #q) };
                                #add
                            }
                        }
                    }
                    None => {
                        self.internal::<()>(
                            t,
                            format!("`{}` is read where its last level has no entry", info.name),
                        );
                        return TokenStream::new();
                    }
                }
            }
            _ => {
                let Some((offset, why)) = self.dense_offset(a, scope) else {
                    return TokenStream::new();
                };
                let data = self.data(t);
                let load = private("load");
                let doc = format!(" SAFETY: {why}.");
                quote! {
                    #[doc = #doc]
                    let #name = unsafe { #load(#data, #offset) };
                }
            }
        };
        loaded.push((a.clone(), name));
        tokens
    }

    /// The `explicitVal` of sparse tensor `t`'s encoding as a literal of its
    /// element type, if the encoding has one (a pattern tensor).
    pub(super) fn explicit_value(&self, t: TensorId) -> Option<TokenStream> {
        let info = self.info(t);
        let enc = self.kp.encoding_named(info.encoding.as_ref()?)?;
        let value = enc.explicit_val.as_ref()?;
        Some(super::expr::typed_literal(value.literal, info.elem))
    }
}
