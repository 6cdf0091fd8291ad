//! Sparse outputs built by the runtime's insertion protocol alone
//! (`begin`/`insert`/`finish`, no generated kernel), for every level format
//! outputs support, compared buffer for buffer with the independent
//! reference builder (`sparse_tests::reference`) and re-assembled through
//! the checked constructor.

use proptest::prelude::*;
// The insertion protocol generated kernels drive, called here by hand.
use sparse_core::__private::OutputProtocol;
use sparse_core::levels::{compressed, d0, d1, d2, dense, nonunique, singleton};
use sparse_core::vocab::LevelExpr;
use sparse_core::{
    Encoding, Index, KernelError, Owned, SparseTensor, SparseTensorOut, StoresValues,
};
use sparse_tests::gen::{self, Entries};
use sparse_tests::reference::{
    bsr_map, build, fused, lvl, storage_order, to_lvl, Bsr23, Built, Coo, CooNu, CooSoa, Csc, Csf,
    Csr, Dcsr, Kind, Loose, RefLevel,
};

const D0: LevelExpr = LevelExpr::Dim(0);
const D1: LevelExpr = LevelExpr::Dim(1);
const D2: LevelExpr = LevelExpr::Dim(2);
const CMP: Kind = Kind::Compressed { unique: true };
const CMP_NU: Kind = Kind::Compressed { unique: false };

/// `(i, j, k) -> (i : dense, j : compressed, k : dense)`: dense rows under
/// a compressed level, zero-filled on insertion.
type Dcd<P, C> = sparse_core::Enc<P, C, (dense, compressed, dense), (d0, d1, d2)>;
/// 3-d sorted COO, AoS: `compressed(nonunique), singleton(nonunique),
/// singleton`.
type Coo3<P, C> =
    sparse_core::Enc<P, C, (compressed<nonunique>, singleton<nonunique>, singleton), (d0, d1, d2)>;

/// Level coordinates of `entries` in the order a kernel inserts them.
fn insertions<const LVL: usize>(
    layout: &[RefLevel],
    entries: &Entries<i32>,
) -> Vec<([usize; LVL], i32)> {
    storage_order(layout, entries)
        .into_iter()
        .map(|(d, v)| (to_lvl(layout, &d).try_into().unwrap(), v))
        .collect()
}

/// Builds the output of `entries` by insertion into `Vec` buffers.
fn inserted<E: StoresValues, const DIM: usize, const LVL: usize>(
    layout: &[RefLevel],
    dims: [usize; DIM],
    entries: &Entries<i32>,
) -> Result<SparseTensorOut<i32, E, Owned, DIM, LVL>, TestCaseError> {
    let mut c = SparseTensorOut::<i32, E, Owned, DIM, LVL>::with_dims(dims)
        .map_err(|e| TestCaseError::fail(format!("new: {e}")))?;
    c.begin();
    for (l, v) in insertions::<LVL>(layout, entries) {
        c.insert(l, v);
    }
    prop_assert_eq!(c.finish("c"), Ok(()));
    Ok(c)
}

/// The view's buffers equal the reference's, and `assemble` accepts them.
fn same_as_reference<E: Encoding, const DIM: usize, const LVL: usize>(
    view: SparseTensor<'_, i32, E, DIM, LVL>,
    want: &Built<i32>,
) -> Result<(), TestCaseError> {
    let (dims, levels, values) = view.disassemble();
    for (l, level) in levels.iter().enumerate() {
        let pos: Vec<usize> = level.positions.iter().map(|p| p.as_usize()).collect();
        let crd: Vec<usize> = level.coordinates.iter().map(|c| c.as_usize()).collect();
        prop_assert_eq!(&pos, &want.pos[l], "positions of level {}", l);
        prop_assert_eq!(&crd, &want.crd[l], "coordinates of level {}", l);
    }
    prop_assert_eq!(values, &want.values[..]);
    let again = SparseTensor::<i32, E, DIM, LVL>::assemble(dims, levels, values);
    prop_assert!(
        again.is_ok(),
        "assemble refused the view: {:?}",
        again.err()
    );
    Ok(())
}

/// Inserts `entries` and compares with the reference layout.
fn check<E: StoresValues, const DIM: usize, const LVL: usize>(
    layout: &[RefLevel],
    dims: [usize; DIM],
    entries: &Entries<i32>,
) -> Result<(), TestCaseError> {
    let c = inserted::<E, DIM, LVL>(layout, dims, entries)?;
    let want = build(layout, &dims, entries, 0, 0);
    same_as_reference(c.view(), &want)?;
    prop_assert_eq!(c.number_of_entries(), want.values.len());
    Ok(())
}

