//! Parsing expressions: a precedence-climbing parser over the token trees
//! of a statement's right-hand side (its statements and subscripts are read
//! in `stmt_parse.rs`), with Rust's precedence: unary `-` and `!` bind
//! tightest, then `as`, then `* /`, `+ -`, `<< >>`, `&`, `^`, `|`,
//! comparisons, `&&`, `||`, all left-associative. An identifier followed by
//! a bracket group is a tensor access, followed by a parenthesis group a
//! call; everything Rust has and kernels do not (method calls, `%`,
//! closures, ...) is an error that lists what is supported.

use proc_macro2::{Delimiter, Spacing, Span, TokenTree};
use syn::Ident;

use super::semiring::{parse_semiring, SemiringKind};
use super::stmt::{
    AccessSyntax, ArithOp, ExprSyntax, LitKind, AS_PRECEDENCE, MATH_FUNCTIONS, SUPPORTED,
};
use super::stmt_parse::{
    error, parse_indices, split_commas, unsupported, Parser, ASSIGNMENT_INSIDE, MAX_HEIGHT,
};

/// The height of a parsed expression tree. Only called on trees the parser
/// built under [`MAX_HEIGHT`] and [`MAX_NESTING`], so the recursion is
/// bounded.
fn height(e: &ExprSyntax) -> usize {
    let below = match e {
        ExprSyntax::Access(_) | ExprSyntax::Name(_) | ExprSyntax::Literal { .. } => 0,
        ExprSyntax::Neg { operand, .. }
        | ExprSyntax::Not { operand, .. }
        | ExprSyntax::Cast { operand, .. } => height(operand),
        ExprSyntax::Paren { inner, .. } => height(inner),
        ExprSyntax::Binary { left, right, .. } => height(left).max(height(right)),
        ExprSyntax::Call { args, .. } => args.iter().map(height).max().unwrap_or(0),
        ExprSyntax::If {
            cond, then, els, ..
        } => height(cond).max(height(then)).max(height(els)),
        ExprSyntax::Semiring(op) => op.operands().map(height).max().unwrap_or(0),
    };
    below + 1
}

fn check_height(height: usize, at: Span) -> syn::Result<()> {
    if height > MAX_HEIGHT {
        return Err(error(
            at,
            format!(
                "the expression is more than {MAX_HEIGHT} operations deep here (a chain \
                 `a + b + ..` counts one per operator); split it into several statements \
                 into a dense output, e.g. `y[i] = ..; y[i] += ..;`"
            ),
        ));
    }
    Ok(())
}

