//! Constants computed from other constants: `static B2: tensor<64xi32> =
//! compute(|i| B[i] + 128 * sum(j, W[i, j] as i32));`.
//!
//! The closure's body is a kernel expression, checked as the body of a
//! kernel would be (the same type rules, sum scopes, narrow-accumulation
//! rule and messages): the macro builds the kernel `fn B2(B2: &mut
//! tensor<64xi32>, B: &tensor<64xi32>, W: &tensor<64x256xi8>) { B2[i] =
//! ..; }` with every operand dense (absent entries are zeros, so the
//! values are the same whatever the operands' encodings) and evaluates its
//! statement element by element (`constant_eval.rs`). The result is then
//! stored like a `dense<..>` value of the constant's type: only nonzeros
//! under a sparse encoding.
//!
//! Rules: the operands are constants declared before (a constant never
//! reads itself or a later one, so there are no cycles); every size is
//! written (nothing to take a `?` from); one index variable per dimension,
//! each once; the work is bounded ([`STEP_BUDGET`] evaluation steps).

use std::collections::HashMap;

use proc_macro2::Span;
use syn::{Ident, Visibility};

use super::constant::{Elements, Origin};
use super::constant_eval::{Eval, Operand, Reader, Stop, STEP_BUDGET};
use super::constant_value::Scalar;
use super::kernel_check;
use super::{ConstData, Constant, Model, ValueType};
use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::syntax::{
    AccessSyntax, AssignSyntax, ConstantSyntax, DimSize, ElemSyntax, ExprSyntax, KernelSyntax,
    ParamSyntax, ParamTypeSyntax, StmtSyntax, TensorParamSyntax,
};

/// The elements of `def` (row-major) computed by `body` at the
/// coordinates `indices`, with its sizes.
#[allow(clippy::too_many_arguments)]
pub(super) fn compute(
    def: &ConstantSyntax,
    span: Span,
    indices: &[Ident],
    body: &ExprSyntax,
    elem: ValueType,
    model: &Model,
    failed: &[String],
    errors: &mut Errors,
) -> Option<(Vec<u64>, Elements)> {
    let shape = written_shape(def, errors)?;
    if !super::constant_layout::dense_within_limit(&shape) {
        errors.error(
            span,
            format!(
                "`{}` = compute(..) is {}: a computed constant holds at most {} elements (the \
                 product of its sizes, zeros left out)",
                def.name,
                super::constant::sizes_text(&shape),
                super::constant_layout::MAX_STORED
            ),
        );
        return None;
    }
    check_indices(def, span, indices, errors)?;
    let inputs = operands(def, body, model, errors)?;
    let kernel = KernelSyntax {
        attrs: Vec::new(),
        vis: Visibility::Inherited,
        name: def.name.clone(),
        params: std::iter::once(param(&def.name, &shape, elem, true, span))
            .chain(
                inputs
                    .iter()
                    .map(|c| param(&c.name, &c.shape, c.elem, false, span)),
            )
            .collect(),
        stmts: vec![StmtSyntax {
            lhs: AccessSyntax {
                tensor: def.name.clone(),
                indices: indices.to_vec(),
                affine: Vec::new(),
                brackets: Some(span),
            },
            op: AssignSyntax::Assign,
            op_span: span,
            rhs: body.clone(),
        }],
        broken: false,
        params_broken: false,
    };
    let before = errors.len();
    let checked = kernel_check::check_kernel(&kernel, model, failed, errors).ok()?;
    if errors.len() > before {
        return None;
    }
    let kernel = &checked.kernel;
    let stmt = kernel.stmts.first()?;
    if stmt.reduce.is_some() {
        errors.error(
            span,
            format!(
                "`{}`: a custom reduction (`reduce(..)`) is not evaluated when the macro \
                 expands; write the sum with `sum(..)`, `min` or `max`",
                def.name
            ),
        );
        return None;
    }
    // The statement's own reduction indices (a sum over the whole
    // right-hand side) stay loops of the statement: sum them here.
    let rhs = crate::sparsifier::scope::place_sums(kernel, stmt);
    let mut reduced = crate::sparsifier::scope::free_loops(kernel, &rhs);
    reduced.retain(|l| !stmt.lhs.indices.contains(l));
    let rhs = if reduced.is_empty() {
        rhs
    } else {
        crate::sparsifier::Expr::Sum(reduced, Box::new(rhs))
    };
    let mut operands = vec![Operand {
        name: def.name.to_string(),
        elem,
        shape: shape.clone(),
        reader: None,
    }];
    for c in &inputs {
        operands.push(Operand {
            name: c.name.to_string(),
            elem: c.elem,
            shape: c.shape.clone(),
            reader: Some(reader(def, c, model, span, errors)?),
        });
    }
    let sizes = loop_sizes(kernel, &operands);
    let mut eval = Eval::new(kernel, &operands, sizes);
    let fail = |stop: Stop, errors: &mut Errors| {
        let why = match stop {
            Stop::Unsupported(what) => format!("cannot evaluate {what}"),
            Stop::Budget => format!(
                "takes more than {STEP_BUDGET} evaluation steps (elements times the terms of \
                 their sums); compute a constant this large in a build script, or with a \
                 kernel at run time"
            ),
            Stop::Range(what) => format!("reads {what}, outside the constant"),
        };
        errors.error(span, format!("`{}` = compute(..) {why}", def.name));
    };
    let count = shape
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(d))
        .unwrap_or(u64::MAX);
    // Every element evaluates the right-hand side once: the whole work is
    // known before any of it is done.
    let work = count.saturating_add(count.saturating_mul(eval.cost(&rhs)));
    if work > STEP_BUDGET {
        fail(Stop::Budget, errors);
        return None;
    }
    let origin = Origin {
        span,
        value: span,
        line: 0,
    };
    let mut elements = Vec::with_capacity(count as usize);
    let out = &stmt.lhs.indices;
    for flat in 0..count {
        let mut rest = flat;
        for (d, &l) in out.iter().enumerate().rev() {
            eval.env[l.index()] = rest % shape[d];
            rest /= shape[d];
        }
        match eval.eval(&rhs, elem) {
            Ok(v) => elements.push((v, origin)),
            Err(stop) => {
                fail(stop, errors);
                return None;
            }
        }
    }
    Some((shape, elements))
}

