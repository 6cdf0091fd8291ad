//! Parameter types and the prologue: every size check a kernel makes
//! before it touches an output.
//!
//! Each index variable gets one size, `__sk_n_<var>`, taken from the first
//! dimension it indexes (parameters in order, dimensions in order); every
//! other dimension it indexes must have that size, and every size a type
//! fixes (`tensor<4x?xf64, #CSR>`, the static sizes of a dense view) must
//! hold. After the prologue every loop bound and every dense index is below
//! the size of each dimension it indexes, which the loops' `SAFETY:`
//! comments rely on.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{elem_type, Gen, Kind};
use crate::model::ParamKind;
use crate::sparsifier::demap::DimPart;
use crate::sparsifier::{LoopId, TensorId};

/// The size of one tensor dimension: a constant from the type, or an
/// expression read at run time.
#[derive(Clone, Debug)]
pub(super) enum Size {
    Static(u64),
    Dynamic(TokenStream),
}

impl Size {
    pub(super) fn tokens(&self) -> TokenStream {
        match self {
            Size::Static(n) => usize_lit(*n),
            Size::Dynamic(t) => t.clone(),
        }
    }
}

/// The generic buffer family of the `k`-th sparse output.
fn buffers_param(k: usize) -> syn::Ident {
    quote::format_ident!("__SkB{}", k)
}

/// The generic buffer family of the `k`-th reordering workspace.
fn workspace_param(k: usize) -> syn::Ident {
    quote::format_ident!("__SkW{}", k)
}

/// `CSROut`: the output alias the block emits next to `CSR`, spanned like
/// the encoding name so it resolves where the user wrote `#CSR`.
pub(super) fn out_alias(encoding: &syn::Ident) -> syn::Ident {
    syn::Ident::new(&format!("{encoding}Out"), encoding.span())
}

