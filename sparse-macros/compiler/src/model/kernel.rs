//! The checked meaning of a kernel `fn`: its parameters as Rust will see
//! them, and the tensor-index-notation statements as the sparsifier's
//! [`Kernel`] input.
//!
//! This is the contract between the kernel front end (syntax + model, which
//! fill it) and kernel codegen (which reads it with the [`Plan`] the
//! sparsifier made from [`KernelDef::kernel`]).
//!
//! [`Plan`]: crate::sparsifier::Plan

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Ident, Visibility};

use super::ValueType;
use crate::sparsifier::{Kernel, LoopId, TensorId};

/// A checked kernel: `pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }`.
#[derive(Clone, Debug)]
pub struct KernelDef {
    /// Attributes and `///` doc comments written on the `fn`.
    pub attrs: Vec<Attribute>,
    /// The visibility written on the `fn`.
    pub vis: Visibility,
    /// The function name.
    pub name: Ident,
    /// The parameters in source order.
    pub params: Vec<Param>,
    /// The statements for the sparsifier. Its tensors are the tensor
    /// parameters in source order: `TensorId(k)` is the `k`-th parameter
    /// whose kind is [`ParamKind::Sparse`] or [`ParamKind::Dense`].
    pub kernel: Kernel,
    /// For each index variable (`LoopId(k)` ↔ `kernel.loops[k]`), the span
    /// of its first use, for messages.
    pub index_spans: Vec<Span>,
    /// The closures of semiring operations, indexed by `FuncId` (the same
    /// order as `kernel.funcs`).
    pub closures: Vec<ClosureDef>,
    /// `#[parallel]` written on the `fn` (its span): the outermost parallel
    /// loop of each statement with a dense output runs in chunks on
    /// rayon's threads (`sparse_core::__private::par`). Taken out of
    /// [`KernelDef::attrs`].
    pub parallel: Option<Span>,
    /// `#[fma]` written on the `fn` (its span): accumulations `r += a * b`
    /// of float reductions are computed as one fused multiply-add
    /// (`sparse_core::__private::MulAdd`), rounded once instead of twice.
    /// Taken out of [`KernelDef::attrs`].
    pub fma: Option<Span>,
    /// `#[reassociate]` written on the `fn` (its span): float sums may be
    /// regrouped, so a sparse factor outside a dense sum multiplies the
    /// finished sum once (SDDMM, `Kernel::sum_first`) instead of every
    /// term. Taken out of [`KernelDef::attrs`].
    pub reassociate: Option<Span>,
    /// `#[unroll(n)]` written on the `fn`: the factor and the attribute's
    /// span. Innermost walks over compressed levels run `n` entries per
    /// step (see `schedule::unroll`). Taken out of [`KernelDef::attrs`].
    pub unroll: Option<(u32, Span)>,
    /// `#[specialize(w = W)]` written on the `fn`: operand `w` is the
    /// constant `W`, compiled into the code (see `schedule::specialize`).
    /// Taken out of [`KernelDef::attrs`]; the parameter leaves the
    /// generated signature.
    pub specialize: Option<Specialize>,
    /// Where each statement of [`KernelDef::kernel`] is written, for the
    /// planner's errors (one entry per statement; empty for stubs).
    pub stmt_spans: Vec<StmtSpans>,
}

/// `#[specialize(w = W)]` as written: operand `w` is the constant `W` of
/// the same block, compiled into the code (see `schedule::specialize`).
#[derive(Clone, Debug)]
pub struct Specialize {
    /// The kernel parameter (a sparse input).
    pub param: syn::Ident,
    /// The constant (`static W: tensor<..., #ENC> = ...;` of this block).
    pub constant: syn::Ident,
    /// The most stored entries written out as code, from
    /// `max_entries = N` or `DEFAULT_MAX_ENTRIES`: a larger constant
    /// keeps its loops (reading the constant's arrays).
    pub max_entries: u64,
    /// The attribute, for messages.
    pub span: Span,
}

/// The spans of one checked statement, for the sparsifier's errors.
#[derive(Clone, Debug)]
pub struct StmtSpans {
    /// Every access, left-hand side first: tensor name, text as written,
    /// first and last span.
    pub accesses: Vec<(String, String, Span, Span)>,
    /// The whole statement.
    pub range: (Span, Span),
}