/// Rule: a computed constant's sizes are all written (`tensor<64xi32>`),
/// since there is no value to take a `?` from. The error is at the `?`.
fn written_shape(def: &ConstantSyntax, errors: &mut Errors) -> Option<Vec<u64>> {
    let mut shape = Vec::new();
    for d in &def.shape {
        match d {
            DimSize::Static(n, _) => shape.push(*n),
            DimSize::Dynamic(at) => {
                errors.error(
                    *at,
                    format!(
                        "`{}` is computed, so its sizes cannot come from a value: write this \
                         size",
                        def.name
                    ),
                );
                return None;
            }
        }
    }
    Some(shape)
}

/// Rule: the closure names one index variable per dimension, each once.
fn check_indices(
    def: &ConstantSyntax,
    span: Span,
    indices: &[Ident],
    errors: &mut Errors,
) -> Option<()> {
    if indices.len() != def.shape.len() {
        let example: Vec<String> = (0..def.shape.len())
            .map(|d| {
                ["i", "j", "k", "l", "m", "n"]
                    .get(d)
                    .map_or(format!("i{d}"), |s| s.to_string())
            })
            .collect();
        errors.error(
            span,
            format!(
                "`{}` has {} dimension(s) but the closure names {} index variable(s): write \
                 `compute(|{}| ..)`",
                def.name,
                def.shape.len(),
                indices.len(),
                example.join(", ")
            ),
        );
        return None;
    }
    for (n, id) in indices.iter().enumerate() {
        if indices[..n].contains(id) {
            errors.error(
                id.span(),
                format!(
                    "`{id}` names two dimensions of `{}`; name each once",
                    def.name
                ),
            );
            return None;
        }
    }
    Some(())
}

