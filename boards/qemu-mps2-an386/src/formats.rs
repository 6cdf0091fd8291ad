//! The encodings under test, as tensor types.

use sparse_core::vocab::{
    pack_level_exprs, pack_level_types, LevelExpr, LevelFormat, LevelProps, LevelType,
};
use sparse_core::{Enc, SparseTensor};

const DENSE: LevelType = LevelType::new(LevelFormat::Dense);
const COMPRESSED: LevelType = LevelType::new(LevelFormat::Compressed);

/// `(i, j) -> (i, j)`.
const ROW_MAJOR: u128 = pack_level_exprs(&[LevelExpr::Dim(0), LevelExpr::Dim(1)]);

/// `map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8`
pub type Csr16x8<'a, V> =
    SparseTensor<'a, V, Enc<u16, u8, { pack_level_types(&[DENSE, COMPRESSED]) }, ROW_MAJOR>, 2, 2>;

/// `map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8`
pub type Csr8x8<'a, V> =
    SparseTensor<'a, V, Enc<u8, u8, { pack_level_types(&[DENSE, COMPRESSED]) }, ROW_MAJOR>, 2, 2>;

/// `map = (i, j) -> (i : compressed(nonunique), j : singleton)`: COO with
/// the coordinates as an array of structures (native widths).
pub type Coo<'a, V> = SparseTensor<
    'a,
    V,
    Enc<
        usize,
        usize,
        {
            pack_level_types(&[
                COMPRESSED.with(LevelProps::NONUNIQUE),
                LevelType::new(LevelFormat::Singleton),
            ])
        },
        ROW_MAJOR,
    >,
    2,
    2,
>;

/// `map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
/// i mod 2 : dense, j mod 2 : dense), posWidth = 8, crdWidth = 8`
pub type Bsr2x2<'a, V> = SparseTensor<
    'a,
    V,
    Enc<
        u8,
        u8,
        { pack_level_types(&[DENSE, COMPRESSED, DENSE, DENSE]) },
        {
            pack_level_exprs(&[
                LevelExpr::FloorDiv { dim: 0, divisor: 2 },
                LevelExpr::FloorDiv { dim: 1, divisor: 2 },
                LevelExpr::Mod { dim: 0, modulus: 2 },
                LevelExpr::Mod { dim: 1, modulus: 2 },
            ])
        },
    >,
    2,
    4,
>;
