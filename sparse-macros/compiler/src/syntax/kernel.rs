//! Kernels: `[attrs] [pub] fn NAME(params) { statements }`.
//!
//! Parameters are parsed one by one so a broken one does not hide the
//! others; a tensor type contains commas (`tensor<?x?xf64, #CSR>`), so
//! recovery skips to the next comma that starts a new `name :`. The body's
//! statements are parsed in [`super::stmt_parse`].

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::discouraged::Speculative;
use syn::parse::ParseStream;
use syn::{braced, parenthesized, Attribute, Ident, Token, Visibility};

use super::stmt::StmtSyntax;
use super::stmt_parse;
use super::{tensor, DimSize, ElemSyntax};
use crate::errors::Errors;

/// `[attrs] [pub] fn NAME(params) { statements }`.
#[derive(Clone, Debug)]
pub struct KernelSyntax {
    /// Outer attributes, `///` doc comments included.
    pub attrs: Vec<Attribute>,
    /// The visibility written.
    pub vis: Visibility,
    /// The function name.
    pub name: Ident,
    /// The parameters that parsed, in source order.
    pub params: Vec<ParamSyntax>,
    /// The statements that parsed, in source order.
    pub stmts: Vec<StmtSyntax>,
    /// Whether a parameter or a statement failed to parse (its error is
    /// recorded; later stages stay quiet about what it would have said).
    pub broken: bool,
    /// Whether a parameter failed to parse (then the signature is unknown).
    pub params_broken: bool,
}

/// `name: TYPE`.
#[derive(Clone, Debug)]
pub struct ParamSyntax {
    /// The parameter name.
    pub name: Ident,
    /// Its type.
    pub ty: ParamTypeSyntax,
}

/// The type of a kernel parameter.
#[derive(Clone, Debug)]
pub enum ParamTypeSyntax {
    /// `&tensor<...>` or `&mut tensor<...>`.
    Tensor(TensorParamSyntax),
    /// Any other Rust type, passed by value (`alpha: f32`).
    Scalar(Box<syn::Type>),
}

/// `&tensor<SHAPE x ELEM [, #ENC]>` or `&mut tensor<...>`.
#[derive(Clone, Debug)]
pub struct TensorParamSyntax {
    /// Span of `&`.
    pub amp_span: Span,
    /// Span of `mut`, if written.
    pub mutable: Option<Span>,
    /// Span of `tensor`.
    pub tensor_span: Span,
    /// The sizes, outermost first (none for rank 0).
    pub shape: Vec<DimSize>,
    /// The element type.
    pub elem: ElemSyntax,
    /// The encoding after the comma, if any.
    pub encoding: Option<Ident>,
}

impl TensorParamSyntax {
    /// The span of the last token of the type written (for ranges).
    pub fn last_span(&self) -> Span {
        self.encoding.as_ref().map_or(self.elem.span, |e| e.span())
    }
}

/// Parses a kernel after its attributes and visibility.
pub(super) fn parse_kernel(
    input: ParseStream,
    attrs: Vec<Attribute>,
    vis: Visibility,
    errors: &mut Errors,
) -> syn::Result<KernelSyntax> {
    input.parse::<Token![fn]>()?;
    let name: Ident = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected the kernel's name after `fn`, e.g. `fn spmv(...)`",
        )
    })?;
    if input.peek(Token![<]) {
        return Err(input.error(
            "generic kernels are not supported; the element types are written in the tensor \
             types, e.g. `a: &tensor<?x?xf64, #CSR>`",
        ));
    }
    if !input.peek(syn::token::Paren) {
        return Err(input.error(
            "expected `(` and the parameters, e.g. `fn spmv(a: &tensor<?x?xf64, #CSR>, \
             x: &tensor<?xf64>, y: &mut tensor<?xf64>)`",
        ));
    }
    let content;
    parenthesized!(content in input);
    let mut broken = false;
    let params = parse_params(&content, errors, &mut broken);
    let params_broken = broken;
    if input.peek(Token![->]) {
        return Err(input.error(
            "a kernel declares no return type: it writes its `&mut tensor<...>` parameters, \
             and the generated function returns `Result<(), sparse_core::KernelError>`",
        ));
    }
    if !input.peek(syn::token::Brace) {
        return Err(
            input.error("expected the kernel's body in braces, e.g. `{ y[i] = a[i, j] * x[j]; }`")
        );
    }
    let body;
    let brace = braced!(body in input);
    let tokens: TokenStream = body.parse()?;
    let stmts = stmt_parse::parse_body(tokens, brace.span.close(), errors, &mut broken);
    Ok(KernelSyntax {
        attrs,
        vis,
        name,
        params,
        stmts,
        broken,
        params_broken,
    })
}

fn parse_params(input: ParseStream, errors: &mut Errors, broken: &mut bool) -> Vec<ParamSyntax> {
    let mut params = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        match parse_param(&fork) {
            Ok(param) if fork.is_empty() || fork.peek(Token![,]) => {
                input.advance_to(&fork);
                params.push(param);
            }
            Ok(_) => {
                errors.push(fork.error("expected `,` or `)` after the parameter"));
                *broken = true;
                input.advance_to(&fork);
                skip_param(input);
            }
            Err(error) => {
                errors.push(error);
                *broken = true;
                skip_param(input);
            }
        }
        if input.peek(Token![,]) {
            // Cannot fail: just peeked.
            let _ = input.parse::<Token![,]>();
        }
    }
    params
}

/// Skips to the next `,` followed by `name :` (not `::`), or to the end.
fn skip_param(input: ParseStream) {
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
                if let Some((_, after)) = next.ident() {
                    let colon = after.punct();
                    let double = colon
                        .as_ref()
                        .and_then(|(_, c)| c.punct())
                        .is_some_and(|(p, _)| p.as_char() == ':');
                    if colon.is_some_and(|(p, _)| p.as_char() == ':') && !double {
                        break;
                    }
                }
            }
            rest = next;
        }
        Ok(((), rest))
    });
}

fn parse_param(input: ParseStream) -> syn::Result<ParamSyntax> {
    const EXAMPLE: &str =
        "e.g. `a: &tensor<?x?xf64, #CSR>`, `y: &mut tensor<?xf64>` or `alpha: f32`";
    let name: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), format!("expected a parameter name, {EXAMPLE}")))?;
    if !input.peek(Token![:]) {
        return Err(input.error(format!("expected `:` and the type of `{name}`, {EXAMPLE}")));
    }
    input.parse::<Token![:]>()?;
    let ahead = input.fork();
    let amp = ahead.parse::<Option<Token![&]>>()?;
    let mutable = ahead.parse::<Option<Token![mut]>>()?;
    let is_tensor = matches!(ahead.cursor().ident(), Some((ident, _)) if ident == "tensor");
    if is_tensor {
        let Some(amp) = amp else {
            return Err(input.error(
                "tensor parameters are passed by reference: write `&tensor<...>` for an input \
                 or `&mut tensor<...>` for an output",
            ));
        };
        input.advance_to(&ahead);
        let (tensor_span, shape, elem, encoding) = tensor::parse_tensor(input)?;
        return Ok(ParamSyntax {
            name,
            ty: ParamTypeSyntax::Tensor(TensorParamSyntax {
                amp_span: amp.span,
                mutable: mutable.map(|m| m.span),
                tensor_span,
                shape,
                elem,
                encoding,
            }),
        });
    }
    let ty: syn::Type = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("expected the type of `{name}`, {EXAMPLE}"),
        )
    })?;
    Ok(ParamSyntax {
        name,
        ty: ParamTypeSyntax::Scalar(Box::new(ty)),
    })
}
