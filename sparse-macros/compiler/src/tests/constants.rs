//! Constants through the front end: the storage built for each format,
//! the literal forms, and where each error points (line, column).

use super::{errors, model};
use crate::model::{ConstData, Scalar, SparseStorage, StoredLevel};

const CSR: &str = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>";

fn storage(src: &str) -> SparseStorage {
    let model = model(src);
    match &model.constants[0].data {
        ConstData::Sparse(s) => s.clone(),
        ConstData::Dense(_) => panic!("expected a sparse constant"),
    }
}

fn level(positions: &[u64], coordinates: &[u64], stride: usize, offset: usize) -> StoredLevel {
    StoredLevel {
        positions: positions.to_vec(),
        coordinates: coordinates.to_vec(),
        stride,
        offset,
    }
}

#[test]
fn seed_002_example_as_csr() {
    let s = storage(&format!(
        "{CSR} static W: tensor<3x4xi32, #CSR> = sparse<[[0, 0], [1, 2]], [1, 5]>;"
    ));
    assert_eq!(s.lvl_sizes, [3, 4]);
    assert_eq!(
        s.levels,
        [level(&[], &[], 1, 0), level(&[0, 1, 2, 2], &[0, 2], 1, 0)]
    );
    assert_eq!(s.values, [Scalar::Int(1), Scalar::Int(5)]);
    assert_eq!(s.entries, 2);
}

#[test]
fn coo_aos_fuses_the_singleton_into_tuples() {
    let s = storage(
        "#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
         static W: tensor<3x4xf64, #COO> = sparse<[[1, 3], [0, 0], [1, 2]], [3.0, 1.0, 2.0]>;",
    );
    assert_eq!(
        s.levels,
        [
            level(&[0, 3], &[0, 0, 1, 2, 1, 3], 2, 0),
            level(&[], &[], 2, 1)
        ]
    );
    assert_eq!(s.values, [1.0, 2.0, 3.0].map(Scalar::F64));
}

#[test]
fn dense_literal_with_dynamic_sizes() {
    let m = model(&format!(
        "{CSR} static W: tensor<?x?xf32, #CSR> = dense<[[0.0, 1.0, 0.0], [2.0, 0.0, 0.0]]>;"
    ));
    assert_eq!(m.constants[0].shape, [2, 3]);
    let ConstData::Sparse(s) = &m.constants[0].data else {
        panic!("expected a sparse constant");
    };
    assert_eq!(s.levels[1], level(&[0, 1, 2], &[1, 0], 1, 0));
}

#[test]
fn constant_without_encoding_is_dense() {
    let m = model("static X: tensor<2x2xi8> = sparse<[[1, 1]], [0x80]>;");
    let ConstData::Dense(values) = &m.constants[0].data else {
        panic!("expected a dense constant");
    };
    assert_eq!(values, &[0, 0, 0, -128].map(Scalar::Int));
}

#[test]
fn errors_point_at_the_offending_token() {
    let src = format!(
        "{CSR}\nstatic W: tensor<3x4xf32, #CSR> = sparse<[[0, 5]], [1.0]>;\n\
         static V: tensor<2xi8> = dense<[1, 300]>;"
    );
    assert_eq!(
        errors(&src),
        [
            (
                "coordinate 5 is outside dimension 1 of size 4 (0..=3)".to_string(),
                2,
                46
            ),
            ("300 does not fit `i8` (-128..=127)".to_string(), 3, 35),
        ]
    );
}

#[test]
fn a_trailing_comma_is_reported_at_the_comma() {
    let src = "static V: tensor<2xf32> = dense<[1.0, 2.0, ]>;";
    assert_eq!(
        errors(src),
        [(
            "expected an element after `,` (a list has no trailing comma)".to_string(),
            1,
            41
        )]
    );
}

#[test]
fn a_dense_constant_too_large_suggests_an_encoding() {
    let src = "static H: tensor<100000x100000xf32> = sparse<[[0, 0]], [1.0]>;";
    assert_eq!(
        errors(src),
        [(
            "a dense constant of 100000x100000 elements is too large (at most 2097152); give \
             its type a sparse encoding, e.g. `#CSR`, to store only its entries"
                .to_string(),
            1,
            38
        )]
    );
}

