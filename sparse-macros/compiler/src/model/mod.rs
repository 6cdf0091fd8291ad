//! Stage 2: the checked meaning of a block. Every semantic error is found
//! here and recorded with the span of the offending token; an item with
//! errors is left out of the model, the others stay in.
//!
//! One `check_*` function per rule, each with a comment giving the rule and
//! an example. The rules follow MLIR's verifier of `#sparse_tensor.encoding`
//! (its `invalid_encoding.mlir` test is the list of what can go wrong), plus
//! what storage in Rust types needs (widths that fit static sizes).

mod constant;
mod constant_compute;
mod constant_eval;
mod constant_file;
mod constant_layout;
mod constant_layout_errors;
mod constant_literal;
mod constant_npy;
mod constant_prune;
mod constant_prune_blocks;
mod constant_shared;
mod constant_value;
mod display;
mod elem;
mod encoding;
mod inverse;
mod kernel;
mod kernel_check;
mod kernel_int_ops;
mod kernel_types;
mod levels;
mod map;
mod tensor;

use std::collections::HashMap;

use proc_macro2::Span;
use syn::{Attribute, Ident, Visibility};

use crate::errors::Errors;
use crate::syntax::{Block, ConstantSyntax, InitSyntax, Item, LiteralValue};
use crate::vocab::{LevelExpr, LevelType, Width};

pub use constant::{ConstData, Constant, ConstantStub, SparseStorage, StoredLevel};
#[doc(hidden)]
pub use constant_file::read_bytes as read_constant_file;
pub(crate) use constant_layout::MAX_STORED;
pub use constant_value::{elem_bytes, Scalar};
pub use elem::{parse_elem, ElemType, ValueType};
pub use kernel::{ClosureBody, ClosureDef, KernelDef, Param, ParamKind, Specialize, StmtSpans};
pub use kernel_check::stub;
pub use kernel_check::{DEFAULT_MAX_ENTRIES, LIMIT_MAX_ENTRIES};

/// A dimension index (an axis of the semantic tensor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DimId(pub u8);

/// A level index (an axis of the storage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LvlId(pub u8);

/// The checked items of a block.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Encodings, in source order.
    pub encodings: Vec<Encoding>,
    /// Tensor types, in source order.
    pub types: Vec<TensorType>,
    /// Kernels whose meaning checked, in source order (the planner, which
    /// runs next, may still reject a statement it cannot sparsify).
    pub kernels: Vec<KernelDef>,
    /// Kernels with errors in their statements but a valid signature, as
    /// [`KernelDef`]s without statements: generated with an empty body next
    /// to the errors, so call sites add no "cannot find function" errors.
    pub stubs: Vec<KernelDef>,
    /// Constants (`static NAME: tensor<...> = ...;`), in source order.
    pub constants: Vec<Constant>,
    /// Constants with a valid type and an invalid value, generated empty
    /// next to their errors.
    pub constant_stubs: Vec<ConstantStub>,
}

impl Model {
    /// The encoding called `name` (without `#`).
    pub fn encoding(&self, name: &str) -> Option<&Encoding> {
        self.encodings.iter().find(|e| e.name == name)
    }
}

/// A checked `#sparse_tensor.encoding`.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The name after `#`.
    pub name: Ident,
    /// Attributes and doc comments written on it.
    pub attrs: Vec<Attribute>,
    /// The dimensions, with their slices.
    pub dims: Vec<Dim>,
    /// The levels, outermost first: each level's expression (the dim→lvl
    /// map) and type.
    pub levels: Vec<Level>,
    /// The lvl→dim map: how each dimension's coordinate is recovered.
    pub lvl_to_dim: Vec<DimFromLevels>,
    /// `posWidth`.
    pub pos_width: Width,
    /// `crdWidth`.
    pub crd_width: Width,
    /// `explicitVal`, if given.
    pub explicit_val: Option<Value>,
    /// `implicitVal`, if given (always zero: other values are rejected).
    pub implicit_val: Option<Value>,
}

/// One dimension of an encoding.
#[derive(Clone, Debug)]
pub struct Dim {
    /// The dimension variable as written.
    pub name: Ident,
    /// The slice, if any.
    pub slice: Option<Slice>,
}

/// A dimension slice `slice(offset, size, stride)`; `None` is `?`.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    /// Offset, ≥ 0.
    pub offset: Option<u64>,
    /// Size, ≥ 1.
    pub size: Option<u64>,
    /// Stride, ≥ 1.
    pub stride: Option<u64>,
    /// Span of `slice`.
    pub span: Span,
}

