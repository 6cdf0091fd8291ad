//! Element types in kernel statements: Rust does not convert numbers
//! implicitly, so every operand of a statement must have the output's
//! element type unless a cast says otherwise. Checking here puts the error
//! on the operand the user wrote, with the cast to add, instead of on
//! generated code.
//!
//! Types flow top-down: the output's element type is expected of the whole
//! right-hand side; inside a cast, the operands are expected to agree with
//! the first operand whose type is known. Literals without a suffix take
//! the type around them, as in Rust, but an integer literal is never a
//! float (`2` where an `f64` is expected is an error: write `2.0`).

use super::ValueType;
use crate::errors::Errors;
use crate::syntax::{ExprSyntax, LitKind};

/// The type of a leaf (an access or a name), as the resolver knows it.
pub(super) enum Leaf {
    /// A tensor element or a primitive scalar parameter.
    Typed(ValueType),
    /// An index variable used as a value: a `usize`.
    Index,
    /// A scalar parameter of a non-primitive type: left to rustc.
    Untyped,
}

/// What an expression's type is, bottom-up.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Ty {
    Known(ValueType),
    IntLit,
    FloatLit,
    Unknown,
}

impl Ty {
    pub(super) fn known(self) -> Option<ValueType> {
        match self {
            Ty::Known(t) => Some(t),
            _ => None,
        }
    }
}

/// Why a type is expected, for messages.
#[derive(Clone, Copy)]
pub(super) enum Origin<'a> {
    Output(&'a str),
    Operands,
    Exponent,
    Condition,
    Requantize,
}

pub(super) type Expected<'a> = Option<(ValueType, Origin<'a>)>;

pub(super) struct Checker<'a> {
    leaf: &'a dyn Fn(&ExprSyntax) -> Leaf,
}

/// Checks that `rhs` computes values of `elem`, the element type of the
/// output `output`.
pub(super) fn check_rhs(
    rhs: &ExprSyntax,
    leaf: &dyn Fn(&ExprSyntax) -> Leaf,
    output: &str,
    elem: ValueType,
    errors: &mut Errors,
) {
    Checker { leaf }.check(rhs, Some((elem, Origin::Output(output))), errors);
}

/// Checks an operand of a semiring operation on its own (its operands must
/// agree with each other; nothing is expected of the whole) and returns its
/// type if it is known.
pub(super) fn check_operand(
    e: &ExprSyntax,
    leaf: &dyn Fn(&ExprSyntax) -> Leaf,
    errors: &mut Errors,
) -> Option<ValueType> {
    let checker = Checker { leaf };
    checker.check(e, None, errors);
    checker.infer(e).known()
}

/// The element type `e` computes, when its operands say (a literal alone
/// says nothing).
pub(super) fn infer_type(e: &ExprSyntax, leaf: &dyn Fn(&ExprSyntax) -> Leaf) -> Option<ValueType> {
    Checker { leaf }.infer(e).known()
}

/// Whether `e` computes integers (an integer type or integer literals, not
/// `bool`): `!e` is then the bitwise not.
pub(super) fn integer_valued(e: &ExprSyntax, leaf: &dyn Fn(&ExprSyntax) -> Leaf) -> bool {
    match (Checker { leaf }).infer(e) {
        Ty::Known(t) => is_integer(t),
        Ty::IntLit => true,
        _ => false,
    }
}

/// An integer type, `index` included, `bool` not: what shifts, `!` as
/// bitwise not and (with `bool`) `& | ^` apply to.
pub(super) fn is_integer(t: ValueType) -> bool {
    !t.is_float() && t != ValueType::Bool
}

/// The type a literal suffix (`2.0f32`) or a cast target (`as f64`,
/// `as bf16`) names.
fn suffix_type(suffix: &str) -> Ty {
    ValueType::from_name(suffix).map_or(Ty::Unknown, Ty::Known)
}

/// The math functions of complex numbers besides `abs`, `conj`, `re` and
/// `im` (sparse-core's `math::complex`, MLIR's `complex` dialect).
pub(crate) fn complex_function(name: &str) -> bool {
    matches!(
        name,
        "sqrt" | "exp" | "ln" | "sin" | "cos" | "tanh" | "powf"
    )
}

