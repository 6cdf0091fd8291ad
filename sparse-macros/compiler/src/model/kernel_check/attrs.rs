//! The scheduling attributes of a kernel `fn`: `#[parallel]` and `#[fma]`
//! (flags) and `#[unroll(n)]` (a factor), taken out of its attributes and
//! checked here; the schedule stage decides what they do to each loop.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::errors::Errors;
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
