//! The lvl→dim direction of a map: invertibility and the explicit inverse.
//!
//! Invertibility is what storage needs: every dimension coordinate must be
//! recoverable from the level coordinates of a stored entry. A dimension is
//! recovered from the one level that stores it plainly (`i`), or from a
//! block pair (`i floordiv b` and `i mod b` give `i = outer * b + inner`).
//! A counting level (`c * 3 * i`, ELL) recovers nothing; it only adds the
//! slice index.

use std::collections::HashMap;

use syn::Ident;

use super::map::Var;
use super::{DimFromLevels, LvlId};
use crate::errors::Errors;
use crate::syntax::{AffineExpr, BinOp, DimSyntax, MapSyntax};
use crate::vocab::LevelExpr;

/// Rule: every dimension is recoverable from the levels, from exactly one
/// plain level or from a `floordiv b`/`mod b` pair with the same `b`.
/// `(i, j) -> (i : dense)` (j lost), `(i, j) -> (i : dense, i : compressed)`
/// (i twice), `(i) -> (i floordiv 2 : dense, i mod 3 : dense)` are errors.
pub(super) fn check_invertible(
    map: &MapSyntax,
    exprs: &[LevelExpr],
    errors: &mut Errors,
) -> Option<Vec<DimFromLevels>> {
    let mut result = Vec::new();
    let mut ok = true;
    for (d, dim) in map.dims.iter().enumerate() {
        let plain: Vec<usize> = (0..exprs.len())
            .filter(|&l| exprs[l] == LevelExpr::Dim(d as u8))
            .collect();
        if let [first, second, ..] = plain[..] {
            errors.error(
                map.levels[second].expr.span(),
                format!(
                    "dimension `{}` is stored by two levels ({first} and {second}); a \
                     dimension may be stored plainly by one level only",
                    dim.name
                ),
            );
            ok = false;
            continue;
        }
        if let [l] = plain[..] {
            result.push(DimFromLevels::Level(LvlId(l as u8)));
            continue;
        }
        let blocks = |mod_of: bool| -> Vec<(usize, u32)> {
            exprs
                .iter()
                .enumerate()
                .filter_map(|(l, e)| match *e {
                    LevelExpr::FloorDiv { dim, divisor } if !mod_of && dim as usize == d => {
                        Some((l, divisor))
                    }
                    LevelExpr::Mod { dim, modulus } if mod_of && dim as usize == d => {
                        Some((l, modulus))
                    }
                    _ => None,
                })
                .collect()
        };
        let (outers, inners) = (blocks(false), blocks(true));
        let pair = outers.iter().find_map(|&(o, b)| {
            inners
                .iter()
                .find(|&&(_, m)| m == b)
                .map(|&(i, _)| (o, i, b))
        });
        if let Some((outer, inner, size)) = pair {
            result.push(DimFromLevels::Block {
                outer: LvlId(outer as u8),
                inner: LvlId(inner as u8),
                size,
            });
            continue;
        }
        let name = &dim.name;
        let why = match (outers.first(), inners.first()) {
            (Some(&(_, b)), Some(&(_, m))) => format!(
                "`{name} floordiv {b}` and `{name} mod {m}` use different block sizes; use \
                 the same, e.g. `{name} floordiv {b}` and `{name} mod {b}`"
            ),
            (Some(&(_, b)), None) => {
                format!("`{name} floordiv {b}` needs a matching `{name} mod {b}` level")
            }
            (None, Some(&(_, m))) => {
                format!("`{name} mod {m}` needs a matching `{name} floordiv {m}` level")
            }
            (None, None) => {
                format!("no level stores it; add a level such as `{name} : compressed`")
            }
        };
        errors.error(
            name.span(),
            format!("the map is not invertible: dimension `{name}` cannot be recovered from the levels: {why}"),
        );
        ok = false;
    }
    ok.then_some(result)
}

/// Rule: an explicit inverse `{ ib, ii } (i = ib * 2 + ii) -> (...)` says
/// what the forward map implies. It is redundant, so it must agree:
/// `i = ib * 3 + ii` with `ib = i floordiv 2` is an error at the inverse.
pub(super) fn check_explicit_inverse(
    map: &MapSyntax,
    vars: &HashMap<String, Var>,
    lvl_to_dim: &[DimFromLevels],
    errors: &mut Errors,
) {
    let level_name = |l: LvlId| -> String {
        match &map.level_vars {
            Some(names) => names
                .get(l.0 as usize)
                .map_or_else(|| format!("l{}", l.0), |n| n.to_string()),
            None => format!("l{}", l.0),
        }
    };
    for (dim, expected) in map.dims.iter().zip(lvl_to_dim) {
        let Some(inverse) = &dim.inverse else {
            continue;
        };
        let expected_text = match *expected {
            DimFromLevels::Level(l) => level_name(l),
            DimFromLevels::Block { outer, inner, size } => {
                format!("{} * {size} + {}", level_name(outer), level_name(inner))
            }
        };
        match read_inverse(inverse, vars, dim, errors) {
            Some(found) if found == *expected => {}
            Some(_) => errors.error_range(
                inverse.span(),
                inverse.last_span(),
                format!(
                    "this inverse does not match the levels: the map implies `{} = {expected_text}`",
                    dim.name
                ),
            ),
            None => {}
        }
    }
}

/// Reads `l` or `outer * b + inner` (either operand order) over level
/// variables.
fn read_inverse(
    expr: &AffineExpr,
    vars: &HashMap<String, Var>,
    dim: &DimSyntax,
    errors: &mut Errors,
) -> Option<DimFromLevels> {
    let level = |name: &Ident, errors: &mut Errors| match vars.get(&name.to_string()) {
        Some(Var::Level(l)) => Some(LvlId(*l)),
        _ => {
            errors.error(
                name.span(),
                format!(
                    "`{name}` is not a declared level variable; declare the level variables \
                     first: `{{ ib, ii }} ({} = ib * 2 + ii) -> (ib = {} floordiv 2 : dense, \
                     ii = {} mod 2 : dense)`",
                    dim.name, dim.name, dim.name
                ),
            );
            None
        }
    };
    let bad = |errors: &mut Errors| {
        errors.error_range(
            expr.span(),
            expr.last_span(),
            format!(
                "unsupported inverse `{} = {expr}`; write a level variable (`{} = l`) or a \
                 block (`{} = outer * N + inner`)",
                dim.name, dim.name, dim.name
            ),
        );
        None
    };
    match expr {
        AffineExpr::Var(name) => level(name, errors).map(DimFromLevels::Level),
        AffineExpr::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
            ..
        } => {
            let (product, inner) = match (&**lhs, &**rhs) {
                (p @ AffineExpr::Binary { .. }, AffineExpr::Var(v)) => (p, v),
                (AffineExpr::Var(v), p @ AffineExpr::Binary { .. }) => (p, v),
                _ => return bad(errors),
            };
            let (outer, size) = match product {
                AffineExpr::Binary {
                    op: BinOp::Mul,
                    lhs,
                    rhs,
                    ..
                } => match (&**lhs, &**rhs) {
                    (AffineExpr::Var(v), AffineExpr::Const(k, _))
                    | (AffineExpr::Const(k, _), AffineExpr::Var(v)) => (v, *k),
                    _ => return bad(errors),
                },
                _ => return bad(errors),
            };
            let outer = level(outer, errors)?;
            let inner = level(inner, errors)?;
            Some(DimFromLevels::Block {
                outer,
                inner,
                size: u32::try_from(size).unwrap_or(u32::MAX),
            })
        }
        _ => bad(errors),
    }
}
