//! Parsing statements: `a[i, j]` is not a Rust expression (`syn` reads
//! `a[i, j]` as an index by a comma list, which it rejects), so expressions
//! are read by a small precedence-climbing parser over the token trees,
//! with Rust's precedence: unary `-` and `!` bind tightest, then `as`,
//! then `* /`, `+ -`, `<< >>`, `&`, `^`, `|`, comparisons, `&&`, `||`, all
//! left-associative. An identifier followed by a bracket group is a tensor
//! access, followed by a parenthesis group a call; everything Rust has and
//! kernels do not (method calls, `%`, closures, ...) is an error that
//! lists what is supported.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::Ident;

use super::semiring::{parse_semiring, SemiringKind};
use super::stmt::{
    AccessSyntax, ArithOp, AssignSyntax, ExprSyntax, LitKind, StmtSyntax, AS_PRECEDENCE,
    MATH_FUNCTIONS, SUPPORTED,
};
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

pub(super) fn error(span: Span, message: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span, message)
}

fn unsupported(span: Span, what: &str) -> syn::Error {
    error(span, format!("{what} not supported; {SUPPORTED}"))
}

const ASSIGNMENT_INSIDE: &str = "an assignment inside an expression is not supported; a \
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
    fn peek_at(&self, n: usize) -> Option<&TokenTree> {
        self.tokens.get(self.pos + n)
    }
    fn punct_at(&self, n: usize) -> Option<(char, Spacing, Span)> {
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

/// The subscripts of an access, separated by commas: index variables
/// (`i`), or affine expressions of them (`i + k`, `2 * i + k - 1`). Returns
/// one identifier per dimension (an affine subscript's first variable) and
/// the affine subscripts by dimension.
#[allow(clippy::type_complexity)]
fn parse_indices(
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
fn split_commas(tokens: &[TokenTree], close: Span) -> Vec<(&[TokenTree], Span)> {
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
