//! `static W8: tensor<64x256xi8, #CSR> = levels_of(W, values = file("w8.npy"));`:
//! a constant that shares the positions and coordinates of a sparse
//! constant defined before it in the block (an `f32` layer and its int8
//! copy store their pattern once) and has values of its own.
//!
//! Meaning: `W8` stores exactly the entries `W` stores, padding included
//! (the zeros inside BSR blocks, 2:4 padding), each holding the element of
//! the values at that coordinate; the values are a dense value of `W`'s
//! shape (`dense<..>`, `sparse<..>`, a file, a pruning of one). A nonzero
//! value where `W` stores nothing would be lost, so it is an error at the
//! value; a zero where `W` stores an entry is stored (an explicit zero:
//! a weight that quantizes to 0). The encoding must mean what `W`'s means
//! (the same level types, map and widths, hence the same Rust type up to
//! the element), and the sizes must be `W`'s (`?` takes them).
//!
//! The codegen emits only the values and builds the tensor from `W`'s
//! level buffers (`__private::constant_sharing`).

use std::collections::{HashMap, HashSet};

use syn::Ident;

use super::constant::{
    read_value, sizes_text, source_text, value_context, ConstData, Constant, Origin, SparseStorage,
    Value,
};
use super::constant_value::Scalar;
use super::{DimFromLevels, Encoding, Model, ValueType};
use crate::errors::Errors;
use crate::suggest::did_you_mean;
use crate::syntax::{ConstantSyntax, DimSize, InitSyntax};

/// Checks `levels_of(base, values = values)` as the value of `def`;
/// `shared` says a later constant shares this one's levels in turn.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_shared(
    def: &ConstantSyntax,
    base: &Ident,
    values: &InitSyntax,
    elem: ValueType,
    encoding: Option<&Encoding>,
    model: &Model,
    shared: bool,
    errors: &mut Errors,
) -> Option<Constant> {
    let before = errors.len();
    let (base_const, storage, enc) = resolve_base(def, base, encoding, model, errors)?;
    check_sizes(def, base_const, errors)?;
    let ctx = value_context(values);
    // The values are read at the shared constant's sizes (`?` included),
    // so a `sparse<..>` literal needs no sizes of its own.
    let sized = ConstantSyntax {
        attrs: Vec::new(),
        vis: def.vis.clone(),
        name: def.name.clone(),
        tensor_span: def.tensor_span,
        elem: def.elem.clone(),
        encoding: def.encoding.clone(),
        shape: def
            .shape
            .iter()
            .zip(&base_const.shape)
            .map(|(d, &n)| DimSize::Static(n, d.span()))
            .collect(),
        init: InitSyntax::File {
            path: String::new(),
            span: ctx.span,
        },
    };
    let (shape, value, file) = read_value(&sized, values, elem, encoding, &ctx, errors)?;
    if shape != base_const.shape {
        errors.error(
            ctx.span,
            format!(
                "the values of `{}` are {} but `{base}` is {}: `levels_of` reads one value per \
                 stored entry of `{base}`, from a value of its shape",
                def.name,
                sizes_text(&shape),
                sizes_text(&base_const.shape)
            ),
        );
        return None;
    }
    let dims = slot_coordinates(storage, enc, shape.len());
    let stored = laid_out(def, base, &shape, &dims, value, elem, &ctx, errors)?;
    if errors.len() > before {
        return None;
    }
    Some(Constant {
        name: def.name.clone(),
        attrs: def.attrs.clone(),
        vis: def.vis.clone(),
        elem,
        shape,
        data: ConstData::Sparse(SparseStorage {
            encoding: enc.name.clone(),
            lvl_sizes: storage.lvl_sizes.clone(),
            levels: storage.levels.clone(),
            values: stored,
            entries: storage.entries,
            slots: if shared {
                storage.slots.clone()
            } else {
                Vec::new()
            },
        }),
        file,
        source: source_text(&def.init),
        shares: Some(base.clone()),
    })
}

