//! Every 2-D source format into every 2-D target format.

use proptest::prelude::*;
use sparse_core::{Encoding, SparseTensor, StoresValues};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{self, with_tensor};
use sparse_tests::gen::{sparse, sparse_with_duplicates, Entries};
use sparse_tests::reference::{lvl, Kind, RefLevel};

use super::common::*;

/// One target: every way into it, and the slices' exact capacities.
fn target<S: Encoding, T: StoresValues, const LS: usize, const LT: usize>(
    a: &SparseTensor<'_, i64, S, 2, LS>,
    expected: &[i64],
    repeats: bool,
) -> Result<(), TestCaseError> {
    let owned = check_into::<S, T, 2, LS, LT>(a, expected, repeats)?;
    check_slices::<S, T, 2, LS, LT>(a, &owned)
}

/// `a` into every 2-D target.
pub fn into_every_2d<S: Encoding, const LS: usize>(
    a: &SparseTensor<'_, i64, S, 2, LS>,
    expected: &[i64],
    repeats: bool,
) -> Result<(), TestCaseError> {
    target::<S, Csr, LS, 2>(a, expected, repeats)?;
    target::<S, Csc, LS, 2>(a, expected, repeats)?;
    target::<S, Dcsr, LS, 2>(a, expected, repeats)?;
    target::<S, Dcsc, LS, 2>(a, expected, repeats)?;
    target::<S, Coo, LS, 2>(a, expected, repeats)?;
    target::<S, CooCol, LS, 2>(a, expected, repeats)?;
    target::<S, CooSoa, LS, 2>(a, expected, repeats)?;
    target::<S, CooNu, LS, 2>(a, expected, repeats)?;
    target::<S, CooNuCol, LS, 2>(a, expected, repeats)?;
    target::<S, LooseRows, LS, 2>(a, expected, repeats)?;
    target::<S, LooseCols, LS, 2>(a, expected, repeats)?;
    target::<S, Dense2, LS, 2>(a, expected, repeats)?;
    target::<S, Dense2Col, LS, 2>(a, expected, repeats)?;
    target::<S, RowSparse, LS, 2>(a, expected, repeats)?;
    target::<S, CsrNu, LS, 2>(a, expected, repeats)?;
    target::<S, DcsrLoose, LS, 2>(a, expected, repeats)?;
    target::<S, NuThenC, LS, 2>(a, expected, repeats)?;
    target::<S, Bsr22, LS, 4>(a, expected, repeats)?;
    target::<S, Bsr23Dcsr, LS, 4>(a, expected, repeats)
}

/// Builds `entries` in `layout` as `S` and converts it into every target.
fn from_layout<S: Encoding, const LS: usize>(
    layout: &[RefLevel],
    dims: [usize; 2],
    entries: &Entries<i64>,
) -> Result<(), TestCaseError> {
    let expected = Dense::from_entries(&dims, entries).data;
    let repeats = has_repeats(entries);
    with_tensor::<i64, S, 2, LS, _>(layout, dims, entries, |a| {
        into_every_2d(a, &expected, repeats)
    })
}

const I: sparse_core::vocab::LevelExpr = D0;
const J: sparse_core::vocab::LevelExpr = D1;
/// BSR with 2x2 blocks: block padding outside the matrix is skipped,
/// explicit zeros inside blocks are stored entries.
const BSR22: [RefLevel; 4] = [
    lvl(
        Kind::Dense,
        sparse_core::vocab::LevelExpr::FloorDiv { dim: 0, divisor: 2 },
    ),
    lvl(
        Kind::Compressed { unique: true },
        sparse_core::vocab::LevelExpr::FloorDiv { dim: 1, divisor: 2 },
    ),
    lvl(
        Kind::Dense,
        sparse_core::vocab::LevelExpr::Mod { dim: 0, modulus: 2 },
    ),
    lvl(
        Kind::Dense,
        sparse_core::vocab::LevelExpr::Mod { dim: 1, modulus: 2 },
    ),
];
const DENSE2: [RefLevel; 2] = [lvl(Kind::Dense, I), lvl(Kind::Dense, J)];
const CSR_NU: [RefLevel; 2] = [
    lvl(Kind::Dense, I),
    lvl(Kind::Compressed { unique: false }, J),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn from_csr((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<Csr, 2>(&fixture::CSR, dims, &e)?;
    }

    #[test]
    fn from_csc((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<Csc, 2>(&fixture::CSC, dims, &e)?;
    }

    #[test]
    fn from_dcsr((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<Dcsr, 2>(&fixture::DCSR, dims, &e)?;
    }

    #[test]
    fn from_dcsc((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<Dcsc, 2>(&fixture::DCSC, dims, &e)?;
    }

    #[test]
    fn from_sorted_coo((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<Coo, 2>(&fixture::COO, dims, &e)?;
        from_layout::<CooSoa, 2>(&fixture::COO_SOA, dims, &e)?;
    }

    #[test]
    fn from_loose((dims, e) in sparse::<i64, 2>(6)) {
        from_layout::<LooseRows, 2>(&fixture::LOOSE, dims, &e)?;
    }

    #[test]
    fn from_bsr((dims, e) in sparse::<i64, 2>(5)) {
        let expected = Dense::from_entries(&dims, &e).data;
        with_tensor::<i64, Bsr22, 2, 4, _>(&BSR22, dims, &e, |a| into_every_2d(a, &expected, false))?;
    }

    #[test]
    fn from_all_dense((dims, e) in sparse::<i64, 2>(5)) {
        from_layout::<Dense2, 2>(&DENSE2, dims, &e)?;
    }

    #[test]
    fn from_coo_with_repeats((dims, e) in sparse_with_duplicates::<i64, 2>(5, 12)) {
        from_layout::<CooNu, 2>(&fixture::COO, dims, &e)?;
        from_layout::<CsrNu, 2>(&CSR_NU, dims, &e)?;
    }

    #[test]
    fn from_unordered_coo((dims, e) in sparse_with_duplicates::<i64, 2>(5, 12)) {
        let expected = Dense::from_entries(&dims, &e).data;
        let repeats = has_repeats(&e);
        with_unordered_coo(dims, &e, |a| into_every_2d(a, &expected, repeats))?;
    }
}
