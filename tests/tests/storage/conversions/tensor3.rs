//! 3-D tensors across level permutations and formats.

use proptest::prelude::*;
use sparse_core::levels::{
    compressed, d0, d1, d2, dense, loose_compressed, nonunique, singleton, soa,
};
use sparse_core::vocab::LevelExpr;
use sparse_core::{Enc, Encoding, SparseTensor, StoresValues};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{self, with_tensor};
use sparse_tests::gen::{sparse, sparse_with_duplicates, Entries};
use sparse_tests::reference::{fused, lvl, Kind, RefLevel};

use super::common::*;

const I: LevelExpr = LevelExpr::Dim(0);
const J: LevelExpr = LevelExpr::Dim(1);
const K: LevelExpr = LevelExpr::Dim(2);

type Csf = Enc<u8, u8, (compressed, compressed, compressed), (d0, d1, d2)>;
type CsfKij = Enc<u16, u8, (compressed, compressed, compressed), (d2, d0, d1)>;
type DccJki = Enc<u32, u16, (dense, compressed, compressed), (d1, d2, d0)>;
type DdcIkj = Enc<u8, u8, (dense, dense, compressed), (d0, d2, d1)>;
type Dcc = Enc<u8, u8, (dense, compressed, compressed), (d0, d1, d2)>;
/// MLIR's 3-D COO: `(i : compressed(nonunique), j : singleton(nonunique),
/// k : singleton)` (a unique middle singleton would forbid two entries
/// with the same `(i, j)`).
type Coo3 = Enc<usize, u8, (compressed<nonunique>, singleton<nonunique>, singleton), (d0, d1, d2)>;
type Coo3Kij = Enc<
    u16,
    u16,
    (
        compressed<nonunique>,
        singleton<(nonunique, soa)>,
        singleton<soa>,
    ),
    (d2, d0, d1),
>;
/// `(j : compressed(nonunique), k : singleton(nonunique), i :
/// singleton(soa))`: one AoS pair and one SoA level.
type Coo3Mixed =
    Enc<u8, u32, (compressed<nonunique>, singleton<nonunique>, singleton<soa>), (d1, d2, d0)>;
/// `(j : compressed, k : dense, i : compressed)`: a dense level between
/// two sparse ones (empty entries get positions).
type CdcMiddle = Enc<u16, u8, (compressed, dense, compressed), (d1, d2, d0)>;
/// `(i : compressed, j : loose_compressed, k : loose_compressed)`.
type LooseCsf = Enc<u8, u8, (compressed, loose_compressed, loose_compressed), (d0, d1, d2)>;
/// `(i : dense, j : compressed, k : dense)`: a dense level below a sparse one.
type Cdc = Enc<u8, u8, (dense, compressed, dense), (d2, d0, d1)>;

fn target<S: Encoding, T: StoresValues, const LS: usize, const LT: usize>(
    a: &SparseTensor<'_, i64, S, 3, LS>,
    expected: &[i64],
    repeats: bool,
) -> Result<(), TestCaseError> {
    let owned = check_into::<S, T, 3, LS, LT>(a, expected, repeats)?;
    check_slices::<S, T, 3, LS, LT>(a, &owned)
}

fn into_every_3d<S: Encoding, const LS: usize>(
    layout: &[RefLevel],
    dims: [usize; 3],
    entries: &Entries<i64>,
) -> Result<(), TestCaseError> {
    let expected = Dense::from_entries(&dims, entries).data;
    let repeats = has_repeats(entries);
    with_tensor::<i64, S, 3, LS, _>(layout, dims, entries, |a| {
        target::<S, Csf, LS, 3>(a, &expected, repeats)?;
        target::<S, CsfKij, LS, 3>(a, &expected, repeats)?;
        target::<S, DccJki, LS, 3>(a, &expected, repeats)?;
        target::<S, DdcIkj, LS, 3>(a, &expected, repeats)?;
        target::<S, Dcc, LS, 3>(a, &expected, repeats)?;
        target::<S, Coo3, LS, 3>(a, &expected, repeats)?;
        target::<S, Coo3Kij, LS, 3>(a, &expected, repeats)?;
        target::<S, Coo3Mixed, LS, 3>(a, &expected, repeats)?;
        target::<S, Cdc, LS, 3>(a, &expected, repeats)?;
        target::<S, CdcMiddle, LS, 3>(a, &expected, repeats)?;
        target::<S, LooseCsf, LS, 3>(a, &expected, repeats)
    })
}

const COO3: [RefLevel; 3] = [
    lvl(Kind::Compressed { unique: false }, I),
    fused(J),
    fused(K),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn from_csf((dims, e) in sparse::<i64, 3>(4)) {
        into_every_3d::<Csf, 3>(&fixture::CSF, dims, &e)?;
    }

    #[test]
    fn from_dcc((dims, e) in sparse::<i64, 3>(4)) {
        into_every_3d::<Dcc, 3>(&fixture::DCC, dims, &e)?;
    }

    #[test]
    fn from_coo3((dims, e) in sparse::<i64, 3>(4)) {
        into_every_3d::<Coo3, 3>(&COO3, dims, &e)?;
    }

    #[test]
    fn from_coo3_with_repeats((dims, e) in sparse_with_duplicates::<i64, 3>(3, 10)) {
        type Coo3Nu = Enc<u32, u32, (compressed<nonunique>, singleton<nonunique>, singleton<nonunique>), (d0, d1, d2)>;
        into_every_3d::<Coo3Nu, 3>(&COO3, dims, &e)?;
    }
}