/// Rule: `levels_of` names a sparse constant defined earlier in the block,
/// whose encoding means what this constant's does. `levels_of(V, ..)` with
/// no constant `V` before it is an error at `V`.
fn resolve_base<'m>(
    def: &ConstantSyntax,
    base: &Ident,
    encoding: Option<&'m Encoding>,
    model: &'m Model,
    errors: &mut Errors,
) -> Option<(&'m Constant, &'m SparseStorage, &'m Encoding)> {
    let Some(found) = model.constants.iter().find(|c| c.name == *base) else {
        // A base whose own value failed has its errors already.
        if !model.constant_stubs.iter().any(|c| c.name == *base) {
            let names: Vec<String> = model.constants.iter().map(|c| c.name.to_string()).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            errors.error(
                base.span(),
                format!(
                    "`levels_of` shares the positions and coordinates of a sparse constant \
                     defined before `{}` in this block, but there is no constant `{base}` \
                     before it{}",
                    def.name,
                    did_you_mean(&base.to_string(), &refs)
                ),
            );
        }
        return None;
    };
    let ConstData::Sparse(storage) = &found.data else {
        errors.error_with_note(
            base.span(),
            format!(
                "`{base}` has no encoding (a plain array), so it has no positions or coordinates \
                 to share; `levels_of` takes a sparse constant"
            ),
            found.name.span(),
            format!("`{base}` is defined here"),
        );
        return None;
    };
    let base_enc = model.encoding(&storage.encoding.to_string())?;
    let Some(enc) = encoding else {
        errors.error(
            def.tensor_span,
            format!(
                "`{}` shares the levels of `{base}`, so it is stored as `{base}` is: give it \
                 `{base}`'s encoding, `#{}`",
                def.name, storage.encoding
            ),
        );
        return None;
    };
    if !enc.same_meaning(base_enc) {
        errors.error_with_note(
            def.encoding.as_ref().map_or(def.tensor_span, Ident::span),
            format!(
                "`{}` has the encoding `#{}`, but `{base}` is stored under `#{}`, which differs \
                 (level types, map, widths or explicitVal); a constant sharing `{base}`'s \
                 positions and coordinates reads them as `{base}` does: give it `#{}`",
                def.name, enc.name, storage.encoding, storage.encoding
            ),
            found.name.span(),
            format!("`{base}` is defined here"),
        );
        return None;
    }
    if enc.explicit_val.is_some() {
        errors.error(
            def.tensor_span,
            format!(
                "`#{}` is a pattern encoding (explicitVal): it stores no values, so a constant \
                 sharing `{base}`'s levels would be `{base}` itself; use `{base}`",
                enc.name
            ),
        );
        return None;
    }
    Some((found, storage, enc))
}

/// Rule: the sizes are the shared constant's. `levels_of(W, ..)` with `W`
/// 64x256 as a `tensor<64x128xi8, ..>` is an error at the type.
fn check_sizes(def: &ConstantSyntax, base: &Constant, errors: &mut Errors) -> Option<()> {
    let fits = def.shape.len() == base.shape.len()
        && def.shape.iter().zip(&base.shape).all(|(d, &n)| match d {
            DimSize::Static(want, _) => *want == n,
            DimSize::Dynamic(_) => true,
        });
    if fits {
        return Some(());
    }
    let written: Vec<String> = def
        .shape
        .iter()
        .map(|d| d.value().map_or("?".to_string(), |v| v.to_string()))
        .collect();
    errors.error(
        def.tensor_span,
        format!(
            "`{}` is {} but `{}`, whose levels it shares, is {}; write `{}`'s sizes (or `?`)",
            def.name,
            written.join("x"),
            base.name,
            sizes_text(&base.shape),
            base.name
        ),
    );
    None
}

