//! Level types and the dim→lvl map as types: the `L` and `M` parameters of
//! [`Enc`](crate::Enc), spelled as MLIR spells the encoding.
//!
//! `#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 :
//! compressed) }>` is `Enc<P, C, (dense, compressed), (d0, d1)>`; CSC,
//! `(d0, d1) -> (d1 : dense, d0 : compressed)`, is `Enc<P, C, (dense,
//! compressed), (d1, d0)>`; COO is `(compressed<nonunique>, singleton)`;
//! 2×2 BSR's map is `(floordiv<d0, 2>, floordiv<d1, 2>, modulo<d0, 2>,
//! modulo<d1, 2>)`. The names are lower case on purpose: rustc prints them
//! when a tensor of one encoding is passed where another is expected, and
//! there they read as the encoding text (`expected `(d0, d1)`, found `(d1,
//! d0)``) instead of the numbers a packed code would print.
//!
//! Each encoding has exactly one spelling: properties are listed in MLIR's
//! order (`nonunique, nonordered, soa, high`; other orders do not
//! implement [`Properties`]), and `sparse_kernel!` writes the same types
//! for the same encoding wherever it is declared. The traits here are
//! sealed; each type's code is the [`crate::vocab`] packing of what it
//! names, which is what the runtime decodes.
//!
//! ```
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::{Enc, Encoding, Level, SparseTensor};
//!
//! type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
//! // | . . 5 |
//! // | 7 . . |
//! let a = SparseTensor::<f32, Csr, 2, 2>::assemble(
//!     [2, 3],
//!     [Level::dense(), Level::compressed(&[0, 1, 2], &[2, 0])],
//!     &[5.0, 7.0],
//! )?;
//! assert_eq!(a.number_of_entries(), 2);
//! assert_eq!(Csr::LEVELS, 2);
//! # Ok::<(), sparse_core::AssembleError>(())
//! ```
//!
//! Properties in another order are not a property set, so an encoding
//! cannot be spelled two ways:
//!
//! ```compile_fail
//! use sparse_core::levels::{compressed, d0, nonordered, nonunique};
//! use sparse_core::{Enc, Encoding};
//!
//! type Sv = Enc<u8, u8, (compressed<(nonordered, nonunique)>,), (d0,)>;
//! let _ = Sv::LEVEL_TYPES;
//! ```
//!
//! and level types and a map of different lengths fail when the encoding
//! is used:
//!
//! ```compile_fail
//! use sparse_core::levels::{d0, dense};
//! use sparse_core::{Enc, Encoding};
//!
//! type Bad = Enc<u8, u8, (dense, dense), (d0,)>;
//! let _ = Bad::LEVELS;
//! ```
#![allow(non_camel_case_types)]

use core::convert::Infallible;
use core::marker::PhantomData;

use crate::vocab::{
    pack_level_exprs, pack_level_types, LevelExpr, LevelFormat, LevelProps, LevelType,
};

mod sealed {
    /// Implemented by the markers of this module alone.
    pub trait Sealed {}
    /// Implemented by tuples alone.
    pub trait Tuple {}
}
use sealed::{Sealed, Tuple};

/// A level type as a type: [`dense`], [`batch`], [`compressed`],
/// [`loose_compressed`], [`singleton`], [`structured`].
pub trait LevelTypeMarker: Sealed + 'static {
    /// The level type it names.
    const LEVEL_TYPE: LevelType;
}

/// A set of level properties as a type: `()`, one of [`nonunique`],
/// [`nonordered`], [`soa`], [`high`], or a tuple of them in that order.
pub trait Properties: Sealed + 'static {
    /// The properties it names.
    const PROPS: LevelProps;
}

/// The level types of an encoding, level 0 first: a tuple of
/// [`LevelTypeMarker`]s, `(dense, compressed)`.
pub trait LevelTypes: Tuple + 'static {
    /// The number of levels.
    const LEVELS: usize;
    /// The level types packed by [`pack_level_types`].
    const CODE: u128;
}

/// A dimension variable of the map, [`d0`] to [`d7`].
pub trait DimVar: Sealed + 'static {
    /// The dimension's number.
    const DIM: u8;
}

/// A level expression as a type: a dimension variable, [`floordiv`],
/// [`modulo`] or [`counting`].
pub trait LevelExprMarker: Sealed + 'static {
    /// The expression it names.
    const EXPR: LevelExpr;
}

/// The dim→lvl map of an encoding: a tuple of [`LevelExprMarker`]s, one per
/// level, `(d1, d0)`.
pub trait DimToLvl: Tuple + 'static {
    /// The number of levels.
    const LEVELS: usize;
    /// The expressions packed by [`pack_level_exprs`].
    const CODE: u128;
}

