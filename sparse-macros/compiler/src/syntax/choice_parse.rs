//! The choice `if cond { a } else { b }` in kernel expressions (MLIR's
//! `arith.select`, as Rust writes it).

use proc_macro2::{Delimiter, Ident, TokenTree};

use super::stmt_parse::{error, Parser};
use super::ExprSyntax;

impl Parser<'_> {
    /// `if cond { then } else { els }` (after the `if`), `else if` chains
    /// included: MLIR's `arith.select` as Rust writes it.
    pub(super) fn choice(&mut self, if_kw: Ident) -> syn::Result<ExprSyntax> {
        let usage = "a choice is written `if cond { a } else { b }`, both branches one \
                     expression";
        let start = self.pos;
        let Some(brace) = self.tokens[start..]
            .iter()
            .position(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
        else {
            return Err(error(
                if_kw.span(),
                format!("expected `{{` after the condition; {usage}"),
            ));
        };
        let brace = start + brace;
        if brace == start {
            return Err(error(
                if_kw.span(),
                format!("expected a condition after `if`; {usage}"),
            ));
        }
        let TokenTree::Group(then_group) = &self.tokens[brace] else {
            return Err(error(if_kw.span(), usage));
        };
        let mut sub = self.nested(
            &self.tokens[start..brace],
            then_group.span_open(),
            if_kw.span(),
        )?;
        let cond = sub.expr(0)?;
        if let Some(t) = sub.peek() {
            return Err(error(
                t.span(),
                format!("unexpected token in the condition; {usage}"),
            ));
        }
        let then = self.branch(then_group, usage)?;
        self.pos = brace + 1;
        match self.peek().cloned() {
            Some(TokenTree::Ident(e)) if e == "else" => self.pos += 1,
            _ => {
                return Err(error(
                    then_group.span_close(),
                    format!("expected `else` after the first branch; {usage}"),
                ))
            }
        }
        let (els, end) = match self.peek().cloned() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                self.pos += 1;
                (self.branch(&g, usage)?, g.span_close())
            }
            Some(TokenTree::Ident(i)) if i == "if" => {
                self.pos += 1;
                let nested = self.descend(i.span(), |p| p.choice(i))?;
                let end = nested.span_range().1;
                (nested, end)
            }
            _ => {
                return Err(error(
                    self.here(),
                    format!("expected `{{` after `else`; {usage}"),
                ))
            }
        };
        Ok(ExprSyntax::If {
            if_span: if_kw.span(),
            cond: Box::new(cond),
            then: Box::new(then),
            els: Box::new(els),
            end,
        })
    }
}

impl Parser<'_> {
    /// The single expression of a branch group `{ e }`.
    fn branch(&self, g: &proc_macro2::Group, usage: &str) -> syn::Result<ExprSyntax> {
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        if inner.is_empty() {
            return Err(error(
                g.span(),
                format!("expected an expression in the branch; {usage}"),
            ));
        }
        let mut sub = self.nested(&inner, g.span_close(), g.span_open())?;
        let e = sub.expr(0)?;
        if let Some(t) = sub.peek() {
            return Err(error(
                t.span(),
                format!("unexpected token in the branch; {usage}"),
            ));
        }
        Ok(e)
    }
}