/// The dimension coordinates of every stored value of `storage`, `rank`
/// per value, from the level coordinates the layout recorded.
pub(super) fn slot_coordinates(storage: &SparseStorage, enc: &Encoding, rank: usize) -> Vec<u64> {
    let lvl = enc.levels.len().max(1);
    let mut out = Vec::with_capacity(storage.slots.len() / lvl * rank);
    for lc in storage.slots.chunks(lvl) {
        for from in enc.lvl_to_dim.iter().take(rank) {
            out.push(match *from {
                DimFromLevels::Level(l) => lc[usize::from(l.0)],
                DimFromLevels::Block { outer, inner, size } => {
                    lc[usize::from(outer.0)] * u64::from(size) + lc[usize::from(inner.0)]
                }
            });
        }
    }
    out
}

/// The values at the stored coordinates `dims` (`rank` per value), in
/// storage order; a nonzero value elsewhere is an error.
#[allow(clippy::too_many_arguments)]
fn laid_out(
    def: &ConstantSyntax,
    base: &Ident,
    shape: &[u64],
    dims: &[u64],
    value: Value,
    elem: ValueType,
    ctx: &super::constant::ConstContext,
    errors: &mut Errors,
) -> Option<Vec<Scalar>> {
    let rank = shape.len();
    let slots: Vec<&[u64]> = if rank == 0 {
        vec![&[][..]; usize::from(!dims.is_empty())]
    } else {
        dims.chunks(rank).collect()
    };
    // Every written value, by coordinate (a dense value by its row-major
    // position), with where it was written.
    let mut written: HashMap<Vec<u64>, (Scalar, Origin)> = HashMap::new();
    match value {
        Value::Elements(elements) => {
            for (flat, (v, origin)) in elements.into_iter().enumerate() {
                if !v.is_zero() {
                    written.insert(unflatten(flat as u64, shape), (v, origin));
                }
            }
        }
        Value::Entries(entries) | Value::Array(entries) => {
            for e in 0..entries.len() {
                let (v, origin) = (entries.values[e], entries.origins[e]);
                if written
                    .insert(entries.crd(e).to_vec(), (v, origin))
                    .is_some()
                {
                    errors.error(
                        origin.span,
                        format!(
                            "the values of `{}` give {} twice{}; each stored entry takes one \
                             value",
                            def.name,
                            entries.describe(e),
                            ctx.line(origin)
                        ),
                    );
                    return None;
                }
            }
        }
    }
    let stored: HashSet<&[u64]> = slots.iter().copied().collect();
    let mut lost: Vec<(&Vec<u64>, &(Scalar, Origin))> = written
        .iter()
        .filter(|(crd, (v, _))| !v.is_zero() && !stored.contains(crd.as_slice()))
        .collect();
    if !lost.is_empty() {
        lost.sort_by(|a, b| a.0.cmp(b.0));
        let (crd, (v, origin)) = lost[0];
        let at: Vec<String> = crd.iter().map(u64::to_string).collect();
        errors.error(
            origin.value,
            format!(
                "the values of `{}` hold {} at ({}){}, where `{base}` stores no entry ({} such \
                 value(s)); a constant sharing `{base}`'s levels stores exactly `{base}`'s \
                 entries: make these values zero, or give `{}` levels of its own",
                def.name,
                v.describe(),
                at.join(", "),
                ctx.line(*origin),
                lost.len(),
                def.name
            ),
        );
        return None;
    }
    Some(
        slots
            .iter()
            .map(|crd| written.get(*crd).map_or(Scalar::zero(elem), |(v, _)| *v))
            .collect(),
    )
}

/// The coordinates of row-major position `flat` in a tensor of `shape`.
fn unflatten(mut flat: u64, shape: &[u64]) -> Vec<u64> {
    let mut crd = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        crd[d] = flat % shape[d].max(1);
        flat /= shape[d].max(1);
    }
    crd
}
