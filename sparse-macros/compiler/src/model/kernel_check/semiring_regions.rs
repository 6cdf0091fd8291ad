//! The regions of the semiring operations: `none`, `identity` or a
//! closure, checked against the rule of each region (its arity, the
//! types of its parameters, what `identity` passes through) and recorded
//! with the types codegen gives the closure; an `absent` region may not
//! name the operands it is absent for.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::Ident;

use super::semiring::Args;
use super::{Binding, Checker};
use crate::errors::Errors;
use crate::model::kernel::{ClosureBody, ClosureDef};
use crate::model::ValueType;
use crate::sparsifier::{FuncId, LoopId, Region};
use crate::syntax::{compact, ArgValue, SemiringSyntax};

/// What a region may be, besides `none`.
pub(super) struct RegionRule<'a> {
    pub(super) name: &'a str,
    /// Parameter types of its closure; their count is its arity.
    pub(super) params: Vec<Option<ValueType>>,
    /// The operand `identity` would pass through (text, type), if allowed.
    pub(super) identity: Option<(String, Option<ValueType>)>,
    /// What its parameters are, for the arity message.
    pub(super) usage: &'a str,
}

/// Every identifier in `tokens`, nested groups included.
pub(super) fn idents(tokens: TokenStream, out: &mut Vec<Ident>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) => out.push(i),
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

pub(super) fn closure_params_range(c: &syn::ExprClosure) -> (proc_macro2::Span, proc_macro2::Span) {
    (c.or1_token.span, c.or2_token.span)
}

