//! Constants: `[attrs] [pub] static NAME: tensor<...> = INIT;` with `INIT`
//! one of MLIR's element literals (seed 002), verbatim, a file or a
//! helper over them (`constant_init.rs`).
//!
//! Tensor literals are read token by token (no `syn` per element: a
//! 64x256 literal has 16384 of them), each scalar keeping its span.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Lit, Token, Visibility};

use super::constant_init::InitSyntax;
use super::tensor::parse_tensor;
use super::{DimSize, ElemSyntax};

/// `[attrs] [pub] static NAME: tensor<SHAPE x ELEM [, #ENC]> = INIT;`.
#[derive(Clone, Debug)]
pub struct ConstantSyntax {
    /// Outer attributes, `///` doc comments included.
    pub attrs: Vec<Attribute>,
    /// The visibility written.
    pub vis: Visibility,
    /// The static's name.
    pub name: Ident,
    /// Span of `tensor`.
    pub tensor_span: Span,
    /// The sizes, outermost first.
    pub shape: Vec<DimSize>,
    /// The element type.
    pub elem: ElemSyntax,
    /// The encoding after the comma, if any.
    pub encoding: Option<Ident>,
    /// The initializer.
    pub init: InitSyntax,
}

/// MLIR's `tensor-literal`: a scalar, or a bracketed list of literals.
#[derive(Clone, Debug)]
pub enum TensorLiteral {
    /// An integer, float or bool literal.
    Scalar(ScalarSyntax),
    /// `[a, b, ...]`, possibly empty.
    List(Vec<TensorLiteral>, Span),
}

impl TensorLiteral {
    /// Where it was written.
    pub fn span(&self) -> Span {
        match self {
            TensorLiteral::Scalar(s) => s.span,
            TensorLiteral::List(_, span) => *span,
        }
    }
}

/// One scalar literal with its sign.
#[derive(Clone, Copy, Debug)]
pub struct ScalarSyntax {
    /// The value as written.
    pub value: ScalarLit,
    /// Span of the literal (its `-` included).
    pub span: Span,
}

/// A scalar literal's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarLit {
    /// A decimal integer.
    Int(i128),
    /// A hexadecimal integer (`0x7FC00000`): for a float type, MLIR reads it
    /// as the bit pattern.
    Hex(u128),
    /// A float literal.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A complex number `(re, im)`, MLIR's literal of a `complex<..>`
    /// element.
    Complex(f64, f64),
}

/// Parses a constant after its attributes and visibility.
pub(super) fn parse_constant(
    input: ParseStream,
    attrs: Vec<Attribute>,
    vis: Visibility,
) -> syn::Result<ConstantSyntax> {
    input.parse::<Token![static]>()?;
    if input.peek(Token![mut]) {
        return Err(input.error(
            "a sparse constant cannot be `static mut`: its buffers live in flash and kernels \
             read them directly",
        ));
    }
    let name: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), "expected the constant's name after `static`"))?;
    if !input.peek(Token![:]) {
        return Err(input.error(
            "expected `:` and a tensor type, e.g. `static W: tensor<3x4xf32, #CSR> = ...;`",
        ));
    }
    input.parse::<Token![:]>()?;
    let (tensor_span, shape, elem, encoding) = parse_tensor(input)?;
    if !input.peek(Token![=]) {
        return Err(input.error(
            "expected `=` and a value: `dense<...>`, `sparse<..., ...>` or `file(\"...\")`",
        ));
    }
    input.parse::<Token![=]>()?;
    let init = super::constant_init::parse_init(input)?;
    if !input.peek(Token![;]) {
        return Err(input.error("expected `;` after the constant's value"));
    }
    input.parse::<Token![;]>()?;
    Ok(ConstantSyntax {
        attrs,
        vis,
        name,
        tensor_span,
        shape,
        elem,
        encoding,
        init,
    })
}

/// The tokens between `<` and the `>` that closes it (brackets are groups,
/// so the first `>` at this level closes).
pub(super) fn angle_content(input: ParseStream, word: &Ident) -> syn::Result<Vec<TokenTree>> {
    if !input.peek(Token![<]) {
        return Err(input.error(format!("expected `<` after `{word}`")));
    }
    input.parse::<Token![<]>()?;
    input.step(|cursor| {
        let mut tokens = Vec::new();
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == '>') {
                return Ok((tokens, next));
            }
            tokens.push(tree);
            rest = next;
        }
        Err(syn::Error::new(
            word.span(),
            format!("expected `>` closing `{word}<...>`"),
        ))
    })
}

