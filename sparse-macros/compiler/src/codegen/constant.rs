//! Constants → `static` items. For
//! `static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;`
//!
//! ```text
//! /// `tensor<3x4xf32, #CSR>` from a `sparse<...>` literal: 2 stored entries.
//! /// Storage: `pos[1]` 4 × u16 = 8 B, `crd[1]` 2 × u8 = 2 B, values 2 × f32 = 8 B;
//! /// 18 B in all (the dense array: 48 B).
//! static W: CSR<'static, f32> = {
//!     static POS1: [u16; 4] = [0, 1, 2, 2];
//!     static CRD1: [u8; 2] = [0, 2];
//!     static VAL: [f32; 2] = [1.0, 5.0];
//!     unsafe { constant_tensor([3, 4], [3, 4], [constant_level(&[], &[], 1, 0),
//!         constant_level(&POS1, &CRD1, 1, 0)], &VAL, 2) }
//! };
//! ```
//!
//! The buffers are `static`s of exact size and width inside the
//! initializer's block, so they are in flash (`.rodata`) and private to
//! the constant; the tensor is built by a `const fn`, so nothing runs at
//! start-up. A constant without encoding is a plain (nested) array. A
//! file constant includes its file (`include_bytes!` into an unused
//! `const`) so cargo rebuilds when it changes. Large buffers are written
//! as little-endian byte strings decoded by a `const fn`, which rustc
//! reads much faster than an array literal of as many tokens.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

mod stub;

use super::index_type;
use crate::model::{elem_bytes, ConstData, Constant, Encoding, Model, Scalar, ValueType};
use crate::vocab::Width;
use stub::stub_static;

/// Buffers longer than this are emitted as byte strings.
pub(crate) const BYTES_THRESHOLD: usize = 4096;

/// The `static` of every constant whose encoding has an alias (`generated`).
pub fn generate(model: &Model, generated: &[String]) -> TokenStream {
    let mut out = TokenStream::new();
    for stub in &model.constant_stubs {
        out.extend(stub_static(model, stub, generated));
    }
    for c in &model.constants {
        match &c.data {
            ConstData::Dense(values) => out.extend(dense_static(c, values)),
            ConstData::Sparse(storage) => {
                let name = storage.encoding.to_string();
                if let Some(enc) = model.encoding(&name).filter(|_| generated.contains(&name)) {
                    out.extend(sparse_static(c, enc));
                }
            }
        }
    }
    out
}

use super::elem_type;

