//! Checks of constants (`static NAME: tensor<...> = dense<...>;`): the
//! type as for `type` aliases, the value against the type, then the
//! storage (`constant_layout`). Every error points at the offending token:
//! a coordinate, a value, a list whose length is wrong, or the file path
//! (with the line in the message).
//!
//! Decisions:
//! - `dense<>` keeps only the nonzero elements for a sparse encoding (as
//!   MLIR's conversion of a dense constant to a sparse tensor); `sparse<>`
//!   stores every listed entry, explicit zeros included.
//! - A `?` size is taken from the value where the value has a shape
//!   (`dense<[...]>`, files); `sparse<>` and splats have none, so their
//!   sizes must be written.
//! - A constant without encoding is a plain Rust array (nested for rank
//!   ≥ 2), the type kernels take for static dense operands.

use std::path::PathBuf;

use proc_macro2::Span;
use syn::{Attribute, Ident, Visibility};

use super::constant_file::{self, FileData};
use super::constant_layout;
use super::constant_value::Scalar;
use super::{tensor, ElemType, Model};
use crate::errors::Errors;
use crate::syntax::{ConstantSyntax, DimSize, InitSyntax, ScalarLit, TensorLiteral, TypeDef};

/// A checked constant.
#[derive(Clone, Debug)]
pub struct Constant {
    /// The static's name.
    pub name: Ident,
    /// Attributes and doc comments written on it.
    pub attrs: Vec<Attribute>,
    /// The visibility written.
    pub vis: Visibility,
    /// The element type.
    pub elem: ElemType,
    /// The dimension sizes (from the type, or from the value for `?`).
    pub shape: Vec<u64>,
    /// The data.
    pub data: ConstData,
    /// The file read, as an absolute path (`file(...)` only): the expansion
    /// includes it so that cargo rebuilds when it changes.
    pub file: Option<PathBuf>,
    /// What the value was, for the doc comment (`sparse<...>`, `file ...`).
    pub source: String,
}

/// A constant's data.
#[derive(Clone, Debug)]
pub enum ConstData {
    /// No encoding: every element, row-major.
    Dense(Vec<Scalar>),
    /// Sparse storage under an encoding.
    Sparse(SparseStorage),
}

/// The buffers of a sparse constant, as `assemble` would take them.
#[derive(Clone, Debug)]
pub struct SparseStorage {
    /// The encoding's name.
    pub encoding: Ident,
    /// The level sizes.
    pub lvl_sizes: Vec<u64>,
    /// Per level, outermost first.
    pub levels: Vec<StoredLevel>,
    /// One value per entry of the last level (none for `explicitVal`).
    pub values: Vec<Scalar>,
    /// The number of entries of the last level.
    pub entries: usize,
}

/// One level's buffers and how kernels read its coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLevel {
    /// Positions (`pos[l]`; lo/hi pairs for loose compressed).
    pub positions: Vec<u64>,
    /// Its own coordinate buffer (empty for dense and fused AoS levels; the
    /// tuples of the region at a COO region's start).
    pub coordinates: Vec<u64>,
    /// Distance between consecutive entries' coordinates.
    pub stride: usize,
    /// Slot within a tuple: a fused singleton reads the buffer of the level
    /// `offset` above it.
    pub offset: usize,
}

/// The entries of a constant in dimension coordinates, with where each
/// came from.
#[derive(Clone, Debug, Default)]
pub(super) struct Entries {
    pub(super) rank: usize,
    pub(super) crds: Vec<u64>,
    pub(super) values: Vec<Scalar>,
    pub(super) origins: Vec<Origin>,
}

/// Where an entry was written.
#[derive(Clone, Copy, Debug)]
pub(super) struct Origin {
    /// The entry (its coordinate list, or the element of `dense<>`).
    pub(super) span: Span,
    /// Its value.
    pub(super) value: Span,
    /// Its line in a file (1-based), 0 for a literal.
    pub(super) line: u32,
}

impl Entries {
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }
    pub(super) fn crd(&self, e: usize) -> &[u64] {
        &self.crds[e * self.rank..(e + 1) * self.rank]
    }
    /// `(1, 2)`.
    pub(super) fn describe(&self, e: usize) -> String {
        let parts: Vec<String> = self.crd(e).iter().map(u64::to_string).collect();
        format!("({})", parts.join(", "))
    }
    pub(super) fn push(&mut self, crd: &[u64], value: Scalar, origin: Origin) {
        self.crds.extend_from_slice(crd);
        self.values.push(value);
        self.origins.push(origin);
    }
}

/// What errors without a better token point at, and the file's name.
pub(super) struct ConstContext {
    pub(super) span: Span,
    pub(super) file: Option<String>,
}

