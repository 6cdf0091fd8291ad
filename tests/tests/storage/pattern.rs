//! Pattern tensors (`explicitVal`): storage without a values array.
//!
//! Checked against hand-written layouts (seed 000's DCSC with
//! `explicitVal = 1 : i64`), against the same structure stored with a values
//! array of all-explicit values (property tests over the formats the
//! reference builder makes), every error class, and type identity of the
//! encodings `sparse_kernel!` emits.

use sparse_core::levels::{
    compressed, d0, d1, dense, floordiv, loose_compressed, modulo, nonunique, singleton, soa,
};
use std::any::TypeId;

use proptest::collection::btree_map;
use proptest::prelude::*;
use sparse_core::vocab::{ExplicitValue, LevelExpr, ValueType};
use sparse_core::{
    AssembleError, Enc, Encoding, Level, LevelBuffersMut, Owned, SparseTensor, SparseTensorOut,
    StoresValues,
};
use sparse_tests::reference::*;

mod seed {
    sparse_core::sparse_kernel! {
        // Seed 000: doubly compressed sparse column storage with explicit
        // and implicit values.
        #DCSC = #sparse_tensor.encoding<{
          map = (i, j) -> (j : compressed, i : compressed),
          explicitVal = 1 : i64,
          implicitVal = 0 : i64
        }>

        #PatternCSR = #sparse_tensor.encoding<{
          map = (i, j) -> (i : dense, j : compressed),
          explicitVal = 2.5 : f64
        }>

        #CSR = #sparse_tensor.encoding<{
          map = (i, j) -> (i : dense, j : compressed)
        }>

        /// An adjacency matrix stored as its pattern.
        pub type Adjacency = tensor<?x?xi64, #DCSC>;
    }
}

/// The same encodings written again, elsewhere and differently spelled.
mod again {
    sparse_core::sparse_kernel! {
        #DCSC = #sparse_tensor.encoding<{ map = (r, c) -> (c : compressed, r : compressed), explicitVal = 1 : i64 }>
        #DCSC2 = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed), explicitVal = 2 : i64 }>
        #DCSC_STORED = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed) }>
        #NEG = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = -0.0 : f64 }>
        #POS = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 0.0 : f64 }>
    }
}

// | . 1 . . . |
// | . . . . 1 |
// | . 1 . . . |
// | 1 . . . 1 |
// stored by columns: column 0 holds row 3, column 1 rows 0 and 2,
// column 4 rows 1 and 3.
const DIMS: [usize; 2] = [4, 5];
const POS0: [usize; 2] = [0, 3];
const CRD0: [usize; 3] = [0, 1, 4];
const POS1: [usize; 4] = [0, 1, 3, 5];
const CRD1: [usize; 5] = [3, 0, 2, 1, 3];

fn dcsc() -> Result<seed::Adjacency<'static>, AssembleError> {
    seed::Adjacency::assemble(
        DIMS,
        [
            Level::compressed(&POS0, &CRD0),
            Level::compressed(&POS1, &CRD1),
        ],
        &[],
    )
}

#[test]
fn seed_dcsc_assembles_without_values_and_visits_every_entry_with_one() {
    let a = dcsc().expect("valid pattern DCSC");
    assert_eq!(a.number_of_entries(), 5);
    assert!(a.values().is_empty());
    assert_eq!(a.explicit_value(), Some(1i64));
    let mut got = Vec::new();
    a.for_each(|d, v| got.push((d, *v)));
    assert_eq!(
        got,
        [
            ([3, 0], 1),
            ([0, 1], 1),
            ([2, 1], 1),
            ([1, 4], 1),
            ([3, 4], 1)
        ]
    );
    let mut lvl = Vec::new();
    a.for_each_lvl(|l, v| lvl.push((l, *v)));
    assert_eq!(
        lvl,
        [
            ([0, 3], 1),
            ([1, 0], 1),
            ([1, 2], 1),
            ([4, 1], 1),
            ([4, 3], 1)
        ]
    );
}

#[test]
fn seed_dcsc_prints_the_explicit_value_for_each_entry() {
    let a = dcsc().expect("valid pattern DCSC");
    assert_eq!(
        a.to_string(),
        "---- Sparse Tensor ----\n\
         nse = 5\n\
         dim = ( 4, 5 )\n\
         lvl = ( 5, 4 )\n\
         pos[0] : ( 0, 3 )\n\
         crd[0] : ( 0, 1, 4 )\n\
         pos[1] : ( 0, 1, 3, 5 )\n\
         crd[1] : ( 3, 0, 2, 1, 3 )\n\
         values : ( 1, 1, 1, 1, 1 )\n\
         ----"
    );
    assert_eq!(
        format!("{a:#}"),
        "positions[0]   : 0 3\n\
         coordinates[0] : 0 1 4\n\
         positions[1]   : 0 1 3 5\n\
         coordinates[1] : 3 0 2 1 3\n\
         values         : 1 1 1 1\n                 \
         1"
    );
}