/// The hidden item that makes cargo rebuild when the file changes.
fn track_file(c: &Constant) -> TokenStream {
    match &c.file {
        Some(path) => {
            let path = path.to_string_lossy().into_owned();
            quote!(
                const _: &[::core::primitive::u8] = ::core::include_bytes!(#path);
            )
        }
        None => quote!(),
    }
}

fn shape_text(c: &Constant) -> String {
    let mut s: String = c.shape.iter().map(|n| format!("{n}x")).collect();
    s.push_str(c.elem.mlir_name());
    s
}

fn dense_static(c: &Constant, values: &[Scalar]) -> TokenStream {
    let mut ty = elem_type(c.elem);
    for &n in c.shape.iter().rev() {
        let n = Literal::u64_unsuffixed(n);
        ty = quote!([#ty; #n]);
    }
    // `f16` and complex elements have no byte decoder: array literals of
    // const constructors.
    let init =
        if values.len() > BYTES_THRESHOLD && c.elem != ValueType::Index && c.elem.is_primitive() {
            // As sparse buffers: one byte string instead of many literals.
            let (_, width) = decoder(c.elem.rust_name());
            let mut bytes = Vec::with_capacity(values.len() * width);
            for &v in values {
                le_bytes(v, width, &mut bytes);
            }
            let len = Literal::usize_unsuffixed(bytes.len());
            let width = Literal::usize_unsuffixed(width);
            let bytes = Literal::byte_string(&bytes);
            quote! {
                // SAFETY: the little-endian bytes of every element of this
                // array type, written by sparse_kernel! (bools as 0 or 1).
                unsafe { ::sparse_core::__private::bytes::array::<#ty, #len, #width>(#bytes) }
            }
        } else {
            nested(values, &c.shape)
        };
    let track = track_file(c);
    let name = &c.name;
    let attrs = &c.attrs;
    let vis = &c.vis;
    let bytes = values.len() * elem_bytes(c.elem);
    let doc = format!(
        " `tensor<{}>` from {}, a dense array: {} B.",
        shape_text(c),
        c.source,
        bytes
    );
    let blank = blank_line(c);
    quote! {
        #(#attrs)*
        #blank
        #[doc = #doc]
        #[allow(long_running_const_eval)]
        #vis static #name: #ty = { #track #init };
    }
}

fn blank_line(c: &Constant) -> TokenStream {
    if c.attrs.is_empty() {
        quote!()
    } else {
        quote!(#[doc = ""])
    }
}

/// `[[a, b], [c, d]]` for a row-major slice of values.
fn nested(values: &[Scalar], shape: &[u64]) -> TokenStream {
    match shape.split_first() {
        None => values.first().map_or(quote!(), |&v| scalar(v)),
        Some((&n, rest)) => {
            let inner: usize = rest.iter().map(|&s| s as usize).product();
            let items = (0..n as usize).map(|k| nested(&values[k * inner..(k + 1) * inner], rest));
            quote!([#(#items),*])
        }
    }
}

/// One value as a Rust expression of its element type.
pub(crate) fn scalar(v: Scalar) -> TokenStream {
    match v {
        Scalar::F32(x) if !x.is_finite() => {
            let bits = Literal::u32_suffixed(x.to_bits());
            quote!(::core::primitive::f32::from_bits(#bits))
        }
        Scalar::F64(x) if !x.is_finite() => {
            let bits = Literal::u64_suffixed(x.to_bits());
            quote!(::core::primitive::f64::from_bits(#bits))
        }
        Scalar::F32(x) => signed(x.is_sign_negative(), Literal::f32_unsuffixed(x.abs())),
        Scalar::F64(x) => signed(x.is_sign_negative(), Literal::f64_unsuffixed(x.abs())),
        Scalar::Int(n) => signed(n < 0, Literal::u128_unsuffixed(n.unsigned_abs())),
        Scalar::Bool(b) => quote!(#b),
        Scalar::F16(bits) => {
            let ty = elem_type(ValueType::F16);
            quote!(<#ty>::from_bits(#bits))
        }
        Scalar::BF16(bits) => {
            let ty = elem_type(ValueType::BF16);
            quote!(<#ty>::from_bits(#bits))
        }
        Scalar::C32(re, im) => {
            let ty = elem_type(ValueType::Complex32);
            let (re, im) = (scalar(Scalar::F32(re)), scalar(Scalar::F32(im)));
            quote!(<#ty>::new(#re, #im))
        }
        Scalar::C64(re, im) => {
            let ty = elem_type(ValueType::Complex64);
            let (re, im) = (scalar(Scalar::F64(re)), scalar(Scalar::F64(im)));
            quote!(<#ty>::new(#re, #im))
        }
    }
}

fn signed(negative: bool, lit: Literal) -> TokenStream {
    if negative {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// The bytes of one value, little-endian, `width` bytes (a complex
/// number: its real part, then its imaginary part).
fn le_bytes(v: Scalar, width: usize, out: &mut Vec<u8>) {
    let raw: u64 = match v {
        Scalar::F32(x) => u64::from(x.to_bits()),
        Scalar::F64(x) => x.to_bits(),
        Scalar::Int(n) => n as u64,
        Scalar::Bool(b) => u64::from(b),
        Scalar::F16(b) | Scalar::BF16(b) => u64::from(b),
        Scalar::C32(re, im) => u64::from(re.to_bits()) | u64::from(im.to_bits()) << 32,
        Scalar::C64(re, im) => {
            out.extend_from_slice(&re.to_bits().to_le_bytes());
            out.extend_from_slice(&im.to_bits().to_le_bytes());
            return;
        }
    };
    out.extend_from_slice(&raw.to_le_bytes()[..width]);
}

/// `static NAME: [T; N] = ...;`, as an array literal or, past the
/// threshold, as a byte string decoded at compile time (`usize` buffers
/// once per pointer width, 32 and 64 bits).
fn buffer(
    name: &proc_macro2::Ident,
    ty: &TokenStream,
    decoder: &str,
    width: usize,
    values: &[Scalar],
    section: &TokenStream,
) -> TokenStream {
    let n = Literal::usize_unsuffixed(values.len());
    let primitive = |v: &Scalar| {
        !matches!(
            v,
            Scalar::F16(_) | Scalar::BF16(_) | Scalar::C32(..) | Scalar::C64(..)
        )
    };
    if values.len() <= BYTES_THRESHOLD || !values.iter().all(primitive) {
        let items = values.iter().map(|&v| scalar(v));
        return quote!(#section static #name: [#ty; #n] = [#(#items),*];);
    }
    let decoder_ident = format_ident!("{}", decoder);
    let encode = |width: usize| {
        let mut bytes = Vec::with_capacity(values.len() * width);
        for &v in values {
            le_bytes(v, width, &mut bytes);
        }
        Literal::byte_string(&bytes)
    };
    if decoder != "usizes" {
        let bytes = encode(width);
        return quote! {
            #[allow(long_running_const_eval)]
            #section
            static #name: [#ty; #n] = ::sparse_core::__private::bytes::#decoder_ident(#bytes);
        };
    }
    let b64 = encode(8);
    let fits32 = values
        .iter()
        .all(|v| matches!(v, Scalar::Int(x) if u32::try_from(*x).is_ok()));
    let for32 = if fits32 {
        let b32 = encode(4);
        quote! {
            #[cfg(target_pointer_width = "32")]
            #[allow(long_running_const_eval)]
            #section
            static #name: [#ty; #n] = ::sparse_core::__private::bytes::#decoder_ident(#b32);
        }
    } else {
        quote! {
            #[cfg(target_pointer_width = "32")]
            ::core::compile_error!("this constant's `usize` positions or coordinates exceed 32 bits");
        }
    };
    quote! {
        #[cfg(target_pointer_width = "64")]
        #[allow(long_running_const_eval)]
        #section
        static #name: [#ty; #n] = ::sparse_core::__private::bytes::#decoder_ident(#b64);
        #for32
        #[cfg(not(any(target_pointer_width = "32", target_pointer_width = "64")))]
        ::core::compile_error!("large `usize` constant buffers need a 32- or 64-bit target; give the encoding a `posWidth`/`crdWidth`");
    }
}

/// The decoder of an element or index type, and its width in bytes
/// (`usize` is emitted once per pointer width by `buffer`).
fn decoder(name: &str) -> (&'static str, usize) {
    match name {
        "f32" => ("f32s", 4),
        "f64" => ("f64s", 8),
        "i8" => ("i8s", 1),
        "i16" => ("i16s", 2),
        "i32" => ("i32s", 4),
        "i64" => ("i64s", 8),
        "u8" => ("u8s", 1),
        "u16" => ("u16s", 2),
        "u32" => ("u32s", 4),
        "u64" => ("u64s", 8),
        "bool" => ("bools", 1),
        _ => ("usizes", 8),
    }
}

fn index_scalars(values: &[u64]) -> Vec<Scalar> {
    values.iter().map(|&v| Scalar::Int(i128::from(v))).collect()
}

fn sparse_static(c: &Constant, enc: &Encoding) -> TokenStream {
    let ConstData::Sparse(storage) = &c.data else {
        return TokenStream::new();
    };
    let pos_ty = index_type(enc.pos_width);
    let crd_ty = index_type(enc.crd_width);
    let (pos_dec, pos_w) = decoder(enc.pos_width.rust_type());
    let (crd_dec, crd_w) = decoder(enc.crd_width.rust_type());
    // `#[link_section = ".."]` on the constant places its buffers too (also
    // written `#[unsafe(link_section = ..)]` or under `cfg_attr`).
    let section: TokenStream = c
        .attrs
        .iter()
        .filter(|a| quote!(#a).to_string().contains("link_section"))
        .map(|a| quote!(#a))
        .collect();
    let mut items = TokenStream::new();
    let mut level_exprs = Vec::new();
    let mut report = Vec::new();
    // A constant sharing another's levels (`levels_of`) emits its values
    // only, and reads the other's level buffers.
    let own_levels = if c.shares.is_some() {
        &[][..]
    } else {
        &storage.levels[..]
    };
    if let Some(base) = &c.shares {
        report.push(format!("positions and coordinates shared with `{base}`"));
    }
    for (l, level) in own_levels.iter().enumerate() {
        let pos = if level.positions.is_empty() {
            quote!(&[])
        } else {
            let name = format_ident!("POS{}", l);
            items.extend(buffer(
                &name,
                &pos_ty,
                pos_dec,
                pos_w,
                &index_scalars(&level.positions),
                &section,
            ));
            report.push(buffer_text(
                &format!("pos[{l}]"),
                level.positions.len(),
                enc.pos_width,
            ));
            quote!(&#name)
        };
        let owner = l - level.offset;
        let crd = if level.offset > 0 {
            let name = format_ident!("CRD{}", owner);
            quote!(&#name)
        } else if level.coordinates.is_empty() {
            quote!(&[])
        } else if enc.crd_width == Width::W2 {
            let name = format_ident!("CRD{}", l);
            items.extend(packed2_buffer(&name, &level.coordinates, &section));
            report.push(buffer_text(
                &format!("crd[{l}]"),
                level.coordinates.len(),
                enc.crd_width,
            ));
            quote!(&#name)
        } else {
            let name = format_ident!("CRD{}", l);
            items.extend(buffer(
                &name,
                &crd_ty,
                crd_dec,
                crd_w,
                &index_scalars(&level.coordinates),
                &section,
            ));
            report.push(buffer_text(
                &format!("crd[{l}]"),
                level.coordinates.len(),
                enc.crd_width,
            ));
            quote!(&#name)
        };
        let stride = Literal::usize_unsuffixed(level.stride);
        let offset = Literal::usize_unsuffixed(level.offset);
        level_exprs.push(quote! {
            ::sparse_core::__private::constant_level(#pos, #crd, #stride, #offset)
        });
    }
    let elem = elem_type(c.elem);
    let values = if enc.explicit_val.is_some() {
        quote!(&[])
    } else {
        let (dec, w) = decoder(c.elem.rust_name());
        items.extend(buffer(
            &format_ident!("VAL"),
            &elem,
            dec,
            w,
            &storage.values,
            &section,
        ));
        let bytes = storage.values.len() * elem_bytes(c.elem);
        report.push(format!(
            "values {} × {} = {bytes} B",
            storage.values.len(),
            c.elem.rust_name()
        ));
        quote!(&VAL)
    };
    let dims = c
        .shape
        .iter()
        .map(|&n| Literal::usize_unsuffixed(n as usize));
    let lvls = storage
        .lvl_sizes
        .iter()
        .map(|&n| Literal::usize_unsuffixed(n as usize));
    let entries = Literal::usize_unsuffixed(storage.entries);
    let enc_name = &enc.name;
    let name = &c.name;
    let attrs = &c.attrs;
    let vis = &c.vis;
    let track = track_file(c);
    // Saturating: a sparse constant's shape may be far larger than memory.
    let dense_bytes = c.shape.iter().fold(elem_bytes(c.elem) as u128, |acc, &n| {
        acc.saturating_mul(u128::from(n))
    });
    let total = if c.shares.is_some() {
        storage.values.len() * elem_bytes(c.elem)
    } else {
        storage_bytes(c, enc)
    };
    let summary = format!(
        " `tensor<{}, #{}>` from {}: {} stored entries, in flash.",
        shape_text(c),
        enc.name,
        c.source,
        storage.entries
    );
    let detail = format!(
        " Storage: {}; {total} B in all (the dense array: {dense_bytes} B){}.",
        report.join(", "),
        if enc.pos_width == Width::Native
            || enc.crd_width == Width::Native
            || c.elem == ValueType::Index
        {
            ", `usize` counted as 4 B (32-bit targets)"
        } else {
            ""
        }
    );
    let blank = blank_line(c);
    if let Some(base) = &c.shares {
        return quote! {
            #(#attrs)*
            #blank
            #[doc = #summary]
            #[doc = ""]
            #[doc = #detail]
            #vis static #name: #enc_name<'static, #elem> = {
                #track
                #items
                // SAFETY: sparse_kernel! built `#base` (checked as any
                // constant) and laid these values out on its stored
                // entries, one per entry in its storage order, under an
                // encoding of the same meaning (model/constant_shared.rs).
                unsafe { ::sparse_core::__private::constant_sharing(&#base, #values) }
            };
        };
    }
    quote! {
        #(#attrs)*
        #blank
        #[doc = #summary]
        #[doc = ""]
        #[doc = #detail]
        #vis static #name: #enc_name<'static, #elem> = {
            #track
            #items
            // SAFETY: sparse_kernel! laid these buffers out for this
            // encoding at compile time and checked every rule of
            // `SparseTensor::assemble` on them (model/constant_layout.rs):
            // level sizes, AoS strides and offsets, positions counting the
            // entries, coordinates in range, sorted and unique where the
            // levels promise it, one value per entry, widths that fit.
            unsafe {
                ::sparse_core::__private::constant_tensor(
                    [#(#dims),*],
                    [#(#lvls),*],
                    [#(#level_exprs),*],
                    #values,
                    #entries,
                )
            }
        };
    }
}

/// `static CRDl: [Packed2; _]`: coordinates below 4, four per byte, the
/// first in the lowest bits, unused fields 0 (what `assemble` checks).
fn packed2_buffer(
    name: &proc_macro2::Ident,
    coordinates: &[u64],
    section: &TokenStream,
) -> TokenStream {
    let bytes: Vec<u8> = coordinates
        .chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |b, (k, &x)| b | ((x & 3) as u8) << (2 * k))
        })
        .collect();
    let n = Literal::usize_unsuffixed(bytes.len());
    if bytes.len() <= BYTES_THRESHOLD {
        let items = bytes.iter().map(|&b| {
            let b = Literal::u8_unsuffixed(b);
            quote!(::sparse_core::Packed2(#b))
        });
        return quote!(#section static #name: [::sparse_core::Packed2; #n] = [#(#items),*];);
    }
    let string = Literal::byte_string(&bytes);
    quote! {
        #[allow(long_running_const_eval)]
        #section
        static #name: [::sparse_core::Packed2; #n] = ::sparse_core::__private::bytes::packed2s(#string);
    }
}

/// `pos[1] 4 × u16 = 8 B`; `crd[2] 8 × 2 bits = 2 B`.
fn buffer_text(what: &str, count: usize, width: Width) -> String {
    if width == Width::W2 {
        return format!("`{what}` {count} × 2 bits = {} B", count.div_ceil(4));
    }
    format!(
        "`{what}` {count} × {} = {} B",
        width.rust_type(),
        count * index_bytes(width)
    )
}

/// Bytes of one index of `width` on a 32-bit target.
fn index_bytes(width: Width) -> usize {
    match width {
        Width::W2 | Width::W8 => 1,
        Width::W16 => 2,
        Width::W32 | Width::Native => 4,
        Width::W64 => 8,
    }
}

/// The bytes of a sparse constant's buffers (`usize` as 4).
pub fn storage_bytes(c: &Constant, enc: &Encoding) -> usize {
    let ConstData::Sparse(storage) = &c.data else {
        return 0;
    };
    let index: usize = storage
        .levels
        .iter()
        .map(|l| {
            let crd = if enc.crd_width == Width::W2 {
                l.coordinates.len().div_ceil(4)
            } else {
                l.coordinates.len() * index_bytes(enc.crd_width)
            };
            l.positions.len() * index_bytes(enc.pos_width) + crd
        })
        .sum();
    index + storage.values.len() * elem_bytes(c.elem)
}
