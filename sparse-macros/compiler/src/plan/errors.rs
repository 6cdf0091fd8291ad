//! The sparsifier's limits as compile errors: a statement it rejects is
//! sparsified again on its own, so that every [`SparsifyError`] can be put
//! on the access, parameter or statement it is about.

use proc_macro2::Span;

use crate::errors::Errors;
use crate::model::{KernelDef, ParamKind, StmtSpans};
use crate::sparsifier::{sparsify, SparsifyError};

/// Records a spanned error for everything the sparsifier rejects in
/// `def`, statement by statement; errors no single statement explains
/// (between statements) go on the kernel's name.
pub(super) fn report_all(def: &KernelDef, whole: &[SparsifyError], errors: &mut Errors) {
    // A tensor whose encoding the sparsifier cannot walk is reported once,
    // at its parameter, however many statements use it.
    let mut reported_params = Vec::new();
    let mut any = false;
    for (stmt, spans) in def.kernel.stmts.iter().zip(&def.stmt_spans) {
        let Err(found) = sparsify(&def.kernel.with_only(stmt)) else {
            continue;
        };
        any = true;
        for error in found {
            report(def, spans, &error, &mut reported_params, errors);
        }
    }
    if !any {
        for error in whole {
            errors.error(def.name.span(), error);
        }
    }
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
