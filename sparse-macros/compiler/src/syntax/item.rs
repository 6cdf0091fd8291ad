//! Items of a block and the fields of an encoding, with error recovery.

use proc_macro2::{Delimiter, TokenStream};
use syn::buffer::Cursor;
use syn::ext::IdentExt;
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};
use syn::{braced, Attribute, Ident, Lit, Token, Visibility};

use super::{
    constant, kernel, map, tensor, Block, ElemSyntax, EncodingDef, Field, FieldValue, Item,
    LiteralValue, ValueSyntax, WidthSyntax,
};
use crate::errors::Errors;
use crate::suggest::did_you_mean;

/// The fields an encoding may have, as MLIR spells them.
pub(crate) const FIELDS: [&str; 5] = ["map", "posWidth", "crdWidth", "explicitVal", "implicitVal"];

pub(super) fn parse_block(input: TokenStream, errors: &mut Errors) -> Block {
    let parser = |stream: ParseStream| -> syn::Result<Vec<Item>> {
        let mut items = Vec::new();
        while !stream.is_empty() {
            let fork = stream.fork();
            match parse_item(&fork, errors) {
                Ok(item) => {
                    stream.advance_to(&fork);
                    items.extend(item);
                }
                Err(error) => {
                    errors.push(error);
                    skip_item(stream)?;
                }
            }
        }
        Ok(items)
    };
    match parser.parse2(input) {
        Ok(items) => Block { items },
        Err(error) => {
            errors.push(error);
            Block { items: Vec::new() }
        }
    }
}

/// Skips the broken item: at least one token, then up to the next token
/// that can start an item.
fn skip_item(input: ParseStream) -> syn::Result<()> {
    input.step(|cursor| {
        let mut rest = match cursor.token_tree() {
            Some((_, rest)) => rest,
            None => *cursor,
        };
        while !rest.eof() && !starts_item(rest) {
            match rest.token_tree() {
                Some((_, next)) => rest = next,
                None => break,
            }
        }
        Ok(((), rest))
    })
}

/// `#NAME =`, `#[attr]`, `type`, `fn`, `pub`.
fn starts_item(cursor: Cursor) -> bool {
    if let Some((punct, rest)) = cursor.punct() {
        if punct.as_char() != '#' {
            return false;
        }
        if rest.group(Delimiter::Bracket).is_some() {
            return true;
        }
        if let Some((_, after)) = rest.ident() {
            return matches!(after.punct(), Some((p, _)) if p.as_char() == '=');
        }
        return false;
    }
    matches!(cursor.ident(), Some((ident, _))
        if ident == "type" || ident == "fn" || ident == "pub" || ident == "static")
}

fn parse_item(input: ParseStream, errors: &mut Errors) -> syn::Result<Option<Item>> {
    let attrs = parse_attributes(input)?;
    if input.peek(Token![#]) {
        return parse_encoding(input, attrs, errors).map(|e| Some(Item::Encoding(e)));
    }
    let vis: Visibility = input.parse()?;
    if input.peek(Token![type]) {
        return tensor::parse_type(input, attrs, vis).map(|t| Some(Item::Type(t)));
    }
    if input.peek(Token![fn]) {
        return kernel::parse_kernel(input, attrs, vis, errors).map(|k| Some(Item::Kernel(k)));
    }
    if input.peek(Token![static]) {
        return constant::parse_constant(input, attrs, vis).map(|c| Some(Item::Constant(c)));
    }
    Err(input.error(
        "expected an encoding `#NAME = #sparse_tensor.encoding<{ ... }>`, a tensor type \
         `type NAME = tensor<...>;`, a kernel `fn NAME(...) { ... }` or a constant \
         `static NAME: tensor<...> = ...;`",
    ))
}

/// Outer attributes and `///` doc comments. `Attribute::parse_outer` would
/// also take the `#` of `#NAME = ...` for an attribute.
fn parse_attributes(input: ParseStream) -> syn::Result<Vec<Attribute>> {
    let mut attrs = Vec::new();
    while input.peek(Token![#]) && input.peek2(syn::token::Bracket) {
        let content;
        attrs.push(Attribute {
            pound_token: input.parse()?,
            style: syn::AttrStyle::Outer,
            bracket_token: syn::bracketed!(content in input),
            meta: content.parse()?,
        });
    }
    Ok(attrs)
}

/// Expects the identifier `word` (keywords included), with `message` if absent.
pub(super) fn expect_word(input: ParseStream, word: &str, message: &str) -> syn::Result<Ident> {
    match input.cursor().ident() {
        Some((ident, _)) if ident == word => input.call(Ident::parse_any),
        _ => Err(input.error(message)),
    }
}

fn parse_encoding(
    input: ParseStream,
    attrs: Vec<Attribute>,
    errors: &mut Errors,
) -> syn::Result<EncodingDef> {
    input.parse::<Token![#]>()?;
    let name = input
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), "expected the encoding's name after `#`"))?;
    input.parse::<Token![=]>()?;
    const HEAD: &str = "expected `#sparse_tensor.encoding<{ ... }>`";
    if !input.peek(Token![#]) {
        return Err(input.error(HEAD));
    }
    input.parse::<Token![#]>()?;
    expect_word(input, "sparse_tensor", HEAD)?;
    if !input.peek(Token![.]) {
        return Err(input.error(HEAD));
    }
    input.parse::<Token![.]>()?;
    expect_word(input, "encoding", HEAD)?;
    if !input.peek(Token![<]) {
        return Err(input.error(HEAD));
    }
    input.parse::<Token![<]>()?;
    if !input.peek(syn::token::Brace) {
        return Err(input.error("expected `{` : the fields go in `<{ ... }>`"));
    }
    let content;
    braced!(content in input);
    if !input.peek(Token![>]) {
        return Err(input.error("expected `>` closing `#sparse_tensor.encoding<{ ... }>`"));
    }
    input.parse::<Token![>]>()?;
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
    }
    let mut broken = false;
    let fields = parse_comma_list(&content, errors, &mut broken, parse_field);
    Ok(EncodingDef {
        attrs,
        name,
        fields,
        broken,
    })
}

/// Parses `item, item, ...` (trailing comma allowed), recovering at the
/// next comma after an item that does not parse. `broken` is set if any did
/// not.
pub(super) fn parse_comma_list<T>(
    input: ParseStream,
    errors: &mut Errors,
    broken: &mut bool,
    mut item: impl FnMut(ParseStream, &mut Errors, &mut bool) -> syn::Result<T>,
) -> Vec<T> {
    let mut items = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        match item(&fork, errors, broken) {
            Ok(value) if fork.is_empty() || fork.peek(Token![,]) => {
                input.advance_to(&fork);
                items.push(value);
            }
            Ok(_) => {
                errors.push(fork.error("expected `,` or the end of the list"));
                *broken = true;
                input.advance_to(&fork);
                skip_to_comma(input);
            }
            Err(error) => {
                errors.push(error);
                *broken = true;
                skip_to_comma(input);
            }
        }
        if input.peek(Token![,]) {
            // Cannot fail: just peeked.
            let _ = input.parse::<Token![,]>();
        }
    }
    items
}

