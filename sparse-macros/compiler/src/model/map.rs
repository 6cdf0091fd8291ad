//! Checks of the `map`: names, level expressions and slices; the lvl→dim
//! direction is checked in `inverse.rs`.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use proc_macro2::Span;
use syn::Ident;

use super::{inverse, Dim, DimFromLevels, Slice};
use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::syntax::{AffineExpr, BinOp, MapSyntax, SliceParam};
use crate::vocab::{LevelExpr, MAX_LEVEL_CONSTANT, MAX_RANK};

/// The checked parts of a map.
pub(super) struct CheckedMap {
    pub dims: Vec<Dim>,
    pub exprs: Vec<LevelExpr>,
    pub lvl_to_dim: Vec<DimFromLevels>,
}

/// What a name in the map stands for.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Var {
    Dim(u8),
    Symbol,
    Level(u8),
}

pub(super) fn check_map(map: &MapSyntax, errors: &mut Errors) -> Option<CheckedMap> {
    let before = errors.len();
    if !map.broken {
        check_rank(map, errors);
    }
    let vars = check_names(map, errors);
    let dims: Vec<Dim> = map
        .dims
        .iter()
        .map(|d| Dim {
            name: d.name.clone(),
            slice: d.slice.as_ref().and_then(|s| check_slice(s, errors)),
        })
        .collect();
    if !map.broken {
        check_level_names(map, errors);
    }
    let exprs: Vec<Option<LevelExpr>> = map
        .levels
        .iter()
        .map(|level| check_level_expr(&level.expr, &vars, errors))
        .collect();
    if errors.len() > before || map.broken {
        return None;
    }
    let exprs: Vec<LevelExpr> = exprs.into_iter().collect::<Option<_>>()?;
    let lvl_to_dim = inverse::check_invertible(map, &exprs, errors)?;
    inverse::check_explicit_inverse(map, &vars, &lvl_to_dim, errors);
    (errors.len() == before).then_some(CheckedMap {
        dims,
        exprs,
        lvl_to_dim,
    })
}

/// Rule: 1 to MAX_RANK (8) dimensions and levels.
/// `(i) -> ()` and a nine-dimensional map are errors.
fn check_rank(map: &MapSyntax, errors: &mut Errors) {
    for (what, count, span, extra) in [
        (
            "dimensions",
            map.dims.len(),
            map.dims_span,
            map.dims.get(MAX_RANK).map(|d| d.name.span()),
        ),
        (
            "levels",
            map.levels.len(),
            map.levels_span,
            map.levels.get(MAX_RANK).map(|l| l.expr.span()),
        ),
    ] {
        if count == 0 {
            errors.error(
                span,
                format!("a map needs at least one of its {what}, e.g. `(i) -> (i : compressed)`"),
            );
        } else if count > MAX_RANK {
            errors.error(
                extra.unwrap_or(span),
                format!("at most {MAX_RANK} {what} are supported, this map has {count}"),
            );
        }
    }
}

/// Rule: dimension, symbol and level variables have distinct names.
/// `(i, i) -> ...` is an error at the second `i`.
fn check_names(map: &MapSyntax, errors: &mut Errors) -> HashMap<String, Var> {
    let mut vars = HashMap::new();
    let dims = map
        .dims
        .iter()
        .enumerate()
        .map(|(d, dim)| (&dim.name, Var::Dim(d as u8)));
    let symbols = map.symbols.iter().map(|s| (s, Var::Symbol));
    let levels = map
        .level_vars
        .iter()
        .flatten()
        .enumerate()
        .map(|(l, name)| (name, Var::Level(l as u8)));
    for (name, var) in dims.chain(symbols).chain(levels) {
        // The first declaration wins, so later uses are not reported again.
        match vars.entry(name.to_string()) {
            Entry::Occupied(_) => errors.error(
                name.span(),
                format!("the variable `{name}` is declared twice in this map"),
            ),
            Entry::Vacant(slot) => {
                slot.insert(var);
            }
        }
    }
    vars
}