/// `INDICES, VALUES`: the one top-level comma splits them.
pub(super) fn split_sparse(
    tokens: Vec<TokenTree>,
    span: Span,
) -> syn::Result<(TensorLiteral, TensorLiteral)> {
    let mut budget = Budget::new(span);
    let comma = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    let Some(comma) = comma else {
        return Err(syn::Error::new(
            span,
            "expected `sparse<INDICES, VALUES>`, e.g. `sparse<[[0, 0], [1, 2]], [1.0, 5.0]>`",
        ));
    };
    let mut tokens = tokens;
    let values = tokens.split_off(comma + 1);
    tokens.pop();
    let indices = parse_literal_tokens(tokens, span, "the indices of sparse<...>", &mut budget)?;
    let values = parse_literal_tokens(values, span, "the values of sparse<...>", &mut budget)?;
    Ok((indices, values))
}

/// The most tokens a `dense<...>` or `sparse<...>` literal may have
/// (numbers, signs, commas, brackets). Measured (`bench/compile/
/// constants-memory.sh`): rustc holds about 140 bytes per token of a
/// literal written out (its token trees, the proc-macro bridge's handles,
/// syn's buffer of the block, the macro's parse) on top of ~200 MB for the
/// crate; a `dense<>` literal of 2^21 values (4.2 M tokens) peaks at 785 MB,
/// a `sparse<>` literal of 579k entries (4.05 M tokens) at 864–870 MB. This
/// limit keeps an accepted literal under 1 GB and admits a `dense<>`
/// literal of the constants' `MAX_STORED` values; larger constants are
/// read from a file, which costs far less per entry (see
/// `docs/SECURITY.md`).
pub(crate) const MAX_LITERAL_TOKENS: usize = 4_250_000;

/// The tokens a literal may still use; an error at the literal's keyword
/// when they run out.
pub(super) struct Budget {
    left: usize,
    span: Span,
}

impl Budget {
    pub(super) fn new(span: Span) -> Self {
        Budget {
            left: MAX_LITERAL_TOKENS,
            span,
        }
    }
    /// One more token read.
    fn take(&mut self) -> syn::Result<()> {
        match self.left.checked_sub(1) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(syn::Error::new(
                self.span,
                format!(
                    "this literal has more than {MAX_LITERAL_TOKENS} tokens: a constant written \
                     out costs rustc about 140 bytes of memory per token, so literals are \
                     limited to that (under 1 GB); read a larger constant from a file with \
                     `file(\"weights.mtx\")` or `file(\"weights.npy\")`"
                ),
            )),
        }
    }
}

/// One tensor literal from exactly these tokens.
pub(super) fn parse_literal_tokens(
    tokens: Vec<TokenTree>,
    span: Span,
    what: &str,
    budget: &mut Budget,
) -> syn::Result<TensorLiteral> {
    let mut iter = tokens.into_iter().peekable();
    let Some(literal) = parse_literal(&mut iter, budget)? else {
        return Err(syn::Error::new(
            span,
            format!("expected a tensor literal for {what}: a number, `true`/`false` or `[...]`"),
        ));
    };
    if let Some(extra) = iter.next() {
        return Err(syn::Error::new(
            extra.span(),
            format!("unexpected token after the tensor literal of {what}"),
        ));
    }
    Ok(literal)
}

