//! The expansion: aliases for valid items, errors for what storage cannot
//! hold yet, and both together when some items fail.

use proc_macro2::TokenStream;
use quote::quote;

use super::seeds;
use crate::expand;

fn expand_str(src: &str) -> String {
    expand(src.parse::<TokenStream>().unwrap()).to_string()
}

#[test]
fn csr_alias_spells_the_encoding_as_level_markers() {
    let out = expand_str(seeds::CSR);
    let expected = quote! {
        #[doc = " A sparse tensor with the encoding `#CSR`, values of type `V`:"]
        #[doc = ""]
        #[doc = " `#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>`"]
        #[allow(non_camel_case_types)]
        pub type CSR<'a, V> = ::sparse_core::__private::SparseTensor<
            'a,
            V,
            ::sparse_core::__private::Enc<
                ::core::primitive::usize,
                ::core::primitive::usize,
                (
                    ::sparse_core::__private::levels::dense,
                    ::sparse_core::__private::levels::compressed,
                ),
                (::sparse_core::__private::levels::d0, ::sparse_core::__private::levels::d1,)
            >,
            2,
            2,
        >;
        #[doc = " A sparse output with the encoding `#CSR`: values of type `V` in buffers of the family `B` (`Fixed<N>`, `Slices<'a>` or `Owned`), written by kernels through insertion."]
        #[doc = ""]
        #[doc = " `#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>`"]
        #[allow(non_camel_case_types)]
        pub type CSROut<V, B> = ::sparse_core::__private::SparseTensorOut<
            V,
            ::sparse_core::__private::Enc<
                ::core::primitive::usize,
                ::core::primitive::usize,
                (
                    ::sparse_core::__private::levels::dense,
                    ::sparse_core::__private::levels::compressed,
                ),
                (::sparse_core::__private::levels::d0, ::sparse_core::__private::levels::d1,)
            >,
            B,
            2,
            2,
        >;
    };
    // Then the trait kernels take `#CSR` outputs through, whose message
    // names the encoding in words.
    let (aliases, rest) = out.split_at(expected.to_string().len().min(out.len()));
    assert_eq!(aliases, expected.to_string());
    assert!(rest.contains("pub trait IsCSROut"), "{rest}");
    assert!(
        rest.contains(
            "expected a 2-D sparse output with encoding `#CSR` (dense, compressed) and `{V}` \
             values, found `{Self}`"
        ),
        "{rest}"
    );
}

#[test]
fn widths_become_index_types() {
    let out = expand_str(seeds::DCSC_WIDTHS);
    assert!(
        out.contains("Enc < :: core :: primitive :: u32 , :: core :: primitive :: u8 ,"),
        "{out}"
    );
    let out = expand_str(seeds::NV_24);
    assert!(
        out.contains(":: core :: primitive :: usize , :: sparse_core :: Packed2 ,"),
        "{out}"
    );
    assert!(
        out.contains("2-bit coordinates packed four per byte"),
        "{out}"
    );
}

#[test]
fn tensor_types_fill_in_the_element_type() {
    let src = format!(
        "{}\ntype A = tensor<64x200xf32, #CSR>;\ntype D = tensor<4x8xi32>;",
        seeds::CSR
    );
    let out = expand_str(&src);
    assert!(out.contains("pub type A < 'a > = :: sparse_core :: __private :: SparseTensor < 'a , :: core :: primitive :: f32 ,"), "{out}");
    assert!(
        out.contains("pub type D = [[:: core :: primitive :: i32 ; 8] ; 4] ;"),
        "{out}"
    );
}

#[test]
fn sliced_encodings_are_slice_views_without_outputs() {
    let out = expand_str(seeds::CSR_SLICE);
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        out.contains(
            "pub type CSR_SLICE < 'a , V > = :: sparse_core :: __private :: SliceView < 'a , V ,"
        ),
        "{out}"
    );
    // Kernels write whole tensors: no output type for a slice.
    assert!(!out.contains("CSR_SLICEOut"), "{out}");
    let out = expand_str("type D = tensor<4x?xi32>;");
    assert!(out.contains("a dense tensor with a dynamic size"), "{out}");
}

#[test]
fn pattern_encodings_carry_their_explicit_value() {
    let out = expand_str(seeds::DCSC_VALUES);
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("pub type DCSC"), "{out}");
    let code = crate::vocab::ExplicitValue::int(crate::vocab::ValueType::I64, 1).pack();
    assert!(out.contains(&format!("{code}u128")), "{out}");
}

#[test]
fn implicit_zero_alone_is_representable() {
    let out = expand_str(&seeds::DCSC_VALUES.replace("explicitVal = 1 : i64,", ""));
    assert!(out.contains("pub type DCSC"), "{out}");
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn valid_items_survive_errors_elsewhere() {
    let src = format!(
        "{}\n#BAD = #sparse_tensor.encoding<{{ map = (i) -> (i : sparse) }}>\ntype A = tensor<4x4xf32, #CSR>;",
        seeds::CSR
    );
    let out = expand_str(&src);
    assert!(out.contains("compile_error"), "{out}");
    assert!(out.contains("pub type CSR"), "{out}");
    assert!(out.contains("pub type A"), "{out}");
    assert!(!out.contains("type BAD"), "{out}");
}

#[test]
fn every_representable_seed_encoding_gets_an_alias() {
    for src in seeds::ALL {
        let out = expand_str(src);
        assert!(!out.contains("compile_error"), "{out}");
    }
}
