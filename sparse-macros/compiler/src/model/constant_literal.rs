//! The value literals of constants: `dense<...>` (nesting checked against
//! the type, `?` sizes taken from it, splats), `sparse<INDICES, VALUES>`
//! (coordinates checked against the shape), and the conversions between
//! dense elements and entries.

use proc_macro2::Span;

use super::constant::{sizes_text, ConstContext, Elements, Entries, Origin};
use super::constant_layout;
use super::constant_value::Scalar;
use super::ValueType;
use crate::errors::Errors;
use crate::syntax::{ConstantSyntax, DimSize, ScalarLit, TensorLiteral};

/// The sizes of a type without `?` (for `sparse<>`, whose entries give no
/// shape).
pub(super) fn static_shape(def: &ConstantSyntax, errors: &mut Errors) -> Option<Vec<u64>> {
    let mut shape = Vec::new();
    for size in &def.shape {
        match size {
            DimSize::Static(n, _) => shape.push(*n),
            DimSize::Dynamic(span) => {
                errors.error(
                    *span,
                    "a `sparse<...>` constant lists only its stored entries, so its sizes \
                     cannot come from the value; write this size",
                );
                return None;
            }
        }
    }
    Some(shape)
}

/// The elements of `dense<...>` row-major, and the shape (a `?` takes the
/// literal's size). A splat fills the type's static shape.
pub(super) fn dense_literal(
    def: &ConstantSyntax,
    literal: &TensorLiteral,
    elem: ValueType,
    errors: &mut Errors,
) -> Option<(Vec<u64>, Elements)> {
    let before = errors.len();
    if let TensorLiteral::Scalar(s) = literal {
        if !def.shape.is_empty() {
            // A splat: every element the same.
            let shape = static_shape_for_splat(def, errors)?;
            let value = convert(s.value, s.span, elem, errors)?;
            let count = shape.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n));
            let count = match count {
                Some(c) if c <= constant_layout::MAX_STORED as u64 => c as usize,
                _ => {
                    errors.error(
                        s.span,
                        format!(
                            "this splat has more than {} elements; constants are limited to that",
                            constant_layout::MAX_STORED
                        ),
                    );
                    return None;
                }
            };
            let origin = Origin {
                span: s.span,
                value: s.span,
                line: 0,
            };
            return Some((shape, vec![(value, origin); count]));
        }
    }
    let mut shape: Vec<Option<u64>> = def.shape.iter().map(|d| d.value()).collect();
    let mut out = Vec::new();
    walk_dense(literal, 0, &mut shape, elem, &mut out, errors);
    if errors.len() > before {
        return None;
    }
    Some((shape.into_iter().map(|s| s.unwrap_or(0)).collect(), out))
}

fn static_shape_for_splat(def: &ConstantSyntax, errors: &mut Errors) -> Option<Vec<u64>> {
    let mut shape = Vec::new();
    for size in &def.shape {
        match size {
            DimSize::Static(n, _) => shape.push(*n),
            DimSize::Dynamic(span) => {
                errors.error(
                    *span,
                    "a splat (`dense<1.0>`) has no shape of its own; write this size",
                );
                return None;
            }
        }
    }
    Some(shape)
}

/// Checks the nesting of `literal` at depth `depth` against `shape` (a
/// `None` size is fixed by the first list met at that depth) and appends
/// its elements.
fn walk_dense(
    literal: &TensorLiteral,
    depth: usize,
    shape: &mut [Option<u64>],
    elem: ValueType,
    out: &mut Vec<(Scalar, Origin)>,
    errors: &mut Errors,
) {
    let rank = shape.len();
    match literal {
        TensorLiteral::Scalar(s) if depth == rank => {
            if let Some(v) = convert(s.value, s.span, elem, errors) {
                out.push((
                    v,
                    Origin {
                        span: s.span,
                        value: s.span,
                        line: 0,
                    },
                ));
            }
        }
        TensorLiteral::Scalar(s) => errors.error(
            s.span,
            format!(
                "expected a list for dimension {depth} (the type has rank {rank}), found a \
                 single value; a splat is only allowed as the whole literal"
            ),
        ),
        TensorLiteral::List(_, span) if depth == rank => errors.error(
            *span,
            format!("expected a value here: the type has rank {rank}, this list is nested deeper"),
        ),
        TensorLiteral::List(items, span) => {
            let len = items.len() as u64;
            match shape[depth] {
                Some(size) if size != len => {
                    errors.error(
                        *span,
                        format!(
                            "dimension {depth} has size {size} but this list has {len} \
                             element(s)"
                        ),
                    );
                    return;
                }
                Some(_) => {}
                None => shape[depth] = Some(len),
            }
            for item in items {
                walk_dense(item, depth + 1, shape, elem, out, errors);
            }
        }
    }
}

fn convert(lit: ScalarLit, span: Span, elem: ValueType, errors: &mut Errors) -> Option<Scalar> {
    Scalar::convert(lit, elem)
        .map_err(|message| errors.error(span, message))
        .ok()
}