/// A literal from the front of `iter`; `None` if it is empty.
fn parse_literal(
    iter: &mut std::iter::Peekable<impl Iterator<Item = TokenTree>>,
    budget: &mut Budget,
) -> syn::Result<Option<TensorLiteral>> {
    let Some(first) = iter.next() else {
        return Ok(None);
    };
    budget.take()?;
    match first {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Bracket => {
            parse_list(group.stream(), group.span(), budget).map(Some)
        }
        TokenTree::Punct(p) if p.as_char() == '-' => {
            budget.take()?;
            let Some(TokenTree::Literal(lit)) = iter.next() else {
                return Err(syn::Error::new(p.span(), "expected a number after `-`"));
            };
            let span = p.span().join(lit.span()).unwrap_or(lit.span());
            let value = match scalar(&lit)? {
                ScalarLit::Int(n) => ScalarLit::Int(-n),
                ScalarLit::Float(x) => ScalarLit::Float(-x),
                ScalarLit::Hex(_) | ScalarLit::Bool(_) | ScalarLit::Complex(..) => {
                    return Err(syn::Error::new(
                        lit.span(),
                        "a hexadecimal literal has no sign: it is the value's bit pattern",
                    ))
                }
            };
            Ok(Some(TensorLiteral::Scalar(ScalarSyntax { value, span })))
        }
        TokenTree::Literal(lit) => Ok(Some(TensorLiteral::Scalar(ScalarSyntax {
            value: scalar(&lit)?,
            span: lit.span(),
        }))),
        TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis => {
            let value = complex(group.stream(), group.span(), budget)?;
            Ok(Some(TensorLiteral::Scalar(ScalarSyntax {
                value,
                span: group.span(),
            })))
        }
        TokenTree::Ident(ident) if ident == "true" || ident == "false" => {
            Ok(Some(TensorLiteral::Scalar(ScalarSyntax {
                value: ScalarLit::Bool(ident == "true"),
                span: ident.span(),
            })))
        }
        other => Err(syn::Error::new(
            other.span(),
            "expected a number, `true`, `false` or a bracketed list `[...]`",
        )),
    }
}

/// `(re, im)`: two (signed) numbers, read as `f64`.
fn complex(stream: TokenStream, span: Span, budget: &mut Budget) -> syn::Result<ScalarLit> {
    const EXPECTED: &str = "expected a complex number `(re, im)`, e.g. `(1.0, -2.5)`";
    let mut iter = stream.into_iter().peekable();
    let mut part = |iter: &mut std::iter::Peekable<_>| -> syn::Result<f64> {
        match parse_literal(iter, budget)? {
            Some(TensorLiteral::Scalar(ScalarSyntax { value, span })) => match value {
                ScalarLit::Float(x) => Ok(x),
                ScalarLit::Int(n) => Ok(n as f64),
                _ => Err(syn::Error::new(span, EXPECTED)),
            },
            _ => Err(syn::Error::new(span, EXPECTED)),
        }
    };
    let re = part(&mut iter)?;
    match iter.next() {
        Some(TokenTree::Punct(p)) if p.as_char() == ',' => {}
        _ => return Err(syn::Error::new(span, EXPECTED)),
    }
    let im = part(&mut iter)?;
    if let Some(extra) = iter.next() {
        return Err(syn::Error::new(extra.span(), EXPECTED));
    }
    Ok(ScalarLit::Complex(re, im))
}

fn parse_list(stream: TokenStream, span: Span, budget: &mut Budget) -> syn::Result<TensorLiteral> {
    let mut items = Vec::new();
    let mut iter = stream.into_iter().peekable();
    let mut comma = span;
    loop {
        match parse_literal(&mut iter, budget)? {
            Some(item) => items.push(item),
            None if items.is_empty() => break,
            None => {
                return Err(syn::Error::new(
                    comma,
                    "expected an element after `,` (a list has no trailing comma)",
                ))
            }
        }
        match iter.next() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                budget.take()?;
                comma = p.span();
            }
            Some(other) => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected `,` or `]` after a list element",
                ))
            }
        }
    }
    Ok(TensorLiteral::List(items, span))
}