/// `re`, `im` and `abs` of a complex number are real: the type of its
/// parts (MLIR's `complex.re`, `complex.im`, `complex.abs`).
fn is_part_call(name: &str) -> bool {
    matches!(name, "re" | "im" | "abs")
}

impl Checker<'_> {
    pub(super) fn infer(&self, e: &ExprSyntax) -> Ty {
        match e {
            ExprSyntax::Access(_) | ExprSyntax::Name(_) => match (self.leaf)(e) {
                Leaf::Typed(t) => Ty::Known(t),
                Leaf::Index => Ty::Known(ValueType::Index),
                Leaf::Untyped => Ty::Unknown,
            },
            ExprSyntax::Literal { kind, suffix, .. } => match kind {
                LitKind::Bool => Ty::Known(ValueType::Bool),
                _ if !suffix.is_empty() => suffix_type(suffix),
                LitKind::Int => Ty::IntLit,
                LitKind::Float => Ty::FloatLit,
            },
            ExprSyntax::Neg { operand: e, .. } | ExprSyntax::Paren { inner: e, .. } => {
                self.infer(e)
            }
            ExprSyntax::Cast { ty, .. } => suffix_type(&ty.to_string()),
            ExprSyntax::Binary { op, .. } if op.is_comparison() || op.is_logical() => {
                Ty::Known(ValueType::Bool)
            }
            // A shift has its left operand's type, whatever the amount's.
            ExprSyntax::Binary { op, left, .. } if op.is_shift() => self.infer(left),
            // `!` of an integer is its bitwise not, of the same type.
            ExprSyntax::Not { operand, .. } => match self.infer(operand) {
                Ty::Known(t) if is_integer(t) => Ty::Known(t),
                Ty::IntLit => Ty::IntLit,
                _ => Ty::Known(ValueType::Bool),
            },
            ExprSyntax::If { then, els, .. } => {
                self.join([then.as_ref(), els.as_ref()].into_iter())
            }
            ExprSyntax::Binary { left, right, .. } => {
                self.join([left.as_ref(), right.as_ref()].into_iter())
            }
            ExprSyntax::Call { name, args, .. } if name == "powi" => {
                args.first().map_or(Ty::Unknown, |a| self.infer(a))
            }
            // CMSIS-NN's requantization is of `i32` values only.
            ExprSyntax::Call { name, .. } if name == "requantize" => Ty::Known(ValueType::I32),
            ExprSyntax::Call { name, args, .. } if name == "sum" => {
                args.last().map_or(Ty::Unknown, |a| self.infer(a))
            }
            ExprSyntax::Call { name, args, .. } if is_part_call(&name.to_string()) => {
                match self.join(args.iter()) {
                    Ty::Known(t) => Ty::Known(t.complex_part().unwrap_or(t)),
                    other => other,
                }
            }
            ExprSyntax::Call { args, .. } => self.join(args.iter()),
            // Its result type is the output's (or the operand's, for
            // `select`): checked where it is resolved.
            ExprSyntax::Semiring(_) => Ty::Unknown,
        }
    }

    /// The type operands that must agree give: the first known one, else
    /// the literal kind (a float literal makes the whole float).
    fn join<'e>(&self, operands: impl Iterator<Item = &'e ExprSyntax>) -> Ty {
        let types: Vec<Ty> = operands.map(|o| self.infer(o)).collect();
        if let Some(t) = types.iter().find_map(|t| t.known()) {
            return Ty::Known(t);
        }
        if types.contains(&Ty::FloatLit) {
            return Ty::FloatLit;
        }
        if types.contains(&Ty::IntLit) {
            return Ty::IntLit;
        }
        Ty::Unknown
    }

    /// What operands of `e` are expected to be: what `e` is expected to
    /// be, else what its own known operands say.
    pub(super) fn around<'o>(&self, e: &ExprSyntax, expected: Expected<'o>) -> Expected<'o> {
        expected.or_else(|| self.infer(e).known().map(|t| (t, Origin::Operands)))
    }

    pub(super) fn check(&self, e: &ExprSyntax, expected: Expected, errors: &mut Errors) {
        match e {
            ExprSyntax::Access(_) | ExprSyntax::Name(_) => {
                if let (Some(t), Some((x, origin))) = (self.infer(e).known(), expected) {
                    if t != x {
                        mismatch(e, t, x, origin, errors);
                    }
                }
            }
            ExprSyntax::Literal { text, span, .. } => {
                let Some((x, origin)) = expected else {
                    return;
                };
                let message = match self.infer(e) {
                    Ty::Known(t) if t != x => return mismatch(e, t, x, origin, errors),
                    Ty::IntLit if x.is_float() => format!(
                        "integer literal `{text}` where {} is expected; write `{text}.0`",
                        describe(x, origin)
                    ),
                    Ty::IntLit | Ty::FloatLit if x == ValueType::Bool => format!(
                        "number literal `{text}` where {} is expected; write `true` or `false`",
                        describe(x, origin)
                    ),
                    Ty::FloatLit if !x.is_float() => format!(
                        "float literal `{text}` where {} is expected; write an integer literal",
                        describe(x, origin)
                    ),
                    _ => return,
                };
                errors.error(*span, message);
            }
            ExprSyntax::Paren { inner, .. } => self.check(inner, expected, errors),
            ExprSyntax::Neg { minus, operand } => {
                let around = self.around(e, expected);
                self.check(operand, around, errors);
                if let Some((t, _)) = around.filter(|(t, _)| !t.is_signed()) {
                    errors.error(
                        *minus,
                        format!(
                            "`{}` values cannot be negated; cast to a signed type first, e.g. \
                             `-({} as i64)`",
                            t.rust_name(),
                            operand.text()
                        ),
                    );
                }
            }
            ExprSyntax::Binary {
                op,
                op_span,
                left,
                right,
            } if op.is_comparison() => {
                self.check_bool_result(e, expected, errors);
                let around = self.join([left.as_ref(), right.as_ref()].into_iter());
                let around = around.known().map(|t| (t, Origin::Operands));
                if let Some((t, _)) = around.filter(|(t, _)| t.is_complex()) {
                    if !matches!(op, crate::syntax::ArithOp::Eq | crate::syntax::ArithOp::Ne) {
                        errors.error(
                            *op_span,
                            format!(
                                "`{}` is not defined on complex numbers (`{}`), which have no \
                                 order; compare their moduli or parts, e.g. `abs(x) {} abs(y)` \
                                 or `re(x) {} re(y)`",
                                op.symbol(),
                                t.mlir_name(),
                                op.symbol(),
                                op.symbol()
                            ),
                        );
                    }
                }
                self.check(left, around, errors);
                self.check(right, around, errors);
            }
            ExprSyntax::Binary {
                op, left, right, ..
            } if op.is_logical() => {
                self.check_bool_result(e, expected, errors);
                let cond = Some((ValueType::Bool, Origin::Condition));
                self.check(left, cond, errors);
                self.check(right, cond, errors);
            }
            ExprSyntax::Not { bang, operand } if !self.logical_not(operand) => {
                self.check_bitwise_not(e, *bang, operand, expected, errors);
            }
            ExprSyntax::Not { operand, .. } => {
                self.check_bool_result(e, expected, errors);
                self.check(operand, Some((ValueType::Bool, Origin::Condition)), errors);
            }
            ExprSyntax::If {
                cond, then, els, ..
            } => {
                self.check(cond, Some((ValueType::Bool, Origin::Condition)), errors);
                let around = self.around(e, expected);
                self.check(then, around, errors);
                self.check(els, around, errors);
            }
            ExprSyntax::Binary {
                op,
                op_span,
                left,
                right,
            } if op.is_shift() => self.check_shift(e, *op, *op_span, left, right, expected, errors),
            ExprSyntax::Binary { op, op_span, .. } if op.is_bitwise() => {
                self.check_bitwise(e, *op, *op_span, expected, errors)
            }
            ExprSyntax::Binary {
                op,
                op_span,
                left,
                right,
            } => {
                let around = self.around(e, expected);
                if let Some((ValueType::Bool, _)) = around {
                    errors.error(
                        *op_span,
                        format!(
                            "`{}` is not defined on `bool` (`i1`) values; cast them to a number \
                             type first, e.g. `(x as u8)`",
                            op.symbol()
                        ),
                    );
                    return;
                }
                self.check(left, around, errors);
                self.check(right, around, errors);
            }
            ExprSyntax::Cast { operand, ty } => {
                let inner = self.around(operand, None);
                self.check(operand, inner, errors);
                if let Some((t, _)) = inner.filter(|(t, _)| t.is_complex()) {
                    let (first, last) = e.span_range();
                    errors.error_range(
                        first,
                        last,
                        format!(
                            "a `{}` value cannot be cast; take its real part, imaginary part or \
                             modulus: `re({x})`, `im({x})` or `abs({x})`",
                            t.mlir_name(),
                            x = operand.text()
                        ),
                    );
                    return;
                }
                let target = suffix_type(&ty.to_string()).known();
                if let (Some((ValueType::Bool, _)), Some(t)) = (inner, target) {
                    if t.is_float() {
                        let (first, last) = e.span_range();
                        errors.error_range(
                            first,
                            last,
                            format!(
                                "a `bool` cannot be cast to `{ty}` directly; cast to an integer \
                                 first: `({} as u8) as {ty}`",
                                operand.text()
                            ),
                        );
                    }
                }
                if let (Some(t), Some((x, origin))) = (target, expected) {
                    if t != x {
                        mismatch(e, t, x, origin, errors);
                    }
                }
            }
            ExprSyntax::Call { name, args, .. } if name == "sum" => {
                if let Some(body) = args.last() {
                    self.check(body, expected, errors);
                }
            }
            ExprSyntax::Call { name, args, .. }
                if is_part_call(&name.to_string())
                    && self
                        .join(args.iter())
                        .known()
                        .is_some_and(ValueType::is_complex) =>
            {
                // The argument has its own (complex) type; the result is
                // real.
                let inner = self.join(args.iter()).known();
                for arg in args {
                    self.check(arg, inner.map(|t| (t, Origin::Operands)), errors);
                }
                if let (Ty::Known(t), Some((x, origin))) = (self.infer(e), expected) {
                    if t != x {
                        mismatch(e, t, x, origin, errors);
                    }
                }
            }
            ExprSyntax::Call { name, args, .. } if name == "requantize" => {
                self.check_requantize(e, args, expected, errors);
            }
            ExprSyntax::Call { name, args, .. } => {
                let around = self.around(e, expected);
                if name == "powi" {
                    if let Some(base) = args.first() {
                        self.check(base, around, errors);
                    }
                    if let Some(exponent) = args.get(1) {
                        self.check(exponent, Some((ValueType::I32, Origin::Exponent)), errors);
                    }
                } else {
                    for arg in args {
                        self.check(arg, around, errors);
                    }
                }
                if let Some((t, _)) = around {
                    check_call_type(e, &name.to_string(), t, errors);
                }
            }
            ExprSyntax::Semiring(_) => {}
        }
    }
}

