//! Checks of level types: formats, properties, and the rules that look
//! across levels (singleton parents, COO regions).

use super::super::syntax::{FormatSyntax, MapSyntax};
use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::vocab::{LevelFormat, LevelProps, LevelType};

const FORMATS: [&str; 7] = [
    "dense",
    "batch",
    "compressed",
    "loose_compressed",
    "singleton",
    "structured",
    "block2_4",
];

const PROPERTIES: [&str; 4] = ["nonunique", "nonordered", "soa", "high"];

/// The level types of a map, or `None` if any is wrong.
pub(super) fn check_level_types(map: &MapSyntax, errors: &mut Errors) -> Option<Vec<LevelType>> {
    let types: Vec<Option<LevelType>> = map
        .levels
        .iter()
        .map(|level| check_level_type(&level.format, errors))
        .collect();
    let types: Vec<LevelType> = types.into_iter().collect::<Option<_>>()?;
    if map.broken {
        // A level failed to parse: the parents of the others are unknown.
        return None;
    }
    let formats: Vec<&FormatSyntax> = map.levels.iter().map(|l| &l.format).collect();
    // The region rules only make sense once the singletons have parents;
    // checking them after a misplaced singleton would repeat its error.
    let ok = check_singleton_parents(&types, &formats, errors)
        && check_coo_region_tail(&types, &formats, errors)
        && check_coo_region_soa(&types, &formats, errors);
    ok.then_some(types)
}

fn check_level_type(syntax: &FormatSyntax, errors: &mut Errors) -> Option<LevelType> {
    let format = check_format(syntax, errors)?;
    let props = check_properties(syntax, format, errors)?;
    Some(LevelType::new(format).with(props))
}

/// Rule: the format is one of MLIR's, and only `structured` takes
/// `[n, m]`, with 0 < n < m ≤ 31 and n ≤ 15 (what the packed code holds).
/// `j : sparse`, `j : compressed[2, 4]`, `j : structured[4, 2]` are errors.
fn check_format(syntax: &FormatSyntax, errors: &mut Errors) -> Option<LevelFormat> {
    let name = syntax.name.to_string();
    let format = match name.as_str() {
        "dense" => LevelFormat::Dense,
        "batch" => LevelFormat::Batch,
        "compressed" => LevelFormat::Compressed,
        "loose_compressed" => LevelFormat::LooseCompressed,
        "singleton" => LevelFormat::Singleton,
        "block2_4" => LevelFormat::Structured { n: 2, m: 4 },
        "structured" => {
            let Some((args, span)) = &syntax.args else {
                errors.error(
                    syntax.name.span(),
                    "`structured` needs the group shape `[n, m]` (n stored out of every m), \
                     e.g. `structured[2, 4]`",
                );
                return None;
            };
            return match args[..] {
                [(n, _), (m, _)] if 0 < n && n < m && m <= 31 && n <= 15 => {
                    Some(LevelFormat::Structured {
                        n: n as u8,
                        m: m as u8,
                    })
                }
                [(n, _), (m, _)] => {
                    errors.error(
                        *span,
                        format!(
                            "`structured[{n}, {m}]` is not supported: it needs 0 < n < m, \
                             m ≤ 31 and n ≤ 15, e.g. `structured[2, 4]`"
                        ),
                    );
                    None
                }
                _ => {
                    errors.error(
                        *span,
                        "`structured` takes two numbers, `[n, m]`, e.g. `structured[2, 4]`",
                    );
                    None
                }
            };
        }
        _ => {
            errors.error(
                syntax.name.span(),
                format!(
                    "unknown level format `{name}`; expected one of `dense`, `batch`, \
                     `compressed`, `loose_compressed`, `singleton`, `structured[n, m]`, \
                     `block2_4`{}",
                    did_you_mean(&name, &FORMATS)
                ),
            );
            return None;
        }
    };
    if let Some((_, span)) = &syntax.args {
        errors.error(
            *span,
            format!("`{name}` takes no `[...]` arguments; only `structured[n, m]` does"),
        );
        return None;
    }
    Some(format)
}

