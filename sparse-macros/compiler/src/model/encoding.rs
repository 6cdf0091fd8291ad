//! Checks of one encoding: its fields, widths and values; the map and the
//! level types are checked in `map.rs` and `levels.rs`.

use std::collections::HashMap;

use proc_macro2::Span;

use super::{levels, map, Encoding, Value};
use crate::errors::Errors;
use crate::syntax::{EncodingDef, FieldValue, LiteralValue, MapSyntax, ValueSyntax, WidthSyntax};
use crate::vocab::{LevelFormat, LevelType, Width};

/// Checks an encoding; `None` if it has any error (recorded in `errors`).
pub(super) fn check_encoding(def: &EncodingDef, errors: &mut Errors) -> Option<Encoding> {
    let before = errors.len();
    let fields = check_fields(def, errors);
    let Some(map) = fields.map else {
        check_has_map(def, errors);
        return None;
    };
    let checked_map = map::check_map(map, errors);
    let level_types = levels::check_level_types(map, errors);
    let pos_width = fields
        .pos_width
        .and_then(|w| check_width(w, "posWidth", &[], errors));
    let crd_width = fields
        .crd_width
        .and_then(|w| check_width(w, "crdWidth", level_types.as_deref().unwrap_or(&[]), errors));
    let explicit_val = fields
        .explicit_val
        .and_then(|(key, v)| check_value(key, v, errors));
    let implicit_val = fields.implicit_val.and_then(|(key, v)| {
        let value = check_value(key, v, errors)?;
        check_implicit_is_zero(&value, v.span, errors)
    });
    let (checked_map, level_types) = (checked_map?, level_types?);
    check_structured_exprs(map, &checked_map.exprs, &level_types, errors);
    if errors.len() > before || def.broken {
        return None;
    }
    Some(Encoding {
        name: def.name.clone(),
        attrs: def.attrs.clone(),
        dims: checked_map.dims,
        levels: checked_map
            .exprs
            .into_iter()
            .zip(level_types)
            .map(|(expr, ty)| super::Level { expr, ty })
            .collect(),
        lvl_to_dim: checked_map.lvl_to_dim,
        pos_width: pos_width.unwrap_or(Width::Native),
        crd_width: crd_width.unwrap_or(Width::Native),
        explicit_val,
        implicit_val,
    })
}

#[derive(Default)]
struct Fields<'a> {
    map: Option<&'a MapSyntax>,
    pos_width: Option<&'a WidthSyntax>,
    crd_width: Option<&'a WidthSyntax>,
    explicit_val: Option<(Span, &'a ValueSyntax)>,
    implicit_val: Option<(Span, &'a ValueSyntax)>,
}

/// Rule: each field at most once.
/// `#E = #sparse_tensor.encoding<{ map = ..., posWidth = 8, posWidth = 16 }>`
/// is an error at the second `posWidth`.
fn check_fields<'a>(def: &'a EncodingDef, errors: &mut Errors) -> Fields<'a> {
    let mut fields = Fields::default();
    let mut seen: HashMap<String, Span> = HashMap::new();
    for field in &def.fields {
        let key = field.key.to_string();
        if let Some(first) = seen.get(&key) {
            errors.error_with_note(
                field.key.span(),
                format!(
                    "duplicate field `{key}` in encoding `#{}`; keep one",
                    def.name
                ),
                *first,
                format!("`{key}` first given here"),
            );
            continue;
        }
        seen.insert(key.clone(), field.key.span());
        match (&field.value, key.as_str()) {
            (FieldValue::Map(map), _) => fields.map = Some(map),
            (FieldValue::Width(w), "posWidth") => fields.pos_width = Some(w),
            (FieldValue::Width(w), _) => fields.crd_width = Some(w),
            (FieldValue::Value(v), "explicitVal") => {
                fields.explicit_val = Some((field.key.span(), v))
            }
            (FieldValue::Value(v), _) => fields.implicit_val = Some((field.key.span(), v)),
        }
    }
    fields
}

/// Rule: an n:m level stores `d mod m` (MLIR's rule, and what the
/// storage and the kernels read: the in-group coordinate, below `m`).
/// `(i, g, k) -> (i : dense, g : dense, k : structured[2, 4])` is an error
/// at the level's expression, naming the form to write.
fn check_structured_exprs(
    map: &MapSyntax,
    exprs: &[crate::vocab::LevelExpr],
    level_types: &[LevelType],
    errors: &mut Errors,
) {
    for ((syntax, expr), ty) in map.levels.iter().zip(exprs).zip(level_types) {
        let LevelFormat::Structured { n, m } = ty.format else {
            continue;
        };
        let is_mod_m = matches!(*expr,
            crate::vocab::LevelExpr::Mod { modulus, .. } if modulus == u32::from(m));
        if !is_mod_m {
            let d = map
                .dims
                .get(expr.dim())
                .map_or_else(|| "d".to_string(), |d| d.name.to_string());
            errors.error(
                syntax.expr.span(),
                format!(
                    "a `structured[{n}, {m}]` level stores the coordinate inside a group of {m}: \
                     write `{d} mod {m} : structured[{n}, {m}]` after a `{d} floordiv {m}` level"
                ),
            );
        }
    }
}