/// A closure of a semiring operation (a region of `binary`/`unary`, a
/// `select` predicate, a `reduce` combiner) or a `reduce` identity, with the
/// types codegen annotates it with.
#[derive(Clone, Debug)]
pub struct ClosureDef {
    /// The Rust code: a closure, or (a `reduce` identity) an expression.
    pub body: ClosureBody,
    /// The type of each parameter, `None` where the operand's type is left
    /// to rustc (a literal).
    pub params: Vec<Option<ValueType>>,
    /// The result type (`Bool` for a `select` predicate).
    pub result: ValueType,
    /// The index variables the body names, bound as `usize` around it.
    pub indices: Vec<(Ident, LoopId)>,
}

/// The code of a [`ClosureDef`].
#[derive(Clone, Debug)]
pub enum ClosureBody {
    /// `|x, y| x + y`, as written.
    Closure(Box<syn::ExprClosure>),
    /// A Rust expression (`f64::NEG_INFINITY`).
    Value(TokenStream),
}

/// One parameter of a kernel.
#[derive(Clone, Debug)]
pub struct Param {
    /// The parameter name.
    pub name: Ident,
    /// What it is.
    pub kind: ParamKind,
}

/// What a kernel parameter is, and so which Rust type it gets.
#[derive(Clone, Debug)]
pub enum ParamKind {
    /// `&tensor<shape x elem, #ENC>` (or `&mut`): a sparse-core
    /// `SparseTensor` with the encoding `ENC` of the block's model. Static
    /// sizes in `shape` are checked at run time against the tensor's
    /// dimension sizes.
    Sparse {
        /// The tensor's id in [`KernelDef::kernel`].
        tensor: TensorId,
        /// The encoding's name (without `#`), defined in the same block.
        encoding: Ident,
        /// The element type.
        elem: ValueType,
        /// Dimension sizes, `None` for `?`.
        shape: Vec<Option<u64>>,
        /// `&mut`: the kernel writes it.
        mutable: bool,
    },
    /// `&tensor<shape x elem>` (or `&mut`) without an encoding: rank 0 is
    /// `&T`/`&mut T`, rank 1 a slice or array, higher ranks nested arrays
    /// (all sizes static) or a dense view type (some `?`).
    Dense {
        /// The tensor's id in [`KernelDef::kernel`].
        tensor: TensorId,
        /// The element type.
        elem: ValueType,
        /// Dimension sizes, `None` for `?`.
        shape: Vec<Option<u64>>,
        /// `&mut`: the kernel writes it.
        mutable: bool,
    },
    /// A plain Rust value such as `alpha: f32`, usable by name in
    /// expressions (the sparsifier sees it as an invariant literal).
    Scalar {
        /// The type as written.
        ty: Box<syn::Type>,
    },
    /// A workspace the kernel fills with a copy of the sparse input
    /// `source`, stored in the level order its loops need (the
    /// sparsifier's answer to a loop-order conflict, see
    /// [`crate::sparsifier::reorder`]): a sparse output over the source's
    /// widths and level types with the permuted map, appended after the
    /// parameters written in the source. Its levels are those of its tensor
    /// in [`KernelDef::kernel`].
    Reordered {
        /// The copy's tensor id in [`KernelDef::kernel`].
        tensor: TensorId,
        /// The input it copies.
        source: TensorId,
        /// The source's encoding name.
        encoding: Ident,
        /// The element type.
        elem: ValueType,
    },
    /// A tensor parameter whose type has an error reported at the type
    /// (a misspelt or broken encoding). Only stubs have one: they take it
    /// as `&impl Sized`, so call sites type-check and the one error the
    /// user sees is the real one.
    Unresolved {
        /// The tensor's id in [`KernelDef::kernel`].
        tensor: TensorId,
        /// `&mut`: the kernel writes it.
        mutable: bool,
    },
}

impl ParamKind {
    /// The tensor id of a tensor parameter.
    pub fn tensor(&self) -> Option<TensorId> {
        match self {
            ParamKind::Sparse { tensor, .. }
            | ParamKind::Dense { tensor, .. }
            | ParamKind::Unresolved { tensor, .. }
            | ParamKind::Reordered { tensor, .. } => Some(*tensor),
            ParamKind::Scalar { .. } => None,
        }
    }
}
