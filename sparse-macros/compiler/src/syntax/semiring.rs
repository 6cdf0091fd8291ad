//! The semiring operations of seed 000 as calls with Rust closures:
//! `binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = none)`,
//! `unary(..)`, `select(..)` and `reduce(..)`.
//!
//! Their arguments cannot be split at every top-level comma as other calls
//! are: a closure's parameter list `|x, y|` has commas outside any group.
//! So an argument is read as an optional `name =`, then either a closure
//! (its `|...|` parameter list skipped whole, its body running to the next
//! top-level comma) or a kernel expression. Closures are parsed by `syn`
//! and kept as Rust: their bodies are the user's code, type-checked by
//! rustc where the kernel calls them.

use proc_macro2::{Delimiter, Group, Spacing, Span, TokenStream, TokenTree};
use syn::Ident;

use super::stmt::ExprSyntax;
use super::stmt_parse::check_nesting;

/// The four operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemiringKind {
    /// `binary(x, y, overlap = .., left = .., right = ..)`.
    Binary,
    /// `unary(x, present = .., absent = ..)`.
    Unary,
    /// `select(x, |v| predicate)`.
    Select,
    /// `reduce(x, identity = v, |acc, v| combined)`.
    Reduce,
}

impl SemiringKind {
    /// The operation named `name`, if it is one.
    pub fn from_name(name: &str) -> Option<SemiringKind> {
        Some(match name {
            "binary" => SemiringKind::Binary,
            "unary" => SemiringKind::Unary,
            "select" => SemiringKind::Select,
            "reduce" => SemiringKind::Reduce,
            _ => return None,
        })
    }
    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            SemiringKind::Binary => "binary",
            SemiringKind::Unary => "unary",
            SemiringKind::Select => "select",
            SemiringKind::Reduce => "reduce",
        }
    }
}

/// `binary(...)`, `unary(...)`, `select(...)` or `reduce(...)` as written.
#[derive(Clone, Debug)]
pub struct SemiringSyntax {
    /// Which operation.
    pub kind: SemiringKind,
    /// The operation's name token.
    pub name: Ident,
    /// Span of the parenthesis group.
    pub parens: Span,
    /// The arguments in source order.
    pub args: Vec<ArgSyntax>,
}

/// One argument: `name = value` or a positional value.
#[derive(Clone, Debug)]
pub struct ArgSyntax {
    /// The name before `=`, if any.
    pub name: Option<Ident>,
    /// The value.
    pub value: ArgValue,
    /// The argument's first and last token.
    pub range: (Span, Span),
}

/// What an argument holds.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// A closure, kept as Rust.
    Closure(Box<syn::ExprClosure>),
    /// `identity`: the region passes its operand through.
    Identity(Ident),
    /// `none`: the region produces no value.
    None(Ident),
    /// A kernel expression (an operand), or the text of a Rust expression
    /// that is not one (allowed only for `identity = ..` of `reduce`).
    Expr(Result<ExprSyntax, syn::Error>, TokenStream),
}

impl SemiringSyntax {
    /// The operands: positional arguments that are not closures, in order.
    pub fn operands(&self) -> impl Iterator<Item = &ExprSyntax> {
        self.args.iter().filter_map(|a| match (&a.name, &a.value) {
            (None, ArgValue::Expr(Ok(e), _)) => Some(e),
            _ => None,
        })
    }
    /// The text as written, normalised, for messages.
    pub fn text(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let value = match &a.value {
                    ArgValue::Closure(c) => compact(&quote::quote!(#c)),
                    ArgValue::Identity(_) => "identity".to_string(),
                    ArgValue::None(_) => "none".to_string(),
                    ArgValue::Expr(Ok(e), _) => e.text(),
                    ArgValue::Expr(Err(_), t) => compact(t),
                };
                match &a.name {
                    Some(n) => format!("{n} = {value}"),
                    None => value,
                }
            })
            .collect();
        format!("{}({})", self.kind.name(), args.join(", "))
    }
}

/// The most tokens one closure may hold (see `check_closure_size`).
pub const MAX_CLOSURE_TOKENS: usize = 512;

/// Rust tokens as compact text: `|x, y| x + y`, `(x == y) as i8`.
pub fn compact(tokens: &TokenStream) -> String {
    let mut out = String::new();
    let mut prev_joint = false;
    let mut open_bar = false;
    for (n, t) in tokens.clone().into_iter().enumerate() {
        let text = match &t {
            TokenTree::Group(g) => {
                let inner = compact(&g.stream());
                match g.delimiter() {
                    Delimiter::Parenthesis => format!("({inner})"),
                    Delimiter::Bracket => format!("[{inner}]"),
                    Delimiter::Brace => format!("{{ {inner} }}"),
                    Delimiter::None => inner,
                }
            }
            other => other.to_string(),
        };
        let tight_before = matches!(text.as_str(), "," | ";" | "." | ":")
            || (text == "|" && open_bar)
            || matches!(&t, TokenTree::Group(g) if g.delimiter() != Delimiter::Brace
                && out.ends_with(|c: char| c.is_alphanumeric() || c == '_'));
        let after_open = out.ends_with('.') || (out.ends_with('|') && open_bar);
        if n > 0 && !prev_joint && !tight_before && !after_open {
            out.push(' ');
        }
        if text == "|" && n == 0 {
            open_bar = true;
        } else if text == "|" && open_bar {
            open_bar = false;
        }
        out.push_str(&text);
        prev_joint = matches!(&t, TokenTree::Punct(p) if p.spacing() == Spacing::Joint);
    }
    out
}

fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Bounds a closure before `syn` parses it: its groups nest at most
/// [`MAX_NESTING`] levels (with the expression around it) and it holds at
/// most [`MAX_CLOSURE_TOKENS`] tokens, which bounds the height of any
/// operator chain in it. Walked with an explicit stack, so the check
/// itself cannot overflow.
fn check_closure_size(tokens: &[TokenTree], nesting: usize) -> syn::Result<()> {
    let mut count = 0usize;
    let mut stack: Vec<(proc_macro2::token_stream::IntoIter, usize)> = vec![(
        tokens.iter().cloned().collect::<TokenStream>().into_iter(),
        nesting,
    )];
    while let Some((iter, depth)) = stack.last_mut() {
        let depth = *depth;
        let Some(t) = iter.next() else {
            stack.pop();
            continue;
        };
        count += 1;
        if count > MAX_CLOSURE_TOKENS {
            return Err(syn::Error::new(
                t.span(),
                format!(
                    "the closure has more than {MAX_CLOSURE_TOKENS} tokens; compute part of it \
                     in a statement of its own"
                ),
            ));
        }
        if let TokenTree::Group(g) = t {
            check_nesting(depth + 1, g.span_open())?;
            stack.push((g.stream().into_iter(), depth + 1));
        }
    }
    Ok(())
}

/// Parses the argument list of a semiring call; `parse_expr` reads a
/// kernel expression from a token slice; `nesting` is the level of the
/// arguments (closure bodies are held to the same bound as expressions:
/// `syn` parses them recursively).
pub(super) fn parse_semiring(
    kind: SemiringKind,
    name: Ident,
    group: &Group,
    nesting: usize,
    parse_expr: &dyn Fn(&[TokenTree], Span) -> syn::Result<ExprSyntax>,
) -> syn::Result<SemiringSyntax> {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut args = Vec::new();
    let mut pos = 0;
    while pos < tokens.len() {
        let start = pos;
        let mut arg_name = None;
        // `name =` (not `name ==`).
        if let (Some(TokenTree::Ident(id)), Some(TokenTree::Punct(p))) =
            (tokens.get(pos), tokens.get(pos + 1))
        {
            let eq_eq = p.spacing() == Spacing::Joint && is_punct(tokens.get(pos + 2), '=');
            if p.as_char() == '=' && !eq_eq {
                arg_name = Some(id.clone());
                pos += 2;
            }
        }
        let value_start = pos;
        // `|x| ..`, `move |x| ..`, and `async |x| ..` (read as a closure so
        // that the checker can say closures cannot be `async`).
        let closure_word = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Ident(m)) if m == "move" || m == "async");
        let is_closure = is_punct(tokens.get(pos), '|') || closure_word(tokens.get(pos));
        if is_closure {
            while closure_word(tokens.get(pos)) {
                pos += 1;
            }
            // `||` is two joint `|`; otherwise skip to the closing `|`.
            pos += 1;
            while pos < tokens.len() && !is_punct(tokens.get(pos), '|') {
                pos += 1;
            }
            pos += 1;
        }
        while pos < tokens.len() && !is_punct(tokens.get(pos), ',') {
            pos += 1;
        }
        let value_tokens = &tokens[value_start..pos.min(tokens.len())];
        let end_span = tokens.get(pos).map_or(group.span_close(), TokenTree::span);
        if value_tokens.is_empty() {
            let at = tokens.get(value_start).map_or(end_span, TokenTree::span);
            return Err(syn::Error::new(
                at,
                match &arg_name {
                    Some(n) => format!("expected a value after `{n} =`"),
                    None => "expected an argument".to_string(),
                },
            ));
        }
        let stream: TokenStream = value_tokens.iter().cloned().collect();
        let value = if is_closure {
            check_closure_size(value_tokens, nesting)?;
            let closure: syn::ExprClosure = syn::parse2(stream)?;
            ArgValue::Closure(Box::new(closure))
        } else {
            match value_tokens {
                [TokenTree::Ident(id)] if id == "identity" => ArgValue::Identity(id.clone()),
                [TokenTree::Ident(id)] if id == "none" => ArgValue::None(id.clone()),
                _ => ArgValue::Expr(parse_expr(value_tokens, end_span), stream),
            }
        };
        let first = tokens[start].span();
        let last = value_tokens.last().map_or(first, TokenTree::span);
        args.push(ArgSyntax {
            name: arg_name,
            value,
            range: (first, last),
        });
        pos += 1;
    }
    Ok(SemiringSyntax {
        kind,
        name,
        parens: group.span(),
        args,
    })
}
