//! Every example encoding of seed 000 (MLIR's `SparseTensorEncodingAttr`
//! documentation, copied verbatim) and seed 001's `#NV_24`, with the model
//! written out by hand from the seed text.

use super::encoding;
use crate::model::{DimFromLevels, Level, LvlId, ValueType};
use crate::syntax::LiteralValue;
use crate::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType, Width};

fn lt(format: LevelFormat) -> LevelType {
    LevelType::new(format)
}
fn level(expr: LevelExpr, ty: LevelType) -> Level {
    Level { expr, ty }
}
use LevelExpr::Dim;
use LevelFormat::{Compressed, Dense, Singleton};

pub(crate) const SPARSE_VECTOR: &str = "
#SparseVector = #sparse_tensor.encoding<{
  map = (i) -> (i : compressed)
}>";

pub(crate) const SORTED_COO_AOS: &str = "
#SortedCOO = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed(nonunique), j : singleton)
}>";

pub(crate) const SORTED_COO_SOA: &str = "
#SortedCOO = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed(nonunique), j : singleton(soa))
}>";

pub(crate) const BCOO: &str = "
#BCOO = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : dense, j : compressed(nonunique, high), k : singleton)
}>";

pub(crate) const CSR: &str = "
#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed)
}>";

pub(crate) const DCSC_WIDTHS: &str = "
#DCSC = #sparse_tensor.encoding<{
  map = (i, j) -> (j : compressed, i : compressed),
  posWidth = 32,
  crdWidth = 8
}>";

pub(crate) const DCSC_VALUES: &str = "
#DCSC = #sparse_tensor.encoding<{
  map = (i, j) -> (j : compressed, i : compressed),
  explicitVal = 1 : i64,
  implicitVal = 0 : i64
}>";

pub(crate) const BSR: &str = "
#BSR = #sparse_tensor.encoding<{
  map = ( i, j ) ->
  ( i floordiv 2 : dense,
    j floordiv 3 : compressed,
    i mod 2      : dense,
    j mod 3      : dense
  )
}>";

pub(crate) const BSR_EXPLICIT: &str = "
#BSR_explicit = #sparse_tensor.encoding<{
  map = { ib, jb, ii, jj }
        ( i = ib * 2 + ii,
          j = jb * 3 + jj) ->
  ( ib = i floordiv 2 : dense,
    jb = j floordiv 3 : compressed,
    ii = i mod 2 : dense,
    jj = j mod 3 : dense)
}>";

pub(crate) const ELL: &str = "
#ELL = #sparse_tensor.encoding<{
  map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
}>";

pub(crate) const CSR_SLICE: &str = "
#CSR_SLICE = #sparse_tensor.encoding<{
  map = (i : #sparse_tensor<slice(0, 4, 1)>,
         j : #sparse_tensor<slice(0, 8, ?)>) ->
        (i : dense, j : compressed)
}>";

pub(crate) const NV_24: &str = "
#NV_24 = #sparse_tensor.encoding<{
  map = ( i, j ) -> ( i            : dense,
                      j floordiv 4 : dense,
                      j mod 4      : block2_4),
  crdWidth = 2  // 2-bits for each coordinate
}>";

/// Every example, for tests that go over all of them.
pub(crate) const ALL: [&str; 12] = [
    SPARSE_VECTOR,
    SORTED_COO_AOS,
    SORTED_COO_SOA,
    BCOO,
    CSR,
    DCSC_WIDTHS,
    DCSC_VALUES,
    BSR,
    BSR_EXPLICIT,
    ELL,
    CSR_SLICE,
    NV_24,
];

#[test]
fn sparse_vector() {
    let e = encoding(SPARSE_VECTOR);
    assert_eq!(e.name, "SparseVector");
    assert_eq!(e.dims.len(), 1);
    assert_eq!(e.levels, [level(Dim(0), lt(Compressed))]);
    assert_eq!(e.lvl_to_dim, [DimFromLevels::Level(LvlId(0))]);
    assert_eq!((e.pos_width, e.crd_width), (Width::Native, Width::Native));
    assert!(e.explicit_val.is_none() && e.implicit_val.is_none());
}

