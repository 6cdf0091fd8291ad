//! The generated function's doc comment: the user's docs, the loop nest
//! the sparsifier chose with its schedule, and a paragraph per reordering
//! workspace saying what to pass.

use proc_macro2::TokenStream;
use quote::quote;

use super::slices;
use crate::model::ParamKind;
use crate::plan::KernelPlan;
use crate::sparsifier::Kernel;
use crate::vocab::LevelType;

/// The user's docs, a blank line, then the loop tree in a text block.
pub(super) fn doc_lines(kp: &KernelPlan, k: &Kernel) -> TokenStream {
    let (def, plan) = (&kp.def, &kp.loops);
    let has_docs = def.attrs.iter().any(|a| a.path().is_ident("doc"));
    let mut lines = Vec::new();
    if has_docs {
        lines.push(String::new());
    }
    lines.push(" Loop nest chosen by the sparsifier:".to_string());
    lines.push(String::new());
    lines.push(" ```text".to_string());
    for line in plan.text(k).lines() {
        lines.push(format!(" {line}"));
    }
    let schedule = kp.schedule.text(kp);
    if !schedule.is_empty() {
        lines.push(" schedule".to_string());
        lines.extend(schedule.iter().map(|s| format!("   {s}")));
    }
    lines.push(" ```".to_string());
    lines.extend(workspace_docs(kp));
    quote!(#(#[doc = #lines])*)
}

/// A paragraph per reordering workspace: what it holds, why, and what to
/// pass.
fn workspace_docs(kp: &KernelPlan) -> Vec<String> {
    let def = &kp.def;
    use crate::sparsifier::graph::{format_name, map_text};
    let mut lines = Vec::new();
    for p in &def.params {
        let ParamKind::Reordered { tensor, source, .. } = &p.kind else {
            continue;
        };
        let (Some(copy), Some(src)) = (
            def.kernel.tensors.get(tensor.index()),
            def.kernel.tensors.get(source.index()),
        ) else {
            continue;
        };
        let dims: Vec<usize> = copy.levels.iter().map(|(_, e)| e.dim()).collect();
        let types: Vec<LevelType> = copy.levels.iter().map(|&(t, _)| t).collect();
        let named = format_name(&types, &dims).map_or(String::new(), |n| format!(" ({n})"));
        lines.push(String::new());
        if let Some(text) = slices::copy_doc(kp, p, *source, copy, &named) {
            lines.push(text);
            continue;
        }
        lines.push(format!(
            " `{}`: a workspace for a copy of `{}` stored as `{}`{named}. No loop \
             order visits every sparse operand in its storage order, so the kernel reads `{}` \
             through this copy, which it makes first with `sparse_core::convert::convert` \
             (MLIR inserts the same conversion). Pass an empty sparse output with the \
             dimension sizes of `{}`, over any buffer family, e.g. \
             `&mut SparseTensorOut::<_, _, Owned, {}, {}>::with_dims({}.dim_sizes())?`; \
             it needs room for every stored entry of `{}` (see `sparse_core::convert` for \
             the exact sizes) and is left holding the copy.",
            p.name,
            src.name,
            map_text(copy.dim_count, &dims, &types),
            src.name,
            src.name,
            copy.dim_count,
            copy.levels.len(),
            src.name,
            src.name,
        ));
    }
    lines
}