/// Checks a constant; `None` if it has errors (recorded in `errors`).
pub(super) fn check_constant(
    def: &ConstantSyntax,
    model: &Model,
    failed: &[String],
    errors: &mut Errors,
) -> Option<Constant> {
    let type_def = TypeDef {
        attrs: Vec::new(),
        vis: Visibility::Inherited,
        name: def.name.clone(),
        tensor_span: def.tensor_span,
        shape: def.shape.clone(),
        elem: def.elem.clone(),
        encoding: def.encoding.clone(),
    };
    let ty = tensor::check_type(&type_def, model, failed, errors)?;
    let elem = ty.elem;
    let encoding = match &def.encoding {
        Some(name) => Some(model.encoding(&name.to_string())?),
        None => None,
    };
    let before = errors.len();
    let (span, file) = match &def.init {
        InitSyntax::Dense { span, .. } | InitSyntax::Sparse { span, .. } => (*span, None),
        InitSyntax::File { span, path } => (*span, Some(path.clone())),
    };
    let ctx = ConstContext { span, file };
    let mut abs_path = None;
    // The value: either every element (dense) or entries.
    let (shape, value) = match &def.init {
        InitSyntax::Dense { literal, .. } => {
            let (shape, elements) = dense_literal(def, literal, elem, errors)?;
            (shape, Value::Elements(elements))
        }
        InitSyntax::Sparse {
            indices, values, ..
        } => {
            let shape = static_shape(def, errors)?;
            let entries = sparse_literal(def, &shape, indices, values, elem, errors)?;
            (shape, Value::Entries(entries))
        }
        InitSyntax::File { path, span } => {
            let (resolved, data) = constant_file::read(path, *span, elem, errors)?;
            abs_path = Some(resolved);
            let shape = file_shape(def, data.shape(), *span, errors)?;
            match data {
                FileData::Dense { values, .. } => (
                    shape,
                    Value::Elements(
                        values
                            .into_iter()
                            .map(|(v, line)| {
                                (
                                    v,
                                    Origin {
                                        span: *span,
                                        value: *span,
                                        line,
                                    },
                                )
                            })
                            .collect(),
                    ),
                ),
                FileData::Coo { entries, .. } => (shape, Value::Entries(entries)),
            }
        }
    };
    let source = match &def.init {
        InitSyntax::Dense { .. } => "a `dense<...>` literal".to_string(),
        InitSyntax::Sparse { .. } => "a `sparse<...>` literal".to_string(),
        InitSyntax::File { path, .. } => format!("the file `{path}`"),
    };
    let dynamic: Vec<bool> = def
        .shape
        .iter()
        .map(|d| matches!(d, DimSize::Dynamic(_)))
        .collect();
    let data = match encoding {
        None => ConstData::Dense(match value {
            Value::Elements(elements) => elements.into_iter().map(|(v, _)| v).collect(),
            Value::Entries(entries) => scatter(&shape, &entries, elem, &ctx, errors)?,
        }),
        Some(enc) => {
            let entries = match value {
                Value::Elements(elements) => nonzeros(&shape, elements),
                Value::Entries(entries) => entries,
            };
            ConstData::Sparse(constant_layout::build(
                enc, &shape, &dynamic, elem, &entries, &ctx, errors,
            )?)
        }
    };
    if errors.len() > before {
        return None;
    }
    Some(Constant {
        name: def.name.clone(),
        attrs: def.attrs.clone(),
        vis: def.vis.clone(),
        elem,
        shape,
        data,
        file: abs_path,
        source,
    })
}

/// Every element, row-major, with where it was written.
type Elements = Vec<(Scalar, Origin)>;

enum Value {
    /// Every element of a dense value.
    Elements(Elements),
    Entries(Entries),
}

/// The sizes of a type without `?` (for `sparse<>`, whose entries give no
/// shape).
fn static_shape(def: &ConstantSyntax, errors: &mut Errors) -> Option<Vec<u64>> {
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

/// The type's sizes with each `?` taken from the file; a static size must
/// be the file's.
fn file_shape(
    def: &ConstantSyntax,
    found: &[u64],
    span: Span,
    errors: &mut Errors,
) -> Option<Vec<u64>> {
    if found.len() != def.shape.len() {
        errors.error(
            span,
            format!(
                "the file holds a tensor of rank {} ({}) but the type has rank {}",
                found.len(),
                sizes_text(found),
                def.shape.len()
            ),
        );
        return None;
    }
    let mut ok = true;
    for (d, (size, &n)) in def.shape.iter().zip(found).enumerate() {
        if let DimSize::Static(want, _) = size {
            if *want != n {
                errors.error(
                    span,
                    format!(
                        "the file's tensor is {} but the type says {} (dimension {d}: {n} \
                         against {want}); write `?` to take the file's size",
                        sizes_text(found),
                        def.shape
                            .iter()
                            .map(|s| s.value().map_or("?".to_string(), |v| v.to_string()))
                            .collect::<Vec<_>>()
                            .join("x")
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then(|| found.to_vec())
}

fn sizes_text(sizes: &[u64]) -> String {
    sizes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// The elements of `dense<...>` row-major, and the shape (a `?` takes the
/// literal's size). A splat fills the type's static shape.
fn dense_literal(
    def: &ConstantSyntax,
    literal: &TensorLiteral,
    elem: ElemType,
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
    elem: ElemType,
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

fn convert(lit: ScalarLit, span: Span, elem: ElemType, errors: &mut Errors) -> Option<Scalar> {
    Scalar::convert(lit, elem)
        .map_err(|message| errors.error(span, message))
        .ok()
}

/// The entries of `sparse<INDICES, VALUES>`, coordinates checked against
/// the shape.
fn sparse_literal(
    def: &ConstantSyntax,
    shape: &[u64],
    indices: &TensorLiteral,
    values: &TensorLiteral,
    elem: ElemType,
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
fn nonzeros(shape: &[u64], elements: Vec<(Scalar, Origin)>) -> Entries {
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
fn scatter(
    shape: &[u64],
    entries: &Entries,
    elem: ElemType,
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
                    "a dense constant of {} elements is too large (at most {})",
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

impl FileData {
    fn shape(&self) -> &[u64] {
        match self {
            FileData::Dense { shape, .. } | FileData::Coo { shape, .. } => shape,
        }
    }
}
