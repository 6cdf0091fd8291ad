//! The semiring operations (seed 000's `binary`, `unary`, `select`,
//! `reduce`): their arguments checked and resolved to the sparsifier's
//! [`Expr`] nodes, their closures recorded with the types codegen gives
//! them.
//!
//! Rule (as in MLIR): a `binary`/`unary`/`select` result may only be the
//! whole right-hand side or the argument of `reduce`, because where a
//! region gives no value there is nothing for a surrounding expression to
//! compute with. `reduce` may only be the whole right-hand side.

use syn::Ident;

use super::semiring_regions::RegionRule;
use super::Checker;
use crate::errors::Errors;
use crate::model::kernel::{ClosureBody, ClosureDef};
use crate::model::kernel_types::check_operand;
use crate::model::ValueType;
use crate::sparsifier::{BinaryOp, Expr, LoopId, Reduce, Region, UnaryOp};
use crate::suggest::{backquoted, did_you_mean};
use crate::syntax::{
    compact, ArgSyntax, ArgValue, AssignSyntax, ExprSyntax, SemiringKind, SemiringSyntax,
    StmtSyntax,
};

/// The arguments of one call, sorted by kind.
#[derive(Default)]
pub(super) struct Args<'s> {
    pub(super) operands: Vec<(&'s ArgSyntax, &'s ExprSyntax)>,
    pub(super) closures: Vec<&'s ArgSyntax>,
    pub(super) named: Vec<(&'s Ident, &'s ArgSyntax)>,
}