#[test]
fn seed_dcsc_disassembles_to_its_buffers_and_no_values() {
    let a = dcsc().expect("valid pattern DCSC");
    let (dims, levels, values) = a.disassemble();
    assert_eq!(dims, DIMS);
    assert!(values.is_empty());
    assert!(std::ptr::eq(levels[0].positions, &POS0[..]));
    assert!(std::ptr::eq(levels[0].coordinates, &CRD0[..]));
    assert!(std::ptr::eq(levels[1].positions, &POS1[..]));
    assert!(std::ptr::eq(levels[1].coordinates, &CRD1[..]));

    let (mut p0, mut c0, mut p1, mut c1) = ([9; 3], [9; 3], [9; 4], [9; 6]);
    let lens = a
        .disassemble_into(
            [
                LevelBuffersMut::new(&mut p0, &mut c0),
                LevelBuffersMut::new(&mut p1, &mut c1),
            ],
            &mut [],
        )
        .expect("a pattern tensor needs no values buffer");
    assert_eq!(lens.values, 0);
    assert_eq!(
        (lens.levels[0].positions, lens.levels[0].coordinates),
        (2, 3)
    );
    assert_eq!(
        (lens.levels[1].positions, lens.levels[1].coordinates),
        (4, 5)
    );
    assert_eq!(
        (p0, c0, p1, c1),
        ([0, 3, 9], CRD0, POS1, [3, 0, 2, 1, 3, 9])
    );

    // Round trip through assemble.
    let b = seed::Adjacency::assemble(dims, levels, values).expect("round trip");
    assert_eq!(b.to_string(), a.to_string());
}

#[test]
fn assemble_unchecked_builds_the_same_pattern_tensor() {
    let a = dcsc().expect("valid pattern DCSC");
    // SAFETY: `assemble` accepted exactly these buffers.
    let u = unsafe {
        seed::Adjacency::assemble_unchecked(
            DIMS,
            [
                Level::compressed(&POS0, &CRD0),
                Level::compressed(&POS1, &CRD1),
            ],
            &[],
        )
    };
    assert_eq!(u.number_of_entries(), 5);
    assert_eq!(u.to_string(), a.to_string());
    assert_eq!(format!("{u:#}"), format!("{a:#}"));
}

#[test]
fn a_float_pattern_csr_prints_its_value_in_both_layouts() {
    let (pos, crd) = ([0usize, 2, 2, 3], [0usize, 3, 1]);
    let a = seed::PatternCSR::<f64>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &[],
    )
    .expect("valid pattern CSR");
    assert_eq!(a.explicit_value(), Some(2.5));
    assert_eq!(
        a.to_string(),
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 2, 2, 3 )\ncrd[1] : ( 0, 3, 1 )\nvalues : ( 2.5, 2.5, 2.5 )\n----"
    );
    assert_eq!(
        format!("{a:#}"),
        "positions[1]   : 0 2 2 3\ncoordinates[1] : 0 3 1\nvalues         : 2.500000 2.500000 2.500000"
    );
    let mut got = Vec::new();
    a.for_each(|d, v| got.push((d, *v)));
    assert_eq!(got, [([0, 0], 2.5), ([0, 3], 2.5), ([2, 1], 2.5)]);
}

#[test]
fn an_empty_pattern_tensor_has_no_entries() {
    let a = seed::Adjacency::assemble(
        [3, 3],
        [
            Level::compressed(&[0, 0], &[]),
            Level::compressed(&[0], &[]),
        ],
        &[],
    )
    .expect("empty pattern DCSC");
    assert_eq!(a.number_of_entries(), 0);
    let mut n = 0;
    a.for_each(|_, _| n += 1);
    assert_eq!(n, 0);
    assert!(a.to_string().contains("values : ( )"), "{a}");
}

#[test]
fn a_values_array_for_a_pattern_tensor_is_a_typed_error() {
    let err = seed::Adjacency::assemble(
        DIMS,
        [
            Level::compressed(&POS0, &CRD0),
            Level::compressed(&POS1, &CRD1),
        ],
        &[1, 1, 1, 1, 1],
    )
    .err();
    assert_eq!(err, Some(AssembleError::PatternValues { found: 5 }));
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        text.starts_with("pattern tensor (explicitVal) takes no values array"),
        "{text}"
    );
}

