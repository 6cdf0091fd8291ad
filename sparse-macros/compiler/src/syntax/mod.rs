//! Stage 1: tokens → syntax tree with spans. No meaning yet.
//!
//! The block is MLIR text read through Rust's tokenizer, which splits it in
//! surprising places: `#CSR` is a `#` and an ident, `<{ ... }>` is a `<`, a
//! brace group and a `>`, `mod` is a keyword, and a shape such as
//! `64x200xf32` is one integer literal with the suffix `x200xf32`. The
//! parsers here undo that and keep a span for every piece the checks may
//! point at. Each item, each encoding field, each dimension and each level
//! is parsed on its own, so one typo does not hide the errors after it.

mod choice_parse;
mod constant;
mod constant_init;
mod expr;
mod expr_parse;
mod item;
mod kernel;
mod map;
mod semiring;
mod stmt;
mod stmt_parse;
mod tensor;

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::{Attribute, Ident, Visibility};

use crate::errors::Errors;

pub use constant::{ConstantSyntax, ScalarLit, ScalarSyntax, TensorLiteral};
pub use constant_init::{InitSyntax, PruneKind};
pub use expr::{AffineExpr, BinOp};
pub use kernel::{KernelSyntax, ParamSyntax, ParamTypeSyntax, TensorParamSyntax};
pub use semiring::{
    compact, ArgSyntax, ArgValue, SemiringKind, SemiringSyntax, MAX_CLOSURE_TOKENS,
};
pub use stmt::{AccessSyntax, ArithOp, AssignSyntax, ExprSyntax, LitKind, StmtSyntax};
pub(crate) use stmt::{COMPLEX_FUNCTIONS, MATH_FUNCTIONS};
pub use stmt_parse::{MAX_HEIGHT, MAX_NESTING};

/// A parsed `sparse_kernel!` block.
#[derive(Clone, Debug)]
pub struct Block {
    /// The items in source order; items that failed to parse are left out
    /// (their errors are in the collector).
    pub items: Vec<Item>,
}

/// One item of a block.
#[derive(Clone, Debug)]
pub enum Item {
    /// `#NAME = #sparse_tensor.encoding<{ ... }>`.
    Encoding(EncodingDef),
    /// `type NAME = tensor<...>;`.
    Type(TypeDef),
    /// `fn NAME(params) { statements }`.
    Kernel(KernelSyntax),
    /// `static NAME: tensor<...> = dense<...>;` (or `sparse<...>`, `file(...)`).
    Constant(ConstantSyntax),
}

/// `#NAME = #sparse_tensor.encoding<{ field, ... }>`.
#[derive(Clone, Debug)]
pub struct EncodingDef {
    /// Outer attributes, `///` doc comments included.
    pub attrs: Vec<Attribute>,
    /// The name after `#`.
    pub name: Ident,
    /// The fields that parsed. A field that failed to parse is reported and
    /// leaves `broken` set, so later stages do not complain about it again
    /// (for instance as a missing `map`).
    pub fields: Vec<Field>,
    /// Whether some field failed to parse.
    pub broken: bool,
}

/// One `key = value` field of an encoding.
#[derive(Clone, Debug)]
pub struct Field {
    /// The key as written (`map`, `posWidth`, ...).
    pub key: Ident,
    /// The value.
    pub value: FieldValue,
}

/// The value of an encoding field.
#[derive(Clone, Debug)]
pub enum FieldValue {
    /// `map = ...`.
    Map(MapSyntax),
    /// `posWidth = N` or `crdWidth = N`.
    Width(WidthSyntax),
    /// `explicitVal = 1 : i64` or `implicitVal = 0.0 : f32`.
    Value(ValueSyntax),
}

/// A width as written.
#[derive(Clone, Debug)]
pub struct WidthSyntax {
    /// The number of bits.
    pub bits: u64,
    /// The literal.
    pub span: Span,
}