impl Checker<'_> {
    /// A statement whose whole right-hand side is a semiring operation: its
    /// expression and, for `reduce`, the custom reduction.
    pub(super) fn resolve_semiring_stmt(
        &mut self,
        op: &SemiringSyntax,
        stmt: &StmtSyntax,
        out: ValueType,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<(Expr, Option<Reduce>)> {
        if op.kind != SemiringKind::Reduce {
            let (e, ty) = self.resolve_op(op, out, local, errors)?;
            if let Some(ty) = ty.filter(|t| *t != out) {
                self.result_type_mismatch(op, ty, out, errors);
                return None;
            }
            return Some((e, None));
        }
        let before = errors.len();
        if stmt.op != AssignSyntax::Assign {
            errors.error(
                stmt.op_span,
                format!(
                    "`reduce` computes the whole value of `{0}`; use `=` (to add the old values, \
                     reduce into a separate output and add it in another statement)",
                    stmt.lhs.text()
                ),
            );
        }
        let written: Vec<String> = stmt.lhs.vars().into_iter().map(Ident::to_string).collect();
        if local.iter().all(|(n, _)| written.contains(n)) {
            errors.error_range(
                op.name.span(),
                op.parens,
                format!(
                    "`reduce` folds over the index variables that appear on the right but not \
                     in `{}`, and there are none; reduce over a variable, e.g. \
                     `x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v)`",
                    stmt.lhs.text()
                ),
            );
        }
        let args = self.sort_args(op, &["identity"], errors);
        let operand = self.single_operand(op, &args, errors);
        let combiner_arg = match args.closures.as_slice() {
            [one] => Some(*one),
            [] => {
                errors.error_range(
                    op.name.span(),
                    op.parens,
                    "`reduce` needs its combiner after the identity: a closure `|acc, v| ...` \
                     that folds one value into the accumulator",
                );
                None
            }
            [_, extra, ..] => {
                errors.error_range(
                    extra.range.0,
                    extra.range.1,
                    "`reduce` takes one combiner closure `|acc, v| ...`",
                );
                None
            }
        };
        let identity = match args.named.iter().find(|(n, _)| *n == "identity") {
            Some((_, arg)) => match &arg.value {
                ArgValue::Expr(_, tokens) => Some(tokens.clone()),
                _ => {
                    errors.error_range(
                        arg.range.0,
                        arg.range.1,
                        format!(
                            "`identity` of `reduce` is the value the fold starts from, e.g. \
                             `identity = 1.0` or `identity = {}::NEG_INFINITY`",
                            out.rust_name()
                        ),
                    );
                    None
                }
            },
            None => {
                errors.error_range(
                    op.name.span(),
                    op.parens,
                    format!(
                        "`reduce` needs `identity = <value>`, the value the fold starts from \
                         (for a product `1.0`, for a maximum `{}::NEG_INFINITY`)",
                        out.rust_name()
                    ),
                );
                None
            }
        };
        let (value, v_ty) = match operand? {
            ExprSyntax::Semiring(inner) if inner.kind == SemiringKind::Reduce => {
                self.misplaced_semiring(inner, errors);
                return None;
            }
            ExprSyntax::Semiring(inner) => self.resolve_op(inner, out, local, errors)?,
            plain => {
                let ty = {
                    let leaf = |e: &ExprSyntax| self.leaf(e, local);
                    check_operand(plain, &leaf, errors)
                };
                (self.resolve(plain, local, errors)?, ty)
            }
        };
        let combiner_arg = combiner_arg?;
        let identity = identity?;
        let ArgValue::Closure(c) = &combiner_arg.value else {
            return None;
        };
        let rule = RegionRule {
            name: "combiner",
            params: vec![Some(out), v_ty],
            identity: None,
            usage: "`|acc, v|`: the accumulator and the next value",
        };
        let combiner = self.closure(&rule, c, out, local, errors)?;
        let identity = self.record(
            compact(&identity),
            ClosureDef {
                body: ClosureBody::Value(identity),
                params: Vec::new(),
                result: out,
                indices: Vec::new(),
            },
            0,
        );
        if errors.len() > before {
            return None;
        }
        Some((value, Some(Reduce { identity, combiner })))
    }

    /// `binary`, `unary` or `select`: the expression and its result type
    /// (the output's for `binary`/`unary`, the operand's for `select`).
    fn resolve_op(
        &mut self,
        op: &SemiringSyntax,
        out: ValueType,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<(Expr, Option<ValueType>)> {
        let before = errors.len();
        let allowed: &[&str] = match op.kind {
            SemiringKind::Binary => &["overlap", "left", "right"],
            SemiringKind::Unary => &["present", "absent"],
            _ => &[],
        };
        let args = self.sort_args(op, allowed, errors);
        let want = if op.kind == SemiringKind::Binary {
            2
        } else {
            1
        };
        if args.operands.len() != want {
            let (first, last) = args
                .operands
                .get(want)
                .map_or((op.name.span(), op.parens), |(a, _)| a.range);
            errors.error_range(
                first,
                last,
                format!(
                    "`{}` takes {want} operand(s) before its regions, found {}: {}",
                    op.kind.name(),
                    args.operands.len(),
                    example(op.kind)
                ),
            );
            return None;
        }
        let mut operands = Vec::new();
        for (_, e) in &args.operands {
            let ty = {
                let leaf = |x: &ExprSyntax| self.leaf(x, local);
                check_operand(e, &leaf, errors)
            };
            operands.push((self.resolve(e, local, errors), ty, e.text()));
        }
        if op.kind != SemiringKind::Select {
            if let Some(extra) = args.closures.first() {
                errors.error_range(
                    extra.range.0,
                    extra.range.1,
                    format!(
                        "name the region this closure is for: {}",
                        backquoted(
                            &allowed
                                .iter()
                                .map(|r| format!("{r} = ..."))
                                .collect::<Vec<_>>()
                                .iter()
                                .map(String::as_str)
                                .collect::<Vec<_>>()
                        )
                    ),
                );
                return None;
            }
        }
        let result = match op.kind {
            SemiringKind::Binary => {
                let (tx, ty) = (operands[0].1, operands[1].1);
                let rules = [
                    RegionRule {
                        name: "overlap",
                        params: vec![tx, ty],
                        identity: None,
                        usage: "`|x, y|`: the values of both operands",
                    },
                    RegionRule {
                        name: "left",
                        params: vec![tx],
                        identity: Some((operands[0].2.clone(), tx)),
                        usage: "`|x|`: the value of the left operand",
                    },
                    RegionRule {
                        name: "right",
                        params: vec![ty],
                        identity: Some((operands[1].2.clone(), ty)),
                        usage: "`|y|`: the value of the right operand",
                    },
                ];
                let regions: Vec<Option<Region>> = rules
                    .iter()
                    .map(|rule| self.region(op, &args, rule, out, local, errors))
                    .collect();
                let [Some(overlap), Some(left), Some(right)] = regions[..] else {
                    return None;
                };
                let mut ops = operands.into_iter().map(|o| o.0);
                let (x, y) = (ops.next()??, ops.next()??);
                Expr::Binary(Box::new(BinaryOp {
                    x,
                    y,
                    overlap,
                    left,
                    right,
                }))
            }
            SemiringKind::Unary => {
                let tx = operands[0].1;
                let present_rule = RegionRule {
                    name: "present",
                    params: vec![tx],
                    identity: Some((operands[0].2.clone(), tx)),
                    usage: "`|x|`: the value of the operand",
                };
                let absent_rule = RegionRule {
                    name: "absent",
                    params: Vec::new(),
                    identity: None,
                    usage: "`||`: the operand is not stored there, so there is no value to pass",
                };
                let present = self.region(op, &args, &present_rule, out, local, errors);
                self.check_absent_uses(&args, local, errors);
                let absent = self.region(op, &args, &absent_rule, out, local, errors);
                let x = operands.into_iter().next()?.0?;
                Expr::Unary(Box::new(UnaryOp {
                    x,
                    present: present?,
                    absent: absent?,
                }))
            }
            _ => {
                let (x, tx, _) = operands.into_iter().next()?;
                let pred = match args.closures.as_slice() {
                    [one] => Some(*one),
                    _ => {
                        errors.error_range(
                            op.name.span(),
                            op.parens,
                            "`select` takes one predicate closure after its operand: \
                             `select(a[i, j], |v| v >= 4.0)`",
                        );
                        None
                    }
                };
                let ArgValue::Closure(c) = &pred?.value else {
                    return None;
                };
                let rule = RegionRule {
                    name: "predicate",
                    params: vec![tx],
                    identity: None,
                    usage: "`|v|`: the stored value, returning `bool`",
                };
                let f = self.closure(&rule, c, ValueType::Bool, local, errors)?;
                if errors.len() > before {
                    return None;
                }
                return Some((Expr::Select(f, Box::new(x?)), tx));
            }
        };
        if errors.len() > before {
            return None;
        }
        Some((result, Some(out)))
    }

    /// Sorts the arguments; named ones must be in `allowed`, once each.
    fn sort_args<'s>(
        &self,
        op: &'s SemiringSyntax,
        allowed: &[&str],
        errors: &mut Errors,
    ) -> Args<'s> {
        let mut args = Args::default();
        for arg in &op.args {
            match (&arg.name, &arg.value) {
                (Some(name), _) => {
                    if !allowed.iter().any(|a| name == a) {
                        let list = if allowed.is_empty() {
                            format!("`{}` takes no named arguments", op.kind.name())
                        } else {
                            format!("`{}` takes {}", op.kind.name(), backquoted(allowed))
                        };
                        errors.error(
                            name.span(),
                            format!(
                                "unknown argument `{name}`: {list}{}",
                                did_you_mean(&name.to_string(), allowed)
                            ),
                        );
                    } else if args.named.iter().any(|(n, _)| *n == name) {
                        errors.error(name.span(), format!("`{name}` is given twice"));
                    } else {
                        args.named.push((name, arg));
                    }
                }
                (None, ArgValue::Closure(_)) => args.closures.push(arg),
                (None, ArgValue::Expr(Ok(e), _)) => args.operands.push((arg, e)),
                (None, ArgValue::Expr(Err(e), _)) => errors.push(e.clone()),
                (None, ArgValue::Identity(id) | ArgValue::None(id)) => {
                    errors.error(id.span(), unnamed_region_message(op.kind, id, allowed))
                }
            }
        }
        args
    }

    fn single_operand<'s>(
        &self,
        op: &SemiringSyntax,
        args: &Args<'s>,
        errors: &mut Errors,
    ) -> Option<&'s ExprSyntax> {
        match args.operands.as_slice() {
            [(_, e)] => Some(e),
            [] => {
                errors.error_range(
                    op.name.span(),
                    op.parens,
                    format!(
                        "`{}` needs its operand first: {}",
                        op.kind.name(),
                        example(op.kind)
                    ),
                );
                None
            }
            [_, (extra, _), ..] => {
                errors.error_range(
                    extra.range.0,
                    extra.range.1,
                    format!(
                        "`{}` takes one operand: {}",
                        op.kind.name(),
                        example(op.kind)
                    ),
                );
                None
            }
        }
    }

    /// Rule: a semiring operation inside a larger expression.
    /// `c[i] = binary(a[i], b[i], ...) * 2.0` is an error at `binary`.
    pub(super) fn misplaced_semiring(&self, op: &SemiringSyntax, errors: &mut Errors) {
        let message = if op.kind == SemiringKind::Reduce {
            "`reduce` may only be the whole right-hand side of a statement: \
             `x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);`"
                .to_string()
        } else {
            format!(
                "the result of `{0}` may only be the whole right-hand side of a statement or \
                 the argument of `reduce` (as in MLIR): where it produces no value there is \
                 nothing to compute with; move the surrounding computation into its closures, \
                 e.g. `{1}`",
                op.kind.name(),
                match op.kind {
                    SemiringKind::Binary => "overlap = |x, y| (x + y) * 2.0",
                    SemiringKind::Unary => "present = |x| x * 2.0",
                    _ => "select(a[i] * 2.0, |v| v > 1.0)",
                }
            )
        };
        errors.error_range(op.name.span(), op.parens, message);
    }
}