impl Checker<'_> {
    /// One region of `binary`/`unary`, which must be given.
    pub(super) fn region(
        &mut self,
        op: &SemiringSyntax,
        args: &Args<'_>,
        rule: &RegionRule<'_>,
        out: ValueType,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<Region> {
        let Some((_, arg)) = args.named.iter().find(|(n, _)| *n == rule.name) else {
            let alternatives = if rule.identity.is_some() {
                "a closure, `identity` or `none`"
            } else {
                "a closure or `none`"
            };
            errors.error_range(
                op.name.span(),
                op.parens,
                format!(
                    "`{}` needs its `{} = ...` region: {alternatives} (`none` when the region \
                     contributes no value)",
                    op.kind.name(),
                    rule.name
                ),
            );
            return None;
        };
        match &arg.value {
            ArgValue::None(_) => Some(Region::None),
            ArgValue::Identity(id) => match &rule.identity {
                None => {
                    errors.error(
                        id.span(),
                        format!(
                            "`{}` cannot be `identity`: it has {} parameter(s) ({}); write a \
                             closure or `none`",
                            rule.name,
                            rule.params.len(),
                            rule.usage
                        ),
                    );
                    None
                }
                Some((text, Some(t))) if *t != out => {
                    errors.error(
                        id.span(),
                        format!(
                            "`{} = identity` passes `{text}` (`{}`) through unchanged, but the \
                             output holds `{}`; convert it: `{} = |x| x as {}`",
                            rule.name,
                            t.rust_name(),
                            out.rust_name(),
                            rule.name,
                            out.rust_name()
                        ),
                    );
                    None
                }
                Some(_) => Some(Region::Identity),
            },
            ArgValue::Closure(c) => self.closure(rule, c, out, local, errors).map(Region::Func),
            ArgValue::Expr(..) => {
                let example = if rule.params.is_empty() {
                    format!("`{} = || 1.0`", rule.name)
                } else {
                    format!("`{} = |x| x + 1.0`", rule.name)
                };
                errors.error_range(
                    arg.range.0,
                    arg.range.1,
                    format!(
                        "a region is a closure, `identity` or `none`; write the value as a \
                         closure, e.g. {example}"
                    ),
                );
                None
            }
        }
    }

    /// Rule: `absent` has no argument, and so cannot use the name `present`
    /// gives its argument. `unary(a[i], present = |x| x, absent = || x)` is
    /// an error at the second `x`.
    pub(super) fn check_absent_uses(
        &self,
        args: &Args<'_>,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) {
        let closure_of = |name: &str| {
            args.named.iter().find_map(|(n, a)| match &a.value {
                ArgValue::Closure(c) if *n == name => Some(c),
                _ => None,
            })
        };
        let (Some(present), Some(absent)) = (closure_of("present"), closure_of("absent")) else {
            return;
        };
        if !absent.inputs.is_empty() {
            return;
        }
        let mut names = Vec::new();
        for p in &present.inputs {
            idents(p.to_token_stream(), &mut names);
        }
        let mut used = Vec::new();
        idents(absent.body.to_token_stream(), &mut used);
        for id in used {
            let shadowed = local.iter().any(|(l, _)| id == l)
                || matches!(self.binding(&id), Some(Binding::Scalar { .. }));
            if !shadowed && names.contains(&id) {
                errors.error(
                    id.span(),
                    format!(
                        "`{id}` is the parameter of `present`, not available in `absent`: the \
                         operand is not stored where `absent` runs, so there is no value to \
                         use; compute the value from literals, scalar parameters and index \
                         variables"
                    ),
                );
                return;
            }
        }
    }

    /// A closure of the region `rule`: arity and parameter patterns checked,
    /// recorded with its types.
    pub(super) fn closure(
        &mut self,
        rule: &RegionRule<'_>,
        c: &syn::ExprClosure,
        result: ValueType,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<FuncId> {
        let (first, last) = closure_params_range(c);
        if let Some(a) = &c.asyncness {
            errors.error(a.span, "closures of a kernel cannot be `async`");
            return None;
        }
        let arity = rule.params.len();
        if c.inputs.len() != arity {
            let what = if arity == 0 && rule.name == "absent" {
                format!(
                    "the `absent` region has no parameter: the operand is not stored there, so \
                     there is no value to pass; write `absent = || value` (found {} parameter(s))",
                    c.inputs.len()
                )
            } else {
                format!(
                    "`{}` takes {arity} parameter(s), {}, found {}",
                    rule.name,
                    rule.usage,
                    c.inputs.len()
                )
            };
            errors.error_range(first, last, what);
            return None;
        }
        for p in &c.inputs {
            let simple = |p: &syn::Pat| matches!(p, syn::Pat::Ident(_) | syn::Pat::Wild(_));
            let ok = match p {
                syn::Pat::Type(t) => simple(&t.pat),
                other => simple(other),
            };
            if !ok {
                let mut tokens = p.to_token_stream().into_iter();
                let span = tokens
                    .next()
                    .map_or(first, |t: proc_macro2::TokenTree| t.span());
                errors.error(
                    span,
                    "a closure parameter here is a name or `_` (it receives one element value)",
                );
                return None;
            }
        }
        let mut used = Vec::new();
        idents(c.body.to_token_stream(), &mut used);
        let mut indices: Vec<(Ident, LoopId)> = Vec::new();
        for id in used {
            if let Some((_, l)) = local.iter().find(|(n, _)| id == n) {
                if !indices.iter().any(|(_, x)| x == l) {
                    indices.push((id, *l));
                }
            }
        }
        let text = compact(&c.to_token_stream());
        Some(self.record(
            text,
            ClosureDef {
                body: ClosureBody::Closure(Box::new(c.clone())),
                params: rule.params.clone(),
                result,
                indices,
            },
            arity,
        ))
    }

    pub(super) fn record(&mut self, text: String, def: ClosureDef, arity: usize) -> FuncId {
        let indices: Vec<LoopId> = def.indices.iter().map(|(_, l)| *l).collect();
        self.closures.push(def);
        self.kernel.func_using(&text, arity, &indices)
    }

    pub(super) fn result_type_mismatch(
        &self,
        op: &SemiringSyntax,
        ty: ValueType,
        out: ValueType,
        errors: &mut Errors,
    ) {
        errors.error_range(
            op.name.span(),
            op.parens,
            format!(
                "`select` passes its operand's `{}` values through, but the output holds `{}`; \
                 cast the operand: `select(... as {}, ...)`",
                ty.rust_name(),
                out.rust_name(),
                out.rust_name()
            ),
        );
    }
}