impl Checker<'_> {
    /// Rule: `requantize(acc, multiplier, shift)` takes and gives `i32`
    /// (CMSIS-NN's `arm_nn_requantize`). `requantize(a[i], m, s)` with
    /// `a: &tensor<?xf32>` is an error at `a[i]`; stored into an `i8`
    /// output unconverted, at the call, naming the cast.
    fn check_requantize(
        &self,
        e: &ExprSyntax,
        args: &[ExprSyntax],
        expected: Expected,
        errors: &mut Errors,
    ) {
        for arg in args {
            self.check(arg, Some((ValueType::I32, Origin::Requantize)), errors);
        }
        let Some((x, origin)) = expected.filter(|(x, _)| *x != ValueType::I32) else {
            return;
        };
        // A narrow output wants the zero point and the clamp that a bare
        // `as` would skip (a wrapping cast).
        let range = match x {
            ValueType::I8 => Some((i8::MIN as i32, i8::MAX as i32)),
            ValueType::U8 => Some((0, u8::MAX as i32)),
            ValueType::I16 => Some((i16::MIN as i32, i16::MAX as i32)),
            ValueType::U16 => Some((0, u16::MAX as i32)),
            _ => None,
        };
        let Some((lo, hi)) = range else {
            return mismatch(e, ValueType::I32, x, origin, errors);
        };
        let (first, last) = e.span_range();
        errors.error_range(
            first,
            last,
            format!(
                "`{text}` is an `i32` where {} is expected; add the output zero point and clamp \
                 to the range before converting: `clamp({text} + zero_point, {lo}, {hi}) as {}`",
                describe(x, origin),
                x.rust_name(),
                text = e.text(),
            ),
        );
    }

    /// Rule: a comparison or logical operation gives a `bool`, which Rust
    /// does not turn into a number by itself. `y[i] = a[i] < b[i]` with `y`
    /// of `f64` is an error at the comparison, which names the choice to
    /// write instead.
    fn check_bool_result(&self, e: &ExprSyntax, expected: Expected, errors: &mut Errors) {
        let Some((x, origin)) = expected.filter(|(x, _)| *x != ValueType::Bool) else {
            return;
        };
        let (first, last) = e.span_range();
        let (one, zero) = if x.is_float() {
            ("1.0", "0.0")
        } else {
            ("1", "0")
        };
        errors.error_range(
            first,
            last,
            format!(
                "`{}` is a `bool` (`i1`) where {} is expected; choose the values: \
                 `if {} {{ {one} }} else {{ {zero} }}`",
                e.text(),
                describe(x, origin),
                e.text()
            ),
        );
    }
}

