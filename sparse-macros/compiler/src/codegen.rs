//! Stage 3: the checked model → Rust tokens. For now, encodings and tensor
//! types become type aliases of `sparse_core`'s storage types; kernels come
//! with the next stage.
//!
//! For `#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>`:
//!
//! ```text
//! /// ... `#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>`
//! pub type CSR<'a, V> = ::sparse_core::__private::SparseTensor<'a, V,
//!     ::sparse_core::__private::Enc<usize, usize, (dense, compressed), (d0, d1)>, 2, 2>;
//! ```
//!
//! (the level and map markers written with their full paths,
//! `::sparse_core::__private::levels::dense`; `encoding_type.rs`).
//!
//! Next to it comes `CSROut<V, B>`, the `SparseTensorOut` kernels write
//! for `&mut tensor<..., #CSR>` (buffers of the family `B`).
//!
//! An encoding with `explicitVal` (a pattern tensor, no values array) gets
//! a fifth `Enc` parameter, the value packed with its type
//! (`vocab::ExplicitValue::pack`): `explicitVal = 1 : i64` is
//! `Enc<usize, usize, (..), (..), { 110680464442257309697u128 }>`.
//! Without `explicitVal` the parameter is left to its default (0), so those
//! aliases are spelled as before.
//!
//! Each encoding has one spelling, so an encoding written anywhere is the
//! same type; the markers' codes are packed by the same `const fn`s the
//! runtime decodes them with (`vocab`).
//!
//! Generated code reaches the runtime only through `::sparse_core::__private`
//! and names primitive types through `::core::primitive`, so user items
//! called `f32` or `Enc` cannot capture it. Aliases allow non-camel-case
//! names: MLIR names such as `#NV_24` are kept as written.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::errors::Errors;
use crate::model::{Encoding, ParamKind, TensorType, Value};
use crate::plan::Program;
use crate::syntax::LiteralValue;
use crate::vocab::{ExplicitValue, ValueType, Width};

pub mod constant;
pub(crate) mod elem;
mod encoding_type;
pub mod kernel;

pub(crate) use elem::elem_type;
pub(crate) use encoding_type::enc_type;

/// Generates the aliases of every item that storage can represent and the
/// kernels as planned, and records an error for each item it cannot
/// represent yet.
pub fn generate(program: &Program, errors: &mut Errors) -> TokenStream {
    let model = &program.model;
    let mut out = TokenStream::new();
    let mut generated = Vec::new();
    for enc in &model.encodings {
        if check_representable(enc, errors) {
            out.extend(encoding_alias(enc));
            generated.push(enc.name.to_string());
        }
    }
    pattern_outputs(program, errors);
    for ty in &model.types {
        match &ty.encoding {
            Some(name) => {
                if let Some(enc) = model
                    .encoding(&name.to_string())
                    .filter(|_| generated.contains(&name.to_string()))
                {
                    out.extend(sparse_type_alias(ty, enc));
                }
            }
            None => out.extend(dense_type_alias(ty, errors)),
        }
    }
    out.extend(constant::generate(model, &generated));
    out.extend(feature_gates(program));
    for planned in program.kernels.iter().chain(&program.stubs) {
        out.extend(kernel::generate_kernel(planned));
    }
    out
}

