//! The value of a constant, after `=`:
//!
//! ```text
//! dense<[[1.0, 0.0], [0.0, -2.5e-1]]>     dense<1.0>          (a splat)
//! sparse<[[0, 0], [1, 2]], [1.0, 5.0]>    sparse<[[0, 0]], 7>  (values splat)
//! file("weights/layer1.mtx")              (.mtx or .npy, relative to the crate)
//! 1.5                                     (a scalar: `dense<1.5>`)
//! prune_2_4(dense<[...]>)                 prune_2_4(file("w.npy"))
//! prune_blocks(file("w.npy"), keep = 2)   (the 2 blocks of largest norm per block row)
//! levels_of(W, values = file("w8.npy"))   (W's positions and coordinates, other values)
//! compute(|i| B[i] + 128 * sum(j, W[i, j] as i32))   (from other constants, when the macro expands)
//! ```

use proc_macro2::{Span, TokenTree};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{Ident, Token};

use super::constant::{angle_content, parse_literal_tokens, split_sparse, Budget, TensorLiteral};
use super::stmt::ExprSyntax;
use super::stmt_parse::Parser;

/// The initializer of a constant.
#[derive(Clone, Debug)]
pub enum InitSyntax {
    /// `dense<LITERAL>`, or a bare scalar literal (`1.5`, `-3`, `true`).
    Dense {
        /// Span of `dense` (of the literal when bare).
        span: Span,
        /// The tensor literal.
        literal: TensorLiteral,
    },
    /// `sparse<INDICES, VALUES>`.
    Sparse {
        /// Span of `sparse`.
        span: Span,
        /// The indices: a list of coordinate lists (or, for rank 1, of
        /// coordinates).
        indices: TensorLiteral,
        /// The values: a list, or a splat.
        values: TensorLiteral,
    },
    /// `prune_2_4(VALUE)` or `prune_blocks(VALUE, keep = K)`: a dense
    /// value (`dense<...>` or `file(...)`) pruned to a structure.
    Prune {
        /// Span of `prune_2_4` / `prune_blocks`.
        span: Span,
        /// Which pruning.
        kind: PruneKind,
        /// The value pruned.
        inner: Box<InitSyntax>,
    },
    /// `levels_of(BASE, values = VALUE)`: the levels (positions and
    /// coordinates) of the constant `BASE`, with values read from `VALUE`
    /// at `BASE`'s stored coordinates.
    LevelsOf {
        /// Span of `levels_of`.
        span: Span,
        /// The constant whose levels are shared.
        base: Ident,
        /// The values, as a dense value of the same shape.
        values: Box<InitSyntax>,
    },
    /// `compute(|i, j| EXPR)`: every element computed from constants
    /// declared before, when the macro expands; the closure's parameters
    /// name the dimensions, `EXPR` is a kernel expression.
    Compute {
        /// Span of `compute`.
        span: Span,
        /// The index variables of the dimensions, outermost first.
        indices: Vec<Ident>,
        /// The element at those coordinates.
        body: ExprSyntax,
    },
    /// `file("path")`.
    File {
        /// The path as written.
        path: String,
        /// Span of the string literal.
        span: Span,
    },
}

/// The structure a pruned constant is pruned to.
#[derive(Clone, Copy, Debug)]
pub enum PruneKind {
    /// `prune_2_4`: two of every four along the `structured[2, 4]` level.
    TwoFour,
    /// `prune_blocks(.., keep = K)`: the `keep` blocks of largest norm in
    /// every block row.
    Blocks {
        /// Blocks kept per block row.
        keep: u64,
        /// Span of the count.
        keep_span: Span,
    },
}

impl InitSyntax {
    /// The span errors about the value as a whole point at.
    pub fn span(&self) -> Span {
        match self {
            InitSyntax::Dense { span, .. }
            | InitSyntax::Sparse { span, .. }
            | InitSyntax::Prune { span, .. }
            | InitSyntax::LevelsOf { span, .. }
            | InitSyntax::Compute { span, .. }
            | InitSyntax::File { span, .. } => *span,
        }
    }
}

const INIT: &str = "expected a constant value: `dense<[[1.0, 0.0], [0.0, 2.0]]>`, `dense<1.0>`, \
                    `sparse<[[0, 0], [1, 2]], [1.0, 5.0]>`, `file(\"weights/w.mtx\")` or a \
                    scalar such as `1.5`";

