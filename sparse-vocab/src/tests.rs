//! Unit tests of the vocabulary: level types, packed codes, widths,
//! explicit values.

#[test]
fn property_names_in_encoding_order() {
    use super::LevelProps;
    let all = LevelProps::HIGH
        .union(LevelProps::SOA)
        .union(LevelProps::NONORDERED)
        .union(LevelProps::NONUNIQUE);
    assert!(all.names().eq(["nonunique", "nonordered", "soa", "high"]));
    assert_eq!(LevelProps::NONE.names().count(), 0);
    assert!(LevelProps::SOA.names().eq(["soa"]));
}

#[test]
fn affine_range_spans_the_iteration_space() {
    // i + k over 5 x 3: 0..=6; 2 i - k + 2 over 4 x 3: 0..=8.
    assert_eq!(affine_range([(1, 5), (1, 3)], 0), Some((0, 6)));
    assert_eq!(affine_range([(2, 4), (-1, 3)], 2), Some((0, 8)));
    assert_eq!(affine_range([(1, 5), (1, 0)], 0), None);
}

use super::*;

#[test]
fn maps_that_split_dimensions_in_order() {
    use LevelExpr::*;
    let fd = |dim, divisor| FloorDiv { dim, divisor };
    let md = |dim, modulus| Mod { dim, modulus };
    // CSR, 2:4, a row-blocked map: dimension order is level order.
    assert!(splits_dims_in_order(&[Dim(0), Dim(1)], 2));
    assert!(splits_dims_in_order(&[Dim(0), fd(1, 4), md(1, 4)], 2));
    assert!(splits_dims_in_order(&[fd(0, 2), md(0, 2), Dim(1)], 2));
    // CSC, BSR (blocks of both dimensions first), mismatched blocks,
    // a dangling floordiv, a missing dimension: not.
    assert!(!splits_dims_in_order(&[Dim(1), Dim(0)], 2));
    assert!(!splits_dims_in_order(
        &[fd(0, 2), fd(1, 2), md(0, 2), md(1, 2)],
        2
    ));
    assert!(!splits_dims_in_order(&[Dim(0), fd(1, 4), md(1, 2)], 2));
    assert!(!splits_dims_in_order(&[Dim(0), fd(1, 4)], 2));
    assert!(!splits_dims_in_order(&[Dim(0)], 2));
    assert!(!splits_dims_in_order(
        &[Counting { dim: 0, slices: 3 }, Dim(0), Dim(1)],
        2
    ));
}

const FORMATS: [LevelFormat; 7] = [
    LevelFormat::Dense,
    LevelFormat::Batch,
    LevelFormat::Compressed,
    LevelFormat::LooseCompressed,
    LevelFormat::Singleton,
    LevelFormat::Structured { n: 2, m: 4 },
    LevelFormat::Structured { n: 15, m: 31 },
];

#[test]
fn every_level_type_round_trips_through_its_code() {
    for format in FORMATS {
        for bits in 0..16u8 {
            let lt = LevelType::new(format).with(LevelProps::from_bits(bits));
            assert_eq!(LevelType::unpack(lt.pack()), Some(lt), "{lt:?}");
        }
    }
}

#[test]
fn codes_no_level_type_makes_are_rejected() {
    assert_eq!(LevelType::unpack(6), None);
    assert_eq!(LevelType::unpack(7), None);
    // n/m bits set on a non-structured format.
    assert_eq!(LevelType::unpack(2 | (1 << 7)), None);
}

#[test]
fn every_level_expr_round_trips_through_its_code() {
    for dim in 0..MAX_RANK as u8 {
        for k in [1, 2, 3, 1000, MAX_LEVEL_CONSTANT] {
            for e in [
                LevelExpr::Dim(dim),
                LevelExpr::FloorDiv { dim, divisor: k },
                LevelExpr::Mod { dim, modulus: k },
                LevelExpr::Counting { dim, slices: k },
            ] {
                assert_eq!(LevelExpr::unpack(e.pack()), e);
                assert_eq!(e.dim(), dim as usize);
            }
        }
    }
}

#[test]
fn csr_codes_are_the_ones_documented_in_architecture_md() {
    let lt = pack_level_types(&[
        LevelType::new(LevelFormat::Dense),
        LevelType::new(LevelFormat::Compressed),
    ]);
    let map = pack_level_exprs(&[LevelExpr::Dim(0), LevelExpr::Dim(1)]);
    assert_eq!((lt, map), (131072, 262144));
    let csc = pack_level_exprs(&[LevelExpr::Dim(1), LevelExpr::Dim(0)]);
    assert_ne!(map, csc);
    assert_eq!(
        level_type_at(lt, 1),
        Some(LevelType::new(LevelFormat::Compressed))
    );
    assert_eq!(level_expr_at(csc, 0), LevelExpr::Dim(1));
}

#[test]
fn level_sizes_follow_the_expressions() {
    assert_eq!(
        LevelExpr::FloorDiv { dim: 0, divisor: 3 }.level_size(30),
        10
    );
    assert_eq!(
        LevelExpr::FloorDiv { dim: 0, divisor: 3 }.level_size(31),
        11
    );
    assert_eq!(LevelExpr::Mod { dim: 0, modulus: 3 }.level_size(31), 3);
    assert_eq!(LevelExpr::Counting { dim: 0, slices: 3 }.level_size(99), 3);
    assert_eq!(Width::from_bits(16), Some(Width::W16));
    assert_eq!(Width::from_bits(12), None);
}

#[test]
fn explicit_values_round_trip_and_are_canonical() {
    for ty in ValueType::ALL {
        assert_eq!(ValueType::from_tag(ty.tag()), Some(ty));
        for v in [0i128, 1, -1, 7] {
            let x = ExplicitValue::int(ty, v);
            if ty.packs() {
                assert_eq!(values_at(x.pack()), Values::Explicit(x), "{ty:?} {v}");
                assert_ne!(x.pack(), 0, "{ty:?}: a zero explicitVal is still explicit");
            } else {
                // f16, bf16 and complex values cannot be an explicitVal:
                // a code carrying their tag reads back as invalid.
                assert_eq!(values_at(x.pack()), Values::Invalid, "{ty:?} {v}");
            }
        }
    }
    assert_eq!(ExplicitValue::int(ValueType::I8, -1).bits, 0xFF);
    assert_eq!(ExplicitValue::int(ValueType::I64, -1).bits, u64::MAX);
    assert_eq!(
        ExplicitValue::float(ValueType::F64, 1.5).bits,
        1.5f64.to_bits()
    );
    assert_eq!(
        ExplicitValue::float(ValueType::F32, 1.5).bits,
        u64::from(1.5f32.to_bits())
    );
    assert_ne!(
        ExplicitValue::float(ValueType::F64, 0.0).pack(),
        ExplicitValue::float(ValueType::F64, -0.0).pack()
    );
    assert_ne!(
        ExplicitValue::int(ValueType::I64, 1).pack(),
        ExplicitValue::int(ValueType::U64, 1).pack()
    );
    assert_eq!(values_at(0), Values::Stored);
}

#[test]
fn values_codes_no_explicit_value_makes_are_invalid() {
    // Tag 0 with bits, tags past the last type, bits above the width,
    // anything above the tag.
    assert_eq!(values_at(5), Values::Invalid);
    assert_eq!(values_at(13 << 64), Values::Invalid);
    assert_eq!(values_at((3 << 64) | 0x100), Values::Invalid);
    assert_eq!(values_at((11 << 64) | 2), Values::Invalid);
    assert_eq!(values_at((1 << 72) | (2 << 64)), Values::Invalid);
}
