//! Kernel parameters: tensor types checked as `type` aliases are, scalars
//! kept as written.

use syn::Ident;

use super::exprs::CAST_TYPES;
use super::{Binding, Checker};
use crate::errors::Errors;
use crate::model::kernel::{Param, ParamKind};
use crate::model::{tensor, Encoding, Model, ValueType};
use crate::sparsifier::{TensorDesc, TensorId};
use crate::syntax::{ParamTypeSyntax, TensorParamSyntax, TypeDef};
use crate::vocab::{LevelExpr, LevelFormat};

impl Checker<'_> {
    pub(super) fn check_params(
        &mut self,
        model: &Model,
        failed: &[String],
        errors: &mut Errors,
    ) -> Vec<Param> {
        let mut params = Vec::new();
        for param in &self.def.params {
            // Rule: parameter names are distinct. `fn f(a: ..., a: ...)` is
            // an error at the second `a`.
            if let Some((first, _)) = self.params.iter().find(|(n, _)| *n == param.name) {
                errors.error_with_note(
                    param.name.span(),
                    format!("parameter `{}` is declared twice", param.name),
                    first.span(),
                    format!("`{}` is first declared here", param.name),
                );
                continue;
            }
            let (binding, kind) = match &param.ty {
                ParamTypeSyntax::Scalar(ty) => {
                    let prim = scalar_prim(ty);
                    (
                        Binding::Scalar { prim },
                        Some(ParamKind::Scalar { ty: ty.clone() }),
                    )
                }
                ParamTypeSyntax::Tensor(t) => {
                    let id = TensorId(self.kernel.tensors.len() as u32);
                    match self.check_tensor_param(&param.name, t, id, model, failed, errors) {
                        Some((binding, kind, desc)) => {
                            self.kernel.tensors.push(desc);
                            (binding, Some(kind))
                        }
                        None => {
                            // Keep `TensorId(k)` = the k-th tensor parameter.
                            self.kernel
                                .tensors
                                .push(TensorDesc::dense(&param.name.to_string(), 0));
                            let kind = ParamKind::Unresolved {
                                tensor: id,
                                mutable: t.mutable.is_some(),
                            };
                            (Binding::Broken, Some(kind))
                        }
                    }
                }
            };
            self.params.push((param.name.clone(), binding));
            if let Some(kind) = kind {
                params.push(Param {
                    name: param.name.clone(),
                    kind,
                });
            }
        }
        params
    }

    /// The tensor type is checked as a `type` alias would be (element
    /// type, encoding defined, rank, coordinate widths).
    fn check_tensor_param(
        &self,
        name: &Ident,
        t: &TensorParamSyntax,
        id: TensorId,
        model: &Model,
        failed: &[String],
        errors: &mut Errors,
    ) -> Option<(Binding, ParamKind, TensorDesc)> {
        let as_type = TypeDef {
            attrs: Vec::new(),
            vis: syn::Visibility::Inherited,
            name: name.clone(),
            tensor_span: t.tensor_span,
            shape: t.shape.clone(),
            elem: t.elem.clone(),
            encoding: t.encoding.clone(),
        };
        let ty = tensor::check_type(&as_type, model, failed, errors)?;
        let mutable = t.mutable.is_some();
        let binding = Binding::Tensor {
            id,
            elem: ty.elem,
            shape: ty.shape.clone(),
            mutable,
            sparse: t.encoding.is_some(),
        };
        let label = name.to_string();
        match &t.encoding {
            Some(enc_name) => {
                let enc = model.encoding(&enc_name.to_string())?;
                let dense = shape_text(&ty.shape, ty.elem);
                if enc.is_sliced() && !check_sliced(name, t, enc_name, enc, errors) {
                    return None;
                }
                if mutable && !check_insertable(name, t, enc_name, enc, &dense, errors) {
                    return None;
                }
                let levels: Vec<_> = enc.levels.iter().map(|l| (l.ty, l.expr)).collect();
                let mut desc = TensorDesc::sparse(&label, ty.shape.len(), &levels);
                desc.is_output = mutable;
                let kind = ParamKind::Sparse {
                    tensor: id,
                    encoding: enc_name.clone(),
                    elem: ty.elem,
                    shape: ty.shape,
                    mutable,
                };
                Some((binding, kind, desc))
            }
            None => {
                let mut desc = TensorDesc::dense(&label, ty.shape.len());
                desc.is_output = mutable;
                let kind = ParamKind::Dense {
                    tensor: id,
                    elem: ty.elem,
                    shape: ty.shape,
                    mutable,
                };
                Some((binding, kind, desc))
            }
        }
    }
}

