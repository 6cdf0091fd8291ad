//! Encodings as types: `Enc` carries the index widths, the level types, the
//! dim→lvl map and the `explicitVal` of a tensor in its type parameters.

use core::marker::PhantomData;

use crate::index::Index;
use crate::vocab::{
    level_expr_at, level_type_at, values_at, ExplicitValue, LevelExpr, LevelType, Values,
};

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
    /// The values: 0 when a values array is stored, else the `explicitVal`
    /// packed by [`ExplicitValue::pack`] (a pattern tensor, no values array).
    const VALUES: u128;

    /// The type of level `l`, `None` if the code holds no valid level type there.
    fn level_type(l: usize) -> Option<LevelType> {
        level_type_at(Self::LEVEL_TYPES, l)
    }
    /// The expression computing level `l`'s coordinate from the dimensions.
    fn level_expr(l: usize) -> LevelExpr {
        level_expr_at(Self::MAP, l)
    }
    /// Whether the encoding has an `explicitVal`: a pattern tensor, which
    /// stores no values array.
    fn is_pattern() -> bool {
        Self::VALUES != 0
    }
    /// The `explicitVal` as its type and bits, `None` if values are stored
    /// (or the code is invalid, which only a hand-written `Enc` can be).
    fn explicit() -> Option<ExplicitValue> {
        match values_at(Self::VALUES) {
            Values::Explicit(x) => Some(x),
            Values::Stored | Values::Invalid => None,
        }
    }
    /// The `explicitVal` as a `V`: `None` if values are stored, or if `V` is
    /// not the `explicitVal`'s type (`f64` for `explicitVal = 1 : i64`).
    fn explicit_value<V>() -> Option<V> {
        crate::value::decode::<V>(Self::VALUES).ok().flatten()
    }
}

/// The one implementation of [`Encoding`]: widths as types, level types,
/// map and `explicitVal` as packed codes. Two encodings that mean the same
/// thing have the same codes, so the same type, wherever they are written.
///
/// `VALUES` defaults to 0 (values stored), so `Enc<P, C, LT, MAP>` is the
/// encoding without `explicitVal`, the same type as `Enc<P, C, LT, MAP, 0>`.
pub struct Enc<P, C, const LEVEL_TYPES: u128, const MAP: u128, const VALUES: u128 = 0>(
    pub(crate) PhantomData<fn() -> (P, C)>,
);

impl<
        P: Index + 'static,
        C: Index + 'static,
        const LEVEL_TYPES: u128,
        const MAP: u128,
        const VALUES: u128,
    > Encoding for Enc<P, C, LEVEL_TYPES, MAP, VALUES>
{
    type Pos = P;
    type Crd = C;
    const LEVEL_TYPES: u128 = LEVEL_TYPES;
    const MAP: u128 = MAP;
    const VALUES: u128 = VALUES;
}