/// Rule: the body reads constants declared before this one, not itself.
/// Each once, in order of first use.
fn operands<'m>(
    def: &ConstantSyntax,
    body: &ExprSyntax,
    model: &'m Model,
    errors: &mut Errors,
) -> Option<Vec<&'m Constant>> {
    let mut names: Vec<&Ident> = Vec::new();
    body.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            if !names.contains(&&a.tensor) {
                names.push(&a.tensor);
            }
        }
    });
    let mut found = Vec::new();
    let mut ok = true;
    for name in names {
        if *name == def.name {
            errors.error(
                name.span(),
                format!("`{}` = compute(..) reads `{name}` itself", def.name),
            );
            ok = false;
        } else if let Some(c) = model.constants.iter().find(|c| c.name == *name) {
            found.push(c);
        } else if model.constant_stubs.iter().any(|c| c.name == *name) {
            // Its own errors say what is wrong.
            ok = false;
        } else {
            let known: Vec<String> = model.constants.iter().map(|c| c.name.to_string()).collect();
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            errors.error(
                name.span(),
                format!(
                    "`{}` = compute(..) reads constants declared before it in this block; \
                     there is no constant `{name}` before it{}",
                    def.name,
                    did_you_mean(&name.to_string(), &known)
                ),
            );
            ok = false;
        }
    }
    ok.then_some(found)
}

/// `name: &tensor<shape x elem>` (dense), or `&mut` for the result.
fn param(name: &Ident, shape: &[u64], elem: ValueType, output: bool, span: Span) -> ParamSyntax {
    ParamSyntax {
        name: name.clone(),
        ty: ParamTypeSyntax::Tensor(TensorParamSyntax {
            amp_span: span,
            mutable: output.then_some(span),
            tensor_span: span,
            shape: shape.iter().map(|&n| DimSize::Static(n, span)).collect(),
            elem: ElemSyntax {
                name: elem.mlir_name().to_string(),
                span,
            },
            encoding: None,
        }),
    }
}

/// A constant's values by dimension coordinates. Rule: a pattern
/// constant (`explicitVal`, no values stored) is not read.
fn reader(
    def: &ConstantSyntax,
    c: &Constant,
    model: &Model,
    span: Span,
    errors: &mut Errors,
) -> Option<Reader> {
    match &c.data {
        ConstData::Dense(values) => Some(Reader::Dense(values.clone())),
        ConstData::Sparse(storage) => {
            let enc = model.encoding(&storage.encoding.to_string())?;
            let rank = c.shape.len();
            let slots = storage.slots.len() / enc.levels.len().max(1);
            if storage.values.len() != slots {
                errors.error(
                    span,
                    format!(
                        "`{}` = compute(..) reads `{}`, whose encoding `#{}` stores no values \
                         (`explicitVal`); give `{}` its values, or write the value in the \
                         expression",
                        def.name, c.name, storage.encoding, c.name
                    ),
                );
                return None;
            }
            let dims = super::constant_shared::slot_coordinates(storage, enc, rank);

            let mut map: HashMap<Box<[u64]>, Scalar> = HashMap::new();
            let coords: Vec<&[u64]> = if rank == 0 {
                vec![&[][..]; storage.values.len()]
            } else {
                dims.chunks(rank).collect()
            };
            for (crd, &v) in coords.into_iter().zip(&storage.values) {
                let sum = match map.get(crd) {
                    Some(&old) => add(old, v, c.elem),
                    None => v,
                };
                map.insert(crd.into(), sum);
            }
            Some(Reader::Sparse(map))
        }
    }
}

/// Repeated entries of a constant sum (a non-unique COO level).
fn add(a: Scalar, b: Scalar, elem: ValueType) -> Scalar {
    match (a, b) {
        (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(x + y),
        (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(x + y),
        (Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(super::constant_eval::wrap(x + y, elem)),
        (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(x || y),
        (other, _) => other,
    }
}

/// Each index variable's size: the dimension it indexes plainly.
fn loop_sizes(kernel: &crate::sparsifier::Kernel, operands: &[Operand]) -> Vec<Option<u64>> {
    let mut sizes = vec![None; kernel.loops.len()];
    for stmt in &kernel.stmts {
        let mut accesses = stmt.rhs.accesses();
        accesses.push(&stmt.lhs);
        for a in accesses {
            for (d, &l) in a.indices.iter().enumerate() {
                if a.is_plain(d) {
                    sizes[l.index()] = Some(operands[a.tensor.index()].shape[d]);
                }
            }
        }
    }
    for &(l, n) in &kernel.ranges {
        sizes[l.index()] = Some(n);
    }
    sizes
}