impl Parser<'_> {
    /// Precedence climbing: operators binding at least as tight as `min`.
    pub(super) fn expr(&mut self, min: u8) -> syn::Result<ExprSyntax> {
        let mut left = self.unary()?;
        let mut left_height = height(&left);
        check_height(left_height, left.span_range().0)?;
        loop {
            let Some(token) = self.peek() else {
                return Ok(left);
            };
            match token {
                TokenTree::Ident(ident) if ident == "as" => {
                    // `as` binds tighter than every binary operator.
                    if min > AS_PRECEDENCE {
                        return Ok(left);
                    }
                    self.pos += 1;
                    let ty = match self.peek() {
                        Some(TokenTree::Ident(ty)) => ty.clone(),
                        _ => {
                            return Err(error(
                                self.here(),
                                "expected a type after `as`, e.g. `as f64`",
                            ))
                        }
                    };
                    self.pos += 1;
                    if self
                        .punct_at(0)
                        .is_some_and(|(c, s, _)| c == ':' && s == Spacing::Joint)
                    {
                        return Err(error(
                            ty.span(),
                            "cast to a primitive type written by its name, e.g. `as f64`",
                        ));
                    }
                    left_height += 1;
                    check_height(left_height, ty.span())?;
                    left = ExprSyntax::Cast {
                        operand: Box::new(left),
                        ty,
                    };
                }
                TokenTree::Punct(_) => {
                    let Some((op, span, len)) = self.binary_op()? else {
                        return Ok(left);
                    };
                    if op.precedence() < min {
                        return Ok(left);
                    }
                    if op.is_comparison() {
                        if let ExprSyntax::Binary { op: prev, .. } = &left {
                            if prev.is_comparison() {
                                return Err(error(
                                    span,
                                    "comparisons cannot be chained; combine them with `&&`, \
                                     e.g. `a < b && b < c`",
                                ));
                            }
                        }
                    }
                    self.pos += len;
                    if self.peek().is_none() {
                        return Err(error(
                            self.end,
                            format!("expected an operand after `{}`", op.symbol()),
                        ));
                    }
                    let right = self.expr(op.precedence() + 1)?;
                    left_height = left_height.max(height(&right)) + 1;
                    check_height(left_height, span)?;
                    left = ExprSyntax::Binary {
                        op,
                        op_span: span,
                        left: Box::new(left),
                        right: Box::new(right),
                    };
                }
                other => {
                    return Err(error(
                        other.span(),
                        "expected an operator (`+`, `-`, `*`, `/`, `as`) or `;` here",
                    ))
                }
            }
        }
    }

    /// The binary operator at the cursor and how many tokens it takes, or
    /// an error for one kernels lack.
    fn binary_op(&self) -> syn::Result<Option<(ArithOp, Span, usize)>> {
        let Some((c, spacing, span)) = self.punct_at(0) else {
            return Ok(None);
        };
        let next = match spacing {
            Spacing::Joint => self.punct_at(1).map(|(c, ..)| c),
            Spacing::Alone => None,
        };
        let op = match c {
            '+' => ArithOp::Add,
            '-' => ArithOp::Sub,
            '*' => ArithOp::Mul,
            '/' => ArithOp::Div,
            '%' => return Err(unsupported(span, "the remainder operator `%` is")),
            '.' if next == Some('.') => return Err(unsupported(span, "ranges are")),
            '.' => {
                return Err(match (self.peek_at(1), self.peek_at(2)) {
                    (Some(TokenTree::Ident(m)), Some(TokenTree::Group(g)))
                        if g.delimiter() == Delimiter::Parenthesis =>
                    {
                        let hint = match MATH_FUNCTIONS.iter().find(|(f, _)| m == f) {
                            Some((_, 1)) => format!("; write `{m}(x)` instead of `x.{m}()`"),
                            Some(_) => format!("; write `{m}(x, y)` instead of `x.{m}(y)`"),
                            None => String::new(),
                        };
                        error(
                            span,
                            format!("method calls are not supported{hint}; {SUPPORTED}"),
                        )
                    }
                    _ => unsupported(span, "field accesses are"),
                })
            }
            '?' => return Err(unsupported(span, "the `?` operator is")),
            '=' if next == Some('=') => return Ok(Some((ArithOp::Eq, span, 2))),
            '!' if next == Some('=') => return Ok(Some((ArithOp::Ne, span, 2))),
            '<' if next == Some('=') => return Ok(Some((ArithOp::Le, span, 2))),
            '>' if next == Some('=') => return Ok(Some((ArithOp::Ge, span, 2))),
            '&' if next == Some('&') => return Ok(Some((ArithOp::And, span, 2))),
            '|' if next == Some('|') => return Ok(Some((ArithOp::Or, span, 2))),
            '<' | '>' if next == Some(c) => {
                // `<<=` / `>>=` is a compound assignment.
                let third = self.punct_at(1).filter(|(_, s, _)| *s == Spacing::Joint);
                if third.is_some() && self.punct_at(2).is_some_and(|(c, ..)| c == '=') {
                    return Err(error(span, ASSIGNMENT_INSIDE));
                }
                let op = if c == '<' { ArithOp::Shl } else { ArithOp::Shr };
                return Ok(Some((op, span, 2)));
            }
            '<' => return Ok(Some((ArithOp::Lt, span, 1))),
            '>' => return Ok(Some((ArithOp::Gt, span, 1))),
            '&' => ArithOp::BitAnd,
            '|' => ArithOp::BitOr,
            '^' => ArithOp::BitXor,
            '=' => return Err(error(span, ASSIGNMENT_INSIDE)),
            '!' => {
                return Err(error(
                    span,
                    "`!` negates the operand after it; between two operands write an operator \
                     such as `!=`",
                ))
            }
            ',' => {
                return Err(error(
                    span,
                    "unexpected `,`: a statement has one expression",
                ))
            }
            _ => return Err(unsupported(span, &format!("`{c}` is"))),
        };
        match (c, next) {
            (_, Some('=')) => Err(error(span, ASSIGNMENT_INSIDE)),
            ('-', Some('>')) => Err(unsupported(span, "`->` is")),
            _ => Ok(Some((op, span, 1))),
        }
    }

    fn unary(&mut self) -> syn::Result<ExprSyntax> {
        let Some((c, _, span)) = self.punct_at(0) else {
            return self.postfix();
        };
        match c {
            '-' => {
                self.pos += 1;
                if self.peek().is_none() {
                    return Err(error(self.end, "expected an operand after `-`"));
                }
                let operand = self.descend(span, Self::unary)?;
                Ok(ExprSyntax::Neg {
                    minus: span,
                    operand: Box::new(operand),
                })
            }
            '|' => Err(unsupported(
                span,
                "closures outside `binary`, `unary`, `select` and `reduce` are",
            )),
            '!' => {
                self.pos += 1;
                if self.peek().is_none() {
                    return Err(error(self.end, "expected an operand after `!`"));
                }
                let operand = self.descend(span, Self::unary)?;
                Ok(ExprSyntax::Not {
                    bang: span,
                    operand: Box::new(operand),
                })
            }
            '&' | '*' => Err(error(
                span,
                format!(
                    "references and dereferences are not supported (a tensor element is read \
                     by indexing, `a[i, j]`); {SUPPORTED}"
                ),
            )),
            _ => Err(error(
                span,
                format!("expected an expression, found `{c}`; {SUPPORTED}"),
            )),
        }
    }

    /// A primary expression and what may follow it directly.
    fn postfix(&mut self) -> syn::Result<ExprSyntax> {
        let primary = self.primary()?;
        match self.peek() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => Err(error(
                g.span(),
                "only a tensor named directly can be indexed, e.g. `a[i, j]`",
            )),
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => Err(error(
                g.span(),
                "only the math functions can be called, by name: `sqrt(x)`",
            )),
            Some(TokenTree::Group(g)) => Err(error(
                g.span(),
                "expected an operator (`+`, `-`, `*`, `/`, `as`) or `;` here",
            )),
            _ => Ok(primary),
        }
    }

    fn primary(&mut self) -> syn::Result<ExprSyntax> {
        let Some(token) = self.peek().cloned() else {
            return Err(error(self.end, "expected an expression"));
        };
        self.pos += 1;
        match token {
            TokenTree::Literal(lit) => literal(lit),
            TokenTree::Ident(ident) => self.after_ident(ident),
            TokenTree::Group(g) => match g.delimiter() {
                Delimiter::Parenthesis | Delimiter::None => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    if inner.is_empty() {
                        return Err(error(g.span(), "expected an expression inside `( )`"));
                    }
                    if let Some(comma) = inner
                        .iter()
                        .find(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                    {
                        return Err(unsupported(comma.span(), "tuples are"));
                    }
                    let mut sub = self.nested(&inner, g.span_close(), g.span_open())?;
                    let e = sub.expr(0)?;
                    if g.delimiter() == Delimiter::None {
                        return Ok(e);
                    }
                    Ok(ExprSyntax::Paren {
                        inner: Box::new(e),
                        span: g.span(),
                    })
                }
                Delimiter::Bracket => Err(error(
                    g.span(),
                    format!(
                        "array expressions are not supported (a tensor access names its \
                         tensor: `a[i, j]`); {SUPPORTED}"
                    ),
                )),
                Delimiter::Brace => Err(unsupported(g.span(), "blocks are")),
            },
            TokenTree::Punct(p) => Err(error(
                p.span(),
                format!(
                    "expected an expression, found `{}`; {SUPPORTED}",
                    p.as_char()
                ),
            )),
        }
    }

    fn after_ident(&mut self, ident: Ident) -> syn::Result<ExprSyntax> {
        let name = ident.to_string();
        if name == "true" || name == "false" {
            return Ok(ExprSyntax::Literal {
                text: name,
                kind: LitKind::Bool,
                suffix: String::new(),
                span: ident.span(),
            });
        }
        if name == "if" {
            return self.choice(ident);
        }
        const KEYWORDS: [&str; 14] = [
            "if", "match", "loop", "while", "for", "let", "return", "unsafe", "move", "async",
            "break", "continue", "as", "self",
        ];
        if KEYWORDS.contains(&name.as_str()) {
            return Err(unsupported(
                ident.span(),
                &format!("`{name}` expressions are"),
            ));
        }
        match self.peek().cloned() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                self.pos += 1;
                let (indices, affine) = parse_indices(&g, &ident)?;
                Ok(ExprSyntax::Access(AccessSyntax {
                    tensor: ident,
                    indices,
                    affine,
                    brackets: Some(g.span()),
                }))
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                self.pos += 1;
                if let Some(kind) = SemiringKind::from_name(&name) {
                    let op = parse_semiring(kind, ident, &g, self.nesting + 1, &|tokens, end| {
                        self.nested(tokens, end, g.span_open())?.expr(0)
                    })?;
                    return Ok(ExprSyntax::Semiring(Box::new(op)));
                }
                Ok(ExprSyntax::Call {
                    name: ident,
                    args: self.parse_args(&g)?,
                    parens: g.span(),
                })
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                Err(unsupported(g.span(), "struct expressions are"))
            }
            Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint => {
                Err(error(
                    ident.span(),
                    format!(
                        "paths are not supported: call the math functions by name, e.g. \
                         `sqrt(x)` rather than `f64::sqrt(x)`; {SUPPORTED}"
                    ),
                ))
            }
            Some(TokenTree::Punct(p)) if p.as_char() == '!' && p.spacing() == Spacing::Alone => {
                Err(unsupported(ident.span(), "macros are"))
            }
            _ => Ok(ExprSyntax::Name(ident)),
        }
    }
}

fn literal(lit: proc_macro2::Literal) -> syn::Result<ExprSyntax> {
    let span = lit.span();
    let text = lit.to_string();
    let (kind, suffix) = match syn::Lit::new(lit) {
        syn::Lit::Int(int) => (LitKind::Int, int.suffix().to_string()),
        syn::Lit::Float(float) => (LitKind::Float, float.suffix().to_string()),
        _ => {
            return Err(error(
                span,
                format!("only number literals are supported (`2`, `0.5`, `1e-3`), found `{text}`"),
            ))
        }
    };
    Ok(ExprSyntax::Literal {
        text,
        kind,
        suffix,
        span,
    })
}

impl Parser<'_> {
    /// The arguments of a call: expressions separated by commas.
    fn parse_args(&self, group: &proc_macro2::Group) -> syn::Result<Vec<ExprSyntax>> {
        let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
        let mut args = Vec::new();
        for (items, end) in split_commas(&tokens, group.span_close()) {
            if items.is_empty() {
                return Err(error(end, "expected an argument"));
            }
            args.push(self.nested(items, end, group.span_open())?.expr(0)?);
        }
        Ok(args)
    }
}
