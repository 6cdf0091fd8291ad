//! The encodings of the conversion tests and the checks every conversion
//! goes through.

use proptest::prelude::*;
use sparse_core::convert::{convert, convert_sum, to_dense, ConvertError};
use sparse_core::levels::{
    compressed, d0, d1, dense, floordiv, loose_compressed, modulo, nonordered, nonunique,
    singleton, soa,
};
use sparse_core::vocab::{LevelExpr, LevelFormat, LevelType};
use sparse_core::{
    Enc, Encoding, Fixed, Level, Owned, SliceBuffer, Slices, SparseTensor, StoresValues,
};
use sparse_core::{Index, SparseTensorOut};

pub const D0: LevelExpr = LevelExpr::Dim(0);
pub const D1: LevelExpr = LevelExpr::Dim(1);

pub type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
pub type Csc = Enc<u16, u32, (dense, compressed), (d1, d0)>;
pub type Dcsr = Enc<u32, u16, (compressed, compressed), (d0, d1)>;
pub type Dcsc = Enc<usize, usize, (compressed, compressed), (d1, d0)>;
pub type Coo = Enc<u16, u8, (compressed<nonunique>, singleton), (d0, d1)>;
pub type CooSoa = Enc<u8, u64, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
/// COO that keeps repeated coordinates.
pub type CooNu = Enc<u32, u32, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
/// Column-major COO keeping repeats.
pub type CooNuCol = Enc<u32, u8, (compressed<nonunique>, singleton<nonunique>), (d1, d0)>;
pub type CooUnordered = Enc<
    usize,
    u16,
    (
        compressed<(nonunique, nonordered)>,
        singleton<(nonunique, nonordered)>,
    ),
    (d0, d1),
>;
pub type LooseRows = Enc<u8, u8, (dense, loose_compressed), (d0, d1)>;
pub type LooseCols = Enc<u16, u16, (dense, loose_compressed), (d1, d0)>;
pub type Dense2 = Enc<u8, u8, (dense, dense), (d0, d1)>;
pub type Dense2Col = Enc<u8, u8, (dense, dense), (d1, d0)>;
/// `(i : compressed, j : dense)`: stored rows, each dense.
pub type RowSparse = Enc<u8, u8, (compressed, dense), (d0, d1)>;
/// `(i : dense, j : compressed(nonunique))`: rows whose columns may repeat.
pub type CsrNu = Enc<u16, u16, (dense, compressed<nonunique>), (d0, d1)>;
pub type Bsr22 = Enc<
    u8,
    u8,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
>;
pub type Bsr23Dcsr = Enc<
    u16,
    u8,
    (compressed, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 3>,
        modulo<d0, 2>,
        modulo<d1, 3>,
    ),
>;
/// `(i : compressed, j : loose_compressed)`: a loose level below a sparse one.
pub type DcsrLoose = Enc<u16, u8, (compressed, loose_compressed), (d0, d1)>;
/// `(j : compressed(nonunique), i : compressed)`: every entry its own column
/// entry (as insertion makes them).
pub type NuThenC = Enc<u8, u16, (compressed<nonunique>, compressed), (d1, d0)>;
/// `(i : compressed(nonunique), j : singleton)` column-major, unique.
pub type CooCol = Enc<usize, u32, (compressed<nonunique>, singleton), (d1, d0)>;

/// Whether a target keeps repeated coordinates as separate entries (every
/// level from the first non-unique compressed one on is non-unique).
pub fn keeps_repeats<E: Encoding, const L: usize>() -> bool {
    let ty = |l| E::level_type(l).expect("valid encoding");
    let first = (0..L).find(|&l| {
        let t: LevelType = ty(l);
        t.has_positions() && !t.is_unique()
    });
    first.is_some_and(|f| (f..L).all(|l| !ty(l).is_unique()))
}

pub fn all_dense<E: Encoding, const L: usize>() -> bool {
    (0..L).all(|l| E::level_type(l).expect("valid encoding").is_dense())
}

/// Whether a walk of an `E` tensor may meet a coordinate twice (a
/// non-unique level, or loose segments, which may overlap).
pub fn may_repeat<E: Encoding, const L: usize>() -> bool {
    (0..L).any(|l| {
        let t = E::level_type(l).expect("valid encoding");
        !t.is_unique() || t.format == LevelFormat::LooseCompressed
    })
}

/// The dense row-major contents of `t` (repeats summed).
pub fn dense_of<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, i64, E, D, L>,
) -> Vec<i64> {
    let mut d = vec![0; t.dim_sizes().iter().product()];
    to_dense(t, &mut d).expect("sizes agree");
    d
}

/// Owned copies of a tensor's buffers: positions and coordinates per level
/// (as `usize`), values.
pub type Buffers = (Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<i64>);

pub fn buffers<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, i64, E, D, L>,
) -> Buffers {
    let (_, levels, values) = t.disassemble();
    (
        levels
            .iter()
            .map(|l| l.positions.iter().map(|p| p.to_u64() as usize).collect())
            .collect(),
        levels
            .iter()
            .map(|l| l.coordinates.iter().map(|c| c.to_u64() as usize).collect())
            .collect(),
        values.to_vec(),
    )
}