/// The value of a constant, up to (not including) the `;`.
pub(super) fn parse_init(input: ParseStream) -> syn::Result<InitSyntax> {
    if input.peek(syn::Lit) || input.peek(Token![-]) || input.peek(syn::LitBool) {
        return bare_scalar(input);
    }
    let word = input
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), INIT))?;
    match word.to_string().as_str() {
        "dense" => {
            let content = angle_content(input, &word)?;
            let mut budget = Budget::new(word.span());
            let literal = parse_literal_tokens(content, word.span(), "dense<...>", &mut budget)?;
            Ok(InitSyntax::Dense {
                span: word.span(),
                literal,
            })
        }
        "sparse" => {
            let content = angle_content(input, &word)?;
            let (indices, values) = split_sparse(content, word.span())?;
            Ok(InitSyntax::Sparse {
                span: word.span(),
                indices,
                values,
            })
        }
        "file" => {
            let content;
            syn::parenthesized!(content in input);
            let lit: syn::LitStr = content.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected the file's path as a string, relative to the crate's \
                     Cargo.toml: `file(\"weights/w.mtx\")`",
                )
            })?;
            if !content.is_empty() {
                return Err(content.error("expected `)` after the path"));
            }
            Ok(InitSyntax::File {
                path: lit.value(),
                span: lit.span(),
            })
        }
        "prune_2_4" | "prune_blocks" => parse_prune(input, &word),
        "levels_of" => parse_levels_of(input, &word),
        "compute" => parse_compute(input, &word),
        "dense_resource" | "array" => Err(syn::Error::new(
            word.span(),
            format!(
                "`{word}` is not supported for sparse constants; write the values with \
                 `dense<...>` or read them with `file(\"...\")`"
            ),
        )),
        _ => Err(syn::Error::new(word.span(), INIT)),
    }
}

/// `1.5`, `-3`: a scalar written bare, the value of a rank-0 constant (or
/// a splat, as `dense<1.5>`).
fn bare_scalar(input: ParseStream) -> syn::Result<InitSyntax> {
    let span = input.span();
    let tokens = input.step(|cursor| {
        let mut tokens = Vec::new();
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ';') {
                break;
            }
            tokens.push(tree);
            rest = next;
        }
        Ok((tokens, rest))
    })?;
    let mut budget = Budget::new(span);
    let literal = parse_literal_tokens(tokens, span, "the scalar value", &mut budget)?;
    Ok(InitSyntax::Dense { span, literal })
}

/// The value a pruning helper prunes: `dense<...>` or `file(...)`.
fn dense_operand(content: ParseStream, word: &Ident) -> syn::Result<InitSyntax> {
    let inner = parse_init(content)?;
    match inner {
        InitSyntax::Dense { .. } | InitSyntax::File { .. } => Ok(inner),
        other => Err(syn::Error::new(
            other.span(),
            format!(
                "`{word}` prunes a dense value: `{word}(dense<[[...], ...]>{keep})` or \
                 `{word}(file(\"weights.npy\"){keep})`",
                keep = if word == "prune_blocks" {
                    ", keep = 2"
                } else {
                    ""
                }
            ),
        )),
    }
}

/// `prune_2_4(VALUE)`, `prune_blocks(VALUE, keep = K)`.
fn parse_prune(input: ParseStream, word: &Ident) -> syn::Result<InitSyntax> {
    let content;
    syn::parenthesized!(content in input);
    let inner = dense_operand(&content, word)?;
    let kind = if word == "prune_2_4" {
        if !content.is_empty() {
            return Err(content.error("expected `)` after the value `prune_2_4` prunes"));
        }
        PruneKind::TwoFour
    } else {
        let usage = "`prune_blocks` takes the value, then how many blocks each block row keeps: \
                     `prune_blocks(file(\"w.npy\"), keep = 2)`";
        if !content.peek(Token![,]) {
            return Err(syn::Error::new(word.span(), usage));
        }
        content.parse::<Token![,]>()?;
        let key: Ident = content
            .parse()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        if key != "keep" || !content.peek(Token![=]) {
            return Err(syn::Error::new(key.span(), usage));
        }
        content.parse::<Token![=]>()?;
        let count: syn::LitInt = content
            .parse()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        let keep = count
            .base10_parse::<u64>()
            .ok()
            .filter(|&k| k >= 1 && count.suffix().is_empty())
            .ok_or_else(|| {
                syn::Error::new(
                    count.span(),
                    "`keep` is the number of blocks kept in each block row, an integer of at \
                     least 1 (without a suffix)",
                )
            })?;
        if !content.is_empty() {
            return Err(content.error("expected `)` after `keep = ..`"));
        }
        PruneKind::Blocks {
            keep,
            keep_span: count.span(),
        }
    };
    Ok(InitSyntax::Prune {
        span: word.span(),
        kind,
        inner: Box::new(inner),
    })
}