fn usize_lit(n: u64) -> TokenStream {
    let lit = Literal::u64_unsuffixed(n);
    quote!(#lit)
}

impl Gen<'_> {
    /// `name: Type` for every parameter, in source order.
    pub(super) fn params(&mut self) -> Vec<TokenStream> {
        let mut out = Vec::new();
        let mut sparse_outputs = 0;
        let mut workspaces = 0;
        for p in &self.def.params {
            let name = &p.name;
            // `#[specialize(w = W)]`: `w` is bound to `W` in the body.
            if self
                .kp
                .specialized
                .as_ref()
                .is_some_and(|s| s.param == *name)
            {
                continue;
            }
            let ty = match &p.kind {
                ParamKind::Scalar { ty } => quote!(#ty),
                ParamKind::Unresolved { mutable, .. } => {
                    let mutability = mutable.then(|| quote!(mut));
                    quote!(&#mutability impl ::core::marker::Sized)
                }
                ParamKind::Sparse {
                    encoding,
                    elem,
                    mutable: true,
                    ..
                } => {
                    let elem = elem_type(*elem);
                    let is = crate::codegen::output_trait(encoding);
                    let b = buffers_param(sparse_outputs);
                    sparse_outputs += 1;
                    quote!(&mut impl #is<#elem, #b>)
                }
                ParamKind::Sparse { encoding, elem, .. } => {
                    let elem = elem_type(*elem);
                    quote!(&#encoding<'_, #elem>)
                }
                ParamKind::Reordered {
                    tensor,
                    encoding,
                    elem,
                    ..
                } => {
                    let w = workspace_param(workspaces);
                    workspaces += 1;
                    let enc = self.reordered_encoding(*tensor, encoding);
                    let elem = elem_type(*elem);
                    let dims = Literal::usize_unsuffixed(
                        self.def
                            .kernel
                            .tensors
                            .get(tensor.index())
                            .map_or(0, |d| d.dim_count),
                    );
                    let lvls = Literal::usize_unsuffixed(
                        self.def
                            .kernel
                            .tensors
                            .get(tensor.index())
                            .map_or(0, |d| d.levels.len()),
                    );
                    quote!(&mut ::sparse_core::__private::SparseTensorOut<#elem, #enc, #w, #dims, #lvls>)
                }
                ParamKind::Dense {
                    elem,
                    shape,
                    mutable,
                    ..
                } => {
                    let elem = elem_type(*elem);
                    let mutability = mutable.then(|| quote!(mut));
                    if shape.is_empty() {
                        quote!(&#mutability #elem)
                    } else if shape.iter().all(Option::is_some) {
                        let mut array = elem;
                        for size in shape.iter().rev() {
                            let n = usize_lit(size.unwrap_or(0));
                            array = quote!([#array; #n]);
                        }
                        quote!(&#mutability #array)
                    } else if shape.len() == 1 {
                        quote!(&#mutability [#elem])
                    } else {
                        let rank = Literal::usize_unsuffixed(shape.len());
                        if *mutable {
                            quote!(::sparse_core::__private::DenseViewMut<'_, #elem, #rank>)
                        } else {
                            quote!(::sparse_core::__private::DenseView<'_, #elem, #rank>)
                        }
                    }
                }
            };
            out.push(quote!(#name: #ty));
        }
        out
    }

    /// The sparse outputs as their alias types, first thing in the body:
    /// `let c: &mut CSROut<f32, __SkB0> = IsCSROut::__sk_output(c);`, after
    /// the `use` of the insertion protocol's trait. The
    /// signature takes them through the `IsCSROut` traits for readable type
    /// errors (see `codegen::output_traits`); the call is an inlined
    /// identity.
    pub(super) fn rebind_outputs(&self) -> TokenStream {
        let mut out = TokenStream::new();
        let mut sparse_outputs = 0;
        for p in &self.def.params {
            let ParamKind::Sparse {
                encoding,
                elem,
                mutable: true,
                ..
            } = &p.kind
            else {
                continue;
            };
            let name = &p.name;
            let elem = elem_type(*elem);
            let is = crate::codegen::output_trait(encoding);
            let alias = out_alias(encoding);
            let b = buffers_param(sparse_outputs);
            sparse_outputs += 1;
            out.extend(quote! {
                let #name: &mut #alias<#elem, #b> = #is::__sk_output(#name);
            });
        }
        // The insertion protocol (`c.begin()`, `c.insert(..)`, ...) is a
        // sealed trait of `__private`, not public methods of the output
        // (unused when the output is only converted into or updated in place).
        if sparse_outputs > 0 {
            out = quote! {
                #[allow(unused_imports)]
                use ::sparse_core::__private::OutputProtocol as _;
                #out
            };
        }
        out
    }

    /// `<__SkB0: OutputBuffers<P, C, V>, ...>`: one buffer family per
    /// sparse output, so the caller picks `Fixed<N>`, `Slices` or `Owned`
    /// per output. Empty without sparse outputs.
    pub(super) fn generics(&self) -> TokenStream {
        let mut bounds = Vec::new();
        for p in &self.def.params {
            let ParamKind::Sparse {
                encoding,
                elem,
                mutable: true,
                ..
            } = &p.kind
            else {
                continue;
            };
            let b = buffers_param(bounds.len());
            let elem = elem_type(*elem);
            let (pos, crd) = self.widths(encoding);
            bounds.push(quote!(#b: ::sparse_core::__private::OutputBuffers<#pos, #crd, #elem>));
        }
        let mut workspaces = 0;
        for p in &self.def.params {
            let ParamKind::Reordered { encoding, elem, .. } = &p.kind else {
                continue;
            };
            let w = workspace_param(workspaces);
            workspaces += 1;
            let elem = elem_type(*elem);
            let (pos, crd) = self.widths(encoding);
            bounds.push(quote!(#w: ::sparse_core::__private::OutputBuffers<#pos, #crd, #elem>));
        }
        if bounds.is_empty() {
            TokenStream::new()
        } else {
            quote!(<#(#bounds),*>)
        }
    }

    /// The position and coordinate types of encoding `encoding`.
    pub(super) fn widths(&self, encoding: &syn::Ident) -> (TokenStream, TokenStream) {
        match self.kp.encoding_named(encoding) {
            Some(enc) => (
                crate::codegen::index_type(enc.pos_width),
                crate::codegen::index_type(enc.crd_width),
            ),
            // Reported at the parameter by `check_unsupported`.
            None => (
                quote!(::core::primitive::usize),
                quote!(::core::primitive::usize),
            ),
        }
    }

    /// `Enc<P, C, (levels..), (map..)>` of the reordered copy `t` of an
    /// input with encoding `encoding`: the source's widths, the copy's
    /// levels, values stored (an `explicitVal` source's value is copied
    /// into each entry: sparse outputs store their values).
    fn reordered_encoding(&self, t: TensorId, encoding: &syn::Ident) -> TokenStream {
        let (pos, crd) = self.widths(encoding);
        let levels = self
            .def
            .kernel
            .tensors
            .get(t.index())
            .map_or(&[][..], |d| &d.levels[..]);
        let types: Vec<_> = levels.iter().map(|&(ty, _)| ty).collect();
        let exprs: Vec<_> = levels.iter().map(|&(_, e)| e).collect();
        crate::codegen::enc_type(&pos, &crd, &types, &exprs, &quote!())
    }

    /// The prologue's second part, after every size check: each reordering
    /// workspace filled from its input and viewed as a tensor for the
    /// loops.
    pub(super) fn reorders(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for p in &self.def.params {
            let ParamKind::Reordered { tensor, source, .. } = &p.kind else {
                continue;
            };
            let view = &self.info(*tensor).ident;
            let src = &self.info(*source).ident;
            let name = p.name.to_string();
            let ws = &p.name;
            if self.sliced(*source).is_some() {
                let merge = super::slices::merge_fn(self.info(*source).elem);
                out.extend(quote! {
                    let #view = ::sparse_core::__private::reorder_slice(#src, #ws, #name, #merge)?;
                });
                continue;
            }
            out.extend(quote! {
                let #view = ::sparse_core::__private::reorder(#src, #ws, #name)?;
            });
        }
        out
    }

    /// The size of dimension `d` of tensor `t` as the kernel indexes it:
    /// in level space for an operand a block map demapped (the block count
    /// of a blocked dimension, the block size within it).
    pub(super) fn dim_size(&self, t: TensorId, d: usize) -> Size {
        let Some(part) = self.info(t).parts.as_ref().and_then(|p| p.get(d)).copied() else {
            return self.declared_dim_size(t, d);
        };
        match part {
            DimPart::Whole(d) => self.declared_dim_size(t, d),
            DimPart::Within { block, .. } => Size::Static(u64::from(block)),
            DimPart::Blocks { dim, block } => match self.declared_dim_size(t, dim) {
                Size::Static(n) => Size::Static(n / u64::from(block)),
                Size::Dynamic(n) => {
                    let b = usize_lit(u64::from(block));
                    Size::Dynamic(quote!(#n / #b))
                }
            },
        }
    }

    /// The static size of dimension `d` of `t` as the kernel indexes it.
    pub(super) fn static_dim(&self, t: TensorId, d: usize) -> Option<u64> {
        match self.dim_size(t, d) {
            Size::Static(n) => Some(n),
            Size::Dynamic(_) => None,
        }
    }

    /// Checks that every dimension a block operand splits is a whole number
    /// of blocks, in every operand indexing it (the reshape of a dense
    /// operand into blocks is exact only then).
    fn block_checks(&mut self) -> TokenStream {
        let private = quote!(::sparse_core::__private);
        let mut out = TokenStream::new();
        let mut checks = Vec::new();
        for (t, info) in self.tensors.iter().enumerate() {
            for part in info.parts.iter().flatten() {
                // Blocks of one divide every size.
                if let DimPart::Blocks { dim, block } = *part {
                    if block > 1 && !checks.contains(&(t, dim, block)) {
                        checks.push((t, dim, block));
                    }
                }
            }
        }
        for (t, dim, block) in checks {
            let t = TensorId(t as u32);
            let tensor = self.info(t).name.clone();
            let b = u64::from(block);
            match self.declared_dim_size(t, dim) {
                Size::Static(n) if n % b != 0 => {
                    let msg = format!(
                        "dimension {dim} of `{tensor}` has size {n}, not a multiple of the block \
                         size {b} this kernel walks it in; pad it with zeros to a multiple of \
                         {b}"
                    );
                    let span = self.span_of(t);
                    self.errors
                        .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
                }
                Size::Static(_) => {}
                Size::Dynamic(n) => {
                    let d = Literal::usize_unsuffixed(dim);
                    let b = usize_lit(b);
                    out.extend(quote! {
                        if #n % #b != 0 {
                            return ::core::result::Result::Err(#private::partial_block(
                                &#private::BlockSite { tensor: #tensor, dim: #d, block: #b },
                                #n,
                            ));
                        }
                    });
                }
            }
        }
        out
    }

    /// The size of dimension `d` of tensor `t` as declared, read by the
    /// prologue (before the dense data locals move `&mut` parameters).
    fn declared_dim_size(&self, t: TensorId, d: usize) -> Size {
        let info = self.info(t);
        if let Some(source) = info.source {
            return self.declared_dim_size(source, d);
        }
        if let Some(Some(n)) = info.shape.get(d) {
            return Size::Static(*n);
        }
        let x = &info.ident;
        let d = Literal::usize_unsuffixed(d);
        Size::Dynamic(match info.kind {
            Kind::Sparse => quote!(#x.dim_sizes()[#d]),
            Kind::View => quote!(#x.dims()[#d]),
            _ => quote!(#x.len()),
        })
    }

    /// The parameter a size of `t` is read from, as size errors name it:
    /// for a workspace copy (reordered or sliced), its input, whose
    /// dimensions it has.
    fn operand_name(&self, t: TensorId) -> String {
        match self.info(t).source {
            Some(source) => self.info(source).name.clone(),
            None => self.info(t).name.clone(),
        }
    }

    /// The dimensions each index variable indexes, parameters in order.
    pub(super) fn bindings(&self) -> Vec<Vec<(TensorId, usize)>> {
        crate::schedule::bindings(self.k, &self.unbound_stmts)
    }

    /// The size checks and the `__sk_n_<var>` sizes.
    pub(super) fn prologue(&mut self) -> TokenStream {
        let private = quote!(::sparse_core::__private);
        let mut out = TokenStream::new();
        // Sizes fixed by a type but read at run time: sparse tensors and
        // the static dimensions of dense views.
        for info in &self.tensors {
            // A reordered copy has its source's sizes, checked there.
            if !matches!(info.kind, Kind::Sparse | Kind::View) || info.source.is_some() {
                continue;
            }
            // A sparse parameter: one check of all its static sizes and
            // one out-of-line call finding the first that differs.
            if info.kind == Kind::Sparse && info.shape.iter().any(Option::is_some) {
                let x = &info.ident;
                let diffs: Vec<TokenStream> = info
                    .shape
                    .iter()
                    .enumerate()
                    .filter_map(|(d, size)| {
                        let n = usize_lit((*size)?);
                        let d = Literal::usize_unsuffixed(d);
                        Some(quote!(#x.dim_sizes()[#d].wrapping_sub(#n)))
                    })
                    .collect();
                // `(d0 - n0) | (d1 - n1) != 0`: one branch, and on Thumb a
                // 2-byte `subs` per size where `!= n0 || != n1` became `eor.w`.
                let check = quote!((#(#diffs)|*) != 0);
                let expected = info.shape.iter().map(|size| match size {
                    Some(n) => {
                        let n = usize_lit(*n);
                        quote!(::core::option::Option::Some(#n))
                    }
                    None => quote!(::core::option::Option::None),
                });
                let tensor = &info.name;
                let shared = if info.mutable {
                    quote!(&*#x)
                } else {
                    quote!(#x)
                };
                out.extend(quote! {
                    if #check {
                        return #private::shapes_error(
                            &#private::ShapesSite { tensor: #tensor, expected: &[#(#expected),*] },
                            #shared,
                        );
                    }
                });
                continue;
            }
            for (d, size) in info.shape.iter().enumerate() {
                let Some(expected) = size else { continue };
                let x = &info.ident;
                let d = Literal::usize_unsuffixed(d);
                let actual = match info.kind {
                    Kind::Sparse => quote!(#x.dim_sizes()[#d]),
                    _ => quote!(#x.dims()[#d]),
                };
                let tensor = &info.name;
                let expected = usize_lit(*expected);
                // The error is built out of line from a promoted constant
                // (see `sparse_core::__private::shape_mismatch`).
                out.extend(quote! {
                    if #actual != #expected {
                        return ::core::result::Result::Err(#private::shape_mismatch(
                            &#private::ShapeSite { tensor: #tensor, dim: #d },
                            #actual,
                            #expected,
                        ));
                    }
                });
            }
        }
        out.extend(self.slice_checks());
        out.extend(self.slice_offsets());
        out.extend(self.block_checks());
        for (l, list) in self.bindings().into_iter().enumerate() {
            let l = LoopId(l as u32);
            // An explicit range (`#[range(k = n)]`) sizes the index; every
            // dimension it indexes by itself must agree with it, as with a
            // first binding (the model checked the static ones).
            if let Some(range) = self.k.range_of(l) {
                let n = self.size(l);
                let size = usize_lit(range);
                out.extend(quote!(let #n: ::core::primitive::usize = #size;));
                for &(t, d) in &list {
                    let tensor = self.operand_name(t);
                    let actual = self.dim_size(t, d).tokens();
                    let d = Literal::usize_unsuffixed(d);
                    out.extend(quote! {
                        if #actual != #n {
                            return ::core::result::Result::Err(#private::shape_mismatch(
                                &#private::ShapeSite { tensor: #tensor, dim: #d },
                                #actual,
                                #n,
                            ));
                        }
                    });
                }
                continue;
            }
            let Some(&(t0, d0)) = list.first() else {
                continue;
            };
            let n = self.size(l);
            let first = self.dim_size(t0, d0);
            let first_tokens = first.tokens();
            out.extend(quote!(let #n: ::core::primitive::usize = #first_tokens;));
            let index = self.k.loop_name(l).to_string();
            let bound_by = self.operand_name(t0);
            for &(t, d) in &list[1..] {
                let size = self.dim_size(t, d);
                if let (Size::Static(a), Size::Static(b)) = (&first, &size) {
                    if a != b {
                        let msg = format!(
                            "index `{index}` has size {a} from dimension {d0} of `{bound_by}` but \
                             size {b} from dimension {d} of `{}`",
                            self.operand_name(t)
                        );
                        let span = self.span_of(t);
                        self.errors
                            .push(quote::quote_spanned!(span=> ::core::compile_error!(#msg);));
                    }
                    continue;
                }
                let tensor = self.operand_name(t);
                let size = size.tokens();
                let (d, d0) = (Literal::usize_unsuffixed(d), Literal::usize_unsuffixed(d0));
                // Out of line, and the whole `Err`: a tail call.
                out.extend(quote! {
                    if #size != #n {
                        return #private::dimension_error(
                            &#private::DimensionSite {
                                tensor: #tensor,
                                dim: #d,
                                index: #index,
                                bound_by: #bound_by,
                                bound_dim: #d0,
                            },
                            #size,
                            #n,
                        );
                    }
                });
            }
        }
        out.extend(self.subscript_checks());
        out
    }
}
