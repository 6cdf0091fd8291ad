//! `assemble` rejects hand-written encodings whose codes are not a valid
//! encoding (`InvalidEncoding`), naming the offending level.

use sparse_core::vocab::{pack_level_exprs, pack_level_types, LevelExpr, LevelFormat, LevelType};
use sparse_core::{AssembleError, Enc, Encoding, Level, SparseTensor};
use sparse_tests::reference::*;

use AssembleError::InvalidEncoding;

const ROW: [LevelExpr; 2] = [LevelExpr::Dim(0), LevelExpr::Dim(1)];

fn invalid<E: Encoding<Pos = usize, Crd = usize>>() -> Result<(), AssembleError> {
    SparseTensor::<f32, E, 2, 2>::assemble([2, 2], [Level::dense(), Level::dense()], &[0.0; 4])
        .map(|_| ())
}

#[test]
fn invalid_encoding_singleton_without_parent() {
    type E =
        Enc<usize, usize, { pack_level_types(&[SINGLETON, DENSE]) }, { pack_level_exprs(&ROW) }>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 0 }));
}

#[test]
fn invalid_encoding_singleton_below_dense() {
    type E = Enc<
        usize,
        usize,
        { pack_level_types(&[DENSE, SINGLETON_SOA]) },
        { pack_level_exprs(&ROW) },
    >;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_map_not_invertible() {
    // (i, j) -> (i, i): j is lost.
    type E = Enc<
        usize,
        usize,
        { pack_level_types(&[DENSE, DENSE]) },
        { pack_level_exprs(&[LevelExpr::Dim(0), LevelExpr::Dim(0)]) },
    >;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_block_pair_with_different_sizes() {
    type E = Enc<
        usize,
        usize,
        { pack_level_types(&[DENSE, DENSE, DENSE]) },
        {
            pack_level_exprs(&[
                LevelExpr::Dim(0),
                LevelExpr::FloorDiv { dim: 1, divisor: 2 },
                LevelExpr::Mod { dim: 1, modulus: 3 },
            ])
        },
    >;
    let r = SparseTensor::<f32, E, 2, 3>::assemble([2, 6], [Level::dense(); 3], &[0.0; 36]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_zero_divisor() {
    type E = Enc<
        usize,
        usize,
        { pack_level_types(&[DENSE, DENSE]) },
        {
            pack_level_exprs(&[
                LevelExpr::FloorDiv { dim: 0, divisor: 0 },
                LevelExpr::Mod { dim: 0, modulus: 0 },
            ])
        },
    >;
    let r = SparseTensor::<f32, E, 1, 2>::assemble([4], [Level::dense(); 2], &[]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 0 }));
}

#[test]
fn invalid_encoding_garbage_level_code() {
    // Format tag 7 is no level format.
    type E = Enc<usize, usize, { 7 << 16 }, { pack_level_exprs(&ROW) }>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_dimension_out_of_rank() {
    type E = Enc<
        usize,
        usize,
        { pack_level_types(&[DENSE, DENSE]) },
        { pack_level_exprs(&[LevelExpr::Dim(0), LevelExpr::Dim(5)]) },
    >;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_structured_needs_mod_m() {
    let nv24 = LevelType::new(LevelFormat::Structured { n: 2, m: 4 });
    type E = Enc<
        usize,
        usize,
        {
            pack_level_types(&[
                DENSE,
                LevelType::new(LevelFormat::Structured { n: 2, m: 4 }),
            ])
        },
        { pack_level_exprs(&ROW) },
    >;
    assert_eq!(E::level_type(1), Some(nv24));
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_rank_above_max() {
    type E = Enc<usize, usize, 0, 0>;
    let r = SparseTensor::<f32, E, 9, 1>::assemble([1; 9], [Level::dense()], &[0.0]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 8 }));
}
