//! Parsing statements: `a[i, j]` is not a Rust expression (`syn` reads
//! `a[i, j]` as an index by a comma list, which it rejects), so statements
//! are read over the token trees: the output written, its subscripts
//! (index variables or affine expressions of them), the assignment
//! operator, and the right-hand side (`expr_parse.rs`). The [`Parser`]
//! both share carries the bounds on nesting and height that keep hostile
//! statements from overflowing rustc's stack.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::Ident;

use super::stmt::{AccessSyntax, AssignSyntax, StmtSyntax, SUPPORTED};
use crate::errors::Errors;

/// Parses the statements of a kernel body; `close` is the span of `}`.
pub(super) fn parse_body(
    tokens: TokenStream,
    close: Span,
    errors: &mut Errors,
    broken: &mut bool,
) -> Vec<StmtSyntax> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut stmts = Vec::new();
    let mut start = 0;
    while start < tokens.len() {
        let end = tokens[start..]
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
            .map(|p| start + p);
        let chunk = &tokens[start..end.unwrap_or(tokens.len())];
        if !chunk.is_empty() {
            let end_span = match end {
                Some(e) => tokens[e].span(),
                None => close,
            };
            match parse_stmt(chunk, end_span) {
                Ok(stmt) if end.is_some() => stmts.push(stmt),
                Ok(_) => {
                    let last = chunk[chunk.len() - 1].span();
                    errors.error(last, "expected `;` after the statement");
                    *broken = true;
                }
                Err(error) => {
                    errors.push(error);
                    *broken = true;
                }
            }
        }
        start = end.map_or(tokens.len(), |e| e + 1);
    }
    stmts
}

/// How deeply a statement's expression may nest: groups (`(..)`, call
/// arguments, choice branches, closure bodies), prefix operators and
/// `else if` chains each add a level. Every stage after the parser walks
/// expressions recursively, so the bound is what keeps a hostile statement
/// from overflowing rustc's stack; real kernels nest a handful of levels.
pub const MAX_NESTING: usize = 64;

/// How tall a statement's expression tree may be: a chain `a + b + c` is
/// as tall as it has operators. The parser reads chains in a loop, but the
/// later stages recurse over the tree, so a product of 3,000 factors needs
/// a bound too; a longer sum is written as several statements
/// (`y[i] = ..; y[i] += ..;`).
pub const MAX_HEIGHT: usize = 256;

/// The tokens of one statement (without its `;`), read left to right.
pub(super) struct Parser<'a> {
    pub(super) tokens: &'a [TokenTree],
    pub(super) pos: usize,
    /// Where "expected ... here" points once the tokens run out.
    pub(super) end: Span,
    /// The levels of nesting around these tokens, against [`MAX_NESTING`].
    pub(super) nesting: usize,
}

impl<'a> Parser<'a> {
    /// A parser for a statement's top-level tokens.
    pub(super) fn new(tokens: &'a [TokenTree], end: Span) -> Self {
        Parser {
            tokens,
            pos: 0,
            end,
            nesting: 0,
        }
    }

    /// A parser for tokens nested one level inside this one's (a group's
    /// contents); `at` is where the nesting starts, for the error.
    pub(super) fn nested<'b>(
        &self,
        tokens: &'b [TokenTree],
        end: Span,
        at: Span,
    ) -> syn::Result<Parser<'b>> {
        check_nesting(self.nesting + 1, at)?;
        Ok(Parser {
            tokens,
            pos: 0,
            end,
            nesting: self.nesting + 1,
        })
    }

    /// Runs `f` one level of nesting deeper (a prefix operator's operand,
    /// an `else if`); `at` is the token that opens the level.
    pub(super) fn descend<T>(
        &mut self,
        at: Span,
        f: impl FnOnce(&mut Self) -> syn::Result<T>,
    ) -> syn::Result<T> {
        check_nesting(self.nesting + 1, at)?;
        self.nesting += 1;
        let out = f(self);
        self.nesting -= 1;
        out
    }
}

pub(super) fn check_nesting(nesting: usize, at: Span) -> syn::Result<()> {
    if nesting > MAX_NESTING {
        return Err(error(
            at,
            format!(
                "the expression nests more than {MAX_NESTING} levels deep here (groups, prefix \
                 operators and `else if` each add one); split it into several statements"
            ),
        ));
    }
    Ok(())
}

