//! The element type an expression computes, where its operands say: one
//! typing rule for codegen (which spells the arithmetic in that type) and
//! the macro-time evaluation of computed constants (which must compute in
//! the same type to give the kernel's bits).
//!
//! The structure is shared: a cast names its type, arithmetic takes the
//! first typed operand's, a shift its left operand's, a comparison or a
//! logical operator gives `i1`, `re`/`im`/`abs` of a complex number are
//! real, index variables and the additive identity say nothing. What a
//! leaf means is the caller's ([`Expr::value_type`]'s callback): an
//! operand's element type, a literal's suffix (codegen also knows scalar
//! parameters by name and its sum locals), a closure's result type.

use super::kernel::{is_integer_operator, operator_of, Expr};
use crate::vocab::ValueType;

impl Expr {
    /// The element type `self` computes where its operands say; `None` for
    /// literals and index variables alone (their type is the context's).
    ///
    /// `leaf` types what the structure cannot: it is asked about
    /// [`Expr::Access`], [`Expr::Literal`], [`Expr::Local`] and
    /// [`Expr::Apply`], and about [`Expr::Binary`] and [`Expr::Unary`]
    /// before their operand (their regions' result type wins).
    pub fn value_type(&self, leaf: &dyn Fn(&Expr) -> Option<ValueType>) -> Option<ValueType> {
        let first = |args: &[Expr]| args.iter().find_map(|a| a.value_type(leaf));
        match self {
            Expr::Access(_) | Expr::Literal(_) | Expr::Local(_) | Expr::Apply(..) => leaf(self),
            Expr::Cast(_, ty) => ValueType::from_name(ty),
            Expr::Index(_) | Expr::Zero | Expr::Absent => None,
            Expr::Neg(x) | Expr::Sum(_, x) | Expr::Select(_, x) => x.value_type(leaf),
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                l.value_type(leaf).or_else(|| r.value_type(leaf))
            }
            // A shift has its left operand's type; `& | ^ !` their operands'.
            Expr::Call(name, args) if matches!(name.as_str(), "shl" | "shr") => {
                args.first().and_then(|a| a.value_type(leaf))
            }
            Expr::Call(name, args) if is_integer_operator(name) => first(args),
            Expr::Call(name, args) => match operator_of(name) {
                Some("if") => first(args.get(1..).unwrap_or_default()),
                Some(_) => Some(ValueType::Bool),
                // The parts and the modulus of a complex number are real.
                None if matches!(name.as_str(), "re" | "im" | "abs") => {
                    first(args).map(|t| t.complex_part().unwrap_or(t))
                }
                None => first(args),
            },
            Expr::Binary(b) => leaf(self).or_else(|| b.x.value_type(leaf)),
            Expr::Unary(u) => leaf(self).or_else(|| u.x.value_type(leaf)),
        }
    }
}
