//! Affine expressions as written in maps: `i`, `i floordiv 2`, `c * 3 * i`,
//! `ib * 2 + ii`. Parsed with the usual precedence (`*`, `floordiv`,
//! `ceildiv`, `mod` bind tighter than `+`, `-`); which forms are meaningful
//! is the model's business.

use std::fmt;

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{parenthesized, Ident, LitInt, Token};

/// Deeper nesting is refused rather than risking the stack on hostile input.
const MAX_DEPTH: usize = 32;

/// An affine expression over named variables.
#[derive(Clone, Debug)]
pub enum AffineExpr {
    /// A variable (dimension, level or symbol).
    Var(Ident),
    /// A non-negative constant.
    Const(u64, Span),
    /// `-e`.
    Neg(Box<AffineExpr>, Span),
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinOp,
        /// Span of the operator.
        op_span: Span,
        /// Left operand.
        lhs: Box<AffineExpr>,
        /// Right operand.
        rhs: Box<AffineExpr>,
    },
}

/// A binary operator of affine expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `floordiv`
    FloorDiv,
    /// `ceildiv`
    CeilDiv,
    /// `mod`
    Mod,
}

impl BinOp {
    fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::FloorDiv => "floordiv",
            BinOp::CeilDiv => "ceildiv",
            BinOp::Mod => "mod",
        }
    }
}

impl AffineExpr {
    /// The span of the expression's first token.
    pub fn span(&self) -> Span {
        match self {
            AffineExpr::Var(ident) => ident.span(),
            AffineExpr::Const(_, span) | AffineExpr::Neg(_, span) => *span,
            AffineExpr::Binary { lhs, .. } => lhs.span(),
        }
    }
}

impl AffineExpr {
    /// Appends the variables the expression names, left to right.
    pub fn vars<'a>(&'a self, out: &mut Vec<&'a Ident>) {
        match self {
            AffineExpr::Var(ident) => out.push(ident),
            AffineExpr::Const(..) => {}
            AffineExpr::Neg(e, _) => e.vars(out),
            AffineExpr::Binary { lhs, rhs, .. } => {
                lhs.vars(out);
                rhs.vars(out);
            }
        }
    }

    /// The span of the expression's last token.
    pub fn last_span(&self) -> Span {
        match self {
            AffineExpr::Var(ident) => ident.span(),
            AffineExpr::Const(_, span) => *span,
            AffineExpr::Neg(inner, _) => inner.last_span(),
            AffineExpr::Binary { rhs, .. } => rhs.last_span(),
        }
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AffineExpr::Var(ident) => write!(f, "{ident}"),
            AffineExpr::Const(n, _) => write!(f, "{n}"),
            AffineExpr::Neg(e, _) => write!(f, "-{e}"),
            AffineExpr::Binary { op, lhs, rhs, .. } => {
                let wrap = |e: &AffineExpr| matches!(e, AffineExpr::Binary { .. });
                let side = |f: &mut fmt::Formatter<'_>, e: &AffineExpr| {
                    if wrap(e) {
                        write!(f, "({e})")
                    } else {
                        write!(f, "{e}")
                    }
                };
                side(f, lhs)?;
                write!(f, " {} ", op.text())?;
                side(f, rhs)
            }
        }
    }
}

/// Parses an affine expression; stops before `:`, `,` or the end.
pub(super) fn parse_expr(input: ParseStream) -> syn::Result<AffineExpr> {
    parse_sum(input, 0)
}

fn parse_sum(input: ParseStream, depth: usize) -> syn::Result<AffineExpr> {
    let mut lhs = parse_product(input, depth)?;
    loop {
        let op = if input.peek(Token![+]) {
            BinOp::Add
        } else if input.peek(Token![-]) && !input.peek(Token![->]) {
            BinOp::Sub
        } else {
            return Ok(lhs);
        };
        let op_span = input.cursor().span();
        input.step(|c| Ok(((), c.token_tree().map_or(*c, |(_, rest)| rest))))?;
        let rhs = parse_product(input, depth)?;
        lhs = AffineExpr::Binary {
            op,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
    }
}

fn parse_product(input: ParseStream, depth: usize) -> syn::Result<AffineExpr> {
    let mut lhs = parse_factor(input, depth)?;
    loop {
        let op_span = input.cursor().span();
        let op = if input.peek(Token![*]) {
            input.parse::<Token![*]>()?;
            BinOp::Mul
        } else {
            let op = match input.cursor().ident() {
                Some((word, _)) if word == "floordiv" => BinOp::FloorDiv,
                Some((word, _)) if word == "ceildiv" => BinOp::CeilDiv,
                Some((word, _)) if word == "mod" => BinOp::Mod,
                _ => return Ok(lhs),
            };
            input.call(Ident::parse_any)?;
            op
        };
        let rhs = parse_factor(input, depth)?;
        lhs = AffineExpr::Binary {
            op,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
    }
}

fn parse_factor(input: ParseStream, depth: usize) -> syn::Result<AffineExpr> {
    if depth >= MAX_DEPTH {
        return Err(input.error("expression nested too deeply"));
    }
    if input.peek(Token![-]) && !input.peek(Token![->]) {
        let minus: Token![-] = input.parse()?;
        let inner = parse_factor(input, depth + 1)?;
        return Ok(AffineExpr::Neg(Box::new(inner), minus.span));
    }
    if input.peek(syn::token::Paren) {
        let content;
        parenthesized!(content in input);
        let inner = parse_sum(&content, depth + 1)?;
        if !content.is_empty() {
            return Err(content.error("expected an operator or `)`"));
        }
        return Ok(inner);
    }
    if input.peek(LitInt) {
        let lit: LitInt = input.parse()?;
        let value = lit
            .base10_parse::<u64>()
            .map_err(|e| syn::Error::new(lit.span(), e))?;
        return Ok(AffineExpr::Const(value, lit.span()));
    }
    if input.peek(Ident::peek_any) {
        return Ok(AffineExpr::Var(input.call(Ident::parse_any)?));
    }
    Err(input.error("expected a variable such as `i`, a number, or `(`"))
}

/// Parses an affine expression that must use up the whole input.
pub(super) fn parse_expr_all(input: ParseStream) -> syn::Result<AffineExpr> {
    let e = parse_sum(input, 0)?;
    if !input.is_empty() {
        return Err(input.error("expected an operator (`+`, `-`, `*`)"));
    }
    Ok(e)
}
