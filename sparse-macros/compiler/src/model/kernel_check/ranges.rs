//! Explicit index ranges: `#[range(k = 2, l = 3)]` on a kernel gives index
//! variables their sizes where no tensor dimension does, the window of a
//! pooling (`o[i, j] = a[i + k, j + l]`, MLIR's `linalg.pooling_*`, whose
//! filter operand contributes only its shape). A ranged index may appear
//! only inside subscripts; where it also indexes a dimension by itself,
//! that dimension must have the range's size (checked here when the type
//! fixes it, at the call otherwise).

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::Checker;
use crate::errors::Errors;
use crate::sparsifier::LoopId;

/// The largest explicit range: a window of 2^32 offsets is far past any
/// pooling, and it stays a `usize` on 32-bit targets.
pub const MAX_RANGE: u64 = u32::MAX as u64;

/// One `name = size` of `#[range(..)]`.
#[derive(Clone, Debug)]
pub(super) struct RangeSyntax {
    /// The index variable.
    pub name: syn::Ident,
    /// Its size.
    pub size: u64,
    /// The size literal, where errors about the size point.
    pub span: Span,
}

/// Rule: `#[range(k = 2, l = 3)]`: index variable names, each with an
/// unsuffixed integer literal from 1 to [`MAX_RANGE`], each name once,
/// over any number of `#[range]` attributes. Anything else is an error at
/// the offending token. Returns the attributes left to emit on the `fn`,
/// the ranges, and every name a range was written for (refused ones too,
/// so their uses get no second error).
pub(super) fn range_attr(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
) -> (Vec<syn::Attribute>, Vec<RangeSyntax>, Vec<String>) {
    let mut kept = Vec::new();
    let mut found: Vec<RangeSyntax> = Vec::new();
    let mut named: Vec<String> = Vec::new();
    let usage = "`#[range(..)]` gives index variables their sizes: `name = size` pairs, e.g. \
                 `#[range(k = 2, l = 2)]` for a 2x2 pooling window `a[i + k, j + l]`";
    for a in attrs {
        if !a.path().is_ident("range") {
            kept.push(a.clone());
            continue;
        }
        let syn::Meta::List(list) = &a.meta else {
            errors.error(a.meta.span(), usage);
            continue;
        };
        let parsed = list.parse_args_with(
            syn::punctuated::Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated,
        );
        let Ok(pairs) = parsed else {
            errors.error(list.tokens.span(), usage);
            continue;
        };
        if pairs.is_empty() {
            errors.error(list.tokens.span(), usage);
        }
        for pair in &pairs {
            let Some(name) = pair.path.get_ident() else {
                errors.error(pair.path.span(), usage);
                continue;
            };
            named.push(name.to_string());
            let size = match &pair.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(lit),
                    ..
                }) if lit.suffix().is_empty() => lit.base10_parse::<u64>().ok(),
                _ => None,
            };
            let Some(size) = size.filter(|n| (1..=MAX_RANGE).contains(n)) else {
                errors.error(
                    pair.value.span(),
                    format!(
                        "the range of `{name}` is an unsuffixed integer from 1 to {MAX_RANGE}: \
                         the number of offsets it takes, e.g. `{name} = 2`"
                    ),
                );
                continue;
            };
            if let Some(first) = found.iter().find(|r| r.name == *name) {
                errors.error_with_note(
                    name.span(),
                    format!("`#[range]` gives `{name}` a size twice"),
                    first.name.span(),
                    format!("`{name}` is given size {} here", first.size),
                );
                continue;
            }
            found.push(RangeSyntax {
                name: name.clone(),
                size,
                span: pair.value.span(),
            });
        }
    }
    (kept, found, named)
}

impl Checker<'_> {
    /// Rule: every ranged index is an index variable of some statement,
    /// and agrees with the static sizes of the dimensions it indexes. Gives
    /// the kernel its ranges by loop.
    pub(super) fn bind_ranges(&mut self, ranges: &[RangeSyntax], errors: &mut Errors) {
        for r in ranges {
            let name = r.name.to_string();
            let Some(p) = self.kernel.loops.iter().position(|l| *l == name) else {
                let names: Vec<&str> = self.kernel.loops.iter().map(String::as_str).collect();
                errors.error(
                    r.name.span(),
                    format!(
                        "`#[range]`: no statement of `{}` uses an index variable `{name}`{}",
                        self.def.name,
                        crate::suggest::did_you_mean(&name, &names)
                    ),
                );
                continue;
            };
            let l = LoopId(p as u32);
            if let Some((first, span, what)) = self.sizes.get(&l) {
                if *first != r.size {
                    errors.error_with_note(
                        r.span,
                        format!(
                            "`#[range]` gives `{name}` size {} but it indexes a dimension of \
                             size {first} ({what}); drop the range or make them agree",
                            r.size
                        ),
                        *span,
                        format!("`{name}` has size {first} here"),
                    );
                    continue;
                }
            }
            self.kernel.ranges.push((l, r.size));
        }
    }
}
