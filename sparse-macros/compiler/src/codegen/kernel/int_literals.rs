//! Integer literals typed by their context, in expressions with integer
//! operators.
//!
//! Codegen picks `wrapping_add` and friends from the type an operation's
//! operands give (`Gen::int_type`); a literal gives none, and Rust infers
//! it later. That is enough while a subexpression of literals alone is a
//! constant, which rustc checks for overflow when it compiles. A shift
//! makes one that is not: in `((1 << n) - 1) & d[i]` the `-` has no typed
//! operand, so plain `-` would be emitted, and panic in debug builds at
//! `1 << 31`. The model checked every literal against the type its context
//! expects (`model::kernel_types`); this pass gives each integer literal
//! of such an expression that type as a suffix (`1i32`), top-down from the
//! statement's value type, so every operation above it is typed.

use super::Gen;
use crate::model::ValueType;
use crate::sparsifier::{is_integer_operator, Expr};

impl Gen<'_> {
    /// `e` with its unsuffixed integer literals suffixed by the integer
    /// type their context expects (`expected` for `e` itself); unchanged
    /// unless `e` has an integer operator.
    pub(super) fn type_int_literals(&self, e: &Expr, expected: Option<ValueType>) -> Expr {
        if !has_integer_operator(e) {
            return e.clone();
        }
        self.typed(e, expected)
    }

    fn typed(&self, e: &Expr, expected: Option<ValueType>) -> Expr {
        let own = |g: &Self, x: &Expr| g.expr_type(x);
        let ctx = |g: &Self, x: &Expr| g.expr_type(x).or(expected);
        let b = |x: Expr| Box::new(x);
        match e {
            Expr::Literal(text) => match expected {
                Some(t) if is_integer(t) && self.unsuffixed_int(text) => {
                    Expr::Literal(format!("{text}{}", t.rust_name()))
                }
                _ => e.clone(),
            },
            Expr::Neg(x) => Expr::Neg(b(self.typed(x, ctx(self, e)))),
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                let t = ctx(self, e);
                let (l, r) = (b(self.typed(l, t)), b(self.typed(r, t)));
                match e {
                    Expr::Add(..) => Expr::Add(l, r),
                    Expr::Sub(..) => Expr::Sub(l, r),
                    Expr::Mul(..) => Expr::Mul(l, r),
                    _ => Expr::Div(l, r),
                }
            }
            // A cast's operand has a type of its own; one of literals only
            // takes the target's (the front end casts the literal side of
            // a comparison to the other side's type).
            Expr::Cast(x, ty) => {
                let target = crate::model::parse_elem(ty).ok();
                Expr::Cast(b(self.typed(x, own(self, x).or(target))), ty.clone())
            }
            Expr::Sum(loops, x) => Expr::Sum(loops.clone(), b(self.typed(x, ctx(self, e)))),
            Expr::Call(name, args) => {
                let t = match name.as_str() {
                    // The shifted value has the shift's type; the amount
                    // its own (any integer type).
                    "shl" | "shr" => {
                        let value = self.typed(&args[0], ctx(self, &args[0]));
                        let amount = self.typed(&args[1], own(self, &args[1]));
                        return Expr::Call(name.clone(), vec![value, amount]);
                    }
                    n if is_integer_operator(n) => {
                        args.iter().find_map(|a| self.expr_type(a)).or(expected)
                    }
                    "max" | "min" | "clamp" | "abs" => {
                        args.iter().find_map(|a| self.expr_type(a)).or(expected)
                    }
                    // Comparisons: their operands agree with each other.
                    "eq" | "ne" | "lt" | "le" | "gt" | "ge" => {
                        args.iter().find_map(|a| self.expr_type(a))
                    }
                    // A choice: the branches have the choice's type; the
                    // condition is a `bool`.
                    "choose" => {
                        let t = args[1..]
                            .iter()
                            .find_map(|a| self.expr_type(a))
                            .or(expected);
                        let mut out = vec![self.typed(&args[0], None)];
                        out.extend(args[1..].iter().map(|a| self.typed(a, t)));
                        return Expr::Call(name.clone(), out);
                    }
                    _ => None,
                };
                Expr::Call(
                    name.clone(),
                    args.iter().map(|a| self.typed(a, t)).collect(),
                )
            }
            _ => e.clone(),
        }
    }

    /// An integer literal without a suffix (not a scalar parameter, whose
    /// name the front end passes as literal text).
    fn unsuffixed_int(&self, text: &str) -> bool {
        let is_param = self.def.params.iter().any(|p| p.name == text);
        !is_param
            && matches!(
                syn::parse_str::<syn::LitInt>(text),
                Ok(lit) if lit.suffix().is_empty()
            )
    }
}

/// An integer type (not `bool`, not a float or complex type).
fn is_integer(t: ValueType) -> bool {
    !t.is_float() && t != ValueType::Bool
}

/// Whether `e` has a shift or a bitwise operation.
fn has_integer_operator(e: &Expr) -> bool {
    match e {
        Expr::Call(name, _) if is_integer_operator(name) => true,
        _ => e.children().into_iter().any(has_integer_operator),
    }
}
