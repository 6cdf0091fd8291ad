//! Encodings as types: `Enc` carries the index widths, the level types, the
//! dim→lvl map and the `explicitVal` of a tensor in its type parameters.
//! The level types and the map are tuples of the marker types of
//! [`crate::levels`], so they read as the encoding does.

use core::marker::PhantomData;

use crate::index::Index;
use crate::levels::{DimToLvl, LevelTypes};
use crate::vocab::{
    level_expr_at, level_type_at, values_at, ExplicitValue, LevelExpr, LevelType, Values,
};

/// A sparse tensor encoding (MLIR's `#sparse_tensor.encoding`) as a type.
///
/// Implemented by [`Enc`] (and by a hidden wrapper giving an encoding
/// native positions, for the chunk outputs of `#[parallel]` kernels);
/// `sparse_kernel!` writes the `Enc` for each `#NAME =
/// #sparse_tensor.encoding<{...}>` it reads.
pub trait Encoding: 'static {
    /// The position type (`posWidth`).
    type Pos: Index;
    /// The coordinate type (`crdWidth`).
    type Crd: Index;
    /// The number of levels.
    const LEVELS: usize;
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

/// An encoding that stores a values array: any [`Enc`] without
/// `explicitVal`. Sparse outputs ([`SparseTensorOut`]) store the values
/// they are written, so their constructors require it, and a pattern
/// encoding (`explicitVal`) as an output is a compile error at the
/// constructor rather than `AssembleError::PatternOutput` at run time.
/// MLIR gives a conversion into a pattern tensor no meaning either: an
/// `explicitVal` states that every stored entry holds that value, which a
/// conversion cannot make true of its source's values.
///
/// ```compile_fail
/// sparse_core::sparse_kernel! {
///     #Graph = #sparse_tensor.encoding<{
///         map = (i, j) -> (i : dense, j : compressed), explicitVal = 1 : i64
///     }>
/// }
/// // error: a sparse output cannot have a pattern encoding (`explicitVal`)
/// let out = GraphOut::<i64, sparse_core::output::Owned>::with_dims([2, 2]);
/// ```
///
/// (`tests/ui/values/pattern-output-constructed.rs` pins the message.)
///
/// [`SparseTensorOut`]: crate::SparseTensorOut
#[diagnostic::on_unimplemented(
    message = "a sparse output cannot have a pattern encoding (`explicitVal`): outputs store the values they are written",
    label = "needs an encoding without `explicitVal`",
    note = "give the output the same encoding without `explicitVal`; a pattern tensor is assembled from its positions and coordinates (`SparseTensor::assemble` with `&[]` values)"
)]
pub trait StoresValues: Encoding {}

impl<P: Index + 'static, C: Index + 'static, L: LevelTypes, M: DimToLvl> StoresValues
    for Enc<P, C, L, M, 0>
{
}

/// The one implementation of [`Encoding`]: the widths `P` (`posWidth`) and
/// `C` (`crdWidth`) as index types, the level types `L` and the dim→lvl map
/// `M` as tuples of [`crate::levels`] markers, the `explicitVal` as a packed
/// code. Two encodings that mean the same thing are the same type,
/// wherever they are written.
///
/// ```
/// use sparse_core::levels::{compressed, d0, d1, dense, nonunique, singleton};
/// use sparse_core::Enc;
///
/// // (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 16, crdWidth = 8
/// type Csr = Enc<u16, u8, (dense, compressed), (d0, d1)>;
/// // (d0, d1) -> (d1 : dense, d0 : compressed)
/// type Csc = Enc<usize, usize, (dense, compressed), (d1, d0)>;
/// // (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton)
/// type Coo = Enc<u32, u32, (compressed<nonunique>, singleton), (d0, d1)>;
/// ```
///
/// `VALUES` defaults to 0 (values stored), so `Enc<P, C, L, M>` is the
/// encoding without `explicitVal`, the same type as `Enc<P, C, L, M, 0>`.
pub struct Enc<P, C, L, M, const VALUES: u128 = 0>(pub(crate) PhantomData<Params<P, C, L, M>>);

/// `Enc`'s type parameters, held without owning values of them (`Enc` is
/// `Send`, `Sync` and `'static` whatever they are).
type Params<P, C, L, M> = fn() -> (P, C, L, M);

impl<P: Index + 'static, C: Index + 'static, L: LevelTypes, M: DimToLvl, const VALUES: u128>
    Encoding for Enc<P, C, L, M, VALUES>
{
    type Pos = P;
    type Crd = C;
    const LEVELS: usize = {
        assert!(
            L::LEVELS == M::LEVELS,
            "an `Enc`'s level types and dim->lvl map name different numbers of levels"
        );
        L::LEVELS
    };
    const LEVEL_TYPES: u128 = L::CODE;
    const MAP: u128 = M::CODE;
    const VALUES: u128 = VALUES;
}