impl PartialEq for Slice {
    fn eq(&self, other: &Slice) -> bool {
        (self.offset, self.size, self.stride) == (other.offset, other.size, other.stride)
    }
}

/// One level: what it stores and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level expression over the dimensions.
    pub expr: LevelExpr,
    /// The level format and properties.
    pub ty: LevelType,
}

/// How a dimension's coordinate is recovered from level coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimFromLevels {
    /// The coordinate of one level (`d` stored plainly).
    Level(LvlId),
    /// `outer * size + inner`, from the `d floordiv size` and `d mod size`
    /// levels.
    Block {
        /// The `floordiv` level.
        outer: LvlId,
        /// The `mod` level.
        inner: LvlId,
        /// The block size.
        size: u32,
    },
}

/// A typed constant (`explicitVal`/`implicitVal`).
#[derive(Clone, Copy, Debug)]
pub struct Value {
    /// The literal.
    pub literal: LiteralValue,
    /// Its type.
    pub ty: ValueType,
    /// Span of the field's key (`explicitVal`).
    pub key_span: Span,
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        (self.literal, self.ty) == (other.literal, other.ty)
    }
}

impl Encoding {
    /// The level types, outermost first.
    pub fn level_types(&self) -> Vec<LevelType> {
        self.levels.iter().map(|l| l.ty).collect()
    }
    /// The dim→lvl map, one expression per level.
    pub fn dim_to_lvl(&self) -> Vec<LevelExpr> {
        self.levels.iter().map(|l| l.expr).collect()
    }
    /// Whether some dimension has a slice (`#sparse_tensor<slice(..)>`).
    pub fn is_sliced(&self) -> bool {
        self.dims.iter().any(|d| d.slice.is_some())
    }
    /// Whether two encodings mean the same (names and spans aside).
    pub fn same_meaning(&self, other: &Encoding) -> bool {
        let slices = |e: &Encoding| e.dims.iter().map(|d| d.slice).collect::<Vec<_>>();
        self.levels == other.levels
            && self.lvl_to_dim == other.lvl_to_dim
            && slices(self) == slices(other)
            && self.pos_width == other.pos_width
            && self.crd_width == other.crd_width
            && self.explicit_val == other.explicit_val
            && self.implicit_val == other.implicit_val
    }
}

/// A checked `type NAME = tensor<...>;`.
#[derive(Clone, Debug)]
pub struct TensorType {
    /// The alias name.
    pub name: Ident,
    /// Attributes and doc comments written on it.
    pub attrs: Vec<Attribute>,
    /// The visibility to give the alias.
    pub vis: Visibility,
    /// Sizes, outermost first; `None` is `?`.
    pub shape: Vec<Option<u64>>,
    /// Where each size was written.
    pub shape_spans: Vec<Span>,
    /// The element type.
    pub elem: ValueType,
    /// The encoding's name, if sparse.
    pub encoding: Option<Ident>,
}