/// Rule: slice offsets are ≥ 0, sizes ≥ 1, strides ≥ 1 (each may be `?`).
/// `slice(-1, 4, 1)`, `slice(0, 0, 1)`, `slice(0, 4, 0)` are errors.
fn check_slice(slice: &crate::syntax::SliceSyntax, errors: &mut Errors) -> Option<Slice> {
    let mut ok = true;
    let mut param = |p: SliceParam, min: i64, what: &str| match p {
        SliceParam::Dynamic(_) => None,
        SliceParam::Static(v, span) if v < min => {
            errors.error(
                span,
                format!("a slice {what} must be at least {min} (or `?`), found {v}"),
            );
            ok = false;
            None
        }
        SliceParam::Static(v, _) => Some(v as u64),
    };
    let offset = param(slice.offset, 0, "offset");
    let size = param(slice.size, 1, "size");
    let stride = param(slice.stride, 1, "stride");
    ok.then_some(Slice {
        offset,
        size,
        stride,
        span: slice.span,
    })
}

/// Rule: level names (`ib = i floordiv 2 : dense`) are the level variables
/// declared in `{ ib, jb, ... }`, in order, one per level.
/// `{ a, b } (i, j) -> (b = i : dense, a = j : dense)` is an error at `b`.
fn check_level_names(map: &MapSyntax, errors: &mut Errors) {
    let Some(declared) = &map.level_vars else {
        if let Some(name) = map.levels.iter().find_map(|l| l.name.as_ref()) {
            errors.error(
                name.span(),
                format!(
                    "the level variable `{name}` is not declared; declare the level variables \
                     before the dimensions, e.g. `{{ ib, jb }} (i = ..., j = ...) -> \
                     (ib = ..., jb = ...)`"
                ),
            );
        }
        return;
    };
    if declared.len() != map.levels.len() {
        errors.error(
            map.levels_span,
            format!(
                "{} level variables are declared in `{{...}}` but the map has {} levels",
                declared.len(),
                map.levels.len()
            ),
        );
        return;
    }
    for (level, expected) in map.levels.iter().zip(declared) {
        if let Some(name) = &level.name {
            if name != expected {
                errors.error(
                    name.span(),
                    format!(
                        "this level is the level variable `{expected}` (the order of \
                         `{{...}}`), not `{name}`"
                    ),
                );
            }
        }
    }
}

const SUPPORTED: &str = "the supported forms are `d`, `d floordiv N`, `d mod N` and \
                         `c * N * d` (ELL counting), with `d` a dimension, `N` a constant \
                         and `c` a symbol declared as `[c]`";

/// Rule: a level expression is `d`, `d floordiv N`, `d mod N` or
/// `c * N * d`, over declared dimensions and symbols, with
/// 1 ≤ N ≤ MAX_LEVEL_CONSTANT.
/// `i + j`, `i floordiv 0`, `x` (undeclared), `c * 3 * i` without `[c]`
/// are errors.
fn check_level_expr(
    expr: &AffineExpr,
    vars: &HashMap<String, Var>,
    errors: &mut Errors,
) -> Option<LevelExpr> {
    match expr {
        AffineExpr::Var(name) => match vars.get(&name.to_string()) {
            Some(Var::Dim(d)) => Some(LevelExpr::Dim(*d)),
            Some(Var::Symbol) => {
                errors.error(
                    name.span(),
                    format!(
                        "the counting symbol `{name}` must appear as `{name} * N * d` \
                         (N slices counting dimension d)"
                    ),
                );
                None
            }
            Some(Var::Level(_)) => {
                errors.error(
                    name.span(),
                    format!(
                        "`{name}` is a level variable; a level expression reads dimension \
                         variables"
                    ),
                );
                None
            }
            None => {
                unknown_variable(name, vars, errors);
                None
            }
        },
        AffineExpr::Binary {
            op: op @ (BinOp::FloorDiv | BinOp::Mod),
            lhs,
            rhs,
            ..
        } => {
            let (AffineExpr::Var(name), AffineExpr::Const(k, k_span)) = (&**lhs, &**rhs) else {
                return unsupported(expr, errors);
            };
            let d = dim_of(name, vars, errors)?;
            let word = if *op == BinOp::FloorDiv {
                "floordiv"
            } else {
                "mod"
            };
            let zero =
                format!("`{name} {word} 0` divides by zero; the block size must be at least 1");
            let k = check_constant(*k, *k_span, &zero, errors)?;
            Some(if *op == BinOp::FloorDiv {
                LevelExpr::FloorDiv { dim: d, divisor: k }
            } else {
                LevelExpr::Mod { dim: d, modulus: k }
            })
        }
        AffineExpr::Binary { op: BinOp::Mul, .. } => {
            let mut factors = Vec::new();
            flatten_product(expr, &mut factors);
            let constants: Vec<(u64, Span)> = factors
                .iter()
                .filter_map(|f| match f {
                    AffineExpr::Const(k, span) => Some((*k, *span)),
                    _ => None,
                })
                .collect();
            let names: Vec<&Ident> = factors
                .iter()
                .filter_map(|f| match f {
                    AffineExpr::Var(name) => Some(name),
                    _ => None,
                })
                .collect();
            if factors.len() != 3 || constants.len() != 1 || names.len() != 2 {
                return unsupported(expr, errors);
            }
            let kind = |n: &Ident| vars.get(&n.to_string()).copied();
            let (symbol, dim) = match (kind(names[0]), kind(names[1])) {
                (Some(Var::Dim(_)), Some(Var::Dim(_))) => return unsupported(expr, errors),
                (_, Some(Var::Dim(d))) => (names[0], d),
                (Some(Var::Dim(d)), _) => (names[1], d),
                _ => return unsupported(expr, errors),
            };
            match kind(symbol) {
                Some(Var::Symbol) => {}
                Some(_) => return unsupported(expr, errors),
                None => {
                    errors.error(
                        symbol.span(),
                        format!(
                            "the counting symbol `{symbol}` is not declared; declare it in \
                             brackets before the dimensions, e.g. `[{symbol}](i, j) -> \
                             ({symbol} * 3 * i : dense, i : dense, j : compressed)`"
                        ),
                    );
                    return None;
                }
            }
            let (k, k_span) = constants[0];
            let zero = "a counting level needs at least 1 slice, not 0";
            let slices = check_constant(k, k_span, zero, errors)?;
            Some(LevelExpr::Counting { dim, slices })
        }
        _ => unsupported(expr, errors),
    }
}