/// The entries of `sparse<INDICES, VALUES>`, coordinates checked against
/// the shape.
pub(super) fn sparse_literal(
    def: &ConstantSyntax,
    shape: &[u64],
    indices: &TensorLiteral,
    values: &TensorLiteral,
    elem: ValueType,
    errors: &mut Errors,
) -> Option<Entries> {
    let before = errors.len();
    let rank = shape.len();
    let TensorLiteral::List(lists, _) = indices else {
        errors.error(
            indices.span(),
            "expected the indices as a list of coordinate lists, e.g. `[[0, 0], [1, 2]]`",
        );
        return None;
    };
    let mut entries = Entries {
        rank,
        ..Entries::default()
    };
    let mut crds: Vec<(Vec<u64>, Span)> = Vec::new();
    for list in lists {
        // Rank 1 may list bare coordinates: `sparse<[0, 3], [1.0, 2.0]>`.
        let (items, span): (Vec<&TensorLiteral>, Span) = match list {
            TensorLiteral::List(items, span) => (items.iter().collect(), *span),
            scalar @ TensorLiteral::Scalar(_) if rank == 1 => (vec![scalar], scalar.span()),
            other => {
                errors.error(
                    other.span(),
                    format!("expected a coordinate list of {rank} numbers, e.g. `[0, 2]`"),
                );
                continue;
            }
        };
        if items.len() != rank {
            errors.error(
                span,
                format!(
                    "expected {rank} coordinate(s), one per dimension of `{}`, found {}",
                    def.name,
                    items.len()
                ),
            );
            continue;
        }
        let mut crd = Vec::with_capacity(rank);
        for (d, item) in items.into_iter().enumerate() {
            let (value, cspan) = match item {
                TensorLiteral::Scalar(s) => (s.value, s.span),
                TensorLiteral::List(_, span) => {
                    errors.error(*span, "expected a coordinate (a number), found a list");
                    continue;
                }
            };
            let c = match value {
                ScalarLit::Int(n) if n >= 0 => u64::try_from(n).ok(),
                ScalarLit::Hex(n) => u64::try_from(n).ok(),
                _ => None,
            };
            match c {
                Some(c) if c < shape[d] => crd.push(c),
                Some(c) => errors.error(
                    cspan,
                    format!(
                        "coordinate {c} is outside dimension {d} of size {} (0..={})",
                        shape[d],
                        shape[d].saturating_sub(1)
                    ),
                ),
                None => errors.error(cspan, "expected a coordinate: an integer from 0"),
            }
        }
        crds.push((crd, span));
    }
    let count = lists.len();
    let scalars: Vec<(ScalarLit, Span)> = match values {
        TensorLiteral::Scalar(s) => vec![(s.value, s.span); count],
        TensorLiteral::List(items, span) => {
            if items.len() != count {
                errors.error(
                    *span,
                    format!(
                        "{} value(s) for {count} coordinate list(s) (the indices at {}); give \
                         one value per coordinate list, or one value for all",
                        items.len(),
                        if count == 0 { "`[]`" } else { "the left" }
                    ),
                );
                return None;
            }
            let mut scalars = Vec::with_capacity(count);
            for item in items {
                match item {
                    TensorLiteral::Scalar(s) => scalars.push((s.value, s.span)),
                    TensorLiteral::List(_, span) => {
                        errors.error(*span, "expected a value, found a list")
                    }
                }
            }
            scalars
        }
    };
    let converted: Vec<Option<Scalar>> = scalars
        .iter()
        .map(|&(lit, vspan)| convert(lit, vspan, elem, errors))
        .collect();
    if errors.len() > before {
        return None;
    }
    for (((crd, span), (_, vspan)), value) in crds.into_iter().zip(scalars).zip(converted) {
        let Some(value) = value else {
            continue;
        };
        entries.push(
            &crd,
            value,
            Origin {
                span,
                value: vspan,
                line: 0,
            },
        );
    }
    (errors.len() == before).then_some(entries)
}

/// The nonzero elements of a dense value, as entries (MLIR's conversion
/// of a dense constant to a sparse tensor keeps exactly these).
pub(super) fn nonzeros(shape: &[u64], elements: Vec<(Scalar, Origin)>) -> Entries {
    let rank = shape.len();
    let mut entries = Entries {
        rank,
        ..Entries::default()
    };
    let mut crd = vec![0u64; rank];
    for (k, (value, origin)) in elements.into_iter().enumerate() {
        if value.is_zero() {
            continue;
        }
        let mut rest = k as u64;
        for d in (0..rank).rev() {
            crd[d] = rest % shape[d].max(1);
            rest /= shape[d].max(1);
        }
        entries.push(&crd, value, origin);
    }
    entries
}

/// Entries into a dense array (no encoding): every entry once.
pub(super) fn scatter(
    shape: &[u64],
    entries: &Entries,
    elem: ValueType,
    ctx: &ConstContext,
    errors: &mut Errors,
) -> Option<Vec<Scalar>> {
    let count = shape.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n));
    let count = match count {
        Some(c) if c <= constant_layout::MAX_STORED as u64 => c as usize,
        _ => {
            errors.error(
                ctx.span,
                format!(
                    "a dense constant of {} elements is too large (at most {}); give its type \
                     a sparse encoding, e.g. `#CSR`, to store only its entries",
                    sizes_text(shape),
                    constant_layout::MAX_STORED
                ),
            );
            return None;
        }
    };
    let mut out = vec![Scalar::zero(elem); count];
    let mut first: Vec<Option<usize>> = vec![None; count];
    for e in 0..entries.len() {
        let k = entries
            .crd(e)
            .iter()
            .zip(shape)
            .fold(0u64, |acc, (&c, &n)| acc * n + c) as usize;
        if let Some(prev) = first[k] {
            let (a, b) = (entries.origins[prev], entries.origins[e]);
            errors.error_with_note(
                b.span,
                format!(
                    "duplicate entry at {}{}: a dense constant holds one value per element",
                    entries.describe(e),
                    ctx.line(b)
                ),
                a.span,
                format!(
                    "the first entry at {}{}",
                    entries.describe(prev),
                    ctx.line(a)
                ),
            );
            continue;
        }
        first[k] = Some(e);
        out[k] = entries.values[e];
    }
    Some(out)
}
