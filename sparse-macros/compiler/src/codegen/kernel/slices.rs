//! Sliced operands (`#S` with `#sparse_tensor<slice(offset, size,
//! stride)>` dimensions), passed as `SliceView`s of the tensor the
//! encoding stores without its slices.
//!
//! The prologue checks every static slice parameter against the view
//! (`KernelError::SliceMismatch`; `?` ones are free, and the sizes are the
//! view's `dim_sizes`, checked like any operand's). Then either:
//! - the slice is walked in place (stride 1, see
//!   `sparsifier::reorder::read_slices_through_copies`): its accesses
//!   carry the subscript `i + offset` on each sliced dimension
//!   (`Affine::slice`), the prologue binds each offset to a local
//!   (`slice_offsets`), and the loops read the view's underlying tensor
//!   (`a.tensor()`), whose level sizes are the whole tensor's. No read
//!   leaves the tensor: `extract_slice` guarantees `offset + size <= n`
//!   for the whole dimension size `n`, the index variable `i` runs below
//!   the slice's size (the view's `dim_sizes`, checked like any
//!   operand's), so a dense level is addressed at `offset + i < n`, and a
//!   compressed level is walked over the positions whose coordinates lie
//!   in `offset .. offset + size` (`affine.rs`, `window`), where
//!   `c - offset < size`;
//! - or the prologue converts the slice into the compact workspace copy
//!   the loops read (`__private::reorder_slice`, see `sparsifier::reorder`).
//!
//! A statement that only copies a slice into a sparse output converts it
//! there (`__private::convert_slice_into`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::Gen;
use crate::model::{ElemType, Encoding, Param, ParamKind};
use crate::plan::KernelPlan;
use crate::sparsifier::{TensorDesc, TensorId};

/// `fn(V, V) -> V` adding two repeats of a coordinate as the kernel means
/// them (wrapping for integers, `|` for `i1`).
pub(super) fn merge_fn(elem: ElemType) -> TokenStream {
    let ty = super::elem_type(elem);
    match elem {
        ElemType::Bool => quote!(|x: #ty, y: #ty| x | y),
        e if e.is_float() => quote!(|x: #ty, y: #ty| x + y),
        _ => quote!(|x: #ty, y: #ty| #ty::wrapping_add(x, y)),
    }
}

/// The doc paragraph of the workspace `p`, a copy of `source`, if
/// `source` is a sliced operand: what it holds and what to pass.
pub(super) fn copy_doc(
    kp: &KernelPlan,
    p: &Param,
    source: TensorId,
    copy: &TensorDesc,
    named: &str,
) -> Option<String> {
    let def = &kp.def;
    let encoding = def.params.iter().find_map(|q| match &q.kind {
        ParamKind::Sparse {
            tensor, encoding, ..
        } if *tensor == source => Some(encoding),
        _ => None,
    })?;
    if !kp.encoding_named(encoding)?.is_sliced() {
        return None;
    }
    let src = def.kernel.tensors.get(source.index())?;
    Some(format!(
        " `{}`: a workspace for a compact copy of the slice `{}`{named}: the kernel's loops \
         walk a tensor of the slice's sizes, so the prologue first converts the entries \
         inside the slice into it (`sparse_core::convert::convert_slice`; repeated coordinates keep meaning their sum). \
         Pass an empty sparse output with the slice's sizes, over any buffer family, e.g. \
         `&mut SparseTensorOut::<_, _, Owned, {}, {}>::with_dims({}.dim_sizes())?`; it \
         needs room for every stored entry inside the slice (see `sparse_core::convert` for \
         the exact sizes) and is left holding the copy.",
        p.name,
        src.name,
        copy.dim_count,
        copy.levels.len(),
        src.name,
    ))
}

impl<'a> Gen<'a> {
    /// The encoding of `t` if it is a sliced operand.
    pub(super) fn sliced(&self, t: TensorId) -> Option<&'a Encoding> {
        self.kp.sliced(t)
    }

    /// The local holding the offset of dimension `d` of the slice `t`
    /// walked in place (bound by [`Gen::slice_offsets`]).
    pub(super) fn slice_offset(&self, t: TensorId, d: usize) -> Ident {
        self.tlocal(t, &format!("slice_off{d}"))
    }

    /// The size of dimension `d` of the tensor the slice `t` views: the
    /// size of its level storing `d` (levels are plain dimensions here).
    pub(super) fn whole_dim(&mut self, t: TensorId, d: usize) -> TokenStream {
        let x = self.info(t).ident.clone();
        let name = self.tlocal(t, &format!("whole_dim{d}"));
        let dl = Literal::usize_unsuffixed(d);
        let name = self.declare(
            name,
            Some(quote!(::core::primitive::usize)),
            quote!(#x.tensor().dim_sizes()[#dl]),
        );
        quote!(#name)
    }

    /// Binds the offset of every sliced dimension some statement walks in
    /// place (a subscript with `Affine::slice`), after the checks of
    /// [`Gen::slice_checks`].
    pub(super) fn slice_offsets(&self) -> TokenStream {
        let mut seen: Vec<(TensorId, usize)> = Vec::new();
        for (n, stmt) in self.k.stmts.iter().enumerate() {
            if self.unbound_stmts.contains(&n) {
                continue;
            }
            for a in stmt.rhs.accesses() {
                for (_, sub) in &a.affine {
                    if let Some(key) = sub.slice {
                        if !seen.contains(&key) {
                            seen.push(key);
                        }
                    }
                }
            }
        }
        let mut out = TokenStream::new();
        for (t, d) in seen {
            let x = &self.info(t).ident;
            let off = self.slice_offset(t, d);
            let dl = Literal::usize_unsuffixed(d);
            out.extend(quote!(let #off: ::core::primitive::usize = #x.offsets()[#dl];));
        }
        out
    }

    /// The checks of every static slice parameter of every sliced operand:
    /// offsets and strides against the view's, sizes against its
    /// `dim_sizes` where the type leaves the size `?` (a static size is
    /// the slice's, checked by the shape check).
    pub(super) fn slice_checks(&self) -> TokenStream {
        let private = quote!(::sparse_core::__private);
        let mut out = TokenStream::new();
        for t in 0..self.tensors.len() {
            let t = TensorId(t as u32);
            let Some(enc) = self.sliced(t) else {
                continue;
            };
            let info = self.info(t);
            let x = &info.ident;
            let tensor = &info.name;
            for (d, dim) in enc.dims.iter().enumerate() {
                let Some(slice) = dim.slice else {
                    continue;
                };
                let static_size = info.shape.get(d).copied().flatten().is_some();
                let checks = [
                    (slice.offset, quote!(Offset), quote!(offsets)),
                    (
                        slice.size.filter(|_| !static_size),
                        quote!(Size),
                        quote!(dim_sizes),
                    ),
                    (slice.stride, quote!(Stride), quote!(strides)),
                ];
                for (expected, param, get) in checks {
                    let Some(expected) = expected else {
                        continue;
                    };
                    let dl = Literal::usize_unsuffixed(d);
                    let expected = Literal::u64_unsuffixed(expected);
                    out.extend(quote! {
                        if #x.#get()[#dl] != #expected {
                            return ::core::result::Result::Err(#private::slice_mismatch(
                                &#private::SliceSite {
                                    tensor: #tensor,
                                    dim: #dl,
                                    param: #private::SliceParam::#param,
                                },
                                #x.#get()[#dl],
                                #expected,
                            ));
                        }
                    });
                }
            }
        }
        out
    }
}
