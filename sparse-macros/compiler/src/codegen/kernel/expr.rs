//! Leaves of the loop tree (zeroing, the reduction local, accumulation,
//! stores) and the expressions they compute.
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
use crate::model::{ParamKind, ValueType};
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

    /// `e` as Rust, with its binding strength (0 `& | ^`, 1 `+ -`, 2 `* /`, 3 `as`,
    /// 4 unary `-`, 5 atoms), like the sparsifier's `ShowExpr`.
    pub(super) fn lower(&mut self, e: &Expr, loaded: &Loaded) -> (TokenStream, u8) {
        match e {
            Expr::Access(a) => {
                let name = loaded.iter().find(|(b, _)| b == a).map(|(_, n)| n.clone());
                (quote!(#name), 5)
            }
            Expr::Literal(text) => self.literal(text),
            Expr::Index(l) => {
                let v = self.var(*l);
                (quote!(#v), 5)
            }
            Expr::Zero => (zero(self.out_elem()), 5),
            Expr::Neg(x) => {
                if let Some(ty) = self.int_type(e) {
                    let (x, _) = self.lower(x, loaded);
                    return (quote!(#ty::wrapping_neg(#x)), 5);
                }
                let x = self.operand(x, 4, loaded);
                (quote!(-#x), 4)
            }
            Expr::Cast(x, ty) => {
                // Arithmetic on index variables (`i - j`) is `usize` and
                // wraps; MLIR's `index_cast` reads an index as signed, so
                // `(i - j) as f64` is -1.0 where `j = i + 1`, not 2^64 - 1.
                let signed = self.expr_type(x).is_none()
                    && super::operators::mentions_index(x)
                    && !matches!(*x.as_ref(), Expr::Index(_))
                    && !ty.starts_with('u')
                    && ty != "usize";
                let from = self.expr_type(x);
                let to = crate::model::parse_elem(ty).ok();
                let x = self.operand(x, 3, loaded);
                let ty = self.cast_type(ty);
                let x = if signed {
                    quote!(#x as ::core::primitive::isize)
                } else {
                    x
                };
                // `half` types have no `as`: through `f64`, which holds
                // every `f16`/`bf16` and every integer `as` would convert.
                match (from.filter(|t| t.is_half()), to.filter(|t| t.is_half())) {
                    (None, None) => (quote!(#x as #ty), 3),
                    (_, Some(_)) => {
                        let wide = match from {
                            Some(t) if t.is_half() => quote!(#x.to_f64()),
                            _ => quote!((#x as ::core::primitive::f64)),
                        };
                        (quote!(<#ty>::from_f64(#wide)), 5)
                    }
                    (Some(_), None) => (quote!(#x.to_f64() as #ty), 3),
                }
            }
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                if let Some(ty) = self.int_type(e) {
                    let (l, _) = self.lower(l, loaded);
                    let (r, _) = self.lower(r, loaded);
                    let call = match e {
                        Expr::Add(..) => quote!(#ty::wrapping_add(#l, #r)),
                        Expr::Sub(..) => quote!(#ty::wrapping_sub(#l, #r)),
                        Expr::Mul(..) => quote!(#ty::wrapping_mul(#l, #r)),
                        _ => quote!(::sparse_core::__private::math::int_div(#l, #r)),
                    };
                    return (call, 5);
                }
                let (op, p) = match e {
                    Expr::Add(..) => (quote!(+), 1),
                    Expr::Sub(..) => (quote!(-), 1),
                    Expr::Mul(..) => (quote!(*), 2),
                    _ => (quote!(/), 2),
                };
                // An absent operand is the output's zero, so literals next
                // to it take the output's type too.
                let absent = **l == Expr::Zero || **r == Expr::Zero;
                let ty = self
                    .expr_type(e)
                    .or_else(|| absent.then(|| self.out_elem()));
                let l = self.typed_operand(l, p, loaded, ty);
                let r = self.typed_operand(r, p + 1, loaded, ty);
                (quote!(#l #op #r), p)
            }
            Expr::Call(name, args) => self.call(name, args, loaded),
            Expr::Apply(f, args) => {
                let args: Vec<TokenStream> = args
                    .iter()
                    .enumerate()
                    .map(|(n, a)| match a {
                        Expr::Zero => self.zero_for(*f, n),
                        _ => self.lower(a, loaded).0,
                    })
                    .collect();
                (self.apply(*f, &args), 5)
            }
            Expr::Local(n) => {
                let r = sum_acc(*n);
                (quote!(#r), 5)
            }
            Expr::Sum(..) => {
                let span = self.def.name.span();
                self.error(span, "internal: a sum reached an expression unlowered");
                (quote!(0), 5)
            }
            Expr::Binary(_) | Expr::Unary(_) | Expr::Select(..) | Expr::Absent => {
                let span = self.def.name.span();
                self.error(
                    span,
                    "internal: a semiring operation reached an expression unresolved",
                );
                (quote!(0), 5)
            }
        }
    }

    /// `e` as an operand of an operation computing `ty`: a number literal
    /// becomes a value of `ty` where `ty` is not a primitive (`2.0` next to
    /// a `complex<f64>` is `Complex::new(2.0, 0.0)`; Rust converts no
    /// literal into `half::f16` or `Complex`).
    pub(super) fn typed_operand(
        &mut self,
        e: &Expr,
        min: u8,
        loaded: &Loaded,
        ty: Option<ValueType>,
    ) -> TokenStream {
        match self.side(e, ty) {
            Some(t) => t,
            None => self.operand(e, min, loaded),
        }
    }

    /// A number literal (or its negation) converted to the non-primitive
    /// `ty`; `None` for anything else.
    fn side(&mut self, e: &Expr, ty: Option<ValueType>) -> Option<TokenStream> {
        let ty = ty.filter(|t| !t.is_primitive())?;
        let number = |x: &Expr, g: &Self| match x {
            Expr::Literal(text) => !g.is_scalar_param(text),
            _ => false,
        };
        let lit = match e {
            Expr::Literal(text) if number(e, self) => self.literal(text).0,
            Expr::Neg(x) if number(x, self) => {
                let Expr::Literal(text) = x.as_ref() else {
                    return None;
                };
                let (t, _) = self.literal(text);
                quote!((-#t))
            }
            _ => return None,
        };
        crate::codegen::elem::typed_number(ty, &lit)
    }

    /// Whether `text` names a scalar parameter (the front end passes those
    /// as literal text).
    fn is_scalar_param(&self, text: &str) -> bool {
        self.def
            .params
            .iter()
            .any(|p| p.name == text && matches!(p.kind, ParamKind::Scalar { .. }))
    }

    /// `e`, parenthesised if it binds looser than `min`.
    fn operand(&mut self, e: &Expr, min: u8, loaded: &Loaded) -> TokenStream {
        let (t, p) = self.lower(e, loaded);
        if p < min {
            quote!((#t))
        } else {
            t
        }
    }

    /// A literal as written, or a scalar parameter by name (the front end
    /// passes both as literal text).
    fn literal(&mut self, text: &str) -> (TokenStream, u8) {
        let param = self
            .def
            .params
            .iter()
            .find(|p| p.name == text && matches!(p.kind, ParamKind::Scalar { .. }));
        if let Some(p) = param {
            let name = &p.name;
            return (quote!(#name), 5);
        }
        match syn::parse_str::<syn::Expr>(text) {
            Ok(syn::Expr::Lit(lit)) => (quote!(#lit), 5),
            Ok(syn::Expr::Unary(u)) if matches!(u.op, syn::UnOp::Neg(_)) => (quote!(#u), 4),
            _ => {
                let msg =
                    format!("`{text}` is neither a literal nor a scalar parameter of this kernel");
                let span = self.def.name.span();
                self.errors
                    .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
                (quote!(0), 5)
            }
        }
    }

    /// The target of `as`: an element type (MLIR or Rust spelling).
    fn cast_type(&mut self, ty: &str) -> TokenStream {
        match crate::model::parse_elem(ty) {
            Ok(elem) => elem_type(elem),
            Err(msg) => {
                let span = self.def.name.span();
                self.errors
                    .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
                quote!(::core::primitive::f64)
            }
        }
    }

    /// Math calls: `abs` of a float is the method `core` has; the others go
    /// through sparse-core's `no_std` shim (`max`, `min`, `clamp` for every
    /// real type).
    fn call(&mut self, name: &str, args: &[Expr], loaded: &Loaded) -> (TokenStream, u8) {
        if crate::sparsifier::is_integer_operator(name) {
            return self.integer_operator(name, args, loaded);
        }
        if let Some(op) = crate::sparsifier::operator_of(name) {
            return self.operator(op, args, loaded);
        }
        let arity = crate::syntax::MATH_FUNCTIONS
            .iter()
            .find(|(f, _)| *f == name)
            .map_or(0, |&(_, n)| n);
        if arity == 0 || args.len() != arity {
            let msg = if arity == 0 {
                let names: Vec<&str> = crate::syntax::MATH_FUNCTIONS.iter().map(|f| f.0).collect();
                format!(
                    "unknown math function `{name}`; kernels support {}",
                    names.join(", ")
                )
            } else {
                format!("`{name}` takes {arity} argument(s), not {}", args.len())
            };
            let span = self.def.name.span();
            self.errors
                .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
            return (quote!(0), 5);
        }
        let f = format_ident!("{}", name);
        let absent = args.contains(&Expr::Zero);
        let ty = args
            .iter()
            .find_map(|a| self.expr_type(a))
            .or_else(|| absent.then(|| self.out_elem()));
        if matches!(name, "conj" | "re" | "im") && args.iter().all(|a| *a == Expr::Zero) {
            // Where the operand is absent (a loop over coordinates it does
            // not store): the part or conjugate of zero is zero.
            return (zero(self.out_elem()), 5);
        }
        if let Some(t) = ty.filter(|t| t.is_complex()) {
            // `num_complex` has no `abs`/`ln` spelled as MLIR's; every
            // complex function goes through `math::complex`.
            let a: Vec<TokenStream> = args
                .iter()
                .map(|a| self.typed_operand(a, 0, loaded, Some(t)))
                .collect();
            return (
                quote!(::sparse_core::__private::math::complex::#f(#(#a),*)),
                5,
            );
        }
        match name {
            // `i32::abs` overflows on `MIN`; `math::abs` wraps (and is the
            // value itself for unsigned types); `half` has no `abs` method.
            "abs" if self.int_type(&args[0]).is_some() || ty.is_some_and(ValueType::is_half) => {
                let (x, _) = self.lower(&args[0], loaded);
                (quote!(::sparse_core::__private::math::abs(#x)), 5)
            }
            "abs" => {
                let x = self.operand(&args[0], 5, loaded);
                (quote!(#x.abs()), 5)
            }
            // Free functions rather than methods: `max(0, a[i])` has a
            // literal first, on which rustc cannot pick a method. `clamp`
            // is `min(max(x, lo), hi)`, with no panic where `lo > hi`.
            "max" | "min" | "clamp" => {
                let a: Vec<TokenStream> = args
                    .iter()
                    .map(|a| self.typed_operand(a, 0, loaded, ty))
                    .collect();
                (quote!(::sparse_core::__private::math::#f(#(#a),*)), 5)
            }
            // CMSIS-NN's requantization: `i32` operands (the checker
            // refused others), literals typed so.
            "requantize" => {
                let a: Vec<TokenStream> = args
                    .iter()
                    .map(|a| self.typed_operand(a, 0, loaded, Some(ValueType::I32)))
                    .collect();
                (quote!(::sparse_core::quant::requantize(#(#a),*)), 5)
            }
            "powi" => {
                let x = self.typed_operand(&args[0], 0, loaded, ty);
                let (n, _) = self.lower(&args[1], loaded);
                (quote!(::sparse_core::__private::math::powi(#x, #n)), 5)
            }
            _ => {
                let a: Vec<TokenStream> = args
                    .iter()
                    .map(|a| self.typed_operand(a, 0, loaded, ty))
                    .collect();
                (quote!(::sparse_core::__private::math::#f(#(#a),*)), 5)
            }
        }
    }
}
