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

use super::constant_compute;
use super::constant_file::{self, FileData};
use super::constant_layout;
use super::constant_literal::{dense_literal, nonzeros, scatter, sparse_literal, static_shape};
use super::constant_prune::prune;
use super::constant_shared::check_shared;
use super::constant_value::Scalar;
use super::{tensor, Model, ValueType};
use crate::errors::Errors;
use crate::syntax::{ConstantSyntax, DimSize, InitSyntax, PruneKind, TypeDef};

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
    pub elem: ValueType,
    /// The dimension sizes (from the type, or from the value for `?`).
    pub shape: Vec<u64>,
    /// The data.
    pub data: ConstData,
    /// The file read, as an absolute path (`file(...)` only): the expansion
    /// includes it so that cargo rebuilds when it changes.
    pub file: Option<PathBuf>,
    /// What the value was, for the doc comment (`sparse<...>`, `file ...`).
    pub source: String,
    /// The constant whose positions and coordinates this one reads
    /// (`levels_of(W, values = ..)`): only its values are its own.
    pub shares: Option<Ident>,
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
    /// The level coordinates of every stored value (padding included),
    /// one coordinate per level, in storage order: kept only for a
    /// constant whose levels another shares (`levels_of`), empty otherwise.
    pub slots: Vec<u64>,
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
    /// The entries whose value is not zero (`-0.0` dropped too), as
    /// [`nonzeros`] keeps the elements of a dense value.
    pub(super) fn without_zeros(self) -> Entries {
        let mut out = Entries {
            rank: self.rank,
            ..Entries::default()
        };
        for (e, (&value, &origin)) in self.values.iter().zip(&self.origins).enumerate() {
            if !value.is_zero() {
                out.push(self.crd(e), value, origin);
            }
        }
        out
    }
}

/// What errors without a better token point at, and the file's name.
pub(super) struct ConstContext {
    pub(super) span: Span,
    pub(super) file: Option<String>,
}

/// A constant whose type is valid but whose value is not: generated with
/// an empty value next to the errors, so uses of it add no "cannot find
/// value" errors (the block does not compile anyway).
#[derive(Clone, Debug)]
pub struct ConstantStub {
    /// The static's name.
    pub name: Ident,
    /// Attributes and doc comments written on it.
    pub attrs: Vec<Attribute>,
    /// The visibility written.
    pub vis: Visibility,
    /// The element type.
    pub elem: ValueType,
    /// The sizes as written (`None` for `?`).
    pub shape: Vec<Option<u64>>,
    /// The encoding's name, if any.
    pub encoding: Option<Ident>,
}

/// Checks a constant: `Ok` if valid; otherwise its errors are recorded and
/// it is `Err(Some(stub))` when its type is valid, `Err(None)` when not.
/// `shared`: whether a later constant shares this one's levels
/// (`levels_of`), so the layout records where each value is stored.
pub(super) fn check_constant(
    def: &ConstantSyntax,
    model: &Model,
    failed: &[String],
    shared: bool,
    errors: &mut Errors,
) -> Result<Constant, Option<Box<ConstantStub>>> {
    let type_def = TypeDef {
        attrs: Vec::new(),
        vis: Visibility::Inherited,
        name: def.name.clone(),
        tensor_span: def.tensor_span,
        shape: def.shape.clone(),
        elem: def.elem.clone(),
        encoding: def.encoding.clone(),
    };
    let ty = tensor::check_type(&type_def, model, failed, errors).ok_or(None)?;
    let elem = ty.elem;
    let encoding = match &def.encoding {
        Some(name) => Some(model.encoding(&name.to_string()).ok_or(None)?),
        None => None,
    };
    // Rule: a constant is a whole tensor; `#S` slicing a dimension is an
    // error at `S` (the slice is taken at run time, `extract_slice`).
    if let (Some(enc), Some(name)) = (encoding, &def.encoding) {
        if enc.is_sliced() {
            errors.error(
                name.span(),
                format!(
                    "`{}` has the sliced encoding `#{name}`; a constant is a whole tensor: give \
                     it an encoding without slices and take the slice at run time with \
                     `extract_slice`",
                    def.name
                ),
            );
            return Err(None);
        }
    }
    let checked = match &def.init {
        InitSyntax::LevelsOf { base, values, .. } => {
            check_shared(def, base, values, elem, encoding, model, shared, errors)
        }
        _ => check_value(def, elem, encoding, model, failed, shared, errors),
    };
    checked.ok_or_else(|| {
        Some(Box::new(ConstantStub {
            name: def.name.clone(),
            attrs: def.attrs.clone(),
            vis: def.vis.clone(),
            elem,
            shape: def.shape.iter().map(|d| d.value()).collect(),
            encoding: def.encoding.clone(),
        }))
    })
}

