//! Types of the integer operators: shifts `<< >>`, bitwise `& | ^` and
//! `!` as bitwise not (MLIR's `arith.shli`/`shrsi`/`shrui`,
//! `andi`/`ori`/`xori`). Each is refused on floats and complex numbers at
//! the operator, naming the type, and a shift by a constant that MLIR
//! leaves undefined (at or above the width, or negative) is an error at
//! the amount; amounts known only at run time are taken modulo the width
//! (`sparse_core::math::shl`).

use proc_macro2::Span;

use super::kernel_types::{is_integer, Checker, Expected, Ty};
use super::ValueType;
use crate::errors::Errors;
use crate::syntax::{ArithOp, ExprSyntax, LitKind};

impl Checker<'_> {
    /// Whether `!operand` is the logical not: the operand is a `bool`, or
    /// its type is left to rustc. (An integer operand makes it bitwise; a
    /// float one is an error there.)
    pub(super) fn logical_not(&self, operand: &ExprSyntax) -> bool {
        matches!(
            self.infer(operand),
            Ty::Known(ValueType::Bool) | Ty::Unknown | Ty::FloatLit
        )
    }

    /// Rule: `!x` of an integer flips its bits and keeps its type (MLIR's
    /// `arith.xori x, -1`); of a float or complex number it is refused.
    pub(super) fn check_bitwise_not(
        &self,
        e: &ExprSyntax,
        bang: Span,
        operand: &ExprSyntax,
        expected: Expected,
        errors: &mut Errors,
    ) {
        if let Some(t) = self.infer(operand).known().filter(|t| t.is_float()) {
            let x = operand.text();
            errors.error(
                bang,
                format!(
                    "`!` is defined on `bool` (logical not) and integers (bitwise not), but `{x}` \
                     is `{}`; for a condition compare it first, e.g. `!({x} != 0.0)`",
                    t.rust_name()
                ),
            );
            return;
        }
        let around = self.around(e, expected);
        self.check(operand, around, errors);
    }

    /// Rule: `x << n` and `x >> n` shift integers (`>>` is arithmetic for
    /// signed types, logical for unsigned ones); the result has `x`'s type
    /// and `n` may be of any integer type. A constant `n` must be below the
    /// width of `x`'s type and not negative (MLIR's shifts are poison
    /// there); Rust's `<<` would panic in debug builds.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_shift(
        &self,
        e: &ExprSyntax,
        op: ArithOp,
        op_span: Span,
        left: &ExprSyntax,
        right: &ExprSyntax,
        expected: Expected,
        errors: &mut Errors,
    ) {
        let around = self.around(e, expected);
        let own = self.infer(left).known().or(around.map(|(t, _)| t));
        if let Some(t) = own.filter(|t| !is_integer(*t)) {
            let hint = if t.is_real_float() {
                format!(
                    "multiply or divide by a power of two instead (`x * 4.0`), or shift an \
                     integer: `({} as i32) {} n`",
                    left.text(),
                    op.symbol()
                )
            } else if t == ValueType::Bool {
                format!("cast it to an integer first: `({} as u8)`", left.text())
            } else {
                "shift the parts: `re(x)`, `im(x)` cast to an integer".to_string()
            };
            errors.error(
                op_span,
                format!(
                    "`{}` shifts integers, but `{}` is `{}`; {hint}",
                    op.symbol(),
                    left.text(),
                    t.rust_name()
                ),
            );
            return;
        }
        if self.infer(left) == Ty::FloatLit {
            let (first, last) = left.span_range();
            errors.error_range(
                first,
                last,
                format!(
                    "`{}` shifts integers, but `{}` is a float literal; write an integer",
                    op.symbol(),
                    left.text()
                ),
            );
            return;
        }
        self.check(left, around, errors);
        // The amount has a type of its own: its operands agree with each
        // other, and it must be an integer.
        self.check(right, None, errors);
        let (first, last) = right.span_range();
        let amount = right.text();
        match self.infer(right) {
            Ty::Known(t) if !is_integer(t) => {
                let fix = if t.is_float() {
                    format!("; convert it: `({amount} as i32)`")
                } else {
                    String::new()
                };
                errors.error_range(
                    first,
                    last,
                    format!(
                        "the shift amount `{amount}` is `{}`; a shift amount is an integer (of \
                         any integer type){fix}",
                        t.rust_name()
                    ),
                );
                return;
            }
            Ty::FloatLit => {
                errors.error_range(
                    first,
                    last,
                    format!(
                        "the shift amount `{amount}` is a float literal; a shift amount is an \
                         integer, e.g. `3`"
                    ),
                );
                return;
            }
            _ => {}
        }
        if let (Some(n), Some(t)) = (constant_int(right), own) {
            // `usize` is 32 bits on the 32-bit targets kernels run on.
            let width = if t == ValueType::Index { 32 } else { t.width() };
            if n < 0 || n >= i128::from(width) {
                let why = if n < 0 {
                    "a negative amount".to_string()
                } else {
                    format!(
                        "at or above the width of `{}` ({width} bits)",
                        t.rust_name()
                    )
                };
                errors.error_range(
                    first,
                    last,
                    format!(
                        "shifting `{}` by {n}: {why}, which MLIR leaves undefined; a constant \
                         amount is 0..={} for `{}` (an amount known only when the kernel runs \
                         is taken modulo {width})",
                        left.text(),
                        width - 1,
                        t.rust_name()
                    ),
                );
            }
        }
    }

    /// Rule: `&`, `|` and `^` take two integers of one type, or two
    /// `bool`s (MLIR's `andi`/`ori`/`xori` on `i1`); floats and complex
    /// numbers are refused at the operator.
    pub(super) fn check_bitwise(
        &self,
        e: &ExprSyntax,
        op: ArithOp,
        op_span: Span,
        expected: Expected,
        errors: &mut Errors,
    ) {
        let ExprSyntax::Binary { left, right, .. } = e else {
            return;
        };
        let around = self.around(e, expected);
        let own = self.infer(e);
        let t = own.known().or(around.map(|(t, _)| t));
        let float = match t {
            Some(t) if t.is_float() => Some(format!("`{}`", t.rust_name())),
            None if own == Ty::FloatLit => Some("float literals".to_string()),
            _ => None,
        };
        if let Some(float) = float {
            errors.error(
                op_span,
                format!(
                    "`{}` is defined on integers and `bool`s, but its operands here are {float}; \
                     convert them to an integer type first, e.g. `({} as u32) {} ({} as u32)`",
                    op.symbol(),
                    left.text(),
                    op.symbol(),
                    right.text()
                ),
            );
            return;
        }
        self.check(left, around, errors);
        self.check(right, around, errors);
    }
}

/// The value of a constant integer operand: a literal (any base, any
/// suffix), negated or parenthesised.
fn constant_int(e: &ExprSyntax) -> Option<i128> {
    match e {
        ExprSyntax::Literal {
            text,
            kind: LitKind::Int,
            ..
        } => syn::parse_str::<syn::LitInt>(text)
            .ok()?
            .base10_parse::<i128>()
            .ok(),
        ExprSyntax::Neg { operand, .. } => constant_int(operand)?.checked_neg(),
        ExprSyntax::Paren { inner, .. } => constant_int(inner),
        _ => None,
    }
}
