//! Checks of tensor types: element type, encoding reference, rank, and
//! coordinate widths against static sizes.

use syn::Visibility;

use super::elem::ValueType;
use super::{Encoding, Model, TensorType};
use crate::errors::Errors;
use crate::suggest::{backquoted, did_you_mean};
use crate::syntax::{DimSize, TypeDef};
use crate::vocab::{LevelExpr, Width};

pub(super) fn check_type(
    def: &TypeDef,
    model: &Model,
    failed: &[String],
    errors: &mut Errors,
) -> Option<TensorType> {
    let before = errors.len();
    let elem = super::elem::check(&def.elem, errors);
    if let Some(name) = &def.encoding {
        let key = name.to_string();
        match model.encoding(&key) {
            Some(enc) => {
                if check_rank(def, enc, errors) {
                    check_crd_width(def, enc, errors);
                    check_slice_sizes(def, enc, errors);
                }
                if let Some(elem) = elem {
                    check_value_types(def, elem, enc, errors);
                }
            }
            // The encoding's own errors were reported; a second one here
            // would only be noise.
            None if failed.contains(&key) => return None,
            None => check_defined(name, model, errors),
        }
    }
    if errors.len() > before {
        return None;
    }
    Some(TensorType {
        name: def.name.clone(),
        attrs: def.attrs.clone(),
        vis: match &def.vis {
            Visibility::Inherited => syn::parse_quote!(pub),
            vis => vis.clone(),
        },
        shape: def.shape.iter().map(|s| s.value()).collect(),
        shape_spans: def.shape.iter().map(|s| s.span()).collect(),
        elem: elem?,
        encoding: def.encoding.clone(),
    })
}

/// Rule: a tensor type names an encoding of the same block.
/// `type A = tensor<4x4xf32, #CSX>;` with no `#CSX` is an error at `CSX`.
fn check_defined(name: &syn::Ident, model: &Model, errors: &mut Errors) {
    let names: Vec<String> = model
        .encodings
        .iter()
        .map(|e| format!("#{}", e.name))
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let listed = if names.is_empty() {
        "this block defines no encoding".to_string()
    } else {
        format!("this block defines {}", backquoted(&refs))
    };
    errors.error(
        name.span(),
        format!(
            "undefined encoding `#{name}`: {listed}{}",
            did_you_mean(&format!("#{name}"), &refs)
        ),
    );
}

/// Rule: a sliced dimension's size is its slice's size (MLIR's
/// `tensor.extract_slice ... to tensor<64x64xf64, #Slice>`), so a static
/// size and a static slice size must agree. `tensor<4x8xf64, #S>` with
/// `i : #sparse_tensor<slice(0, 2, 1)>` is an error at `4`.
fn check_slice_sizes(def: &TypeDef, enc: &Encoding, errors: &mut Errors) {
    for (d, (dim, size)) in enc.dims.iter().zip(&def.shape).enumerate() {
        let (Some(Some(slice_size)), DimSize::Static(n, span)) = (dim.slice.map(|s| s.size), *size)
        else {
            continue;
        };
        if n != slice_size {
            errors.error(
                span,
                format!(
                    "dimension {d} has size {n}, but `#{}` slices it to {slice_size} \
                     coordinates (`slice(.., {slice_size}, ..)`): a sliced tensor's size is its \
                     slice's; write {slice_size} (or `?`)",
                    enc.name
                ),
            );
        }
    }
}

/// Rule: the type has as many sizes as the encoding has dimensions.
/// `tensor<4xf32, #CSR>` is an error (CSR has two dimensions).
fn check_rank(def: &TypeDef, enc: &Encoding, errors: &mut Errors) -> bool {
    if def.shape.len() == enc.dims.len() {
        return true;
    }
    let dims: Vec<String> = enc.dims.iter().map(|d| d.name.to_string()).collect();
    errors.error(
        def.shape.first().map_or(def.elem.span, |s| s.span()),
        format!(
            "this tensor type has {} dimension(s) but its encoding `#{}` has {} ({}); write \
             one size per dimension of `#{}`, or use an encoding with {} dimension(s)",
            def.shape.len(),
            enc.name,
            enc.dims.len(),
            dims.join(", "),
            enc.name,
            def.shape.len()
        ),
    );
    false
}

/// Rule: `crdWidth` holds every coordinate a static size gives to a level
/// that stores coordinates.
/// `type A = tensor<300x300xf32, #CSR8>;` with `crdWidth = 8` is an error
/// at `300x300xf32`: the column coordinates reach 299 > 255.
fn check_crd_width(def: &TypeDef, enc: &Encoding, errors: &mut Errors) {
    let mut reported = Vec::new();
    for level in &enc.levels {
        if !level.ty.has_coordinates() {
            continue;
        }
        let d = level.expr.dim();
        let Some(DimSize::Static(size, span)) = def.shape.get(d).copied() else {
            continue;
        };
        let level_size = match level.expr {
            LevelExpr::Dim(_) => size,
            LevelExpr::FloorDiv { divisor, .. } => size.div_ceil(u64::from(divisor)),
            LevelExpr::Mod { modulus, .. } => u64::from(modulus).min(size),
            LevelExpr::Counting { slices, .. } => u64::from(slices),
        };
        let Some(largest) = level_size.checked_sub(1) else {
            continue;
        };
        if largest <= enc.crd_width.max_value() || reported.contains(&d) {
            continue;
        }
        reported.push(d);
        let fits = [Width::W8, Width::W16, Width::W32, Width::W64]
            .into_iter()
            .find(|w| largest <= w.max_value())
            .map_or(64, bits);
        errors.error(
            span,
            format!(
                "dimension {d} of size {size} needs coordinates up to {largest}, which do not \
                 fit the {}-bit coordinates of `#{}` (at most {}); use `crdWidth = {fits}` \
                 (or 0 for `usize`)",
                bits(enc.crd_width),
                enc.name,
                enc.crd_width.max_value()
            ),
        );
    }
}

fn bits(width: Width) -> u32 {
    match width {
        Width::Native => usize::BITS,
        Width::W2 => 2,
        Width::W8 => 8,
        Width::W16 => 16,
        Width::W32 => 32,
        Width::W64 => 64,
    }
}

/// Rule: an encoding's `explicitVal`/`implicitVal` have the element type of
/// the tensors that use it (MLIR requires the same type).
/// `explicitVal = 1 : i64` with `tensor<8x8xf64, #DCSC>` is an error at
/// `8x8xf64`.
fn check_value_types(def: &TypeDef, elem: ValueType, enc: &Encoding, errors: &mut Errors) {
    for (field, value) in [
        ("explicitVal", &enc.explicit_val),
        ("implicitVal", &enc.implicit_val),
    ] {
        if let Some(value) = value {
            if value.ty != elem {
                errors.error(
                    def.elem.span,
                    format!(
                        "element type `{}` differs from the type of `#{}`'s {field} (`{}`); \
                         use `{}` or change the {field}",
                        elem.mlir_name(),
                        enc.name,
                        value.ty.mlir_name(),
                        value.ty.mlir_name()
                    ),
                );
                return;
            }
        }
    }
}