/// Checks a parsed block. Items with errors are left out of the model; the
/// errors are recorded in `errors`.
pub fn check(block: &Block, errors: &mut Errors) -> Model {
    let mut model = Model::default();
    // Encodings that were written but failed their checks: tensor types
    // naming them are skipped silently, the encoding's own error suffices.
    let mut failed = Vec::new();
    let mut names = HashMap::new();
    let out_aliases = out_aliases(block);
    for item in &block.items {
        if let Item::Encoding(def) = item {
            let unique = check_unique_name(&def.name, format!("#{}", def.name), &mut names, errors)
                && check_not_out_alias(&def.name, format!("#{}", def.name), &out_aliases, errors);
            match encoding::check_encoding(def, errors) {
                Some(enc) if unique => model.encodings.push(enc),
                _ => failed.push(def.name.to_string()),
            }
        }
    }
    for item in &block.items {
        if let Item::Type(def) = item {
            let shown = format!("type {}", def.name);
            let unique = check_unique_name(&def.name, shown.clone(), &mut names, errors)
                && check_not_out_alias(&def.name, shown, &out_aliases, errors);
            if let Some(ty) = tensor::check_type(def, &model, &failed, errors) {
                if unique {
                    model.types.push(ty);
                }
            }
        }
    }
    // Functions and types live in different namespaces: a kernel may share
    // its name with an alias, not with another kernel.
    let mut fn_names = HashMap::new();
    for item in &block.items {
        if let Item::Kernel(def) = item {
            let shown = format!("fn {}", def.name);
            let unique = check_unique_name(&def.name, shown, &mut fn_names, errors);
            match kernel_check::check_kernel(def, &model, &failed, errors) {
                Ok(kernel) if unique => model.kernels.push(kernel),
                Err(kernel_check::Failed::Stub(stub)) if unique => model.stubs.push(*stub),
                _ => {}
            }
        }
    }
    // Constants whose levels a `levels_of` shares, or whose values a
    // `compute` reads: their layouts record where each value is stored.
    let mut shared: Vec<String> = Vec::new();
    for item in &block.items {
        match item {
            Item::Constant(ConstantSyntax {
                init: InitSyntax::LevelsOf { base, .. },
                ..
            }) => shared.push(base.to_string()),
            Item::Constant(ConstantSyntax {
                init: InitSyntax::Compute { body, .. },
                ..
            }) => body.visit(&mut |e| {
                if let crate::syntax::ExprSyntax::Access(a) = e {
                    shared.push(a.tensor.to_string());
                }
            }),
            _ => {}
        }
    }
    // Statics share the value namespace with functions.
    for item in &block.items {
        if let Item::Constant(def) = item {
            let shown = format!("static {}", def.name);
            let unique = check_unique_name(&def.name, shown, &mut fn_names, errors);
            let is_shared = shared.contains(&def.name.to_string());
            match constant::check_constant(def, &model, &failed, is_shared, errors) {
                Ok(constant) if unique => model.constants.push(constant),
                Err(Some(stub)) if unique => model.constant_stubs.push(*stub),
                _ => {}
            }
        }
    }
    model
}

/// The names the block's encodings generate besides their own (`#CSR`
/// gives `CSR`, the output alias `CSROut` and the trait `IsCSROut`), by
/// name, with the encoding's name token and what the name is.
fn out_aliases(block: &Block) -> HashMap<String, (Ident, &'static str)> {
    let mut names = HashMap::new();
    for item in &block.items {
        if let Item::Encoding(def) = item {
            let out = (def.name.clone(), "output alias");
            names.insert(format!("{}Out", def.name), out);
            let is_out = (def.name.clone(), "output trait");
            names.insert(format!("Is{}Out", def.name), is_out);
        }
    }
    names
}

/// Rule: no encoding or type is named like the output alias or the output
/// trait of an encoding. `#CSR` defines `CSR`, `CSROut` (the type sparse
/// outputs take) and `IsCSROut` (the bound kernels take them by), so
/// `#CSROut` or `type IsCSROut = ..` next to it would define a name twice;
/// the error is at the clashing name, wherever it stands.
fn check_not_out_alias(
    name: &Ident,
    shown: String,
    out_aliases: &HashMap<String, (Ident, &'static str)>,
    errors: &mut Errors,
) -> bool {
    let Some((encoding, what)) = out_aliases.get(&name.to_string()) else {
        return true;
    };
    let purpose = if *what == "output alias" {
        "the type of its sparse outputs"
    } else {
        "the bound kernels take its sparse outputs by"
    };
    errors.error_with_note(
        name.span(),
        format!(
            "`{shown}` defines the Rust type `{name}`, which is also the {what} this block \
             generates for `#{encoding}` ({purpose}); rename one"
        ),
        encoding.span(),
        format!("`#{encoding}` defines `{encoding}`, `{encoding}Out` and `Is{encoding}Out`"),
    );
    false
}

/// Rule: every generated alias has its own name. `#CSR` twice, or `#CSR`
/// and `type CSR = tensor<...>`, would both define the Rust type `CSR`;
/// the error is at the second, with a note at the first.
fn check_unique_name(
    name: &Ident,
    shown: String,
    names: &mut HashMap<String, (Span, String)>,
    errors: &mut Errors,
) -> bool {
    let key = name.to_string();
    if let Some((first, first_shown)) = names.get(&key) {
        let message = if *first_shown == shown {
            format!("`{shown}` is defined twice in this block; rename or remove one")
        } else {
            let kind = if shown.starts_with("static ") || first_shown.starts_with("static ") {
                "value"
            } else {
                "type"
            };
            format!("`{shown}` and `{first_shown}` both define the Rust {kind} `{key}`; rename one")
        };
        errors.error_with_note(
            name.span(),
            message,
            *first,
            format!("`{first_shown}` is first defined here"),
        );
        return false;
    }
    names.insert(key, (name.span(), shown));
    true
}