fn skip_to_comma(input: ParseStream) {
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    });
}

fn parse_field(input: ParseStream, errors: &mut Errors, broken: &mut bool) -> syn::Result<Field> {
    let key = input.call(Ident::parse_any)?;
    let name = key.to_string();
    if !FIELDS.contains(&name.as_str()) {
        let old = [
            "lvlTypes",
            "dimLevelType",
            "dimToLvl",
            "lvlToDim",
            "dimOrdering",
            "higherOrdering",
        ];
        let message = if old.contains(&name.as_str()) {
            format!(
                "`{name}` is the old MLIR encoding syntax; write the levels in a map instead, \
                 e.g. `map = (i, j) -> (i : dense, j : compressed)`"
            )
        } else {
            format!(
                "unknown encoding field `{name}`; expected one of `map`, `posWidth`, \
                 `crdWidth`, `explicitVal`, `implicitVal`{}",
                did_you_mean(&name, &FIELDS)
            )
        };
        return Err(syn::Error::new(key.span(), message));
    }
    if !input.peek(Token![=]) {
        return Err(input.error(format!("expected `=` after `{name}`")));
    }
    input.parse::<Token![=]>()?;
    let value = match name.as_str() {
        "map" => FieldValue::Map(map::parse_map(input, errors, broken)?),
        "posWidth" | "crdWidth" => FieldValue::Width(parse_width(input)?),
        _ => FieldValue::Value(parse_value(input)?),
    };
    Ok(Field { key, value })
}

fn parse_width(input: ParseStream) -> syn::Result<WidthSyntax> {
    const EXPECTED: &str = "expected a width in bits: 0 (native `usize`), 8, 16, 32 or 64";
    let lit: syn::LitInt = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
    let bits = lit
        .base10_parse::<u64>()
        .map_err(|_| syn::Error::new(lit.span(), EXPECTED))?;
    Ok(WidthSyntax {
        bits,
        span: lit.span(),
    })
}

fn parse_value(input: ParseStream) -> syn::Result<ValueSyntax> {
    const EXPECTED: &str = "expected a typed literal such as `1 : i64` or `1.0 : f32`";
    let minus = if input.peek(Token![-]) {
        Some(input.parse::<Token![-]>()?.span)
    } else {
        None
    };
    let lit: Lit = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
    let span = minus.unwrap_or_else(|| lit.span());
    let sign = if minus.is_some() { -1 } else { 1 };
    let literal = match &lit {
        Lit::Int(int) => LiteralValue::Int(
            sign * int
                .base10_parse::<i128>()
                .map_err(|e| syn::Error::new(int.span(), e))?,
        ),
        Lit::Float(float) => LiteralValue::Float(
            sign as f64
                * float
                    .base10_parse::<f64>()
                    .map_err(|e| syn::Error::new(float.span(), e))?,
        ),
        Lit::Bool(b) if minus.is_none() => LiteralValue::Int(b.value as i128),
        _ => return Err(syn::Error::new(lit.span(), EXPECTED)),
    };
    if !input.peek(Token![:]) {
        return Err(input.error("expected `:` and the value's type, e.g. `1 : i64`"));
    }
    input.parse::<Token![:]>()?;
    let ty = input
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), "expected the value's type, e.g. `i64` or `f32`"))?;
    let mut name = ty.to_string();
    // `complex<f32>`: read whole, so the checker names the type it refuses.
    if input.peek(Token![<]) {
        input.parse::<Token![<]>()?;
        let part = input.call(Ident::parse_any)?;
        input.parse::<Token![>]>()?;
        name = format!("{name}<{part}>");
    }
    Ok(ValueSyntax {
        literal,
        span,
        ty: ElemSyntax {
            name,
            span: ty.span(),
        },
    })
}