/// A zero-sized type with no values, generic over `P`.
macro_rules! marker_with_props {
    ($(#[$doc:meta] $name:ident => $format:ident;)*) => {$(
        #[$doc]
        ///
        /// `P` holds its properties (`()` for none).
        pub struct $name<P = ()> {
            _props: PhantomData<P>,
            _never: Infallible,
        }
        impl<P: Properties> Sealed for $name<P> {}
        impl<P: Properties> LevelTypeMarker for $name<P> {
            const LEVEL_TYPE: LevelType = LevelType::new(LevelFormat::$format).with(P::PROPS);
        }
    )*};
}

marker_with_props! {
    /// `compressed`: a positions array and the stored coordinates.
    compressed => Compressed;
    /// `loose_compressed`: a lo/hi position pair per parent.
    loose_compressed => LooseCompressed;
    /// `singleton`: one coordinate per parent entry (COO's tail).
    singleton => Singleton;
}

/// `dense`: every coordinate, linearized with the parent.
pub enum dense {}
impl Sealed for dense {}
impl LevelTypeMarker for dense {
    const LEVEL_TYPE: LevelType = LevelType::new(LevelFormat::Dense);
}

/// `batch`: every coordinate, not linearized.
pub enum batch {}
impl Sealed for batch {}
impl LevelTypeMarker for batch {
    const LEVEL_TYPE: LevelType = LevelType::new(LevelFormat::Batch);
}

/// `structured[N, M]`: `N` of every `M` coordinates stored (`block2_4` is
/// `structured<2, 4>`).
pub enum structured<const N: u8, const M: u8> {}
impl<const N: u8, const M: u8> Sealed for structured<N, M> {}
impl<const N: u8, const M: u8> LevelTypeMarker for structured<N, M> {
    const LEVEL_TYPE: LevelType = LevelType::new(LevelFormat::Structured { n: N, m: M });
}

macro_rules! property {
    ($(#[$doc:meta] $name:ident => $bit:ident;)*) => {$(
        #[$doc]
        pub enum $name {}
        impl Sealed for $name {}
        impl Properties for $name {
            const PROPS: LevelProps = LevelProps::$bit;
        }
    )*};
}

property! {
    /// `nonunique`: a coordinate may repeat within a segment.
    nonunique => NONUNIQUE;
    /// `nonordered`: coordinates need not be sorted within a segment.
    nonordered => NONORDERED;
    /// `soa`: a singleton level stored as its own array.
    soa => SOA;
    /// `high`: accepted, as MLIR does; no effect on the storage.
    high => HIGH;
}

impl Sealed for () {}
impl Properties for () {
    const PROPS: LevelProps = LevelProps::NONE;
}

/// Tuples of properties in MLIR's order only, so that each set has one
/// type.
macro_rules! property_sets {
    ($(($($p:ident),+);)*) => {$(
        impl Sealed for ($($p,)+) {}
        impl Properties for ($($p,)+) {
            const PROPS: LevelProps = LevelProps::NONE $(.union($p::PROPS))+;
        }
    )*};
}

property_sets! {
    (nonunique, nonordered);
    (nonunique, soa);
    (nonunique, high);
    (nonordered, soa);
    (nonordered, high);
    (soa, high);
    (nonunique, nonordered, soa);
    (nonunique, nonordered, high);
    (nonunique, soa, high);
    (nonordered, soa, high);
    (nonunique, nonordered, soa, high);
}

macro_rules! dims {
    ($(#[$doc:meta] $name:ident => $d:literal;)*) => {$(
        #[$doc]
        pub enum $name {}
        impl Sealed for $name {}
        impl DimVar for $name {
            const DIM: u8 = $d;
        }
        impl LevelExprMarker for $name {
            const EXPR: LevelExpr = LevelExpr::Dim($d);
        }
    )*};
}

dims! {
    /// Dimension 0.
    d0 => 0;
    /// Dimension 1.
    d1 => 1;
    /// Dimension 2.
    d2 => 2;
    /// Dimension 3.
    d3 => 3;
    /// Dimension 4.
    d4 => 4;
    /// Dimension 5.
    d5 => 5;
    /// Dimension 6.
    d6 => 6;
    /// Dimension 7.
    d7 => 7;
}

