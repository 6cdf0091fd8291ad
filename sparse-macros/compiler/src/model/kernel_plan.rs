//! The sparsifier's limits as compile errors: each statement of a checked
//! kernel is sparsified on its own, so that every [`SparsifyError`] can be
//! put on the access, parameter or statement it is about.

use proc_macro2::Span;

use super::kernel::{KernelDef, ParamKind};
use super::kernel_check::StmtSpans;
use super::Model;
use crate::errors::Errors;
use crate::sparsifier::{reorder, sparsify, SparsifyError};

/// Rewrites `def` to read reordered copies where the sparsifier needs
/// them, appending one workspace parameter per copy (the copies are the
/// kernel's last tensors, so `TensorId(k)` stays the `k`-th tensor
/// parameter).
fn add_reorderings(def: &mut KernelDef, model: &Model) {
    let (kernel, made) = reorder::resolve_with_slices(&def.kernel, &sliced_inputs(def, model));
    if made.is_empty() {
        // Slices walked in place rewrite statements without copies.
        def.kernel = kernel;
        return;
    }
    let mut params = Vec::new();
    for r in &made {
        let source = def
            .params
            .iter()
            .find(|p| p.kind.tensor() == Some(r.source))
            .map(|p| p.kind.clone());
        let Some(ParamKind::Sparse { encoding, elem, .. }) = source else {
            // Only sparse parameters are reordered; anything else leaves
            // the kernel as written, and its conflict is reported.
            return;
        };
        let name = kernel.tensor_name(r.copy).to_string();
        params.push(crate::model::Param {
            name: syn::Ident::new(&name, def.name.span()),
            kind: ParamKind::Reordered {
                tensor: r.copy,
                source: r.source,
                encoding,
                elem,
            },
        });
    }
    def.params.extend(params);
    def.kernel = kernel;
}

/// The tensors of `def`'s sparse inputs whose encoding slices a
/// dimension (`#sparse_tensor<slice(..)>`), with their sliced dimensions
/// when every slice's stride is 1 at compile time: the kernel walks those
/// in place where it can, and reads the rest through compact copies of
/// the slice.
fn sliced_inputs(def: &KernelDef, model: &Model) -> Vec<reorder::SlicedInput> {
    def.params
        .iter()
        .filter_map(|p| match &p.kind {
            ParamKind::Sparse {
                tensor,
                encoding,
                mutable: false,
                ..
            } => model
                .encoding(&encoding.to_string())
                .filter(|e| e.is_sliced())
                .map(|e| {
                    let slices = e
                        .dims
                        .iter()
                        .enumerate()
                        .filter_map(|(d, dim)| Some((d, dim.slice?)));
                    let unit_stride = slices
                        .map(|(d, s)| (s.stride == Some(1)).then_some(d))
                        .collect::<Option<Vec<usize>>>();
                    reorder::SlicedInput {
                        tensor: *tensor,
                        unit_stride,
                    }
                }),
            _ => None,
        })
        .collect()
}

/// Records a spanned error for everything the sparsifier rejects in `def`;
/// returns whether it accepted every statement. Statements whose loop
/// order conflicts are first rewritten to read reordered copies of some
/// inputs where that resolves them ([`reorder::resolve`]), each copy
/// becoming a workspace parameter of `def`.
pub(super) fn check_plan(
    def: &mut KernelDef,
    model: &Model,
    spans: &[StmtSpans],
    errors: &mut Errors,
) -> bool {
    add_reorderings(def, model);
    let mut ok = true;
    // A tensor whose encoding the sparsifier cannot walk is reported once,
    // at its parameter, however many statements use it.
    let mut reported_params = Vec::new();
    for (stmt, spans) in def.kernel.stmts.iter().zip(spans) {
        let Err(found) = sparsify(&def.kernel.with_only(stmt)) else {
            continue;
        };
        ok = false;
        for error in found {
            report(def, spans, &error, &mut reported_params, errors);
        }
    }
    ok
}

fn report(
    def: &KernelDef,
    spans: &StmtSpans,
    error: &SparsifyError,
    reported_params: &mut Vec<String>,
    errors: &mut Errors,
) {
    use SparsifyError::*;
    let first_access = |tensor: &str| spans.accesses.iter().find(|a| a.0 == tensor);
    let last_access = |tensor: &str| spans.accesses.iter().rev().find(|a| a.0 == tensor);
    let (first, last): (Span, Span) = match error {
        WrongRank { access, .. } | RepeatedIndex { access, .. } => spans
            .accesses
            .iter()
            .find(|a| a.1 == *access)
            .map_or(spans.range, |a| (a.2, a.3)),
        NotAnOutput { .. }
        | SparseOutputRead { .. }
        | SparseOutputAccumulate { .. }
        | InPlaceUpdate { .. }
        | SparseOutputOrder { .. } => spans.accesses.first().map_or(spans.range, |a| (a.2, a.3)),
        NonorderedCoIteration { tensor, .. }
        | AffineSubscript { tensor, .. }
        | UngroupedDuplicates { tensor, .. }
        | SumOrder { tensor, .. } => first_access(tensor).map_or(spans.range, |a| (a.2, a.3)),
        BlockIndex { tensor, .. } => first_access(tensor).map_or(spans.range, |a| (a.2, a.3)),
        InconsistentAccess { tensor } | SparseDivisor { tensor } => {
            last_access(tensor).map_or(spans.range, |a| (a.2, a.3))
        }
        UnsupportedLevel { tensor, .. } | NotAPermutation { tensor } => {
            if reported_params.contains(tensor) {
                return;
            }
            reported_params.push(tensor.clone());
            match encoding_span(def, tensor) {
                Some(span) => (span, span),
                None => first_access(tensor).map_or(spans.range, |a| (a.2, a.3)),
            }
        }
        // The order conflict is reported at the operand the sparsifier
        // suggests changing: the last one it names.
        OrderConflict { tensors, .. } => tensors
            .last()
            .and_then(|t| first_access(t))
            .map_or(spans.range, |a| (a.2, a.3)),
        UnboundedIndex { .. } | TooComplex { .. } => spans.range,
        UnknownTensor { .. } | UnknownIndex { .. } => (def.name.span(), def.name.span()),
    };
    errors.error_range(first, last, error);
}

/// The span of the encoding name in the type of parameter `tensor`.
fn encoding_span(def: &KernelDef, tensor: &str) -> Option<Span> {
    def.params.iter().find_map(|p| match &p.kind {
        ParamKind::Sparse { encoding, .. } if p.name == tensor => Some(encoding.span()),
        _ => None,
    })
}