const CSR: [RefLevel; 2] = [lvl(Kind::Dense, D0), lvl(CMP, D1)];
const CSC: [RefLevel; 2] = [lvl(Kind::Dense, D1), lvl(CMP, D0)];
const DCSR: [RefLevel; 2] = [lvl(CMP, D0), lvl(CMP, D1)];
const COO: [RefLevel; 2] = [lvl(CMP_NU, D0), fused(D1)];
const COO_SOA: [RefLevel; 2] = [lvl(CMP_NU, D0), lvl(Kind::Singleton, D1)];
const CSF: [RefLevel; 3] = [lvl(CMP, D0), lvl(CMP, D1), lvl(CMP, D2)];
const DCD: [RefLevel; 3] = [lvl(Kind::Dense, D0), lvl(CMP, D1), lvl(Kind::Dense, D2)];
const COO3: [RefLevel; 3] = [lvl(CMP_NU, D0), fused(D1), fused(D2)];

fn bsr23() -> [RefLevel; 4] {
    let m = bsr_map(2, 3);
    [
        lvl(Kind::Dense, m[0]),
        lvl(CMP, m[1]),
        lvl(Kind::Dense, m[2]),
        lvl(Kind::Dense, m[3]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn matrices_match_the_reference((dims, entries) in gen::sparse::<i32, 2>(6)) {
        check::<Csr<u8, u8>, 2, 2>(&CSR, dims, &entries)?;
        check::<Csc<u16, u8>, 2, 2>(&CSC, dims, &entries)?;
        check::<Dcsr<u8, u16>, 2, 2>(&DCSR, dims, &entries)?;
        check::<Coo<u8, u8>, 2, 2>(&COO, dims, &entries)?;
        check::<CooSoa<usize, u32>, 2, 2>(&COO_SOA, dims, &entries)?;
        check::<Bsr23<u8, u8>, 2, 4>(&bsr23(), dims, &entries)?;
    }

    #[test]
    fn nonunique_coo_keeps_repeats((dims, entries) in gen::sparse_with_duplicates::<i32, 2>(5, 12)) {
        let layout = [lvl(CMP_NU, D0), lvl(Kind::Singleton, D1)];
        let layout_aos = [layout[0], RefLevel { fused: true, ..layout[1] }];
        check::<CooNu<u8, u8>, 2, 2>(&layout_aos, dims, &entries)?;
    }

    #[test]
    fn three_dimensional_formats((dims, entries) in gen::sparse::<i32, 3>(4)) {
        check::<Csf<u8, u8>, 3, 3>(&CSF, dims, &entries)?;
        check::<Dcd<u8, u8>, 3, 3>(&DCD, dims, &entries)?;
        check::<Coo3<u8, u8>, 3, 3>(&COO3, dims, &entries)?;
    }

    /// The reference stores loose levels with gaps and reversed segments,
    /// so the comparison is by stored entries.
    #[test]
    fn loose_compressed_holds_the_entries((dims, entries) in gen::sparse::<i32, 2>(6)) {
        let layout = [lvl(Kind::Dense, D0), lvl(Kind::Loose, D1)];
        let c = inserted::<Loose<u8, u8>, 2, 2>(&layout, dims, &entries)?;
        let view = c.view();
        let mut got = Vec::new();
        view.for_each_lvl(|l, &v| got.push((l, v)));
        prop_assert_eq!(got, insertions::<2>(&layout, &entries));
        let pos = view.level(1).positions();
        prop_assert_eq!(pos.len(), 2 * dims[0]);
        let (d, levels, values) = view.disassemble();
        prop_assert!(SparseTensor::<i32, Loose<u8, u8>, 2, 2>::assemble(d, levels, values).is_ok());
    }

    /// A second call replaces the first result; `clear` empties.
    #[test]
    fn outputs_are_reused((dims, first) in gen::sparse::<i32, 2>(5), seed in 0usize..8) {
        let second: Entries<i32> = first.iter().skip(seed).step_by(2).cloned().collect();
        let mut c = inserted::<Dcsr<u8, u8>, 2, 2>(&DCSR, dims, &first)?;
        c.begin();
        for (l, v) in insertions::<2>(&DCSR, &second) {
            c.insert(l, v);
        }
        prop_assert_eq!(c.finish("c"), Ok(()));
        same_as_reference(c.view(), &build(&DCSR, &dims, &second, 0, 0))?;
        c.clear();
        same_as_reference(c.view(), &build(&DCSR, &dims, &[], 0, 0))?;
    }

    /// Insertions out of order are reported, never stored.
    #[test]
    fn out_of_order_insertions_are_errors((dims, entries) in gen::sparse::<i32, 2>(5), k in 0usize..64) {
        let mut ins = insertions::<2>(&CSR, &entries);
        if ins.len() < 2 {
            // Nothing to reorder (empty or single-entry tensors are common).
            return Ok(());
        }
        let k = 1 + k % (ins.len() - 1);
        ins.swap(k - 1, k);
        let mut c = SparseTensorOut::<i32, Csr<u8, u8>, Owned, 2, 2>::with_dims(dims).unwrap();
        c.begin();
        for &(l, v) in &ins {
            c.insert(l, v);
        }
        let err = c.finish("c");
        prop_assert!(
            matches!(err, Err(KernelError::InsertOutOfOrder { tensor: "c", insert, .. }) if insert == k),
            "{:?}", err
        );
        same_as_reference(c.view(), &build(&CSR, &dims, &[], 0, 0))?;
    }
}
