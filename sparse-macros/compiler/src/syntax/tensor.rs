//! `type NAME = tensor<64x200xf32, #CSR>;`.
//!
//! Rust lexes `64x200xf32` as the integer `64` with the suffix `x200xf32`,
//! `?x?xf64` as `?`, `x`, `?`, `xf64`, and `4x?x8xi32` as `4x`, `?`,
//! `x8xi32`. So the shape is read as text: the tokens up to `,` or `>` are
//! concatenated, keeping for every character the span of its token, and the
//! text is split into sizes and the element type. `complex<f64>` brings
//! its own `<>`, read as part of the element type's text.

use proc_macro2::{Span, TokenTree};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Token, Visibility};

use super::item::expect_word;
use super::{DimSize, ElemSyntax, TypeDef};

pub(super) fn parse_type(
    input: ParseStream,
    attrs: Vec<Attribute>,
    vis: Visibility,
) -> syn::Result<TypeDef> {
    input.parse::<Token![type]>()?;
    let name = input.call(Ident::parse_any)?;
    if !input.peek(Token![=]) {
        return Err(
            input.error("expected `=` and a tensor type, e.g. `= tensor<64x200xf32, #CSR>`")
        );
    }
    input.parse::<Token![=]>()?;
    let (tensor_span, shape, elem, encoding) = parse_tensor(input)?;
    if !input.peek(Token![;]) {
        return Err(input.error("expected `;` after the tensor type"));
    }
    input.parse::<Token![;]>()?;
    Ok(TypeDef {
        attrs,
        vis,
        name,
        tensor_span,
        shape,
        elem,
        encoding,
    })
}

/// `tensor<SHAPE x ELEM [, #ENC]>`, as in a type alias or a kernel
/// parameter: the span of `tensor`, the sizes, the element type and the
/// encoding name.
pub(super) fn parse_tensor(
    input: ParseStream,
) -> syn::Result<(Span, Vec<DimSize>, ElemSyntax, Option<Ident>)> {
    const EXPECTED: &str = "expected a tensor type such as `tensor<64x200xf32, #CSR>`";
    let tensor = expect_word(input, "tensor", EXPECTED)?;
    if !input.peek(Token![<]) {
        return Err(input.error(EXPECTED));
    }
    input.parse::<Token![<]>()?;
    let chars = shape_chars(input)?;
    let (shape, elem) = split_shape(&chars, tensor.span())?;
    let mut encoding = None;
    if input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        if !input.peek(Token![#]) {
            return Err(input.error("expected an encoding name such as `#CSR` after `,`"));
        }
        input.parse::<Token![#]>()?;
        encoding = Some(input.call(Ident::parse_any)?);
    }
    if !input.peek(Token![>]) {
        return Err(input.error("expected `>` closing the tensor type"));
    }
    input.parse::<Token![>]>()?;
    Ok((tensor.span(), shape, elem, encoding))
}

/// The characters of the shape tokens, each with its token's span.
fn shape_chars(input: ParseStream) -> syn::Result<Vec<(char, Span)>> {
    input.step(|cursor| {
        let mut chars = Vec::new();
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            let text = match &tree {
                TokenTree::Punct(p) if p.as_char() == ',' || p.as_char() == '>' => break,
                // `complex<f64>`: the element type's own brackets.
                TokenTree::Punct(p) if p.as_char() == '<' => {
                    let (inner, after) = complex_part(next, p.span())?;
                    chars.push(('<', p.span()));
                    chars.extend(inner.to_string().chars().map(|c| (c, inner.span())));
                    chars.push(('>', inner.span()));
                    rest = after;
                    continue;
                }
                TokenTree::Punct(p) if p.as_char() == '?' => "?".to_string(),
                TokenTree::Literal(lit) => lit.to_string(),
                TokenTree::Ident(ident) => ident.to_string(),
                other => {
                    return Err(syn::Error::new(
                        other.span(),
                        "unexpected token in a tensor shape; write the sizes and the element \
                         type separated by `x`, e.g. `tensor<64x200xf32>` or `tensor<?x?xf64>`",
                    ))
                }
            };
            chars.extend(text.chars().map(|c| (c, tree.span())));
            rest = next;
        }
        Ok((chars, rest))
    })
}

/// After `complex<`: the part type and `>`, as one identifier (`f64`).
fn complex_part<'c>(
    cursor: syn::buffer::Cursor<'c>,
    open: Span,
) -> syn::Result<(proc_macro2::Ident, syn::buffer::Cursor<'c>)> {
    const EXPECTED: &str = "expected `f32` or `f64` and `>`, e.g. `tensor<?xcomplex<f64>>`";
    let Some((part, after)) = cursor.ident() else {
        return Err(syn::Error::new(open, EXPECTED));
    };
    match after.punct() {
        Some((close, rest)) if close.as_char() == '>' => Ok((part, rest)),
        _ => Err(syn::Error::new(part.span(), EXPECTED)),
    }
}

/// Splits `64x?x8xf32` into sizes and the element type.
fn split_shape(chars: &[(char, Span)], fallback: Span) -> syn::Result<(Vec<DimSize>, ElemSyntax)> {
    let mut shape = Vec::new();
    let mut pos = 0;
    loop {
        let Some(&(c, span)) = chars.get(pos) else {
            let span = chars.last().map_or(fallback, |&(_, s)| s);
            return Err(syn::Error::new(
                span,
                "expected the element type after the sizes, e.g. `tensor<4x8xf32>`",
            ));
        };
        if c == '?' {
            shape.push(DimSize::Dynamic(span));
            pos += 1;
        } else if c.is_ascii_digit() {
            let digits: String = chars[pos..]
                .iter()
                .map(|&(c, _)| c)
                .take_while(char::is_ascii_digit)
                .collect();
            pos += digits.len();
            let size = digits.parse::<u64>().map_err(|_| {
                syn::Error::new(span, format!("the size {digits} does not fit in 64 bits"))
            })?;
            shape.push(DimSize::Static(size, span));
        } else {
            let name: String = chars[pos..].iter().map(|&(c, _)| c).collect();
            return Ok((shape, ElemSyntax { name, span }));
        }
        match chars.get(pos) {
            Some(&('x', _)) => pos += 1,
            Some(&(_, span)) => {
                return Err(syn::Error::new(
                    span,
                    "expected `x` after a size, e.g. `tensor<64x200xf32>`",
                ))
            }
            None => {
                return Err(syn::Error::new(
                    span,
                    "expected the element type after the sizes, e.g. `tensor<4x8xf32>`",
                ))
            }
        }
    }
}
