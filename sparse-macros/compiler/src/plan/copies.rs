//! Reordered copies: where no loop order visits every sparse operand in
//! its storage order, the kernel reads some inputs through copies stored
//! in the order its loops need ([`reorder`]), each a workspace parameter
//! appended to the kernel.

use crate::model::{KernelDef, Model, ParamKind};
use crate::sparsifier::reorder;

/// Rewrites `def` to read reordered copies where the sparsifier needs
/// them, appending one workspace parameter per copy (the copies are the
/// kernel's last tensors, so `TensorId(k)` stays the `k`-th tensor
/// parameter).
pub(super) fn add_reorderings(def: &mut KernelDef, model: &Model) {
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