fn example(kind: SemiringKind) -> &'static str {
    match kind {
        SemiringKind::Binary => {
            "`binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = none)`"
        }
        SemiringKind::Unary => "`unary(a[i], present = |x| x + 1.0, absent = none)`",
        SemiringKind::Select => "`select(a[i], |v| v >= 4.0)`",
        SemiringKind::Reduce => "`reduce(a[i, j], identity = 1.0, |acc, v| acc * v)`",
    }
}

/// The error for a bare `identity` or `none` among the arguments of `kind`:
/// the fix names a region `kind` has (`left = identity` for `binary`,
/// `present = none` for `unary`); `reduce` and `select` have no regions
/// these words fill.
fn unnamed_region_message(kind: SemiringKind, id: &Ident, allowed: &[&str]) -> String {
    let name = kind.name();
    match (kind, allowed.first()) {
        (SemiringKind::Reduce, _) => format!(
            "`{id}` is not an argument of `reduce`: it takes its operand, \
             `identity = <value>` (the value the fold starts from, e.g. `identity = 1.0`) \
             and a combiner closure `|acc, v| ...`"
        ),
        (SemiringKind::Binary | SemiringKind::Unary, Some(first)) => format!(
            "name the region `{id}` is for, e.g. `{first} = {id}`; `{name}` takes {}",
            backquoted(allowed)
        ),
        _ => format!(
            "`{id}` is not an argument of `{name}`: it takes its operand and one predicate \
             closure, e.g. `select(a[i, j], |v| v >= 4.0)`"
        ),
    }
}