#[test]
fn file_errors_name_the_line_and_point_at_the_path() {
    let dir = std::env::temp_dir().join(format!("sk-const-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.mtx");
    std::fs::write(
        &path,
        "%%MatrixMarket matrix coordinate real general\n% c\n3 4 2\n1 1 1.0\n4 1 2.0\n",
    )
    .unwrap();
    let src = format!(
        "{CSR}\nstatic W: tensor<3x4xf32, #CSR> = file({:?});",
        path.display().to_string()
    );
    let found = errors(&src);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .0
            .ends_with("line 5: row 4 is outside 1..=3 (Matrix Market is 1-based)"),
        "{found:?}"
    );
    assert_eq!((found[0].1, found[0].2), (2, 39));
    // A duplicate in a file names both lines.
    std::fs::write(
        &path,
        "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.0\n1 1 2.0\n",
    )
    .unwrap();
    let found = errors(&src);
    assert!(
        found[0].0.contains("duplicate entry at (0, 0)"),
        "{found:?}"
    );
    assert!(found[0].0.contains(":4)"), "{found:?}");
    assert!(found[1].0.contains(":3)"), "{found:?}");
    // A file of another rank than the type: the fix spells the type.
    let src = format!(
        "static R: tensor<12xf32> = file({:?});",
        path.display().to_string()
    );
    assert_eq!(
        errors(&src)[0].0,
        "the file holds a tensor of rank 2 (3x4) but the type has rank 1; give the type one \
         size per dimension of the file, e.g. `tensor<?x?xf32>`"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn loose_structured_and_bsr_storage() {
    let s = storage(
        "#L = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
         static W: tensor<2x3xf32, #L> = sparse<[[1, 2], [1, 0]], [2.0, 1.0]>;",
    );
    assert_eq!(s.levels[1], level(&[0, 0, 0, 2], &[0, 2], 1, 0));
    let s = storage(
        "#NV = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
         static W: tensor<1x4xf32, #NV> = dense<[[0.0, 0.0, 5.0, 0.0]]>;",
    );
    assert_eq!(s.levels[2], level(&[], &[0, 2], 1, 0));
    assert_eq!(s.values, [0.0, 5.0].map(Scalar::F32));
}

/// `prune_blocks` with blocks along one dimension only (1x2: `i` has no
/// `mod` level): every row is a block row; and column-major blocks (BSC)
/// keep by the same dimensions, whatever the storage order.
#[test]
fn prune_blocks_cuts_the_encodings_blocks() {
    let s = storage(
        "#B12 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 2 : compressed, j mod 2 : dense) }>
         static W: tensor<2x6xi32, #B12> = prune_blocks(dense<[[1, 1, 0, 2, 3, 0], [0, -5, 4, 4, 0, 0]]>, keep = 1);",
    );
    // Row 0: norms 2, 4, 9 keep columns 4..6; row 1: 25, 32, 0 keep 2..4.
    assert_eq!(s.levels[1], level(&[0, 1, 2], &[2, 1], 1, 0));
    assert_eq!(s.values, [3, 0, 4, 4].map(Scalar::Int));
    let s = storage(
        "#BSC = #sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
         static W: tensor<4x4xf32, #BSC> = prune_blocks(dense<[
             [1.0, 0.0, 0.0, 9.0],
             [0.0, 0.0, 0.0, 0.0],
             [0.0, 2.0, 0.0, 0.0],
             [0.0, 0.0, 3.0, 0.0]
         ]>, keep = 1);",
    );
    // Block row 0 keeps block (0, 1) (81 > 1), block row 1 keeps (1, 1)
    // (9 > 4); stored by block column: column 0 holds none.
    assert_eq!(s.levels[1], level(&[0, 0, 2], &[0, 1], 1, 0));
    assert_eq!(
        s.values,
        [0.0, 9.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0].map(Scalar::F32)
    );
}

#[test]
fn expansion_states_the_flash_bytes_and_uses_static_buffers() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), \
               posWidth = 16, crdWidth = 8 }>
               pub static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;";
    let out = crate::expand(src.parse().unwrap()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        out.contains(
            "Storage: `pos[1]` 4 × u16 = 8 B, `crd[1]` 2 × u8 = 2 B, values 2 × f32 = 8 B; \
             18 B in all (the dense array: 48 B)."
        ),
        "{out}"
    );
    let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        compact.contains("pubstaticW:CSR<'static,::core::primitive::f32>"),
        "{out}"
    );
    assert!(
        compact.contains("staticPOS1:[::core::primitive::u16;4]=[0,1,2,2];"),
        "{out}"
    );
    assert!(
        compact.contains("staticCRD1:[::core::primitive::u8;2]=[0,2];"),
        "{out}"
    );
    assert!(
        compact.contains("staticVAL:[::core::primitive::f32;2]=[1.0,5.0];"),
        "{out}"
    );
    assert!(compact.contains("constant_tensor([3,4],[3,4],"), "{out}");
}

