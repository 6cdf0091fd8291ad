//! Leaves of the loop tree (zeroing, the reduction local, accumulation,
//! stores); the expressions they compute are lowered in `lower.rs`.
//!
//! Every tensor element an expression reads is loaded first into a local
//! (`__sk_a_v`, see `loads.rs`), each load with its `SAFETY:` line; the expression is then
//! plain arithmetic on locals, literals, scalar parameters and index
//! variables, parenthesised only where Rust needs it.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use super::iterate::private;
use super::{elem_type, zero, Gen, Kind, Scope};
use crate::model::ValueType;
use crate::sparsifier::{Access, AssignOp, Expr, Reduce, TensorId, Value};

/// `literal` as a Rust literal of `elem` (the model checked that the
/// encoding's value has the tensor's element type).
pub(super) fn typed_literal(literal: crate::syntax::LiteralValue, elem: ValueType) -> TokenStream {
    use crate::syntax::LiteralValue::{Float, Int};
    let ty = format_ident!("{}", elem.rust_name());
    match (literal, elem) {
        (Int(v), ValueType::Bool) => {
            if v != 0 {
                quote!(true)
            } else {
                quote!(false)
            }
        }
        // `f64_unsuffixed` takes finite values only (`1e400` reads as
        // infinity): those go through their bits.
        (Float(v), _) if !v.is_finite() => {
            let bits = Literal::u64_suffixed(v.to_bits());
            quote!((::core::primitive::f64::from_bits(#bits) as ::core::primitive::#ty))
        }
        (Float(v), _) => {
            let lit = Literal::f64_unsuffixed(v);
            quote!((#lit as ::core::primitive::#ty))
        }
        (Int(v), _) => {
            let lit = Literal::i128_unsuffixed(v);
            quote!((#lit as ::core::primitive::#ty))
        }
    }
}

/// The reduction local.
pub(super) fn acc() -> Ident {
    format_ident!("__sk_acc")
}

/// The local of scoped sum `n`.
pub(super) fn sum_acc(n: u32) -> Ident {
    format_ident!("__sk_acc{}", n)
}

/// The flag recording that some value reached the reduction local.
fn produced_flag() -> Ident {
    format_ident!("__sk_produced")
}

/// Loaded elements of one leaf: each distinct access and its local.
pub(super) type Loaded = Vec<(Access, Ident)>;

impl Gen<'_> {
    pub(super) fn out_elem(&self) -> ValueType {
        self.stmt
            .map_or(ValueType::F64, |s| self.info(s.lhs.tensor).elem)
    }

    /// The statement's custom reduction, if any.
    fn reduce(&self) -> Option<Reduce> {
        self.stmt.and_then(|s| s.reduce)
    }

    /// What an output element starts from: zero, or a custom reduction's
    /// identity.
    pub(super) fn start_value(&mut self) -> TokenStream {
        match self.reduce() {
            Some(r) => self.apply(r.identity, &[]),
            None => zero(self.out_elem()),
        }
    }

    /// `target = v` folded by the statement's reduction: `target += v`, or
    /// `target = combiner(target, v)`.
    pub(super) fn fold(&mut self, target: TokenStream, v: TokenStream) -> TokenStream {
        match self.reduce() {
            Some(r) => {
                let call = self.apply(r.combiner, &[target.clone(), v]);
                quote!(#target = #call;)
            }
            None => self.add_assign(self.out_elem(), target, v),
        }
    }

    /// A leaf's value, handed to `emit`; a `select` keeps it only where
    /// its predicate holds (under a custom reduction a dropped value folds
    /// as zero instead, see [`Gen::accumulate`]).
    pub(super) fn with_value(
        &mut self,
        value: &Value,
        scope: &Scope,
        emit: impl FnOnce(&mut Self, TokenStream) -> TokenStream,
    ) -> TokenStream {
        match value {
            Value::Local => {
                let r = acc();
                emit(self, quote!(#r))
            }
            Value::LocalIfProduced => {
                let r = acc();
                let flag = produced_flag();
                let body = emit(self, quote!(#r));
                quote! {
                    if #flag {
                        #body
                    }
                }
            }
            Value::Expr(Expr::Select(f, x)) => {
                let (loads, v) = self.value_expr(x, scope);
                let sel = format_ident!("__sk_sel");
                let keep = self.apply(*f, &[quote!(#sel)]);
                let body = emit(self, quote!(#sel));
                quote! {
                    #loads
                    let #sel = #v;
                    if #keep {
                        #body
                    }
                }
            }
            Value::Expr(e) => {
                let (loads, v) = self.value_expr(e, scope);
                let body = emit(self, v);
                quote!(#loads #body)
            }
        }
    }

    /// `zero y`: every element of a dense output, before the loops (with a
    /// custom reduction, its identity).
    pub(super) fn zero(&mut self, t: TensorId) -> TokenStream {
        let z = if self.reduce().is_some() {
            self.start_value()
        } else {
            zero(self.info(t).elem)
        };
        if self.info(t).kind == Kind::Scalar {
            let y = self.info(t).ident.clone();
            return quote!(*#y = #z;);
        }
        let data = self.data(t);
        quote!(#data.fill(#z);)
    }

    /// `local r = 0` or `local r = y[i]`.
    pub(super) fn local(
        &mut self,
        init: Option<&Access>,
        produced: bool,
        scope: &Scope,
    ) -> TokenStream {
        let elem = elem_type(self.out_elem());
        let r = acc();
        self.produced = produced;
        let flag = produced_flag();
        let flag = if produced {
            quote!(let mut #flag = false;)
        } else {
            TokenStream::new()
        };
        let local = match init {
            None => {
                let z = self.start_value();
                quote!(let mut #r: #elem = #z;)
            }
            Some(a) => {
                let mut loaded = Loaded::new();
                let loads = self.load(a, scope, &mut loaded);
                let v = loaded.first().map(|l| l.1.clone());
                quote! {
                    #loads
                    let mut #r: #elem = #v;
                }
            }
        };
        quote!(#local #flag)
    }

    /// `r += value`, or `r = combiner(r, value)` for a custom reduction
    /// (a dropped `select` value folds nothing, as MLIR's `reduce` folds
    /// present values only).
    pub(super) fn accumulate(&mut self, value: &Expr, scope: &Scope) -> TokenStream {
        let r = acc();
        if let Some(fused) = self.fused_accumulate(value, scope) {
            return fused;
        }
        match (self.reduce(), value) {
            (Some(red), Expr::Zero) => {
                let z = self.zero_for(red.combiner, 1);
                self.fold(quote!(#r), z)
            }
            _ => {
                let mark = if self.produced {
                    let flag = produced_flag();
                    quote!(#flag = true;)
                } else {
                    TokenStream::new()
                };
                self.with_value(&Value::Expr(value.clone()), scope, |g, v| {
                    let fold = g.fold(quote!(#r), v);
                    quote!(#fold #mark)
                })
            }
        }
    }

    /// Under `#[fma]`, `r += a * b` as `r = a.mul_add(b, r)` (one
    /// rounding), for a float reduction by `+` whose factors have the
    /// output's type; `None` for everything else.
    fn fused_accumulate(&mut self, value: &Expr, scope: &Scope) -> Option<TokenStream> {
        if !self.kp.schedule.fma {
            return None;
        }
        let Expr::Mul(a, b) = value else { return None };
        let elem = self.out_elem();
        let same = |t: Option<ValueType>| t.is_none_or(|t| t == elem);
        if self.reduce().is_some()
            || self.produced
            || !matches!(elem, ValueType::F32 | ValueType::F64)
            || !same(self.expr_type(a))
            || !same(self.expr_type(b))
        {
            return None;
        }
        let mut loaded = Loaded::new();
        let mut loads = TokenStream::new();
        for x in value.accesses() {
            loads.extend(self.load(x, scope, &mut loaded));
        }
        let (a, _) = self.lower(a, &loaded);
        let (b, _) = self.lower(b, &loaded);
        let r = acc();
        let ty = elem_type(elem);
        Some(quote! {
            #loads
            #r = <#ty as ::sparse_core::__private::MulAdd>::mul_add(#a, #b, #r);
        })
    }

    /// `local r<n> = 0`: the local of a scoped sum, of the summed
    /// expression's element type.
    pub(super) fn sum_local(&mut self, n: u32, body: &Expr) -> TokenStream {
        let elem = self.expr_type(body).unwrap_or(self.out_elem());
        self.sum_types.insert(n, elem);
        let r = sum_acc(n);
        let ty = elem_type(elem);
        let z = zero(elem);
        quote!(let mut #r: #ty = #z;)
    }

    /// `r<n> += value` (a dropped `select` value adds nothing).
    pub(super) fn sum_add(&mut self, n: u32, value: &Expr, scope: &Scope) -> TokenStream {
        let r = sum_acc(n);
        // Inside partial sums (`partial_sums.rs`): the lane's own slot.
        let target = match &scope.lane {
            Some((m, slot)) if *m == n => quote!(#slot),
            _ => quote!(#r),
        };
        let elem = self.sum_types.get(&n).copied().unwrap_or(self.out_elem());
        self.with_value(&Value::Expr(value.clone()), scope, |g, v| {
            g.add_assign(elem, target.clone(), v)
        })
    }

    /// `y[i] = v` or `y[i] += v`.
    pub(super) fn store(
        &mut self,
        access: &Access,
        op: AssignOp,
        value: &Value,
        scope: &Scope,
    ) -> TokenStream {
        let t = access.tensor;
        let target = if self.info(t).kind == Kind::Scalar {
            let y = self.info(t).ident.clone();
            (TokenStream::new(), quote!(*#y))
        } else if let Some(slots) = scope.slots.get(&t) {
            // The next element of a `rows.rs` output cursor.
            let out = self.tlocal(t, "out");
            let doc = format!(" SAFETY: one element of `{slots}` per row, in order.");
            (
                quote! {
                    #[doc = #doc]
                    let #out = unsafe { #slots.next() };
                },
                quote!(*#out),
            )
        } else {
            let Some((offset, why)) = self.dense_offset(access, scope) else {
                return TokenStream::new();
            };
            let data = self.data(t);
            let out = self.tlocal(t, "out");
            let slot = private("slot");
            let doc = format!(" SAFETY: {why}.");
            (
                quote! {
                    #[doc = #doc]
                    let #out = unsafe { #slot(#data, #offset) };
                },
                quote!(*#out),
            )
        };
        self.with_value(value, scope, |g, v| {
            let (bind, place) = target;
            let write = match op {
                AssignOp::Assign => quote!(#place = #v;),
                AssignOp::AddAssign => g.fold(place, v),
            };
            quote!(#bind #write)
        })
    }
}