#[test]
fn structural_errors_of_a_pattern_tensor_are_reported_as_usual() {
    let bad = [3usize, 0, 2, 1, 4];
    let err = seed::Adjacency::assemble(
        DIMS,
        [
            Level::compressed(&POS0, &CRD0),
            Level::compressed(&POS1, &bad),
        ],
        &[],
    )
    .err();
    assert_eq!(
        err,
        Some(AssembleError::CoordinateOutOfRange {
            level: 1,
            position: 4,
            coordinate: 4,
            size: 4
        })
    );
}

#[test]
fn an_element_type_other_than_the_explicit_values_is_a_typed_error() {
    let levels = [
        Level::compressed(&POS0, &CRD0),
        Level::compressed(&POS1, &CRD1),
    ];
    let err = seed::DCSC::<f64>::assemble(DIMS, levels, &[]).err();
    assert_eq!(
        err,
        Some(AssembleError::ExplicitValueType {
            explicit: ValueType::I64
        })
    );
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("`i64`"), "{text}");
    // Same width, other signedness: refused too, never reinterpreted.
    assert_eq!(
        seed::DCSC::<u64>::assemble(DIMS, levels, &[]).err(),
        Some(AssembleError::ExplicitValueType {
            explicit: ValueType::I64
        })
    );
    // A type that is no element type at all.
    assert_eq!(
        seed::DCSC::<&str>::assemble(DIMS, levels, &[]).err(),
        Some(AssembleError::ExplicitValueType {
            explicit: ValueType::I64
        })
    );
}

/// A hand-written `Enc` with any `VALUES` code.
type Forged<const VALUES: u128> = Enc<usize, usize, (dense, compressed), (d0, d1), VALUES>;

#[test]
fn an_invalid_values_code_is_a_typed_error() {
    let (pos, crd) = ([0usize, 1], [0usize]);
    let levels = [Level::dense(), Level::compressed(&pos, &crd)];
    // Bits without a type tag; a tag no type has; bits above an i8's width.
    assert_eq!(
        SparseTensor::<i64, Forged<5>, 2, 2>::assemble([1, 1], levels, &[]).err(),
        Some(AssembleError::InvalidExplicitValue)
    );
    assert_eq!(
        SparseTensor::<i64, Forged<{ 13 << 64 }>, 2, 2>::assemble([1, 1], levels, &[]).err(),
        Some(AssembleError::InvalidExplicitValue)
    );
    assert_eq!(
        SparseTensor::<i8, Forged<{ (3 << 64) | 0x1FF }>, 2, 2>::assemble([1, 1], levels, &[])
            .err(),
        Some(AssembleError::InvalidExplicitValue)
    );
    // The tensor built unchecked from such a code shows no values rather
    // than panicking.
    // SAFETY: deliberately violated contract; nothing here reads unchecked.
    let u =
        unsafe { SparseTensor::<i64, Forged<5>, 2, 2>::assemble_unchecked([1, 1], levels, &[]) };
    let mut n = 0;
    u.for_each(|_, _| n += 1);
    assert_eq!((n, u.explicit_value()), (0, None));
    assert!(u.to_string().contains("values : ( )"), "{u}");
}

/// An encoding written by hand that claims to store values
/// ([`StoresValues`]) but has an `explicitVal`: no `Enc` can (a pattern
/// output of one is a compile error, `ui/values/pattern-output-constructed.rs`),
/// so only such a type reaches the run-time check.
struct ClaimsValues;

impl Encoding for ClaimsValues {
    type Pos = usize;
    type Crd = usize;
    const LEVELS: usize = 2;
    const LEVEL_TYPES: u128 = <Forged<0> as Encoding>::LEVEL_TYPES;
    const MAP: u128 = <Forged<0> as Encoding>::MAP;
    const VALUES: u128 = ExplicitValue {
        ty: ValueType::F64,
        bits: 2.5f64.to_bits(),
    }
    .pack();
}

impl StoresValues for ClaimsValues {}

#[test]
fn a_sparse_output_with_a_pattern_encoding_is_refused() {
    let err = SparseTensorOut::<f64, ClaimsValues, Owned, 2, 2>::with_dims([2, 2]).err();
    assert_eq!(err, Some(AssembleError::PatternOutput));
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("pattern encoding (explicitVal)"), "{text}");
    // The same encoding without explicitVal is a fine output.
    assert!(seed::CSROut::<f64, Owned>::with_dims([2, 2]).is_ok());
}