#[test]
fn sorted_coo_aos_and_soa() {
    let aos = encoding(SORTED_COO_AOS);
    assert_eq!(
        aos.levels,
        [
            level(Dim(0), lt(Compressed).with(LevelProps::NONUNIQUE)),
            level(Dim(1), lt(Singleton)),
        ]
    );
    assert!(!aos.levels[1].ty.is_soa());
    let soa = encoding(SORTED_COO_SOA);
    assert_eq!(
        soa.levels[1],
        level(Dim(1), lt(Singleton).with(LevelProps::SOA))
    );
    assert!(soa.levels[1].ty.is_soa());
    assert!(!soa.levels[0].ty.is_unique());
    for e in [aos, soa] {
        assert_eq!(
            e.lvl_to_dim,
            [
                DimFromLevels::Level(LvlId(0)),
                DimFromLevels::Level(LvlId(1))
            ]
        );
    }
}

#[test]
fn batched_coo_with_high() {
    let e = encoding(BCOO);
    assert_eq!(
        e.levels,
        [
            level(Dim(0), lt(Dense)),
            level(
                Dim(1),
                lt(Compressed).with(LevelProps::NONUNIQUE.union(LevelProps::HIGH))
            ),
            level(Dim(2), lt(Singleton)),
        ]
    );
    assert_eq!(e.dims.len(), 3);
}

#[test]
fn csr_and_its_codes() {
    let e = encoding(CSR);
    assert_eq!(
        e.levels,
        [level(Dim(0), lt(Dense)), level(Dim(1), lt(Compressed))]
    );
    // The codes the runtime decodes for CSR (the `levels` markers'
    // `(dense, compressed)` and `(d0, d1)`).
    let codes = (
        crate::vocab::pack_level_types(&e.level_types()),
        crate::vocab::pack_level_exprs(&e.dim_to_lvl()),
    );
    assert_eq!(codes, (131072, 262144));
}

#[test]
fn dcsc_with_widths() {
    let e = encoding(DCSC_WIDTHS);
    assert_eq!(
        e.levels,
        [level(Dim(1), lt(Compressed)), level(Dim(0), lt(Compressed))]
    );
    // Dimension i is level 1, dimension j level 0.
    assert_eq!(
        e.lvl_to_dim,
        [
            DimFromLevels::Level(LvlId(1)),
            DimFromLevels::Level(LvlId(0))
        ]
    );
    assert_eq!((e.pos_width, e.crd_width), (Width::W32, Width::W8));
}

#[test]
fn dcsc_with_explicit_and_implicit_values() {
    let e = encoding(DCSC_VALUES);
    let explicit = e.explicit_val.expect("explicitVal");
    let implicit = e.implicit_val.expect("implicitVal");
    assert_eq!(
        (explicit.literal, explicit.ty),
        (LiteralValue::Int(1), ValueType::I64)
    );
    assert_eq!(
        (implicit.literal, implicit.ty),
        (LiteralValue::Int(0), ValueType::I64)
    );
    assert_eq!((e.pos_width, e.crd_width), (Width::Native, Width::Native));
}

#[test]
fn bsr_blocks_and_their_inverse() {
    let e = encoding(BSR);
    assert_eq!(
        e.levels,
        [
            level(LevelExpr::FloorDiv { dim: 0, divisor: 2 }, lt(Dense)),
            level(LevelExpr::FloorDiv { dim: 1, divisor: 3 }, lt(Compressed)),
            level(LevelExpr::Mod { dim: 0, modulus: 2 }, lt(Dense)),
            level(LevelExpr::Mod { dim: 1, modulus: 3 }, lt(Dense)),
        ]
    );
    // i = ib * 2 + ii, j = jb * 3 + jj (the seed's explicit inverse).
    assert_eq!(
        e.lvl_to_dim,
        [
            DimFromLevels::Block {
                outer: LvlId(0),
                inner: LvlId(2),
                size: 2
            },
            DimFromLevels::Block {
                outer: LvlId(1),
                inner: LvlId(3),
                size: 3
            },
        ]
    );
}