fn flatten_product<'a>(expr: &'a AffineExpr, factors: &mut Vec<&'a AffineExpr>) {
    match expr {
        AffineExpr::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
            ..
        } => {
            flatten_product(lhs, factors);
            flatten_product(rhs, factors);
        }
        other => factors.push(other),
    }
}

fn unsupported(expr: &AffineExpr, errors: &mut Errors) -> Option<LevelExpr> {
    errors.error_range(
        expr.span(),
        expr.last_span(),
        format!("unsupported level expression `{expr}`; {SUPPORTED}"),
    );
    None
}

fn dim_of(name: &Ident, vars: &HashMap<String, Var>, errors: &mut Errors) -> Option<u8> {
    match vars.get(&name.to_string()) {
        Some(Var::Dim(d)) => Some(*d),
        Some(_) => {
            errors.error(
                name.span(),
                format!("`{name}` is not a dimension variable; {SUPPORTED}"),
            );
            None
        }
        None => {
            unknown_variable(name, vars, errors);
            None
        }
    }
}

fn unknown_variable(name: &Ident, vars: &HashMap<String, Var>, errors: &mut Errors) {
    let mut dims: Vec<(u8, &String)> = vars
        .iter()
        .filter_map(|(n, v)| match v {
            Var::Dim(d) => Some((*d, n)),
            _ => None,
        })
        .collect();
    // A map without dimensions is already an error; every name in it would
    // be unknown, so say nothing more.
    if dims.is_empty() {
        return;
    }
    dims.sort();
    let names: Vec<&str> = dims.iter().map(|(_, n)| n.as_str()).collect();
    errors.error(
        name.span(),
        format!(
            "unknown variable `{name}`; the dimensions of this map are ({}){}",
            names.join(", "),
            did_you_mean(&name.to_string(), &names)
        ),
    );
}

/// Rule: block sizes, moduli and slice counts are 1 to MAX_LEVEL_CONSTANT.
fn check_constant(k: u64, k_span: Span, zero: &str, errors: &mut Errors) -> Option<u32> {
    if k == 0 {
        errors.error(k_span, zero);
        None
    } else if k > u64::from(MAX_LEVEL_CONSTANT) {
        errors.error(
            k_span,
            format!("the constant {k} is too large: at most {MAX_LEVEL_CONSTANT} is supported"),
        );
        None
    } else {
        Some(k as u32)
    }
}