/// Whether `T` and `U` are the same type.
fn same<T: 'static, U: 'static>() -> bool {
    TypeId::of::<T>() == TypeId::of::<U>()
}

#[test]
fn the_same_explicit_value_is_the_same_type_and_another_value_another_type() {
    // Written twice with other variable names and without implicitVal
    // (zero, its default): the same encoding, so the same type.
    assert!(same::<seed::DCSC<'static, i64>, again::DCSC<'static, i64>>());
    let a = dcsc().expect("valid pattern DCSC");
    let b: again::DCSC<'static, i64> = a;
    assert_eq!(b.number_of_entries(), 5);
    // Another explicit value, or none at all: other types.
    assert!(!same::<seed::DCSC<'static, i64>, again::DCSC2<'static, i64>>());
    assert!(!same::<
        seed::DCSC<'static, i64>,
        again::DCSC_STORED<'static, i64>,
    >());
    // Floats compare by their bits, as MLIR's attributes do.
    assert!(!same::<again::NEG<'static, f64>, again::POS<'static, f64>>());
    // The stored encoding is still spelled with four parameters.
    type Stored = Enc<usize, usize, (compressed, compressed), (d1, d0)>;
    assert!(same::<
        again::DCSC_STORED<'static, i64>,
        SparseTensor<'static, i64, Stored, 2, 2>,
    >());
    type Pattern = Enc<
        usize,
        usize,
        (compressed, compressed),
        (d1, d0),
        { ExplicitValue::int(ValueType::I64, 1).pack() },
    >;
    assert!(same::<
        seed::DCSC<'static, i64>,
        SparseTensor<'static, i64, Pattern, 2, 2>,
    >());
    assert_eq!(<Pattern as Encoding>::explicit_value::<i64>(), Some(1));
    assert_eq!(<Pattern as Encoding>::explicit_value::<i32>(), None);
    assert_eq!(<Stored as Encoding>::explicit_value::<i64>(), None);
    assert!(<Pattern as Encoding>::is_pattern() && !<Stored as Encoding>::is_pattern());
}

// Property: a pattern tensor behaves as the same structure stored with a
// values array holding the explicit value at every entry.

/// The explicit value of the pattern encodings below.
const X: i64 = -7;
const XCODE: u128 = ExplicitValue::int(ValueType::I64, X as i128).pack();

type Entries = Vec<(Vec<usize>, i64)>;

/// A random `rows x cols` matrix with distinct coordinates, valued `X`.
fn matrix() -> impl Strategy<Value = (usize, usize, Entries)> {
    (0usize..=7, 0usize..=9).prop_flat_map(|(r, c)| {
        btree_map((0..r.max(1), 0..c.max(1)), Just(X), 0..=(r * c).min(24))
            .prop_map(move |m| {
                m.into_iter()
                    .filter(|((i, j), _)| *i < r && *j < c)
                    .map(|((i, j), v)| (vec![i, j], v))
                    .collect::<Entries>()
            })
            .prop_map(move |e| (r, c, e))
    })
}

/// Builds `entries` under `layout` twice: stored (`S`, values all `X`,
/// padding and free slots too) and as a pattern (`P`, no values), and
/// checks that every read agrees.
fn same_as_stored<S, P, const LVL: usize>(
    layout: &[RefLevel],
    dims: [usize; 2],
    entries: &Entries,
) -> Result<(), TestCaseError>
where
    S: Encoding,
    P: Encoding<Pos = S::Pos, Crd = S::Crd>,
{
    let built = build(layout, &dims, entries, X, X);
    let typed = built.typed::<S::Pos, S::Crd>();
    let levels = typed.levels::<LVL>();
    let stored = SparseTensor::<i64, S, 2, LVL>::assemble(dims, levels, &typed.values)
        .map_err(|e| TestCaseError::fail(format!("stored: {e}")))?;
    let pattern = SparseTensor::<i64, P, 2, LVL>::assemble(dims, levels, &[])
        .map_err(|e| TestCaseError::fail(format!("pattern: {e}")))?;
    prop_assert_eq!(pattern.number_of_entries(), stored.number_of_entries());
    prop_assert_eq!(pattern.number_of_entries(), typed.values.len());
    prop_assert_eq!(pattern.explicit_value(), Some(X));
    prop_assert!(pattern.values().is_empty());

    let mut got = Vec::new();
    pattern.for_each(|d, v| got.push((d.to_vec(), *v)));
    let mut want = Vec::new();
    stored.for_each(|d, v| want.push((d.to_vec(), *v)));
    prop_assert_eq!(&got, &want);
    let mut got_lvl = Vec::new();
    pattern.for_each_lvl(|l, v| got_lvl.push((l, *v)));
    let mut want_lvl = Vec::new();
    stored.for_each_lvl(|l, v| want_lvl.push((l, *v)));
    prop_assert_eq!(got_lvl, want_lvl);
    // Against the entries themselves, not only the stored twin.
    if layout
        .iter()
        .all(|l| l.kind != Kind::Dense || l.expr == LevelExpr::Dim(0))
    {
        let mut sorted = got.clone();
        sorted.sort();
        let mut expected = entries.clone();
        expected.sort();
        prop_assert_eq!(sorted, expected);
    }
    prop_assert_eq!(pattern.to_string(), stored.to_string());
    prop_assert_eq!(format!("{pattern:#}"), format!("{stored:#}"));

    let (d, l, v) = pattern.disassemble();
    let (sd, sl, _) = stored.disassemble();
    prop_assert_eq!((d, l), (sd, sl));
    prop_assert!(v.is_empty());
    // SAFETY: `assemble` accepted exactly these buffers above.
    let u = unsafe { SparseTensor::<i64, P, 2, LVL>::assemble_unchecked(dims, levels, &[]) };
    prop_assert_eq!(u.number_of_entries(), pattern.number_of_entries());
    prop_assert_eq!(u.to_string(), pattern.to_string());
    Ok(())
}

