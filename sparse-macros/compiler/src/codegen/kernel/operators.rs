//! Comparisons, logic, the choice and the integer operators (`Expr::Call`s
//! under the reserved names of `sparsifier::OPERATOR_CALLS`), and the
//! element type an expression computes, which types their absent operands
//! and the locals of scoped sums.

use proc_macro2::TokenStream;
use quote::quote;

use super::expr::Loaded;
use super::{zero, Gen};
use crate::model::{ParamKind, ValueType};
use crate::sparsifier::Expr;

impl Gen<'_> {
    /// Comparisons, logic and the choice, always parenthesised. An absent
    /// operand (`Expr::Zero`) is the zero of the other operands' type, and
    /// `false` as a condition.
    pub(super) fn operator(
        &mut self,
        op: &str,
        args: &[Expr],
        loaded: &Loaded,
    ) -> (TokenStream, u8) {
        let known = args.iter().find_map(|a| self.expr_type(a));
        let arg = |g: &mut Self, n: usize, cond: bool| -> TokenStream {
            let ty = match op {
                // The branches of a choice: the other branch's type.
                "if" => args[1..]
                    .iter()
                    .find_map(|a| g.expr_type(a))
                    .unwrap_or(g.out_elem()),
                _ => known.unwrap_or(g.out_elem()),
            };
            match args.get(n) {
                Some(Expr::Zero) if cond => quote!(false),
                Some(Expr::Zero) => zero(ty),
                Some(e) if cond => g.lower(e, loaded).0,
                Some(e) => g.typed_operand(e, 0, loaded, Some(ty)),
                None => quote!(false),
            }
        };
        let logical = matches!(op, "&&" | "||" | "!");
        match (op, args.len()) {
            ("if", 3) => {
                let c = arg(self, 0, true);
                let t = arg(self, 1, false);
                let e = arg(self, 2, false);
                (quote!((if #c { #t } else { #e })), 5)
            }
            ("!", 1) => {
                let x = arg(self, 0, true);
                (quote!((!(#x))), 5)
            }
            (_, 2) => {
                let l = arg(self, 0, logical);
                let r = arg(self, 1, logical);
                let op: TokenStream = op.parse().unwrap_or_default();
                (quote!(((#l) #op (#r))), 5)
            }
            _ => {
                let span = self.def.name.span();
                self.error(
                    span,
                    format!("internal: `{op}` with {} operands", args.len()),
                );
                (quote!(false), 5)
            }
        }
    }

    /// The integer operators (MLIR's `shli`/`shrsi`/`shrui`, `andi`/`ori`/
    /// `xori`, and `!` as `xori` with -1), each operand parenthesised. Shifts
    /// call `math::shl`/`shr`, which take the amount modulo the width
    /// instead of panicking (a generic function also lets a literal
    /// operand take its type from around it); an absent amount is 0. An
    /// absent operand otherwise is the zero of the other operands' type.
    pub(super) fn integer_operator(
        &mut self,
        name: &str,
        args: &[Expr],
        loaded: &Loaded,
    ) -> (TokenStream, u8) {
        let known = args.iter().find_map(|a| self.expr_type(a));
        let ty = match name {
            "shl" | "shr" => args.first().and_then(|a| self.expr_type(a)),
            _ => known,
        }
        .unwrap_or(self.out_elem());
        let arg = |g: &mut Self, n: usize| match args.get(n) {
            Some(Expr::Zero) => zero(ty),
            Some(e) => g.typed_operand(e, 0, loaded, Some(ty)),
            None => zero(ty),
        };
        match (name, args.len()) {
            ("shl" | "shr", 2) => {
                let x = arg(self, 0);
                let n = match &args[1] {
                    Expr::Zero => quote!(0u32),
                    e => self.lower(e, loaded).0,
                };
                let f = quote::format_ident!("{}", name);
                (quote!(::sparse_core::__private::math::#f(#x, #n)), 5)
            }
            ("bitnot", 1) => {
                let x = arg(self, 0);
                (quote!(!(#x)), 4)
            }
            ("bitand" | "bitor" | "bitxor", 2) => {
                let l = arg(self, 0);
                let r = arg(self, 1);
                let op = match name {
                    "bitand" => quote!(&),
                    "bitor" => quote!(|),
                    _ => quote!(^),
                };
                // Looser than every operator `lower` knows: a parent
                // parenthesises it (`Gen::operand`).
                (quote!((#l) #op (#r)), 0)
            }
            _ => {
                let span = self.def.name.span();
                self.error(
                    span,
                    format!("internal: `{name}` with {} operands", args.len()),
                );
                (quote!(0), 5)
            }
        }
    }

    /// The Rust integer type `e`'s arithmetic runs in, if integer: its
    /// element type, or `usize` for index variables and literals alone
    /// (`i - j`). Integer arithmetic wraps, as MLIR's `arith` ops do, and
    /// divides by zero to 0 ([`sparse_core::math::int_div`]): a kernel
    /// panics on no value.
    pub(super) fn int_type(&self, e: &Expr) -> Option<TokenStream> {
        match self.expr_type(e) {
            Some(t) if t.is_float() || t == ValueType::Bool => None,
            Some(t) => Some(super::elem_type(t)),
            None if e.mentions_index() => Some(quote!(::core::primitive::usize)),
            None => None,
        }
    }

    /// `target += v` for an element of type `elem`, wrapping for integers.
    pub(super) fn add_assign(
        &self,
        elem: ValueType,
        target: TokenStream,
        v: TokenStream,
    ) -> TokenStream {
        if elem.is_float() || elem == ValueType::Bool {
            quote!(#target += #v;)
        } else {
            let ty = super::elem_type(elem);
            quote!(#target = #ty::wrapping_add(#target, #v);)
        }
    }

    /// The element type an expression computes, where its operands say:
    /// tensors, casts, closures and sums; `None` for literals and index
    /// variables alone. The rule is [`Expr::value_type`], shared with the
    /// macro-time evaluation of computed constants.
    pub(super) fn expr_type(&self, e: &Expr) -> Option<ValueType> {
        use crate::sparsifier::Region;
        let region = |r: Region| match r {
            Region::Func(f) => self.def.closures.get(f.index()).map(|d| d.result),
            _ => None,
        };
        // The leaves only codegen knows: scalar parameters by name, sum
        // locals, closures' result types.
        e.value_type(&|leaf: &Expr| match leaf {
            Expr::Access(a) => Some(self.info(a.tensor).elem),
            Expr::Literal(text) => self
                .def
                .params
                .iter()
                .find_map(|p| match &p.kind {
                    ParamKind::Scalar { ty } if p.name == text => {
                        let name = quote!(#ty).to_string();
                        ValueType::from_name(&name)
                    }
                    _ => None,
                })
                .or_else(|| int_suffix(text)),
            Expr::Local(n) => self.sum_types.get(n).copied(),
            Expr::Apply(f, _) => region(Region::Func(*f)),
            Expr::Binary(b) => region(b.overlap)
                .or_else(|| region(b.left))
                .or_else(|| region(b.right)),
            Expr::Unary(u) => region(u.present).or_else(|| region(u.absent)),
            _ => None,
        })
    }
}

/// The type an integer literal's suffix names (`1i32`); `None` for
/// anything else. Float suffixes are left alone: float arithmetic has one
/// spelling whatever the type.
fn int_suffix(text: &str) -> Option<ValueType> {
    let lit = syn::parse_str::<syn::LitInt>(text).ok()?;
    ValueType::from_name(lit.suffix()).filter(|t| !t.is_float())
}