pub(super) fn error(span: Span, message: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span, message)
}

pub(super) fn unsupported(span: Span, what: &str) -> syn::Error {
    error(span, format!("{what} not supported; {SUPPORTED}"))
}

pub(super) const ASSIGNMENT_INSIDE: &str =
    "an assignment inside an expression is not supported; a \
     statement has one `=` (or `+=`, `-=`, `*=`, `/=`): split it into several statements";

const STMT_EXAMPLE: &str =
    "a statement writes one output element: `y[i] = a[i, j] * x[j];` or `s[] += a[i, j];`";

fn parse_stmt(tokens: &[TokenTree], end: Span) -> syn::Result<StmtSyntax> {
    let mut p = Parser::new(tokens, end);
    let lhs = match p.peek() {
        Some(TokenTree::Ident(ident)) if ident == "let" => {
            return Err(error(
                ident.span(),
                format!("`let` bindings are not supported; {STMT_EXAMPLE}"),
            ))
        }
        Some(TokenTree::Ident(ident)) => {
            let ident = ident.clone();
            p.pos += 1;
            match p.peek() {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                    let g = g.clone();
                    p.pos += 1;
                    let (indices, affine) = parse_indices(&g, &ident)?;
                    AccessSyntax {
                        tensor: ident,
                        indices,
                        affine,
                        brackets: Some(g.span()),
                    }
                }
                _ => AccessSyntax {
                    tensor: ident,
                    indices: Vec::new(),
                    affine: Vec::new(),
                    brackets: None,
                },
            }
        }
        Some(other) => {
            return Err(error(
                other.span(),
                format!("expected the output written, e.g. `y[i]`; {STMT_EXAMPLE}"),
            ))
        }
        None => return Err(error(end, STMT_EXAMPLE)),
    };
    let (op, op_span) = p.assign_op(&lhs)?;
    if p.peek().is_none() {
        return Err(error(
            p.end,
            format!(
                "expected an expression after `{}`, e.g. `{} {} a[i, j] * x[j];`",
                op.symbol(),
                lhs.text(),
                op.symbol()
            ),
        ));
    }
    let rhs = p.expr(0)?;
    Ok(StmtSyntax {
        lhs,
        op,
        op_span,
        rhs,
    })
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.pos)
    }
    pub(super) fn peek_at(&self, n: usize) -> Option<&TokenTree> {
        self.tokens.get(self.pos + n)
    }
    pub(super) fn punct_at(&self, n: usize) -> Option<(char, Spacing, Span)> {
        match self.peek_at(n) {
            Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing(), p.span())),
            _ => None,
        }
    }
    /// The span where the next token is, or the end.
    pub(super) fn here(&self) -> Span {
        self.peek().map_or(self.end, TokenTree::span)
    }

    fn assign_op(&mut self, lhs: &AccessSyntax) -> syn::Result<(AssignSyntax, Span)> {
        let missing = || {
            format!(
                "expected `=`, `+=`, `-=`, `*=` or `/=` after `{}`; {STMT_EXAMPLE}",
                lhs.text()
            )
        };
        let Some((c, spacing, span)) = self.punct_at(0) else {
            return Err(error(self.here(), missing()));
        };
        let next = self.punct_at(1).map(|(c, ..)| c);
        let joint = spacing == Spacing::Joint;
        match (c, joint.then_some(next).flatten()) {
            ('=', None) | ('=', Some('-' | '(' | '!' | '|' | '&' | '*')) => {
                self.pos += 1;
                Ok((AssignSyntax::Assign, span))
            }
            ('+' | '-' | '*' | '/', Some('=')) => {
                self.pos += 2;
                let op = match c {
                    '+' => AssignSyntax::AddAssign,
                    '-' => AssignSyntax::SubAssign,
                    '*' => AssignSyntax::MulAssign,
                    _ => AssignSyntax::DivAssign,
                };
                Ok((op, span))
            }
            ('%', Some('=')) => Err(error(
                span,
                format!(
                    "`%=` is not supported; the compound assignments are `+=`, `-=`, `*=` and \
                     `/=`: write `{0} = ...;` with the value you want",
                    lhs.text()
                ),
            )),
            _ => Err(error(span, missing())),
        }
    }
}