/// `levels_of(BASE, values = VALUE)`.
fn parse_levels_of(input: ParseStream, word: &Ident) -> syn::Result<InitSyntax> {
    let usage = "`levels_of` takes the constant whose positions and coordinates are shared, \
                 then the values: `levels_of(W, values = file(\"w8.npy\"))`";
    let content;
    syn::parenthesized!(content in input);
    let base: Ident = content
        .parse()
        .map_err(|e| syn::Error::new(e.span(), usage))?;
    if !content.peek(Token![,]) {
        return Err(syn::Error::new(base.span(), usage));
    }
    content.parse::<Token![,]>()?;
    let key: Ident = content
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), usage))?;
    if key != "values" || !content.peek(Token![=]) {
        return Err(syn::Error::new(key.span(), usage));
    }
    content.parse::<Token![=]>()?;
    let values = parse_init(&content)?;
    if matches!(values, InitSyntax::LevelsOf { .. }) {
        return Err(syn::Error::new(values.span(), usage));
    }
    if !content.is_empty() {
        return Err(content.error("expected `)` after the values"));
    }
    Ok(InitSyntax::LevelsOf {
        span: word.span(),
        base,
        values: Box::new(values),
    })
}

const COMPUTE_USAGE: &str =
    "`compute` takes a closure over the constant's dimensions whose body is \
                             a kernel expression over constants declared before it: \
                             `compute(|i| B[i] + 128 * sum(j, W[i, j] as i32))` (`|| ..` for a \
                             scalar)";

/// `compute(|i, j| EXPR)`, `compute(|| EXPR)`.
fn parse_compute(input: ParseStream, word: &Ident) -> syn::Result<InitSyntax> {
    let group: proc_macro2::Group = match input.parse::<TokenTree>() {
        Ok(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Parenthesis => g,
        _ => return Err(syn::Error::new(word.span(), COMPUTE_USAGE)),
    };
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let bar = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '|');
    if !bar(tokens.first()) {
        return Err(syn::Error::new(
            tokens.first().map_or(group.span(), TokenTree::span),
            COMPUTE_USAGE,
        ));
    }
    // `||` is two joint `|` punctuation tokens: no dimensions.
    let mut pos = 1;
    let mut indices = Vec::new();
    let mut expect_name = true;
    loop {
        match tokens.get(pos) {
            Some(t) if bar(Some(t)) && (indices.is_empty() || !expect_name) => {
                pos += 1;
                break;
            }
            Some(TokenTree::Ident(id)) if expect_name => {
                indices.push(id.clone());
                expect_name = false;
            }
            Some(TokenTree::Punct(p)) if p.as_char() == ',' && !expect_name => expect_name = true,
            Some(other) => {
                return Err(syn::Error::new(
                    other.span(),
                    format!(
                        "expected an index variable, `,` or the closing `|` of the closure's \
                         parameters; {COMPUTE_USAGE}"
                    ),
                ))
            }
            None => return Err(syn::Error::new(group.span(), COMPUTE_USAGE)),
        }
        pos += 1;
    }
    let rest = &tokens[pos..];
    if rest.is_empty() {
        return Err(syn::Error::new(group.span_close(), COMPUTE_USAGE));
    }
    let mut parser = Parser::new(rest, group.span_close());
    let body: ExprSyntax = parser.expr(0)?;
    if let Some(extra) = parser.peek() {
        return Err(syn::Error::new(
            extra.span(),
            "unexpected token after the expression of `compute(..)`",
        ));
    }
    Ok(InitSyntax::Compute {
        span: word.span(),
        indices,
        body,
    })
}