/// Rule: a sliced operand (`#S` with `#sparse_tensor<slice(..)>`
/// dimensions, passed as a `SliceView`) is an input whose map stores plain
/// dimensions. A sliced output is an error at the parameter (kernels build
/// whole tensors: write an unsliced output and slice it afterwards); so is
/// a slice of a block or ELL encoding (read through a compact copy, which
/// the kernel makes only for plain maps).
fn check_sliced(
    name: &Ident,
    t: &TensorParamSyntax,
    enc_name: &Ident,
    enc: &Encoding,
    errors: &mut Errors,
) -> bool {
    let unsliced: Vec<String> = enc.dims.iter().map(|d| d.name.to_string()).collect();
    if t.mutable.is_some() {
        errors.error_range(
            name.span(),
            t.last_span(),
            format!(
                "kernels cannot write the sliced output `{name}` (`#{enc_name}` slices its \
                 dimensions): they build whole tensors. Give `{name}` an encoding without \
                 slices (`map = ({}) -> ...`) and take the slice of the result with \
                 `extract_slice`",
                unsliced.join(", ")
            ),
        );
        return false;
    }
    if enc
        .levels
        .iter()
        .any(|l| !matches!(l.expr, LevelExpr::Dim(_)))
    {
        errors.error_range(
            name.span(),
            t.last_span(),
            format!(
                "`{name}` slices `#{enc_name}`, whose levels are not plain dimensions (a block \
                 or counting map); kernels read slices of such encodings only once converted: \
                 convert the slice (`sparse_core::convert::convert_slice`) into an unsliced \
                 encoding and pass that"
            ),
        );
        return false;
    }
    true
}

/// Rule: a sparse output's levels are ones the runtime can append to in
/// level order: dense, compressed (any properties), loose compressed,
/// singleton and, as the last level, `structured[n, m]`, with at least one
/// level that is not dense. A `batch` level, or an n:m level above
/// another, is an error at the parameter, naming the level; so is an
/// all-dense encoding (that is a dense output: drop the encoding).
fn check_insertable(
    name: &Ident,
    t: &TensorParamSyntax,
    enc_name: &Ident,
    enc: &Encoding,
    dense: &str,
    errors: &mut Errors,
) -> bool {
    let mut ok = true;
    for (l, level) in enc.levels.iter().enumerate() {
        let (format, why) = match level.ty.format {
            // The last level may be n:m: insertion pads every group to `n`
            // entries and a group that would get more is a run-time
            // `KernelError::GroupOverflow` naming it.
            LevelFormat::Structured { .. } if l + 1 == enc.levels.len() => continue,
            LevelFormat::Structured { n, m } => (
                format!("structured[{n}, {m}]"),
                "an output's n:m level must be its last level (each group's `n` slots are \
                 padded as the kernel fills them)",
            ),
            LevelFormat::Batch => (
                "batch".to_string(),
                "batch levels are not supported in kernel outputs yet",
            ),
            _ => continue,
        };
        errors.error_range(
            name.span(),
            t.last_span(),
            format!(
                "kernels cannot write sparse output `{name}`: level {l} of `#{enc_name}` is \
                 `{format}`, and {why}; use `compressed` (or `dense`) levels for the output \
                 and convert afterwards"
            ),
        );
        ok = false;
    }
    if ok && enc.levels.iter().all(|l| l.ty.is_dense()) {
        errors.error_range(
            name.span(),
            t.last_span(),
            format!(
                "`#{enc_name}` stores every level densely, so `{name}` is a dense output; \
                 declare it without an encoding, `{name}: &mut tensor<{dense}>`"
            ),
        );
        ok = false;
    }
    ok
}

/// `?x?xf64` for messages.
fn shape_text(shape: &[Option<u64>], elem: ValueType) -> String {
    let mut parts: Vec<String> = shape
        .iter()
        .map(|s| s.map_or("?".to_string(), |n| n.to_string()))
        .collect();
    parts.push(elem.mlir_name().to_string());
    parts.join("x")
}

/// The element type of a scalar parameter, when it is a plain primitive.
fn scalar_prim(ty: &syn::Type) -> Option<ValueType> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let ident = path.path.get_ident()?.to_string();
    if !CAST_TYPES.contains(&ident.as_str()) && ident != "bool" {
        return None;
    }
    ValueType::from_name(&ident)
}
