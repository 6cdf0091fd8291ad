//! Expressions to Rust: each tensor element read is a loaded local
//! (`loads.rs`), and the rest is plain arithmetic on locals, literals,
//! scalar parameters and index variables, with casts, math calls and the
//! kernels' integer rules (wrapping, `int_div`), parenthesised only where
//! Rust needs it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::expr::{sum_acc, Loaded};
use super::{elem_type, zero, Gen};
use crate::model::{ParamKind, ValueType};
use crate::sparsifier::Expr;

impl Gen<'_> {
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
                    && x.mentions_index()
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
    pub(super) fn side(&mut self, e: &Expr, ty: Option<ValueType>) -> Option<TokenStream> {
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
    pub(super) fn is_scalar_param(&self, text: &str) -> bool {
        self.def
            .params
            .iter()
            .any(|p| p.name == text && matches!(p.kind, ParamKind::Scalar { .. }))
    }

    /// `e`, parenthesised if it binds looser than `min`.
    pub(super) fn operand(&mut self, e: &Expr, min: u8, loaded: &Loaded) -> TokenStream {
        let (t, p) = self.lower(e, loaded);
        if p < min {
            quote!((#t))
        } else {
            t
        }
    }

    /// A literal as written, or a scalar parameter by name (the front end
    /// passes both as literal text).
    pub(super) fn literal(&mut self, text: &str) -> (TokenStream, u8) {
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
    pub(super) fn cast_type(&mut self, ty: &str) -> TokenStream {
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
    pub(super) fn call(&mut self, name: &str, args: &[Expr], loaded: &Loaded) -> (TokenStream, u8) {
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