/// Rule: a math function is applied to values it is defined on.
/// `sqrt(a[i])` with `a: &tensor<?xi32>` is an error at the call, and so is
/// `max` of complex numbers (no order) or `re` of a real number.
fn check_call_type(call: &ExprSyntax, name: &str, t: ValueType, errors: &mut Errors) {
    let (ok, needs) = match name {
        "abs" => (
            t.is_signed(),
            "signed numbers (floats, complex numbers, `i8`..`i64`)",
        ),
        "max" | "min" | "clamp" => (t != ValueType::Bool && !t.is_complex(), "real numbers"),
        "conj" | "re" | "im" => (t.is_complex(), "complex numbers"),
        _ if complex_function(name) => (t.is_float(), "floating-point and complex numbers"),
        _ => (t.is_real_float(), "`f32`, `f64`, `f16` and `bf16`"),
    };
    if ok {
        return;
    }
    let (first, last) = call.span_range();
    let hint = if t.is_complex() {
        "apply it to real numbers: a part or the modulus, `re(x)`, `im(x)` or `abs(x)`".to_string()
    } else if matches!(name, "conj" | "re" | "im") {
        "it takes `complex<f32>` or `complex<f64>` values (a real number is its own real part)"
            .to_string()
    } else {
        format!(
            "convert them with `as`, e.g. `{name}(x as f64) as {}`",
            t.rust_name()
        )
    };
    errors.error_range(
        first,
        last,
        format!(
            "`{name}` is defined on {needs}, but its arguments here are `{}`; {hint}",
            t.rust_name()
        ),
    );
}