/// The common spellings without `syn`: `123`, `1.5`, `2.5e-3`,
/// `1.000000e+00` (a 64x256 literal has 16384 of them; a proc macro runs
/// unoptimised). Anything else (hex, suffixes, underscores, errors) takes
/// the general path.
fn plain_number(text: &str) -> Option<ScalarLit> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_digit() {
        return None;
    }
    if bytes.iter().all(u8::is_ascii_digit) {
        return text.parse().ok().map(ScalarLit::Int);
    }
    let mut seen_exp = false;
    for (k, &b) in bytes.iter().enumerate() {
        let ok = match b {
            b'0'..=b'9' => true,
            b'.' => !seen_exp,
            b'e' | b'E' if !seen_exp => {
                seen_exp = true;
                true
            }
            b'+' | b'-' => k > 0 && matches!(bytes[k - 1], b'e' | b'E'),
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    text.parse().ok().map(ScalarLit::Float)
}

/// A number as MLIR writes it: decimal or hexadecimal integer, or float
/// (`1.0`, `-2.5e-3`, `1.000000e+00`). Rust suffixes are refused.
fn scalar(lit: &proc_macro2::Literal) -> syn::Result<ScalarLit> {
    let text = lit.to_string();
    if let Some(value) = plain_number(&text) {
        return Ok(value);
    }
    let span = lit.span();
    let bad = |message: &str| syn::Error::new(span, message.to_string());
    match Lit::new(lit.clone()) {
        Lit::Int(int) => {
            if !int.suffix().is_empty() {
                return Err(bad(
                    "MLIR literals have no type suffix; the type is the constant's element type",
                ));
            }
            if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                return u128::from_str_radix(&hex.replace('_', ""), 16)
                    .map(ScalarLit::Hex)
                    .map_err(|_| bad("this hexadecimal literal does not fit in 128 bits"));
            }
            if text.starts_with("0b") || text.starts_with("0o") {
                return Err(bad("expected a decimal or hexadecimal (`0x...`) integer"));
            }
            int.base10_parse::<i128>()
                .map(ScalarLit::Int)
                .map_err(|_| bad("this integer does not fit in 128 bits"))
        }
        Lit::Float(float) => {
            if !float.suffix().is_empty() {
                return Err(bad(
                    "MLIR literals have no type suffix; the type is the constant's element type",
                ));
            }
            float
                .base10_parse::<f64>()
                .map(ScalarLit::Float)
                .map_err(|_| bad("not a floating-point number"))
        }
        _ => Err(bad("expected a number, `true` or `false`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> syn::Result<ScalarLit> {
        let ts: TokenStream = text.parse().unwrap();
        match ts.into_iter().next() {
            Some(TokenTree::Literal(l)) => scalar(&l),
            other => panic!("not a literal: {other:?}"),
        }
    }

    #[test]
    fn numbers_as_mlir_prints_them() {
        assert_eq!(lit("123").unwrap(), ScalarLit::Int(123));
        assert_eq!(lit("1.000000e+00").unwrap(), ScalarLit::Float(1.0));
        assert_eq!(lit("2.5e-3").unwrap(), ScalarLit::Float(2.5e-3));
        assert_eq!(lit("1E3").unwrap(), ScalarLit::Float(1000.0));
        assert_eq!(lit("0.5").unwrap(), ScalarLit::Float(0.5));
        assert_eq!(lit("0x7FC00000").unwrap(), ScalarLit::Hex(0x7FC0_0000));
        assert_eq!(lit("1_000").unwrap(), ScalarLit::Int(1000));
        assert!(lit("1.5f32").is_err());
        assert!(lit("7u8").is_err());
        assert!(lit("0b101").is_err());
        assert!(lit("\"x\"").is_err());
        // The fast path and syn agree wherever the fast path answers.
        for text in [
            "0",
            "42",
            "3.25",
            "1e-7",
            "6.02e23",
            "170141183460469231731687303715884105727",
        ] {
            let fast = plain_number(text);
            let l: proc_macro2::Literal = text.parse().unwrap();
            let general = match Lit::new(l) {
                Lit::Int(i) => ScalarLit::Int(i.base10_parse().unwrap()),
                Lit::Float(f) => ScalarLit::Float(f.base10_parse().unwrap()),
                other => panic!("{text} reads as {other:?}"),
            };
            assert_eq!(fast, Some(general), "{text}");
        }
    }

    /// Every token of a literal counts (numbers, signs, commas, brackets):
    /// `[[1, -2], [3, 4]]` has 11; a budget of 11 reads it, of 10 refuses
    /// it at the literal's keyword with the reason and the way out.
    #[test]
    fn literals_past_their_token_budget_are_refused() {
        let tokens = |text: &str| text.parse::<TokenStream>().unwrap().into_iter().collect();
        let text = "[[1, -2], [3, 4]]";
        let mut budget = Budget {
            left: 11,
            span: Span::call_site(),
        };
        assert!(parse_literal_tokens(tokens(text), Span::call_site(), "x", &mut budget).is_ok());
        assert_eq!(budget.left, 0);
        let mut budget = Budget {
            left: 10,
            span: Span::call_site(),
        };
        let e = parse_literal_tokens(tokens(text), Span::call_site(), "x", &mut budget)
            .expect_err("over budget");
        let message = e.to_string();
        assert!(message.contains("more than 4250000 tokens"), "{message}");
        assert!(message.contains("file(\"weights.mtx\")"), "{message}");
        // The real budget admits a dense literal of the constants' limit:
        // one token per value and per comma, one per bracket group.
        let values = crate::model::MAX_STORED;
        assert!(2 * values + values / 1024 < MAX_LITERAL_TOKENS);
    }
}