/// Re-assembles `t` through the checked constructor and returns its dense
/// contents: the output's view must be a valid tensor.
pub fn revalidated<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, i64, E, D, L>,
) -> Vec<i64> {
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<i64, E, D, L>::assemble(dims, levels, values)
        .unwrap_or_else(|e| panic!("the output is not a valid tensor: {e}"));
    dense_of(&again)
}

/// Converts `a` into the target `T` every way there is, and checks each
/// result against `expected` (the dense contents, repeats summed):
/// `convert_sum` into `Owned` (re-validated), into `Fixed<64>` (the same
/// buffers), and `convert`, which must refuse exactly the sources that
/// repeat a coordinate the target cannot keep.
pub fn check_into<
    S: Encoding,
    T: StoresValues,
    const D: usize,
    const LS: usize,
    const LT: usize,
>(
    a: &SparseTensor<'_, i64, S, D, LS>,
    expected: &[i64],
    repeats: bool,
) -> Result<Buffers, TestCaseError> {
    let dims = a.dim_sizes();
    let mut out = SparseTensorOut::<i64, T, Owned, D, LT>::with_dims(dims)
        .map_err(|e| TestCaseError::fail(format!("with_dims: {e}")))?;
    convert_sum(a, &mut out).map_err(|e| TestCaseError::fail(format!("convert_sum: {e}")))?;
    let (_, levels, values) = out.view().disassemble();
    if let Err(e) = SparseTensor::<i64, T, D, LT>::assemble(dims, levels, values) {
        return Err(TestCaseError::fail(format!(
            "{} from {}: {e}: {:?}",
            std::any::type_name::<T>(),
            std::any::type_name::<S>(),
            buffers(&out.view())
        )));
    }
    prop_assert_eq!(revalidated(&out.view()), expected);
    let owned = buffers(&out.view());
    if !T::is_pattern() && !repeats {
        // No repeats: every stored entry moved, none invented, apart from
        // dense padding.
        let mut stored = 0;
        a.for_each(|_, _| stored += 1);
        let dense_levels = (0..LT).any(|l| T::level_type(l).is_some_and(|t| t.is_dense()));
        if !dense_levels {
            prop_assert_eq!(out.number_of_entries(), stored);
        }
    }

    // The no-alloc path: the same buffers.
    if owned.2.len() <= 64 && owned.0.iter().chain(&owned.1).all(|b| b.len() <= 64) {
        let mut fixed = SparseTensorOut::<i64, T, Fixed<64>, D, LT>::with_dims(dims)
            .map_err(|e| TestCaseError::fail(format!("Fixed::with_dims: {e}")))?;
        let staged_fits = a.number_of_entries() * LT <= 64;
        match convert_sum(a, &mut fixed) {
            Ok(()) => prop_assert_eq!(buffers(&fixed.view()), owned.clone()),
            Err(ConvertError::Capacity {
                needed, capacity, ..
            }) if !staged_fits => {
                prop_assert!(needed > capacity);
                prop_assert!(revalidated(&fixed.view()).iter().all(|&x| x == 0));
            }
            Err(e) => return Err(TestCaseError::fail(format!("Fixed: {e}"))),
        }
    }

    // Without summing: refused exactly when a repeat cannot be kept.
    let mut strict = SparseTensorOut::<i64, T, Owned, D, LT>::with_dims(dims)
        .map_err(|e| TestCaseError::fail(format!("with_dims: {e}")))?;
    let refused = repeats && !keeps_repeats::<T, LT>();
    match convert(a, &mut strict) {
        Ok(()) => {
            prop_assert!(!refused, "convert kept a repeat the target cannot hold");
            prop_assert_eq!(revalidated(&strict.view()), expected);
        }
        Err(ConvertError::Duplicate) => {
            // An all-dense target refuses a source type that may repeat
            // when it cannot walk it in order (documented).
            let blanket = all_dense::<T, LT>() && may_repeat::<S, LS>();
            prop_assert!(
                refused || blanket,
                "convert refused a source without repeats"
            );
            prop_assert!(revalidated(&strict.view()).iter().all(|&x| x == 0));
        }
        Err(e) => return Err(TestCaseError::fail(format!("convert: {e}"))),
    }
    Ok(owned)
}

/// Caller slices for an output of `LT` levels: lengths per buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room<const LT: usize> {
    pub pos: [usize; LT],
    pub crd: [usize; LT],
    pub val: usize,
}

/// Converts into caller slices of the sizes in `room`.
pub fn convert_in_slices<
    S: Encoding,
    T: StoresValues,
    const D: usize,
    const LS: usize,
    const LT: usize,