/// `` an `f64` (the element type of the output `y`) ``.
fn describe(x: ValueType, origin: Origin) -> String {
    let name = x.rust_name();
    match origin {
        Origin::Output(out) => format!("`{name}` (the element type of the output `{out}`)"),
        Origin::Operands => format!("`{name}` (the type of the other operands)"),
        Origin::Exponent => "an `i32` (the exponent of `powi`)".to_string(),
        Origin::Requantize => "an `i32` (an operand of `requantize`)".to_string(),
        Origin::Condition => "a `bool` (a condition, e.g. `a[i] > 0.0`)".to_string(),
    }
}

fn mismatch(e: &ExprSyntax, t: ValueType, x: ValueType, origin: Origin, errors: &mut Errors) {
    let text = e.text();
    let (first, last) = e.span_range();
    if x == ValueType::Bool {
        let zero = if t.is_float() { "0.0" } else { "0" };
        errors.error_range(
            first,
            last,
            format!(
                "`{text}` has type `{}` where {} is expected; compare it, e.g. `{text} != {zero}`",
                t.rust_name(),
                describe(x, origin),
            ),
        );
        return;
    }
    errors.error_range(
        first,
        last,
        format!(
            "`{text}` has type `{}` where {} is expected; convert it with `as`: `({text} as {})`",
            t.rust_name(),
            describe(x, origin),
            x.rust_name()
        ),
    );
}
