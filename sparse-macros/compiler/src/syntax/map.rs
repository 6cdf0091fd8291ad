//! The `map = [symbols] {level vars} (dims) -> (levels)` field.

use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{bracketed, parenthesized, Ident, LitInt, Token};

use super::expr::parse_expr;
use super::item::{expect_word, parse_comma_list};
use super::{DimSyntax, FormatSyntax, LevelSyntax, MapSyntax, SliceParam, SliceSyntax};
use crate::errors::Errors;

pub(super) fn parse_map(
    input: ParseStream,
    errors: &mut Errors,
    broken: &mut bool,
) -> syn::Result<MapSyntax> {
    let mut symbols = Vec::new();
    if input.peek(syn::token::Bracket) {
        let content;
        bracketed!(content in input);
        symbols = idents(&content)?;
    }
    let mut level_vars = None;
    if input.peek(syn::token::Brace) {
        let content;
        syn::braced!(content in input);
        level_vars = Some(idents(&content)?);
    }
    if !input.peek(syn::token::Paren) {
        return Err(input.error(
            "expected the dimension list, e.g. `map = (i, j) -> (i : dense, j : compressed)`",
        ));
    }
    let dims_content;
    let dims_paren = parenthesized!(dims_content in input);
    let mut lists_broken = false;
    let dims = parse_comma_list(&dims_content, errors, &mut lists_broken, |i, _, _| {
        parse_dim(i)
    });
    if !input.peek(Token![->]) {
        return Err(input.error("expected `->` between the dimension list and the level list"));
    }
    input.parse::<Token![->]>()?;
    if !input.peek(syn::token::Paren) {
        return Err(input.error("expected the level list, e.g. `(i : dense, j : compressed)`"));
    }
    let levels_content;
    let levels_paren = parenthesized!(levels_content in input);
    let levels = parse_comma_list(&levels_content, errors, &mut lists_broken, |i, _, _| {
        parse_level(i)
    });
    *broken |= lists_broken;
    Ok(MapSyntax {
        symbols,
        level_vars,
        dims,
        dims_span: dims_paren.span.join(),
        levels,
        levels_span: levels_paren.span.join(),
        broken: lists_broken,
    })
}

fn idents(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let list = Punctuated::<Ident, Token![,]>::parse_terminated_with(input, Ident::parse_any)?;
    Ok(list.into_iter().collect())
}

fn parse_dim(input: ParseStream) -> syn::Result<DimSyntax> {
    let name = input.call(Ident::parse_any)?;
    let mut dim = DimSyntax {
        name,
        slice: None,
        inverse: None,
    };
    if input.peek(Token![:]) && !input.peek(Token![::]) {
        input.parse::<Token![:]>()?;
        dim.slice = Some(parse_slice(input)?);
    } else if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        dim.inverse = Some(parse_expr(input)?);
    }
    Ok(dim)
}

fn parse_slice(input: ParseStream) -> syn::Result<SliceSyntax> {
    const EXPECTED: &str = "expected a slice `#sparse_tensor<slice(offset, size, stride)>`";
    if !input.peek(Token![#]) {
        return Err(input.error(EXPECTED));
    }
    input.parse::<Token![#]>()?;
    expect_word(input, "sparse_tensor", EXPECTED)?;
    if !input.peek(Token![<]) {
        return Err(input.error(EXPECTED));
    }
    input.parse::<Token![<]>()?;
    let slice = expect_word(input, "slice", EXPECTED)?;
    if !input.peek(syn::token::Paren) {
        return Err(input.error(EXPECTED));
    }
    let content;
    let paren = parenthesized!(content in input);
    let params =
        Punctuated::<SliceParam, Token![,]>::parse_terminated_with(&content, parse_slice_param)?;
    if !input.peek(Token![>]) {
        return Err(input.error(EXPECTED));
    }
    input.parse::<Token![>]>()?;
    let params: Vec<SliceParam> = params.into_iter().collect();
    match params[..] {
        [offset, size, stride] => Ok(SliceSyntax {
            span: slice.span(),
            offset,
            size,
            stride,
        }),
        _ => Err(syn::Error::new(
            paren.span.join(),
            format!(
                "a slice has three parameters, `slice(offset, size, stride)`, found {}",
                params.len()
            ),
        )),
    }
}

fn parse_slice_param(input: ParseStream) -> syn::Result<SliceParam> {
    const EXPECTED: &str = "expected a number or `?`";
    if input.peek(Token![?]) {
        let q: Token![?] = input.parse()?;
        return Ok(SliceParam::Dynamic(q.span));
    }
    let minus = if input.peek(Token![-]) {
        Some(input.parse::<Token![-]>()?.span)
    } else {
        None
    };
    let lit: LitInt = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
    let value = lit
        .base10_parse::<i64>()
        .map_err(|e| syn::Error::new(lit.span(), e))?;
    match minus {
        Some(span) => Ok(SliceParam::Static(-value, span)),
        None => Ok(SliceParam::Static(value, lit.span())),
    }
}

fn parse_level(input: ParseStream) -> syn::Result<LevelSyntax> {
    let mut name = None;
    if input.peek(Ident::peek_any) && input.peek2(Token![=]) {
        name = Some(input.call(Ident::parse_any)?);
        input.parse::<Token![=]>()?;
    }
    let expr = parse_expr(input)?;
    if !input.peek(Token![:]) || input.peek(Token![::]) {
        return Err(input.error(
            "expected `:` and a level format after the level expression, e.g. `i : compressed`",
        ));
    }
    input.parse::<Token![:]>()?;
    let format = parse_format(input)?;
    Ok(LevelSyntax { name, expr, format })
}

fn parse_format(input: ParseStream) -> syn::Result<FormatSyntax> {
    let name = input.call(Ident::parse_any).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a level format such as `dense` or `compressed`",
        )
    })?;
    let mut args = None;
    if input.peek(syn::token::Bracket) {
        let content;
        let bracket = bracketed!(content in input);
        let list = Punctuated::<LitInt, Token![,]>::parse_terminated(&content)?;
        let mut values = Vec::new();
        for lit in list {
            let value = lit
                .base10_parse::<u64>()
                .map_err(|e| syn::Error::new(lit.span(), e))?;
            values.push((value, lit.span()));
        }
        args = Some((values, bracket.span.join()));
    }
    let mut props = Vec::new();
    if input.peek(syn::token::Paren) {
        let content;
        parenthesized!(content in input);
        props = idents(&content)?;
    }
    Ok(FormatSyntax { name, args, props })
}