/// The subscripts of an access, separated by commas: index variables
/// (`i`), or affine expressions of them (`i + k`, `2 * i + k - 1`). Returns
/// one identifier per dimension (an affine subscript's first variable) and
/// the affine subscripts by dimension.
#[allow(clippy::type_complexity)]
pub(super) fn parse_indices(
    group: &proc_macro2::Group,
    tensor: &Ident,
) -> syn::Result<(Vec<Ident>, Vec<(usize, super::AffineExpr)>)> {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    // `s[0]` is what a user writes for a scalar (a tensor of rank 0) more
    // often than a constant index into a vector: name both spellings.
    if let [TokenTree::Literal(lit)] = tokens.as_slice() {
        return Err(error(
            lit.span(),
            format!(
                "constant indices are not supported; if `{tensor}` is a scalar \
                 (`tensor<f64>`, rank 0), write `{tensor}[]`; otherwise an access takes an \
                 index variable or an affine expression of index variables per dimension, \
                 e.g. `{tensor}[i]` or `{tensor}[i + 1]`"
            ),
        ));
    }
    let mut indices = Vec::new();
    let mut affine = Vec::new();
    for (d, (items, end)) in split_commas(&tokens, group.span_close())
        .into_iter()
        .enumerate()
    {
        match items {
            [] => return Err(error(end, "expected an index variable such as `i`")),
            // Index variables become loop variables: plain identifiers only
            // (no keywords, `_` or raw `r#` names).
            [TokenTree::Ident(ident)]
                if !ident.to_string().starts_with("r#")
                    && syn::parse_str::<Ident>(&ident.to_string()).is_ok() =>
            {
                indices.push(ident.clone())
            }
            [TokenTree::Literal(lit)] => {
                return Err(error(
                    lit.span(),
                    "constant indices are not supported; an access takes an index variable or \
                     an affine expression of index variables per dimension, e.g. `a[i, j]` or \
                     `a[i + 1, j]`",
                ))
            }
            [first, ..] => {
                let stream: proc_macro2::TokenStream = items.iter().cloned().collect();
                let expected = "expected an index variable such as `i`, or an affine \
                                subscript such as `i + k`, `2 * i + k` or `i - 1`";
                let text = stream.to_string();
                let expr = syn::parse::Parser::parse2(super::expr::parse_expr_all, stream)
                    .map_err(|e| {
                        // The end of the subscript's tokens has no span of its
                        // own: point at the `,` or `]` after it.
                        if e.to_string().contains("end of input") {
                            error(
                                end,
                                format!("the subscript `{text}` ends early; {expected}"),
                            )
                        } else {
                            error(e.span(), format!("{expected}: {e}"))
                        }
                    })?;
                let mut vars = Vec::new();
                expr.vars(&mut vars);
                let Some(var) = vars.first() else {
                    return Err(error(
                        first.span(),
                        "a subscript needs an index variable; constant indices are not \
                         supported (write `a[i + 1]`, not `a[1]`)",
                    ));
                };
                for v in &vars {
                    let text = v.to_string();
                    if text.starts_with("r#") || syn::parse_str::<Ident>(&text).is_err() {
                        return Err(error(v.span(), format!("{expected}; `{v}` is a keyword")));
                    }
                }
                indices.push((*var).clone());
                affine.push((d, expr));
            }
        }
    }
    Ok((indices, affine))
}

/// Splits at top-level commas (a trailing comma ends the list), with the
/// span where each item ends (its comma, or `close`).
pub(super) fn split_commas(tokens: &[TokenTree], close: Span) -> Vec<(&[TokenTree], Span)> {
    let mut items = Vec::new();
    let mut start = 0;
    for (n, token) in tokens.iter().enumerate() {
        if matches!(token, TokenTree::Punct(p) if p.as_char() == ',') {
            items.push((&tokens[start..n], token.span()));
            start = n + 1;
        }
    }
    if start < tokens.len() {
        items.push((&tokens[start..], close));
    }
    items
}
