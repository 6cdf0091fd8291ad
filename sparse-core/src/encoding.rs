//! Encodings as types: `Enc` carries the index widths, the level types and
//! the dim→lvl map of a tensor in its type parameters.

use core::marker::PhantomData;

use crate::index::Index;
use crate::vocab::{level_expr_at, level_type_at, LevelExpr, LevelType};

/// A sparse tensor encoding (MLIR's `#sparse_tensor.encoding`) as a type.
///
/// Implemented only by [`Enc`]; `sparse_kernel!` writes the `Enc` for each
/// `#NAME = #sparse_tensor.encoding<{...}>` it reads.
pub trait Encoding: 'static {
    /// The position type (`posWidth`).
    type Pos: Index;
    /// The coordinate type (`crdWidth`).
    type Crd: Index;
    /// The level types, packed by [`crate::vocab::pack_level_types`].
    const LEVEL_TYPES: u128;
    /// The dim→lvl map, packed by [`crate::vocab::pack_level_exprs`].
    const MAP: u128;

    /// The type of level `l`, `None` if the code holds no valid level type there.
    fn level_type(l: usize) -> Option<LevelType> {
        level_type_at(Self::LEVEL_TYPES, l)
    }
    /// The expression computing level `l`'s coordinate from the dimensions.
    fn level_expr(l: usize) -> LevelExpr {
        level_expr_at(Self::MAP, l)
    }
}

/// The one implementation of [`Encoding`]: widths as types, level types and
/// map as packed codes. Two encodings that mean the same thing have the same
/// codes, so the same type, wherever they are written.
pub struct Enc<P, C, const LEVEL_TYPES: u128, const MAP: u128>(PhantomData<fn() -> (P, C)>);

impl<P: Index + 'static, C: Index + 'static, const LEVEL_TYPES: u128, const MAP: u128> Encoding
    for Enc<P, C, LEVEL_TYPES, MAP>
{
    type Pos = P;
    type Crd = C;
    const LEVEL_TYPES: u128 = LEVEL_TYPES;
    const MAP: u128 = MAP;
}