macro_rules! dim_exprs {
    ($(#[$doc:meta] $name:ident => $variant:ident { $field:ident };)*) => {$(
        #[$doc]
        pub enum $name<D, const K: u32> {
            #[doc(hidden)]
            __Never(Infallible, PhantomData<D>),
        }
        impl<D: DimVar, const K: u32> Sealed for $name<D, K> {}
        impl<D: DimVar, const K: u32> LevelExprMarker for $name<D, K> {
            const EXPR: LevelExpr = LevelExpr::$variant { dim: D::DIM, $field: K };
        }
    )*};
}

dim_exprs! {
    /// `D floordiv K`: the block coordinate.
    floordiv => FloorDiv { divisor };
    /// `D mod K`: the coordinate inside a block.
    modulo => Mod { modulus };
    /// `c * K * D`: ELL's counting form, `K` slices.
    counting => Counting { slices };
}

/// Level tuples of 1 to 8 elements.
macro_rules! tuples {
    ($n:literal: $($t:ident),+) => {
        impl<$($t),+> Tuple for ($($t,)+) {}
        impl<$($t: LevelTypeMarker),+> LevelTypes for ($($t,)+) {
            const LEVELS: usize = $n;
            const CODE: u128 = pack_level_types(&[$($t::LEVEL_TYPE),+]);
        }
        impl<$($t: LevelExprMarker),+> DimToLvl for ($($t,)+) {
            const LEVELS: usize = $n;
            const CODE: u128 = pack_level_exprs(&[$($t::EXPR),+]);
        }
    };
}

// A rank-0 tensor (a scalar) has no levels.
impl Tuple for () {}
impl LevelTypes for () {
    const LEVELS: usize = 0;
    const CODE: u128 = 0;
}
impl DimToLvl for () {
    const LEVELS: usize = 0;
    const CODE: u128 = 0;
}

tuples!(1: A);
tuples!(2: A, B);
tuples!(3: A, B, C);
tuples!(4: A, B, C, D);
tuples!(5: A, B, C, D, E);
tuples!(6: A, B, C, D, E, F);
tuples!(7: A, B, C, D, E, F, G);
tuples!(8: A, B, C, D, E, F, G, H);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::{level_expr_at, level_type_at};

    /// Every marker packs to what it names, at its level.
    #[test]
    fn markers_pack_to_the_codes_they_name() {
        type L = (
            dense,
            batch,
            compressed<(nonunique, nonordered)>,
            loose_compressed<high>,
            singleton<(nonunique, soa)>,
            structured<2, 4>,
            compressed,
            singleton<(nonunique, nonordered, soa, high)>,
        );
        type M = (
            d7,
            floordiv<d1, 2047>,
            modulo<d1, 2047>,
            counting<d0, 3>,
            d2,
            d3,
            d4,
            d5,
        );
        let cmp = LevelType::new(LevelFormat::Compressed);
        let sgl = LevelType::new(LevelFormat::Singleton);
        let all = LevelProps::NONUNIQUE
            .union(LevelProps::NONORDERED)
            .union(LevelProps::SOA)
            .union(LevelProps::HIGH);
        let types = [
            LevelType::new(LevelFormat::Dense),
            LevelType::new(LevelFormat::Batch),
            cmp.with(LevelProps::NONUNIQUE.union(LevelProps::NONORDERED)),
            LevelType::new(LevelFormat::LooseCompressed).with(LevelProps::HIGH),
            sgl.with(LevelProps::NONUNIQUE.union(LevelProps::SOA)),
            LevelType::new(LevelFormat::Structured { n: 2, m: 4 }),
            cmp,
            sgl.with(all),
        ];
        let exprs = [
            LevelExpr::Dim(7),
            LevelExpr::FloorDiv {
                dim: 1,
                divisor: 2047,
            },
            LevelExpr::Mod {
                dim: 1,
                modulus: 2047,
            },
            LevelExpr::Counting { dim: 0, slices: 3 },
            LevelExpr::Dim(2),
            LevelExpr::Dim(3),
            LevelExpr::Dim(4),
            LevelExpr::Dim(5),
        ];
        assert_eq!((L::LEVELS, M::LEVELS), (8, 8));
        assert_eq!(L::CODE, pack_level_types(&types));
        assert_eq!(M::CODE, pack_level_exprs(&exprs));
        for l in 0..8 {
            assert_eq!(level_type_at(L::CODE, l), Some(types[l]));
            assert_eq!(level_expr_at(M::CODE, l), exprs[l]);
        }
        assert_eq!(<() as LevelTypes>::LEVELS, 0);
        assert_eq!(
            <(d0,) as DimToLvl>::CODE,
            pack_level_exprs(&[LevelExpr::Dim(0)])
        );
    }
}