/// Rules: properties are `nonunique`, `nonordered`, `soa`, `high`, each at
/// most once; `nonunique`/`nonordered` only on levels that store
/// coordinates one by one (compressed, loose_compressed, singleton); `soa`
/// only on `singleton`; `high` only on a `compressed(nonunique, high)` or
/// `loose_compressed(nonunique, high)` level (MLIR's batched COO hint).
/// `dense(nonunique)`, `compressed(soa)`, `singleton(high)` are errors.
fn check_properties(
    syntax: &FormatSyntax,
    format: LevelFormat,
    errors: &mut Errors,
) -> Option<LevelProps> {
    let mut props = LevelProps::NONE;
    let mut ok = true;
    let nonunique = syntax.props.iter().any(|p| p == "nonunique");
    for prop in &syntax.props {
        let name = prop.to_string();
        let (bit, valid, why) = match name.as_str() {
            "nonunique" | "nonordered" => (
                if name == "nonunique" {
                    LevelProps::NONUNIQUE
                } else {
                    LevelProps::NONORDERED
                },
                matches!(
                    format,
                    LevelFormat::Compressed | LevelFormat::LooseCompressed | LevelFormat::Singleton
                ),
                "it applies only to `compressed`, `loose_compressed` and `singleton` levels \
                 (dense, batch and structured levels are always unique and ordered)",
            ),
            "soa" => (
                LevelProps::SOA,
                format == LevelFormat::Singleton,
                "it applies only to `singleton` levels (it stores their coordinates as \
                 separate arrays instead of interleaved with the parent's)",
            ),
            "high" => (
                LevelProps::HIGH,
                matches!(
                    format,
                    LevelFormat::Compressed | LevelFormat::LooseCompressed
                ) && nonunique,
                "it marks the start of a batched COO region and applies only to \
                 `compressed(nonunique, high)` or `loose_compressed(nonunique, high)`",
            ),
            _ => {
                errors.error(
                    prop.span(),
                    format!(
                        "unknown level property `{name}`; expected one of `nonunique`, \
                         `nonordered`, `soa`, `high`{}",
                        did_you_mean(&name, &PROPERTIES)
                    ),
                );
                ok = false;
                continue;
            }
        };
        if props.contains(bit) {
            errors.error(prop.span(), format!("the property `{name}` is given twice"));
            ok = false;
        } else if !valid {
            errors.error(
                prop.span(),
                format!(
                    "the property `{name}` is not valid on a `{}` level: {why}",
                    syntax.name
                ),
            );
            ok = false;
        }
        props = props.union(bit);
    }
    ok.then_some(props)
}

/// Rule: a `singleton` level has a parent that stores coordinates (it
/// holds exactly one coordinate per parent entry, so the parent's entries
/// must be the stored ones).
/// `(i, j) -> (i : singleton, j : dense)` and
/// `(i, j) -> (i : dense, j : singleton)` are errors at `singleton`.
fn check_singleton_parents(
    types: &[LevelType],
    formats: &[&FormatSyntax],
    errors: &mut Errors,
) -> bool {
    let mut ok = true;
    for (l, ty) in types.iter().enumerate() {
        if ty.format != LevelFormat::Singleton {
            continue;
        }
        if l == 0 {
            errors.error(
                formats[l].name.span(),
                "a `singleton` level needs a parent level that stores coordinates, so it \
                 cannot be the first level; write e.g. \
                 `(i, j) -> (i : compressed(nonunique), j : singleton)`",
            );
            ok = false;
        } else if types[l - 1].is_dense() {
            errors.error(
                formats[l].name.span(),
                format!(
                    "a `singleton` level needs a parent level that stores coordinates, but \
                     level {} is `{}`; make the parent `compressed(nonunique)` (COO) or this \
                     level `compressed`",
                    l - 1,
                    formats[l - 1].name
                ),
            );
            ok = false;
        }
    }
    ok
}

/// Rule: a COO region (a level followed by singletons) runs to the last
/// level: after a `singleton` level only `singleton` levels may follow.
/// `(i, j, k) -> (i : compressed(nonunique), j : singleton, k : dense)` is
/// an error at `dense`.
fn check_coo_region_tail(
    types: &[LevelType],
    formats: &[&FormatSyntax],
    errors: &mut Errors,
) -> bool {
    for l in 1..types.len() {
        if types[l - 1].format == LevelFormat::Singleton
            && types[l].format != LevelFormat::Singleton
        {
            errors.error(
                formats[l].name.span(),
                format!(
                    "level {l} follows the `singleton` level {}: only `singleton` levels may \
                     follow one (a COO region runs to the last level)",
                    l - 1
                ),
            );
            return false;
        }
    }
    true
}

/// Rule: the singletons of one COO region are all AoS or all SoA.
/// `(i, j, k) -> (i : compressed(nonunique), j : singleton(soa), k : singleton)`
/// is an error at the second `singleton`.
fn check_coo_region_soa(
    types: &[LevelType],
    formats: &[&FormatSyntax],
    errors: &mut Errors,
) -> bool {
    let first = types
        .iter()
        .position(|t| t.format == LevelFormat::Singleton);
    let Some(first) = first else { return true };
    for l in first + 1..types.len() {
        if types[l].format == LevelFormat::Singleton && types[l].is_soa() != types[first].is_soa() {
            let show = |t: LevelType| {
                if t.is_soa() {
                    "singleton(soa)"
                } else {
                    "singleton"
                }
            };
            errors.error(
                formats[l].name.span(),
                format!(
                    "all `singleton` levels of a COO region must agree on `soa`: level {first} \
                     is `{}` but level {l} is `{}`",
                    show(types[first]),
                    show(types[l])
                ),
            );
            return false;
        }
    }
    true
}