const I: LevelExpr = LevelExpr::Dim(0);
const J: LevelExpr = LevelExpr::Dim(1);

type PCsr<P, C> = Enc<P, C, (dense, compressed), (d0, d1), XCODE>;
type PDcsc<P, C> = Enc<P, C, (compressed, compressed), (d1, d0), XCODE>;
type Dcsc<P, C> = Enc<P, C, (compressed, compressed), (d1, d0)>;
type PCoo<P, C> = Enc<P, C, (compressed<nonunique>, singleton), (d0, d1), XCODE>;
type PCooSoa<P, C> = Enc<P, C, (compressed<nonunique>, singleton<soa>), (d0, d1), XCODE>;
type PLoose<P, C> = Enc<P, C, (dense, loose_compressed), (d0, d1), XCODE>;
type PBsr22<P, C> = Enc<
    P,
    C,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
    XCODE,
>;

fn bsr22() -> [RefLevel; 4] {
    let m = bsr_map(2, 2);
    [
        lvl(Kind::Dense, m[0]),
        lvl(Kind::Compressed { unique: true }, m[1]),
        lvl(Kind::Dense, m[2]),
        lvl(Kind::Dense, m[3]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn pattern_csr_equals_stored((r, c, e) in matrix()) {
        let csr = [lvl(Kind::Dense, I), lvl(Kind::Compressed { unique: true }, J)];
        same_as_stored::<Csr<usize, usize>, PCsr<usize, usize>, 2>(&csr, [r, c], &e)?;
        same_as_stored::<Csr<u8, u16>, PCsr<u8, u16>, 2>(&csr, [r, c], &e)?;
    }

    #[test]
    fn pattern_dcsc_equals_stored((r, c, e) in matrix()) {
        let dcsc = [
            lvl(Kind::Compressed { unique: true }, J),
            lvl(Kind::Compressed { unique: true }, I),
        ];
        same_as_stored::<Dcsc<u32, u8>, PDcsc<u32, u8>, 2>(&dcsc, [r, c], &e)?;
    }

    #[test]
    fn pattern_coo_equals_stored((r, c, e) in matrix()) {
        let aos = [lvl(Kind::Compressed { unique: false }, I), fused(J)];
        same_as_stored::<Coo<usize, u8>, PCoo<usize, u8>, 2>(&aos, [r, c], &e)?;
        let soa = [lvl(Kind::Compressed { unique: false }, I), lvl(Kind::Singleton, J)];
        same_as_stored::<CooSoa<u16, usize>, PCooSoa<u16, usize>, 2>(&soa, [r, c], &e)?;
    }

    #[test]
    fn pattern_loose_csr_equals_stored((r, c, e) in matrix()) {
        prop_assume!(c > 0 || r == 0);
        let loose = [lvl(Kind::Dense, I), lvl(Kind::Loose, J)];
        same_as_stored::<Loose<usize, usize>, PLoose<usize, usize>, 2>(&loose, [r, c], &e)?;
    }

    #[test]
    fn pattern_bsr_equals_stored((r, c, e) in matrix()) {
        // Block padding is stored, so a pattern BSR holds X there too.
        same_as_stored::<Bsr22<usize, usize>, PBsr22<usize, usize>, 4>(&bsr22(), [r, c], &e)?;
    }
}
