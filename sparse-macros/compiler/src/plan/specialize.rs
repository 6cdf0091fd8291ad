//! `#[specialize(w = W)]`: binds operand `w` of a kernel to the constant
//! `W` of the same block, whose stored entries are known at expansion
//! time. The schedule (`schedule::specialize`) decides which loops walk
//! them as code; here the two are matched: same encoding, same element
//! type, compatible shapes.

use syn::Ident;

use crate::errors::Errors;
use crate::model::{ConstData, Constant, KernelDef, Model, ParamKind, SparseStorage};
use crate::sparsifier::TensorId;
use crate::suggest::did_you_mean;

/// An operand bound to a constant of the block.
#[derive(Clone, Debug)]
pub struct Specialized {
    /// The operand's tensor in the kernel.
    pub tensor: TensorId,
    /// The parameter the signature no longer has.
    pub param: Ident,
    /// The constant, as checked (its storage is what the loops walk).
    pub constant: Constant,
    /// The most stored entries written out as code.
    pub max_entries: u64,
}

impl Specialized {
    /// The constant's buffers.
    pub fn storage(&self) -> Option<&SparseStorage> {
        match &self.constant.data {
            ConstData::Sparse(s) => Some(s),
            ConstData::Dense(_) => None,
        }
    }
}

/// Rule: in `#[specialize(w = W)]`, `W` is a sparse constant of this block
/// with `w`'s encoding and element type, and every static size `w`
/// declares is `W`'s. Each mismatch is an error at `W` saying both sides.
/// A constant whose own value had errors binds silently to nothing.
pub fn bind(def: &KernelDef, model: &Model, errors: &mut Errors) -> Option<Specialized> {
    let s = def.specialize.as_ref()?;
    let param = def.params.iter().find(|p| p.name == s.param)?;
    let ParamKind::Sparse {
        tensor,
        encoding,
        elem,
        shape,
        mutable: false,
    } = &param.kind
    else {
        return None;
    };
    let name = s.constant.to_string();
    let Some(c) = model.constants.iter().find(|c| c.name == name) else {
        if !model.constant_stubs.iter().any(|c| c.name == name) {
            let names: Vec<String> = model.constants.iter().map(|c| c.name.to_string()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            errors.error(
                s.constant.span(),
                format!(
                    "`#[specialize]`: no constant `{name}` in this block (a `static {name}: \
                     tensor<..., #{encoding}> = ...;` next to the kernel){}",
                    did_you_mean(&name, &names)
                ),
            );
        }
        return None;
    };
    let ConstData::Sparse(storage) = &c.data else {
        errors.error(
            s.constant.span(),
            format!(
                "`#[specialize]`: `{name}` is a dense constant; `{}` is stored as `#{encoding}`: \
                 give `{name}` the encoding `#{encoding}`",
                s.param
            ),
        );
        return None;
    };
    let mut ok = true;
    if storage.encoding != *encoding {
        ok = false;
        errors.error(
            s.constant.span(),
            format!(
                "`#[specialize]`: `{name}` is stored as `#{}`, `{}` is declared `#{encoding}`: \
                 the operand and the constant need the same encoding",
                storage.encoding, s.param
            ),
        );
    }
    if c.elem != *elem {
        ok = false;
        errors.error(
            s.constant.span(),
            format!(
                "`#[specialize]`: `{name}` holds `{}`, `{}` is declared with `{}`",
                c.elem.mlir_name(),
                s.param,
                elem.mlir_name()
            ),
        );
    }
    let sizes_agree = shape.len() == c.shape.len()
        && shape
            .iter()
            .zip(&c.shape)
            .all(|(declared, &n)| declared.is_none_or(|d| d == n));
    if !sizes_agree {
        ok = false;
        let declared: Vec<String> = shape
            .iter()
            .map(|d| d.map_or("?".to_string(), |n| n.to_string()))
            .collect();
        let actual: Vec<String> = c.shape.iter().map(u64::to_string).collect();
        errors.error(
            s.constant.span(),
            format!(
                "`#[specialize]`: `{name}` is {}, `{}` is declared {}",
                actual.join("x"),
                s.param,
                declared.join("x")
            ),
        );
    }
    ok.then(|| Specialized {
        tensor: *tensor,
        param: s.param.clone(),
        constant: c.clone(),
        max_entries: s.max_entries,
    })
}
