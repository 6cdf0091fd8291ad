//! Print → parse round trips (MLIR's `roundtrip_encoding.mlir`): the
//! canonical text of every example means the same and prints the same.

use super::{encoding, seeds};

#[test]
fn every_example_round_trips_through_its_canonical_text() {
    for src in seeds::ALL {
        let original = encoding(src);
        let text = original.to_string();
        let reparsed = encoding(&format!("#{} = {text}", original.name));
        assert!(reparsed.same_meaning(&original), "{src}\n{text}");
        assert_eq!(reparsed.to_string(), text);
    }
}

#[test]
fn canonical_text_is_mlir_syntax() {
    let cases = [
        (
            seeds::CSR,
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>",
        ),
        (
            seeds::DCSC_WIDTHS,
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : compressed, d0 : compressed), \
             posWidth = 32, crdWidth = 8 }>",
        ),
        (
            seeds::BCOO,
            "#sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, \
             d1 : compressed(nonunique, high), d2 : singleton) }>",
        ),
        (
            seeds::BSR_EXPLICIT,
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, \
             d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>",
        ),
        (
            seeds::ELL,
            "#sparse_tensor.encoding<{ map = [s0](d0, d1) -> (s0 * 3 * d0 : dense, \
             d0 : dense, d1 : compressed) }>",
        ),
        (
            seeds::CSR_SLICE,
            "#sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 4, 1)>, \
             d1 : #sparse_tensor<slice(0, 8, ?)>) -> (d0 : dense, d1 : compressed) }>",
        ),
        (
            seeds::DCSC_VALUES,
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : compressed, d0 : compressed), \
             explicitVal = 1 : i64, implicitVal = 0 : i64 }>",
        ),
        (
            seeds::NV_24,
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 4 : dense, \
             d1 mod 4 : structured[2, 4]), crdWidth = 2 }>",
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(encoding(src).to_string(), expected);
    }
}

#[test]
fn float_and_bool_values_round_trip() {
    for src in [
        "#P = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1.5 : f32, implicitVal = 0.0 : f32 }>",
        "#P = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = true : i1 }>",
        "#P = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = -7 : i8 }>",
    ] {
        let original = encoding(src);
        let reparsed = encoding(&format!("#P = {original}"));
        assert!(reparsed.same_meaning(&original), "{original}");
    }
}