/// Rule: elements beyond `core`'s primitives need the sparse-core feature
/// that brings their crate (`complex`, `half`). The macro cannot see
/// features, so it invokes sparse-core's gate once per feature, at the
/// first item that uses such elements: nothing with the feature, a compile
/// error there that names it without.
fn feature_gates(program: &Program) -> TokenStream {
    let model = &program.model;
    let kernels = program.kernels.iter().chain(&program.stubs);
    let params = kernels.flat_map(|k| {
        k.def.params.iter().filter_map(|p| match &p.kind {
            ParamKind::Sparse { elem, .. } | ParamKind::Dense { elem, .. } => {
                Some((*elem, p.name.span()))
            }
            _ => None,
        })
    });
    let used: Vec<(ValueType, proc_macro2::Span)> = model
        .types
        .iter()
        .map(|t| (t.elem, t.name.span()))
        .chain(model.constants.iter().map(|c| (c.elem, c.name.span())))
        .chain(model.constant_stubs.iter().map(|c| (c.elem, c.name.span())))
        .chain(params)
        .collect();
    let mut out = TokenStream::new();
    let gates = [
        (
            ValueType::is_complex as fn(ValueType) -> bool,
            "require_complex",
        ),
        (ValueType::is_half, "require_half"),
    ];
    for (needs, gate) in gates {
        if let Some(&(_, span)) = used.iter().find(|(t, _)| needs(*t)) {
            let gate = format_ident!("{}", gate, span = span);
            out.extend(quote::quote_spanned!(span=> ::sparse_core::__private::#gate! {}));
        }
    }
    out
}

/// Rule: a sparse output (`&mut tensor<..., #ENC>`) has no `explicitVal`:
/// kernels write outputs by inserting values, and a pattern tensor stores
/// none. `SparseTensorOut::new` refuses such an encoding too
/// (`AssembleError::PatternOutput`); this says so at the parameter.
fn pattern_outputs(program: &Program, errors: &mut Errors) {
    let model = &program.model;
    for def in program.kernels.iter().chain(&program.stubs).map(|k| &k.def) {
        for param in &def.params {
            let ParamKind::Sparse {
                encoding,
                mutable: true,
                ..
            } = &param.kind
            else {
                continue;
            };
            let explicit = model
                .encoding(&encoding.to_string())
                .and_then(|enc| enc.explicit_val.as_ref());
            if explicit.is_some() {
                errors.error(
                    param.name.span(),
                    format!(
                        "`{}` is a sparse output with the pattern encoding `#{encoding}` \
                         (`explicitVal`), which stores no values; sparse outputs store the \
                         values they are written, so give the output an encoding without \
                         `explicitVal`",
                        param.name
                    ),
                );
            }
        }
    }
}

/// What sparse-core's storage cannot hold yet is refused here, with the
/// feature that will bring it, rather than accepted with a wrong meaning.
/// Everything an encoding can say is representable now (dimension slices
/// are `SliceView`s), so this accepts every checked encoding.
fn check_representable(_enc: &Encoding, _errors: &mut Errors) -> bool {
    true
}

/// The Rust type of a position or coordinate width.
pub(crate) fn index_type(width: Width) -> TokenStream {
    if width == Width::W2 {
        // Four 2-bit coordinates per byte.
        return quote!(::sparse_core::Packed2);
    }
    let ident = format_ident!("{}", width.rust_type());
    quote!(::core::primitive::#ident)
}

/// The `Enc` type of `enc` (see `encoding_type.rs`).
fn encoding_type(enc: &Encoding) -> TokenStream {
    let pos = index_type(enc.pos_width);
    let crd = index_type(enc.crd_width);
    enc_type(
        &pos,
        &crd,
        &enc.level_types(),
        &enc.dim_to_lvl(),
        &values_param(enc),
    )
}

/// The `Enc` parameter after the map: nothing for stored values (the
/// default, 0), the packed `explicitVal` for a pattern encoding.
fn values_param(enc: &Encoding) -> TokenStream {
    match &enc.explicit_val {
        Some(value) => {
            let code = Literal::u128_suffixed(values_code(value));
            quote!(, { #code })
        }
        None => quote!(),
    }
}

/// The `VALUES` code of an `explicitVal`, packed as sparse-core decodes it.
pub(crate) fn values_code(value: &Value) -> u128 {
    let ty = value.ty;
    let explicit = match value.literal {
        LiteralValue::Int(n) => ExplicitValue::int(ty, n),
        LiteralValue::Float(x) => ExplicitValue::float(ty, x),
    };
    explicit.pack()
}

/// `SparseTensor<'a, V, Enc<P, C, (levels..), (map..)>, DIM, LVL>`, or
/// `SliceView<..>` with the same parameters for a sliced encoding.
fn storage_type(enc: &Encoding, value: TokenStream) -> TokenStream {
    let enc_ty = encoding_type(enc);
    let dim = Literal::usize_unsuffixed(enc.dims.len());
    let lvl = Literal::usize_unsuffixed(enc.levels.len());
    // A sliced encoding is a view of a slice of a tensor stored with the
    // encoding's levels (the slices are checked at a kernel's call).
    let ty = if enc.is_sliced() {
        quote!(SliceView)
    } else {
        quote!(SparseTensor)
    };
    quote! {
        ::sparse_core::__private::#ty<
            'a,
            #value,
            #enc_ty,
            #dim,
            #lvl,
        >
    }
}

fn encoding_alias(enc: &Encoding) -> TokenStream {
    let name = &enc.name;
    let attrs = &enc.attrs;
    let blank = if attrs.is_empty() {
        quote!()
    } else {
        quote!(#[doc = ""])
    };
    let summary = format!(" A sparse tensor with the encoding `#{name}`, values of type `V`:");
    let text = format!(" `#{name} = {enc}`");
    let narrow = if enc.crd_width == Width::W2 {
        quote! {
            #[doc = ""]
            #[doc = " `crdWidth = 2`: 2-bit coordinates packed four per byte ([`Packed2`](::sparse_core::Packed2), the first in the lowest bits)."]
        }
    } else {
        quote!()
    };
    let ty = storage_type(enc, quote!(V));
    // Kernels write whole tensors: a sliced encoding has no output type.
    let (out, traits) = if enc.is_sliced() {
        (quote!(), quote!())
    } else {
        (out_alias(enc, &text), output_traits(enc))
    };
    let summary = if enc.is_sliced() {
        format!(
            " A slice of a sparse tensor (a `SliceView`, from `extract_slice`) with the \
             encoding `#{name}`, values of type `V`:"
        )
    } else {
        summary
    };
    quote! {
        #(#attrs)*
        #blank
        #[doc = #summary]
        #[doc = ""]
        #[doc = #text]
        #narrow
        #[allow(non_camel_case_types)]
        pub type #name<'a, V> = #ty;
        #out
        #traits
    }
}

/// `IsCSROut`: the trait kernels take `#CSR` sparse outputs through.
pub(crate) fn output_trait(encoding: &syn::Ident) -> syn::Ident {
    format_ident!("Is{}Out", encoding, span = encoding.span())
}

/// `{` and `}` doubled, for text inside a `#[diagnostic]` format string.
fn escape_braces(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// `IsCSROut<V, B>`, implemented by `CSROut<V, B>` (and `&mut` to it)
/// alone.
///
/// Kernels take `&mut tensor<..., #CSR>` as `&mut impl IsCSROut<f32, B>`
/// rather than `&mut CSROut<f32, B>`, so that passing another output
/// (another encoding, value type or rank, a dense array) fails a trait
/// bound, whose message (`#[diagnostic::on_unimplemented]`) names `#CSR`
/// in words, where a type mismatch prints only the packed codes of both
/// `Enc` types. The whole output type is the generic: rustc picks the
/// single impl only once the argument has given the type its shape, so a
/// wrong output reaches the bound and its message, while an output whose
/// encoding is still to be inferred (`SparseTensorOut::with_dims(..)`)
/// gets it from the impl as before. Outputs were already generic over
/// their buffer family, so this costs the API nothing; the kernel turns
/// the output back into the alias type first thing (an inlined identity),
/// so its body and speed are unchanged.
///
/// Sparse *inputs* keep their alias type (`&CSR<'_, f32>`): a generic
/// operand type would hold the tensor's lifetime, and the kernel would no
/// longer coerce to `fn(&CSR<'_, f32>, ..)` or satisfy `impl Fn(&CSR<'_,
/// f32>, ..)`; a generic encoding alone cannot be inferred from the
/// kernel any more (`docs/ARCHITECTURE.md`, "Readable type errors").
fn output_traits(enc: &Encoding) -> TokenStream {
    let name = &enc.name;
    let is_out = output_trait(name);
    let out = format_ident!("{}Out", name, span = name.span());
    let rank = enc.dims.len();
    let words = escape_braces(&enc.summary());
    let text = escape_braces(&format!("`#{name} = {enc}`"));
    let message = format!(
        "expected a {rank}-D sparse output with encoding `#{name}` {words} and `{{V}}` values, \
         found `{{Self}}`"
    );
    let label = format!("not a `#{name}` output of `{{V}}`");
    let hint = format!(
        "a `&mut tensor<..., #{name}>` parameter takes a `{out}<{{V}}, B>`, `B` being `Fixed<N>`, \
         `Slices` or `Owned` (e.g. `{out}::<{{V}}, Owned>::with_dims(dims)`); \
         `sparse_core::convert` converts the result into another encoding afterwards"
    );
    let doc = format!(
        " Implemented by [`{out}<V, B>`]({out}) (and `&mut` to it) alone: kernels take `&mut \
         tensor<..., #{name}>` parameters as `&mut impl {is_out}<V, B>`, so that passing another \
         output is an error naming `#{name}` in words."
    );
    let pos = index_type(enc.pos_width);
    let crd = index_type(enc.crd_width);
    let buffers = quote!(::sparse_core::__private::OutputBuffers<#pos, #crd, V>);
    quote! {
        #[doc = #doc]
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #text, note = #hint)]
        #[allow(non_camel_case_types)]
        pub trait #is_out<V, B: #buffers> {
            /// The output, as the alias type.
            #[doc(hidden)]
            fn __sk_output(&mut self) -> &mut #out<V, B>;
        }
        impl<V, B: #buffers> #is_out<V, B> for #out<V, B> {
            #[inline(always)]
            fn __sk_output(&mut self) -> &mut #out<V, B> {
                self
            }
        }
        impl<V, B: #buffers, T: #is_out<V, B> + ?::core::marker::Sized> #is_out<V, B> for &mut T {
            #[inline(always)]
            fn __sk_output(&mut self) -> &mut #out<V, B> {
                T::__sk_output(self)
            }
        }
    }
}

/// `CSROut<V, B>`: the sparse output of encoding `#CSR` over the buffer
/// family `B` (`Fixed<N>`, `Slices<'a>`, `Owned`), the type kernels take
/// for `&mut tensor<..., #CSR>`.
fn out_alias(enc: &Encoding, text: &str) -> TokenStream {
    let name = quote::format_ident!("{}Out", enc.name, span = enc.name.span());
    let enc_ty = encoding_type(enc);
    let dim = Literal::usize_unsuffixed(enc.dims.len());
    let lvl = Literal::usize_unsuffixed(enc.levels.len());
    let summary = format!(
        " A sparse output with the encoding `#{}`: values of type `V` in buffers of the family \
         `B` (`Fixed<N>`, `Slices<'a>` or `Owned`), written by kernels through insertion.",
        enc.name
    );
    quote! {
        #[doc = #summary]
        #[doc = ""]
        #[doc = #text]
        #[allow(non_camel_case_types)]
        pub type #name<V, B> = ::sparse_core::__private::SparseTensorOut<
            V,
            #enc_ty,
            B,
            #dim,
            #lvl,
        >;
    }
}

fn sparse_type_alias(ty: &TensorType, enc: &Encoding) -> TokenStream {
    let name = &ty.name;
    let attrs = &ty.attrs;
    let vis = &ty.vis;
    let text = format!(" `{ty}`, with `#{} = {enc}`", enc.name);
    let storage = storage_type(enc, elem_type(ty.elem));
    quote! {
        #(#attrs)*
        #[doc = #text]
        #[allow(non_camel_case_types)]
        #vis type #name<'a> = #storage;
    }
}

/// A dense tensor type with static sizes is a nested array; dynamic sizes
/// need a view type that arrives with kernels.
fn dense_type_alias(ty: &TensorType, errors: &mut Errors) -> TokenStream {
    let mut array = elem_type(ty.elem);
    for (size, span) in ty.shape.iter().zip(&ty.shape_spans).rev() {
        let Some(size) = size else {
            errors.error(
                *span,
                "a dense tensor with a dynamic size (`?`) needs the dense view type that comes \
                 with kernels; give every size (e.g. `tensor<4x8xi32>`) or add a sparse \
                 encoding (`tensor<?x8xi32, #CSR>`)",
            );
            return TokenStream::new();
        };
        let Ok(size) = usize::try_from(*size) else {
            errors.error(*span, format!("the size {size} does not fit in `usize`"));
            return TokenStream::new();
        };
        let size = Literal::usize_unsuffixed(size);
        array = quote!([#array; #size]);
    }
    let name = &ty.name;
    let attrs = &ty.attrs;
    let vis = &ty.vis;
    let text = format!(" `{ty}`");
    quote! {
        #(#attrs)*
        #[doc = #text]
        #[allow(non_camel_case_types)]
        #vis type #name = #array;
    }
}