/// The value of a constant whose type checked.
fn check_value(
    def: &ConstantSyntax,
    elem: ValueType,
    encoding: Option<&super::Encoding>,
    model: &Model,
    failed: &[String],
    shared: bool,
    errors: &mut Errors,
) -> Option<Constant> {
    let before = errors.len();
    let ctx = value_context(&def.init);
    let (shape, value, abs_path) = match &def.init {
        InitSyntax::Compute {
            span,
            indices,
            body,
        } => {
            let (shape, elements) =
                constant_compute::compute(def, *span, indices, body, elem, model, failed, errors)?;
            (shape, Value::Elements(elements), None)
        }
        init => read_value(def, init, elem, encoding, &ctx, errors)?,
    };
    let source = source_text(&def.init);
    let dynamic: Vec<bool> = def
        .shape
        .iter()
        .map(|d| matches!(d, DimSize::Dynamic(_)))
        .collect();
    let data = match encoding {
        None => ConstData::Dense(match value {
            Value::Elements(elements) => elements.into_iter().map(|(v, _)| v).collect(),
            Value::Entries(entries) | Value::Array(entries) => {
                scatter(&shape, &entries, elem, &ctx, errors)?
            }
        }),
        Some(enc) => {
            let entries = match value {
                Value::Elements(elements) => nonzeros(&shape, elements),
                Value::Entries(entries) => entries,
                Value::Array(entries) => entries.without_zeros(),
            };
            ConstData::Sparse(constant_layout::build(
                enc, &shape, &dynamic, elem, &entries, &ctx, shared, errors,
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
        shares: None,
    })
}

/// What errors about a value point at: its keyword, or the path of the
/// file it reads (with the file's name for line numbers).
pub(super) fn value_context(init: &InitSyntax) -> ConstContext {
    match init {
        InitSyntax::Prune { inner, .. } => value_context(inner),
        InitSyntax::File { span, path } => ConstContext {
            span: *span,
            file: Some(path.clone()),
        },
        other => ConstContext {
            span: other.span(),
            file: None,
        },
    }
}

/// What the value was, for the doc comment.
pub(super) fn source_text(init: &InitSyntax) -> String {
    match init {
        InitSyntax::Dense { .. } => "a `dense<...>` literal".to_string(),
        InitSyntax::Sparse { .. } => "a `sparse<...>` literal".to_string(),
        InitSyntax::File { path, .. } => format!("the file `{path}`"),
        InitSyntax::LevelsOf { base, values, .. } => {
            format!(
                "the levels of `{base}` with values from {}",
                source_text(values)
            )
        }
        InitSyntax::Compute { indices, body, .. } => {
            let names: Vec<String> = indices.iter().map(Ident::to_string).collect();
            format!("`compute(|{}| {})`", names.join(", "), body.text())
        }
        InitSyntax::Prune { kind, inner, .. } => match kind {
            PruneKind::TwoFour => format!("{} pruned to 2:4", source_text(inner)),
            PruneKind::Blocks { keep, .. } => format!(
                "{} pruned to the {keep} block(s) of largest norm per block row",
                source_text(inner)
            ),
        },
    }
}

/// The value `init` gives the constant's type: its sizes, its elements or
/// entries, and the file it read (absolute).
pub(super) fn read_value(
    def: &ConstantSyntax,
    init: &InitSyntax,
    elem: ValueType,
    encoding: Option<&super::Encoding>,
    ctx: &ConstContext,
    errors: &mut Errors,
) -> Option<(Vec<u64>, Value, Option<PathBuf>)> {
    Some(match init {
        InitSyntax::Dense { literal, .. } => {
            let (shape, elements) = dense_literal(def, literal, elem, errors)?;
            (shape, Value::Elements(elements), None)
        }
        InitSyntax::Prune { span, kind, inner } => {
            let (shape, value, path) = read_value(def, inner, elem, encoding, ctx, errors)?;
            // (`levels_of` inside a pruning is refused by the parser.)
            let mut elements = match value {
                Value::Elements(elements) => elements,
                Value::Entries(entries) | Value::Array(entries) => {
                    let origin = Origin {
                        span: ctx.span,
                        value: ctx.span,
                        line: 0,
                    };
                    scatter(&shape, &entries, elem, ctx, errors)?
                        .into_iter()
                        .map(|v| (v, origin))
                        .collect()
                }
            };
            prune(
                def,
                encoding,
                *span,
                *kind,
                &shape,
                &mut elements,
                elem,
                errors,
            )?;
            (shape, Value::Elements(elements), path)
        }
        InitSyntax::LevelsOf { span, .. } => {
            errors.error(
                *span,
                "`levels_of(..)` is the whole value of a constant: `static W8: tensor<..> = \
                 levels_of(W, values = file(\"w8.npy\"));`",
            );
            return None;
        }
        InitSyntax::Compute { span, .. } => {
            errors.error(
                *span,
                "`compute(..)` is the whole value of a constant: `static B2: tensor<..> = \
                 compute(|i| B[i] + 1);`",
            );
            return None;
        }
        InitSyntax::Sparse {
            indices, values, ..
        } => {
            let shape = static_shape(def, errors)?;
            let entries = sparse_literal(def, &shape, indices, values, elem, errors)?;
            (shape, Value::Entries(entries), None)
        }
        InitSyntax::File { path, span } => {
            let (resolved, data) = constant_file::read(path, *span, elem, errors)?;
            let data = squeeze_vector(def.shape.len(), data);
            let shape = file_shape(def, data.shape(), *span, errors)?;
            let value = match data {
                FileData::Dense { values, .. } => Value::Elements(
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
                FileData::Coo { entries, .. } => Value::Entries(entries),
                FileData::Array { entries, .. } => Value::Array(entries),
            };
            (shape, value, Some(resolved))
        }
    })
}

/// Every element, row-major, with where it was written.
pub(super) type Elements = Vec<(Scalar, Origin)>;

pub(super) enum Value {
    /// Every element of a dense value.
    Elements(Elements),
    Entries(Entries),
    /// A dense value's elements that are not exactly zero (a Matrix Market
    /// `array` file): entries for a dense array, nonzeros for an encoding.
    Array(Entries),
}

/// A rank-1 type read from an N×1 or 1×N file (Matrix Market has no
/// vector form, and NumPy column vectors are common): the unit dimension
/// dropped. Anything else is left for [`file_shape`] to judge.
fn squeeze_vector(rank: usize, data: FileData) -> FileData {
    if rank == 0 && !data.shape().is_empty() && data.shape().iter().all(|&n| n == 1) {
        return squeeze_scalar(data);
    }
    let unit = match data.shape() {
        [_, 1] if rank == 1 => 1,
        [1, _] if rank == 1 => 0,
        _ => return data,
    };
    let keep = 1 - unit;
    match data {
        FileData::Dense { shape, values } => FileData::Dense {
            shape: vec![shape[keep]],
            values,
        },
        FileData::Coo { shape, entries } => FileData::Coo {
            shape: vec![shape[keep]],
            entries: squeeze_entries(entries, keep),
        },
        FileData::Array { shape, entries } => FileData::Array {
            shape: vec![shape[keep]],
            entries: squeeze_entries(entries, keep),
        },
    }
}

/// A scalar type read from a file of one element (`[2.5]`, `[[2.5]]`, a
/// 1x1 Matrix Market file), as NumPy's 0-d arrays are rarer than 1-element
/// ones: every (unit) dimension dropped.
fn squeeze_scalar(data: FileData) -> FileData {
    let scalar = |entries: Entries| Entries {
        rank: 0,
        crds: Vec::new(),
        values: entries.values,
        origins: entries.origins,
    };
    match data {
        FileData::Dense { values, .. } => FileData::Dense {
            shape: Vec::new(),
            values,
        },
        FileData::Coo { entries, .. } => FileData::Coo {
            shape: Vec::new(),
            entries: scalar(entries),
        },
        FileData::Array { entries, .. } => FileData::Array {
            shape: Vec::new(),
            entries: scalar(entries),
        },
    }
}

/// Rank-2 entries as rank 1, keeping dimension `keep`.
fn squeeze_entries(entries: Entries, keep: usize) -> Entries {
    Entries {
        rank: 1,
        crds: entries.crds.chunks(2).map(|c| c[keep]).collect(),
        values: entries.values,
        origins: entries.origins,
    }
}

/// The type's sizes with each `?` taken from the file; a static size must
/// be the file's.
fn file_shape(
    def: &ConstantSyntax,
    found: &[u64],
    span: Span,
    errors: &mut Errors,
) -> Option<Vec<u64>> {
    if def.shape.is_empty() && !found.is_empty() {
        errors.error(
            span,
            format!(
                "the file holds a tensor of {} ({} elements) but `{}` is a scalar, which takes a \
                 file of one element (a 0-d, 1-element or 1x1 array)",
                sizes_text(found),
                found.iter().product::<u64>(),
                def.name
            ),
        );
        return None;
    }
    if found.len() != def.shape.len() {
        errors.error(
            span,
            format!(
                "the file holds a tensor of rank {} ({}) but the type has rank {}; give the \
                 type one size per dimension of the file, e.g. `tensor<{}x{}>`",
                found.len(),
                sizes_text(found),
                def.shape.len(),
                vec!["?"; found.len()].join("x"),
                def.elem.name
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

pub(super) fn sizes_text(sizes: &[u64]) -> String {
    sizes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

impl FileData {
    fn shape(&self) -> &[u64] {
        match self {
            FileData::Dense { shape, .. }
            | FileData::Coo { shape, .. }
            | FileData::Array { shape, .. } => shape,
        }
    }
}