>(
    a: &SparseTensor<'_, i64, S, D, LS>,
    room: &Room<LT>,
) -> Result<Result<Buffers, ConvertError>, String> {
    let z = T::Pos::from_usize(0).expect("zero");
    let zc = T::Crd::from_usize(0).expect("zero");
    let mut pos: [Vec<T::Pos>; LT] = core::array::from_fn(|l| vec![z; room.pos[l]]);
    let mut crd: [Vec<T::Crd>; LT] = core::array::from_fn(|l| vec![zc; room.crd[l]]);
    let mut val = vec![0i64; room.val];
    let mut pos_it = pos.iter_mut();
    let mut crd_it = crd.iter_mut();
    let pos_b: [SliceBuffer<'_, T::Pos>; LT] =
        core::array::from_fn(|_| SliceBuffer::new(pos_it.next().expect("one per level")));
    let crd_b: [SliceBuffer<'_, T::Crd>; LT] =
        core::array::from_fn(|_| SliceBuffer::new(crd_it.next().expect("one per level")));
    let mut out = SparseTensorOut::<i64, T, Slices<'_>, D, LT>::new(
        a.dim_sizes(),
        pos_b,
        crd_b,
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .map_err(|e| e.to_string())?;
    match convert_sum(a, &mut out) {
        Ok(()) => Ok(Ok(buffers(&out.view()))),
        Err(e) => {
            // Left valid and empty.
            let v = out.view();
            assert!(
                revalidated(&v).iter().all(|&x| x == 0),
                "a failed conversion leaves the output empty"
            );
            Ok(Err(e))
        }
    }
}

/// Starting from the result's own lengths, grows each buffer a failed
/// conversion names to exactly the `needed` it reports until the
/// conversion fits; then checks that each reported need was exact (one
/// less fails). Returns the buffers.
pub fn check_slices<
    S: Encoding,
    T: StoresValues,
    const D: usize,
    const LS: usize,
    const LT: usize,
>(
    a: &SparseTensor<'_, i64, S, D, LS>,
    owned: &Buffers,
) -> Result<(), TestCaseError> {
    let mut room = Room::<LT> {
        pos: core::array::from_fn(|l| owned.0[l].len()),
        crd: core::array::from_fn(|l| owned.1[l].len()),
        val: owned.2.len(),
    };
    let mut grown: Vec<(usize, sparse_core::Buffer)> = Vec::new();
    for _ in 0..8 {
        let result = convert_in_slices::<S, T, D, LS, LT>(a, &room)
            .map_err(|e| TestCaseError::fail(format!("new over the result's lengths: {e}")))?;
        match result {
            Ok(b) => {
                prop_assert_eq!(&b, owned);
                // Exactness: one less than each reported need fails.
                for &(level, buffer) in &grown {
                    let mut less = room.clone();
                    match buffer {
                        sparse_core::Buffer::Positions => less.pos[level] -= 1,
                        sparse_core::Buffer::Coordinates => less.crd[level] -= 1,
                        _ => less.val -= 1,
                    }
                    let r = convert_in_slices::<S, T, D, LS, LT>(a, &less);
                    prop_assert!(
                        !matches!(r, Ok(Ok(_))),
                        "room {:?} one less than needed in {:?} of level {} still fits",
                        less,
                        buffer,
                        level
                    );
                }
                return Ok(());
            }
            Err(ConvertError::Capacity {
                level,
                buffer,
                needed,
                capacity,
            }) => {
                let slot = match buffer {
                    sparse_core::Buffer::Positions => &mut room.pos[level],
                    sparse_core::Buffer::Coordinates => &mut room.crd[level],
                    _ => &mut room.val,
                };
                prop_assert_eq!(*slot, capacity);
                prop_assert!(needed > capacity);
                *slot = needed;
                grown.retain(|g| *g != (level, buffer));
                grown.push((level, buffer));
            }
            Err(e) => return Err(TestCaseError::fail(format!("slices: {e}"))),
        }
    }
    Err(TestCaseError::fail("no fit after eight rounds of growing"))
}

/// Builds an unordered COO (one segment, tuples in the order given, repeats
/// kept) and hands it to `f`.
pub fn with_unordered_coo<R>(
    dims: [usize; 2],
    entries: &[(Vec<usize>, i64)],
    f: impl FnOnce(&SparseTensor<'_, i64, CooUnordered, 2, 2>) -> R,
) -> R {
    let pos = [0usize, entries.len()];
    let crd: Vec<u16> = entries
        .iter()
        .flat_map(|(c, _)| [c[0] as u16, c[1] as u16])
        .collect();
    let val: Vec<i64> = entries.iter().map(|(_, v)| *v).collect();
    let t = SparseTensor::<i64, CooUnordered, 2, 2>::assemble(
        dims,
        [Level::compressed(&pos, &crd), Level::fused()],
        &val,
    )
    .expect("unordered COO assembles");
    f(&t)
}

/// Whether `entries` repeat a coordinate.
pub fn has_repeats(entries: &[(Vec<usize>, i64)]) -> bool {
    let mut seen: Vec<&Vec<usize>> = entries.iter().map(|(c, _)| c).collect();
    seen.sort();
    seen.windows(2).any(|w| w[0] == w[1])
}