/// A typed literal, `1 : i64`, `-2.5 : f32`, `true : i1`.
#[derive(Clone, Debug)]
pub struct ValueSyntax {
    /// The literal.
    pub literal: LiteralValue,
    /// Span of the literal (and its sign).
    pub span: Span,
    /// The element type written after `:`.
    pub ty: ElemSyntax,
}

/// A literal's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LiteralValue {
    /// An integer literal (or `true`/`false` as 1/0).
    Int(i128),
    /// A floating-point literal.
    Float(f64),
}

/// An element type name as written (`f32`, `ui8`, `index`, ...).
#[derive(Clone, Debug)]
pub struct ElemSyntax {
    /// The name.
    pub name: String,
    /// The token it was read from.
    pub span: Span,
}

/// The `map = ...` field.
#[derive(Clone, Debug)]
pub struct MapSyntax {
    /// Counting symbols `[c]`.
    pub symbols: Vec<Ident>,
    /// Level variables of the explicit inverse form `{ ib, jb, ... }`, if
    /// given.
    pub level_vars: Option<Vec<Ident>>,
    /// The dimension list.
    pub dims: Vec<DimSyntax>,
    /// The dimension list's parentheses.
    pub dims_span: Span,
    /// The level list.
    pub levels: Vec<LevelSyntax>,
    /// The level list's parentheses.
    pub levels_span: Span,
    /// Whether a dimension or a level failed to parse (its error is
    /// recorded): the lists are incomplete, so the checks of the whole map
    /// (ranks, invertibility, level variables) would report what is only
    /// missing.
    pub broken: bool,
}

/// One dimension: `i`, `i : #sparse_tensor<slice(0, 4, 1)>`, or
/// `i = ib * 2 + ii` (explicit inverse).
#[derive(Clone, Debug)]
pub struct DimSyntax {
    /// The dimension variable.
    pub name: Ident,
    /// A slice, if written.
    pub slice: Option<SliceSyntax>,
    /// The inverse expression over level variables, if written.
    pub inverse: Option<AffineExpr>,
}

/// `#sparse_tensor<slice(offset, size, stride)>`.
#[derive(Clone, Debug)]
pub struct SliceSyntax {
    /// Span of `slice`.
    pub span: Span,
    /// The offset.
    pub offset: SliceParam,
    /// The size.
    pub size: SliceParam,
    /// The stride.
    pub stride: SliceParam,
}

/// One slice parameter.
#[derive(Clone, Copy, Debug)]
pub enum SliceParam {
    /// A number (possibly negative, which the model rejects).
    Static(i64, Span),
    /// `?`: known only at run time.
    Dynamic(Span),
}

impl SliceParam {
    /// Where it was written.
    pub fn span(self) -> Span {
        match self {
            SliceParam::Static(_, span) | SliceParam::Dynamic(span) => span,
        }
    }
}

/// One level: `[name =] expr : format`.
#[derive(Clone, Debug)]
pub struct LevelSyntax {
    /// The level variable of the explicit inverse form (`ib = ...`).
    pub name: Option<Ident>,
    /// The level expression.
    pub expr: AffineExpr,
    /// The level format and its properties.
    pub format: FormatSyntax,
}

/// A level format: `compressed(nonunique)`, `structured[2, 4]`, `dense`.
#[derive(Clone, Debug)]
pub struct FormatSyntax {
    /// The format name.
    pub name: Ident,
    /// The `[n, m]` arguments, with the bracket span.
    pub args: Option<(Vec<(u64, Span)>, Span)>,
    /// The properties in parentheses.
    pub props: Vec<Ident>,
}

/// `type NAME = tensor<SHAPE x ELEM [, #ENC]>;`.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// Outer attributes, `///` doc comments included.
    pub attrs: Vec<Attribute>,
    /// The visibility written (`pub` when none).
    pub vis: Visibility,
    /// The alias name.
    pub name: Ident,
    /// Span of `tensor`.
    pub tensor_span: Span,
    /// The sizes, outermost first.
    pub shape: Vec<DimSize>,
    /// The element type.
    pub elem: ElemSyntax,
    /// The encoding after the comma, if any.
    pub encoding: Option<Ident>,
}