/// Rule: an encoding needs a `map` (unless a field failed to parse, which
/// may have been the map and was reported already).
/// `#E = #sparse_tensor.encoding<{ posWidth = 8 }>` is an error at `E`.
fn check_has_map(def: &EncodingDef, errors: &mut Errors) {
    if !def.broken {
        errors.error(
            def.name.span(),
            format!(
                "encoding `#{}` has no `map`; every encoding needs one, e.g. \
                 `map = (i, j) -> (i : dense, j : compressed)`",
                def.name
            ),
        );
    }
}

/// Rules: a width is 0 (native `usize`), 8, 16, 32 or 64 bits; 2 bits only
/// as `crdWidth` of an encoding whose coordinate-storing levels are all
/// 2:4 structured (seed 001's `#NV_24`, `crdWidth = 2`).
/// `posWidth = 12` and `crdWidth = 2` with a `compressed` level are errors.
fn check_width(
    width: &WidthSyntax,
    key: &str,
    level_types: &[LevelType],
    errors: &mut Errors,
) -> Option<Width> {
    let allowed = "0 (native `usize`), 8, 16, 32 or 64";
    match Width::from_bits(width.bits) {
        None => {
            errors.error(
                width.span,
                format!("`{key}` must be {allowed}, not {}", width.bits),
            );
            None
        }
        Some(Width::W2) if key == "posWidth" => {
            errors.error(
                width.span,
                format!(
                    "a 2-bit width is only for `crdWidth` of 2:4 structured levels; \
                     `posWidth` must be {allowed}"
                ),
            );
            None
        }
        Some(Width::W2) => {
            let two_four = LevelFormat::Structured { n: 2, m: 4 };
            let other = level_types
                .iter()
                .enumerate()
                .find(|(_, t)| t.has_coordinates() && t.format != two_four);
            let any_two_four = level_types.iter().any(|t| t.format == two_four);
            if let Some((l, t)) = other {
                errors.error(
                    width.span,
                    format!(
                        "`crdWidth = 2` fits only the in-group coordinates (0 to 3) of \
                         `structured[2, 4]`/`block2_4` levels, but level {l} (`{}`) stores \
                         coordinates too; use `crdWidth = 8` or wider",
                        t.format.name()
                    ),
                );
                None
            } else if !any_two_four && !level_types.is_empty() {
                errors.error(
                    width.span,
                    "`crdWidth = 2` is only for encodings with `structured[2, 4]`/`block2_4` \
                     levels; use 0, 8, 16, 32 or 64",
                );
                None
            } else {
                Some(Width::W2)
            }
        }
        some => some,
    }
}

/// Rule: a typed constant's literal has its type's kind and range:
/// `1.0 : f32`, `1 : i64`, `true : i1`; `1 : f32` and `1.5 : i64` are
/// errors at the literal; `f16`, `bf16` and complex values are errors at the type.
fn check_value(key: Span, value: &ValueSyntax, errors: &mut Errors) -> Option<Value> {
    let ty = super::elem::check(&value.ty, errors)?;
    if !ty.packs() {
        // The value is part of the tensor's Rust type, as 64 bits that a
        // `const fn` computes: no room for a complex number, and `f16`
        // rounding needs the `half` crate at run time.
        errors.error(
            value.ty.span,
            format!(
                "an `explicitVal` or `implicitVal` of type `{}` is not supported; leave it out \
                 (values are stored, and the implicit value is 0)",
                ty.mlir_name()
            ),
        );
        return None;
    }
    let ok = match (value.literal, ty.int_range()) {
        (LiteralValue::Int(n), Some((min, max))) if n < min || n > max => {
            errors.error(
                value.span,
                format!(
                    "{n} does not fit the type `{}`; give the value a type that holds it, e.g. \
                     `{n} : {}`",
                    ty.mlir_name(),
                    if n < 0 || min < 0 { "i64" } else { "ui64" }
                ),
            );
            false
        }
        (LiteralValue::Int(n), None) => {
            errors.error(
                value.span,
                format!(
                    "`{n}` is an integer but `{}` is a floating-point type; write `{n}.0 : {}`",
                    ty.mlir_name(),
                    ty.mlir_name()
                ),
            );
            false
        }
        (LiteralValue::Float(x), Some(_)) => {
            errors.error(
                value.span,
                format!(
                    "`{x:?}` is a floating-point literal but `{}` is an integer type",
                    ty.mlir_name()
                ),
            );
            false
        }
        _ => true,
    };
    ok.then_some(Value {
        literal: value.literal,
        ty,
        key_span: key,
    })
}

/// Rule: as in MLIR, `implicitVal` can only be zero.
/// `implicitVal = 1 : i64` is an error at `1`.
fn check_implicit_is_zero(value: &Value, span: Span, errors: &mut Errors) -> Option<Value> {
    let zero = match value.literal {
        LiteralValue::Int(n) => n == 0,
        LiteralValue::Float(x) => x == 0.0,
    };
    if !zero {
        errors.error(
            span,
            "only 0 is supported as implicitVal (as in MLIR); write `implicitVal = 0 : <type>` \
             or leave the field out",
        );
        return None;
    }
    Some(*value)
}