#[test]
fn bsr_explicit_means_bsr() {
    let explicit = encoding(BSR_EXPLICIT);
    let inferred = encoding(BSR);
    assert!(explicit.same_meaning(&inferred));
    assert_eq!(explicit.level_types(), inferred.level_types());
    assert_eq!(explicit.dim_to_lvl(), inferred.dim_to_lvl());
    assert_eq!(explicit.to_string(), inferred.to_string());
}

#[test]
fn ell_counting_level() {
    let e = encoding(ELL);
    assert_eq!(
        e.levels,
        [
            level(LevelExpr::Counting { dim: 0, slices: 3 }, lt(Dense)),
            level(Dim(0), lt(Dense)),
            level(Dim(1), lt(Compressed)),
        ]
    );
    assert_eq!(
        e.lvl_to_dim,
        [
            DimFromLevels::Level(LvlId(1)),
            DimFromLevels::Level(LvlId(2))
        ]
    );
}

#[test]
fn csr_slice() {
    let e = encoding(CSR_SLICE);
    let slices: Vec<_> = e
        .dims
        .iter()
        .map(|d| d.slice.map(|s| (s.offset, s.size, s.stride)))
        .collect();
    assert_eq!(
        slices,
        [
            Some((Some(0), Some(4), Some(1))),
            Some((Some(0), Some(8), None))
        ]
    );
    assert_eq!(
        e.levels,
        [level(Dim(0), lt(Dense)), level(Dim(1), lt(Compressed))]
    );
}

#[test]
fn nv_24_two_bit_coordinates() {
    let e = encoding(NV_24);
    let two_four = LevelFormat::Structured { n: 2, m: 4 };
    assert_eq!(
        e.levels,
        [
            level(Dim(0), lt(Dense)),
            level(LevelExpr::FloorDiv { dim: 1, divisor: 4 }, lt(Dense)),
            level(LevelExpr::Mod { dim: 1, modulus: 4 }, lt(two_four)),
        ]
    );
    assert_eq!(
        e.lvl_to_dim,
        [
            DimFromLevels::Level(LvlId(0)),
            DimFromLevels::Block {
                outer: LvlId(1),
                inner: LvlId(2),
                size: 4
            },
        ]
    );
    assert_eq!(e.crd_width, Width::W2);
    // `block2_4` is the older spelling of `structured[2, 4]`.
    let new = encoding(&NV_24.replace("block2_4", "structured[2, 4]"));
    assert!(new.same_meaning(&e));
}

#[test]
fn seed_tensor_types() {
    let model = super::model(
        "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
         #SparseVector = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
         type A = tensor<64x200xf32, #CSR>;
         type B = tensor<?x?xf64, #CSR>;
         type C = tensor<4x8xi32>;
         type D = tensor<4x?x8xi32>;
         type E = tensor<?xf32, #SparseVector>;
         type F = tensor<8xindex>;
         type G = tensor<3xui16>;
         type H = tensor<2x2xi1>;
         type I = tensor<f64>;",
    );
    type Row = (String, Vec<Option<u64>>, ValueType, Option<String>);
    let shapes: Vec<Row> = model
        .types
        .iter()
        .map(|t| {
            (
                t.name.to_string(),
                t.shape.clone(),
                t.elem,
                t.encoding.as_ref().map(|e| e.to_string()),
            )
        })
        .collect();
    let csr = Some("CSR".to_string());
    assert_eq!(
        shapes,
        [
            (
                "A".into(),
                vec![Some(64), Some(200)],
                ValueType::F32,
                csr.clone()
            ),
            ("B".into(), vec![None, None], ValueType::F64, csr),
            ("C".into(), vec![Some(4), Some(8)], ValueType::I32, None),
            (
                "D".into(),
                vec![Some(4), None, Some(8)],
                ValueType::I32,
                None
            ),
            (
                "E".into(),
                vec![None],
                ValueType::F32,
                Some("SparseVector".into())
            ),
            ("F".into(), vec![Some(8)], ValueType::Index, None),
            ("G".into(), vec![Some(3)], ValueType::U16, None),
            ("H".into(), vec![Some(2), Some(2)], ValueType::Bool, None),
            ("I".into(), vec![], ValueType::F64, None),
        ]
    );
    assert_eq!(model.types[0].to_string(), "tensor<64x200xf32, #CSR>");
    assert_eq!(model.types[3].to_string(), "tensor<4x?x8xi32>");
}