/// One dimension size of a tensor type.
#[derive(Clone, Copy, Debug)]
pub enum DimSize {
    /// A static size.
    Static(u64, Span),
    /// `?`.
    Dynamic(Span),
}

impl DimSize {
    /// Where it was written.
    pub fn span(self) -> Span {
        match self {
            DimSize::Static(_, span) | DimSize::Dynamic(span) => span,
        }
    }
    /// The static size, if any.
    pub fn value(self) -> Option<u64> {
        match self {
            DimSize::Static(n, _) => Some(n),
            DimSize::Dynamic(_) => None,
        }
    }
}

/// Parses a block, recording syntax errors in `errors` and returning every
/// item that parsed.
pub fn parse(input: TokenStream, errors: &mut Errors) -> Block {
    let input = limit_number_literals(input, errors);
    item::parse_block(input, errors)
}

/// The longest number literal read, in characters. No value a kernel or
/// an encoding takes needs more (`u64::MAX` has 20 digits, an `f64` 17
/// significant ones); `syn` evaluates integer literals in time quadratic in
/// their digits, so a 100,000-digit literal would stall the build.
pub const MAX_NUMBER_LITERAL: usize = 128;

/// Replaces every number literal longer than [`MAX_NUMBER_LITERAL`] with
/// `0`, reporting each at its span, so the rest of the block is still
/// checked. Returns `input` itself when there is none.
fn limit_number_literals(input: TokenStream, errors: &mut Errors) -> TokenStream {
    fn too_long(lit: &proc_macro2::Literal) -> bool {
        let text = lit.to_string();
        text.len() > MAX_NUMBER_LITERAL && text.starts_with(|c: char| c.is_ascii_digit())
    }
    fn any_too_long(tokens: &TokenStream) -> bool {
        tokens.clone().into_iter().any(|t| match t {
            TokenTree::Literal(lit) => too_long(&lit),
            TokenTree::Group(g) => any_too_long(&g.stream()),
            _ => false,
        })
    }
    fn replace(tokens: TokenStream, errors: &mut Errors) -> TokenStream {
        tokens
            .into_iter()
            .map(|t| match t {
                TokenTree::Literal(lit) if too_long(&lit) => {
                    errors.error(
                        lit.span(),
                        format!(
                            "this number literal has {} characters; at most \
                             {MAX_NUMBER_LITERAL} are read",
                            lit.to_string().len()
                        ),
                    );
                    let mut zero = stand_in(&lit.to_string());
                    zero.set_span(lit.span());
                    TokenTree::Literal(zero)
                }
                TokenTree::Group(g) => {
                    let mut inner =
                        proc_macro2::Group::new(g.delimiter(), replace(g.stream(), errors));
                    inner.set_span(g.span());
                    TokenTree::Group(inner)
                }
                other => other,
            })
            .collect()
    }
    /// A short literal of the same kind, so no follow-on error: `0.0` for
    /// a float, `0` with the suffix kept for an integer (`1xf64` for a
    /// shape such as `999..9xf64`, which lexes as one literal).
    fn stand_in(text: &str) -> proc_macro2::Literal {
        let digits = text
            .find(|c: char| !(c.is_ascii_digit() || c == '_'))
            .unwrap_or(text.len());
        let rest = &text[digits..];
        if rest.starts_with(['.', 'e', 'E']) {
            return proc_macro2::Literal::f64_unsuffixed(0.0);
        }
        let lead = if rest.starts_with('x') { "1" } else { "0" };
        format!("{lead}{rest}")
            .parse()
            .unwrap_or_else(|_| proc_macro2::Literal::u8_unsuffixed(0))
    }
    if any_too_long(&input) {
        replace(input, errors)
    } else {
        input
    }
}
