//! The scheduling attributes of a kernel `fn`: `#[parallel]` and `#[fma]`
//! (flags) and `#[unroll(n)]` (a factor), taken out of its attributes and
//! checked here; the schedule stage decides what they do to each loop.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::errors::Errors;
use crate::model::Specialize;
use crate::schedule::unroll::MAX_UNROLL;

/// Takes `#[name]` (`#[parallel]`, `#[fma]`) out of a kernel's
/// attributes: its span, and the attributes left to emit on the `fn`.
/// `#[name(..)]` or `#[name = ..]` (no arguments are defined) and a
/// second `#[name]` are errors at the attribute.
pub(super) fn flag_attr(
    name: &str,
    attrs: &[syn::Attribute],
    errors: &mut Errors,
) -> (Vec<syn::Attribute>, Option<proc_macro2::Span>) {
    let mut kept = Vec::new();
    let mut found = None;
    for a in attrs {
        if !a.path().is_ident(name) {
            kept.push(a.clone());
            continue;
        }
        if !matches!(a.meta, syn::Meta::Path(_)) {
            errors.error(
                a.meta.span(),
                format!("`#[{name}]` takes no arguments: write `#[{name}]`"),
            );
        } else if found.is_some() {
            errors.error(
                a.path().span(),
                format!("`#[{name}]` is written twice on this kernel"),
            );
        } else {
            found = Some(a.path().span());
        }
    }
    (kept, found)
}

/// Rule: `#[unroll(n)]` takes one integer literal from 2 to
/// [`MAX_UNROLL`], once per kernel. `#[unroll]`, `#[unroll(1)]`,
/// `#[unroll(x)]` and `#[unroll(64)]` are errors at the attribute or its
/// argument.
pub(super) fn unroll_attr(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
) -> (Vec<syn::Attribute>, Option<(u32, Span)>) {
    let mut kept = Vec::new();
    let mut found = None;
    for a in attrs {
        if !a.path().is_ident("unroll") {
            kept.push(a.clone());
            continue;
        }
        let factor = match &a.meta {
            syn::Meta::List(list) => match syn::parse2::<syn::LitInt>(list.tokens.clone()) {
                Ok(lit) => match lit.base10_parse::<u32>() {
                    Ok(n) if (2..=MAX_UNROLL).contains(&n) && lit.suffix().is_empty() => Some(n),
                    _ => {
                        errors.error(
                            lit.span(),
                            format!(
                                "`#[unroll({lit})]`: the factor is an unsuffixed integer from 2 \
                                 to {MAX_UNROLL}, the entries each step of an innermost walk \
                                 handles (e.g. `#[unroll(4)]`)"
                            ),
                        );
                        None
                    }
                },
                Err(_) => {
                    errors.error(
                        list.tokens.span(),
                        format!(
                            "`#[unroll(..)]` takes one integer literal from 2 to {MAX_UNROLL}, \
                             e.g. `#[unroll(4)]`"
                        ),
                    );
                    None
                }
            },
            _ => {
                errors.error(
                    a.meta.span(),
                    "`#[unroll]` needs a factor: write `#[unroll(4)]`",
                );
                None
            }
        };
        if let Some(n) = factor {
            if found.is_some() {
                errors.error(
                    a.path().span(),
                    "`#[unroll]` is written twice on this kernel",
                );
            } else {
                found = Some((n, a.path().span()));
            }
        }
    }
    (kept, found)
}

/// The stored entries `#[specialize]` writes out as code unless the
/// attribute says otherwise: about 10-12 bytes of Cortex-M code per entry,
/// so 4096 entries are some 48 KiB of flash.
pub const DEFAULT_MAX_ENTRIES: u64 = 2048;

/// The largest `max_entries` accepted: each entry is a few statements of
/// generated Rust, and rustc's time grows with them.
pub const LIMIT_MAX_ENTRIES: u64 = 65_536;

/// Rule: `#[specialize(w = W)]` or `#[specialize(w = W, max_entries =
/// N)]`, once per kernel: a parameter name, `=`, a constant name, and
/// optionally the budget (1 to [`LIMIT_MAX_ENTRIES`]). Anything else is an
/// error at the attribute or the offending token. Whether `w` and `W` fit
/// each other is checked where both are known (`plan::specialize`).
pub(super) fn specialize_attr(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
) -> (Vec<syn::Attribute>, Option<Specialize>) {
    let mut kept = Vec::new();
    let mut found: Option<Specialize> = None;
    for a in attrs {
        if !a.path().is_ident("specialize") {
            kept.push(a.clone());
            continue;
        }
        let syn::Meta::List(list) = &a.meta else {
            errors.error(
                a.meta.span(),
                "`#[specialize]` names the operand and the constant it is: write \
                 `#[specialize(w = W)]`",
            );
            continue;
        };
        let parsed = list.parse_args_with(
            syn::punctuated::Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated,
        );
        let Ok(pairs) = parsed else {
            errors.error(
                list.tokens.span(),
                "`#[specialize(..)]` takes `operand = CONSTANT` and optionally \
                 `max_entries = N`, e.g. `#[specialize(w = W)]`",
            );
            continue;
        };
        let mut operand = None;
        let mut max_entries = DEFAULT_MAX_ENTRIES;
        let mut ok = true;
        for pair in &pairs {
            let value_ident = match &pair.value {
                syn::Expr::Path(p) => p.path.get_ident().cloned(),
                _ => None,
            };
            if pair.path.is_ident("max_entries") {
                let n = match &pair.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(lit),
                        ..
                    }) => lit.base10_parse::<u64>().ok(),
                    _ => None,
                };
                match n {
                    Some(n) if (1..=LIMIT_MAX_ENTRIES).contains(&n) => max_entries = n,
                    _ => {
                        ok = false;
                        errors.error(
                            pair.value.span(),
                            format!(
                                "`max_entries` is an integer from 1 to {LIMIT_MAX_ENTRIES}: the \
                                 most stored entries written out as code"
                            ),
                        );
                    }
                }
                continue;
            }
            let (Some(param), Some(constant)) = (pair.path.get_ident(), value_ident) else {
                ok = false;
                errors.error(
                    pair.span(),
                    "`#[specialize(..)]` takes `operand = CONSTANT`: a parameter name and the \
                     name of a `static` of this block, e.g. `#[specialize(w = W)]`",
                );
                continue;
            };
            if operand.is_some() {
                ok = false;
                errors.error(
                    pair.span(),
                    "`#[specialize(..)]` compiles one operand into the code; name one",
                );
                continue;
            }
            operand = Some((param.clone(), constant));
        }
        if !ok {
            continue;
        }
        let Some((param, constant)) = operand else {
            errors.error(
                list.tokens.span(),
                "`#[specialize(..)]` needs `operand = CONSTANT`, e.g. `#[specialize(w = W)]`",
            );
            continue;
        };
        if found.is_some() {
            errors.error(
                a.path().span(),
                "`#[specialize]` is written twice on this kernel",
            );
            continue;
        }
        found = Some(Specialize {
            param,
            constant,
            max_entries,
            span: a.span(),
        });
    }
    (kept, found)
}