/// A 64x256 int8 copy of a pruned `f32` layer (one weight in eight kept,
/// 2048 entries, CSR 16/8) sharing the layer's levels: its flash is its
/// values alone, 2048 B instead of 130 + 2048 + 2048 = 4226 B.
#[test]
fn a_shared_constant_emits_its_values_only() {
    let entries: Vec<String> = (0..64)
        .flat_map(|i| (0..32).map(move |k| format!("[{i}, {}]", 8 * k + i % 8)))
        .collect();
    let src = format!(
        "#CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed), \
         posWidth = 16, crdWidth = 8 }}>
         pub static W: tensor<64x256xf32, #CSR> = sparse<[{}], 0.5>;
         pub static W8: tensor<64x256xi8, #CSR> = levels_of(W, values = sparse<[{}], 3>);",
        entries.join(", "),
        entries.join(", ")
    );
    let out = crate::expand(src.parse().unwrap()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        out.contains(
            "Storage: `pos[1]` 65 × u16 = 130 B, `crd[1]` 2048 × u8 = 2048 B, values 2048 × f32 \
             = 8192 B; 10370 B in all (the dense array: 65536 B)."
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "Storage: positions and coordinates shared with `W`, values 2048 × i8 = 2048 B; \
             2048 B in all (the dense array: 16384 B)."
        ),
        "{out}"
    );
    let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    // One positions and one coordinates buffer in the whole expansion.
    assert_eq!(compact.matches("staticPOS1:").count(), 1, "{out}");
    assert_eq!(compact.matches("staticCRD1:").count(), 1, "{out}");
    assert!(compact.contains("constant_sharing(&W,&VAL)"), "{out}");
}

#[test]
fn large_buffers_become_byte_strings() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), \
               posWidth = 16, crdWidth = 8 }>
               static W: tensor<64x80xf32, #CSR> = dense<1.0>;";
    let out = crate::expand(src.parse().unwrap()).to_string();
    let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    // 5120 coordinates and values: over the threshold; 65 positions: not.
    assert!(
        compact.contains(
            "staticCRD1:[::core::primitive::u8;5120]=::sparse_core::__private::bytes::u8s(b\""
        ),
        "{out:.400}"
    );
    assert!(compact.contains(
        "staticVAL:[::core::primitive::f32;5120]=::sparse_core::__private::bytes::f32s(b\""
    ));
    assert!(compact.contains("staticPOS1:[::core::primitive::u16;65]=[0,80,"));
}

#[test]
fn huge_or_empty_shapes_do_not_panic() {
    for src in [
        "#D = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
         static W: tensor<18446744073709551615x18446744073709551615xf32, #D> = sparse<[[0, 0]], [1.0]>;",
        "#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
         static W: tensor<10000000000x4xf32, #C> = sparse<[[0, 0]], [1.0]>;",
        "#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
         static W: tensor<0x4xf32, #C> = dense<[]>;",
        "static W: tensor<100000x100000xf32> = dense<1.0>;",
        "static W: tensor<0xf32> = sparse<[], []>;",
        "#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
         static W: tensor<?x?xf32, #C> = dense<[]>;",
    ] {
        let _ = crate::expand(src.parse().unwrap());
    }
    // The first is valid: two compressed levels store one entry whatever
    // the sizes, and the flash report saturates instead of overflowing.
    let first = model(
        "#D = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
         static W: tensor<18446744073709551615x18446744073709551615xf32, #D> = sparse<[[0, 0]], [1.0]>;",
    );
    assert_eq!(first.constants.len(), 1);
    let errs = errors(
        "#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
         static W: tensor<10000000000x4xf32, #C> = sparse<[[0, 0]], [1.0]>;",
    );
    assert!(
        errs[0].0.contains("would store 10000000000 entries"),
        "{errs:?}"
    );
}

#[test]
fn link_section_is_copied_to_the_buffers() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
               #[link_section = \".flash.weights\"]
               static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;";
    let out = crate::expand(src.parse().unwrap()).to_string();
    let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    let attr = "#[link_section=\".flash.weights\"]";
    for name in ["POS1:", "CRD1:", "VAL:"] {
        assert!(
            compact.contains(&format!("{attr}static{name}")),
            "{name}: {out}"
        );
    }
    // And on the tensor itself, before its doc comment.
    assert!(compact.contains(&format!("{attr}#[doc")), "{out}");
}
