//! `sparse_kernel!` used for real on the seed encodings: the aliases it
//! emits are `sparse_core` storage types with the right level types and
//! maps, the same encoding written twice is the same type, and tensors
//! assemble through them.

use sparse_core::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType};
use sparse_core::{Encoding, Level, SparseTensor};

/// Reads an alias's encoding back through the `Encoding` trait.
trait Describe {
    const DIM: usize;
    const LVL: usize;
    fn level_types() -> Vec<Option<LevelType>>;
    fn level_exprs() -> Vec<LevelExpr>;
    fn widths() -> (usize, usize);
}

impl<V, E: Encoding, const DIM: usize, const LVL: usize> Describe
    for SparseTensor<'static, V, E, DIM, LVL>
{
    const DIM: usize = DIM;
    const LVL: usize = LVL;
    fn level_types() -> Vec<Option<LevelType>> {
        (0..LVL).map(E::level_type).collect()
    }
    fn level_exprs() -> Vec<LevelExpr> {
        (0..LVL).map(E::level_expr).collect()
    }
    fn widths() -> (usize, usize) {
        (
            core::mem::size_of::<E::Pos>(),
            core::mem::size_of::<E::Crd>(),
        )
    }
}

mod seed000 {
    sparse_core::sparse_kernel! {
        // Sparse vector.
        #SparseVector = #sparse_tensor.encoding<{
          map = (i) -> (i : compressed)
        }>

        // Sorted coordinate scheme (arranged in AoS format by default).
        #SortedCOO = #sparse_tensor.encoding<{
          map = (i, j) -> (i : compressed(nonunique), j : singleton)
        }>

        // Sorted coordinate scheme (arranged in SoA format).
        #SortedCOO_SoA = #sparse_tensor.encoding<{
          map = (i, j) -> (i : compressed(nonunique), j : singleton(soa))
        }>

        // Batched sorted coordinate scheme, with high encoding.
        #BCOO = #sparse_tensor.encoding<{
          map = (i, j, k) -> (i : dense, j : compressed(nonunique, high), k : singleton)
        }>

        // Compressed sparse row.
        #CSR = #sparse_tensor.encoding<{
          map = (i, j) -> (i : dense, j : compressed)
        }>

        // Doubly compressed sparse column storage with specific bitwidths.
        #DCSC = #sparse_tensor.encoding<{
          map = (i, j) -> (j : compressed, i : compressed),
          posWidth = 32,
          crdWidth = 8
        }>

        // Block sparse row storage (2x3 blocks).
        #BSR = #sparse_tensor.encoding<{
          map = ( i, j ) ->
          ( i floordiv 2 : dense,
            j floordiv 3 : compressed,
            i mod 2      : dense,
            j mod 3      : dense
          )
        }>

        // Same block sparse row storage (2x3 blocks) but this time
        // also with a redundant reverse mapping, which can be inferred.
        #BSR_explicit = #sparse_tensor.encoding<{
          map = { ib, jb, ii, jj }
                ( i = ib * 2 + ii,
                  j = jb * 3 + jj) ->
          ( ib = i floordiv 2 : dense,
            jb = j floordiv 3 : compressed,
            ii = i mod 2 : dense,
            jj = j mod 3 : dense)
        }>

        // ELL format.
        #ELL = #sparse_tensor.encoding<{
          map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
        }>

        /// A user's own doc comment is kept.
        #CSC = #sparse_tensor.encoding<{
          map = (i, j) -> (j : dense, i : compressed)
        }>

        type Matrix = tensor<?x?xf64, #CSR>;
        type Small = tensor<8x8xf64, #DCSC>;
        type Grid = tensor<4x8xi32>;
    }
}

mod seed001 {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{
          map = (i, j) -> (i : dense, j : compressed)
        }>

        #BSR = #sparse_tensor.encoding<{
          map = (i, j) ->
            ( i floordiv 2 : dense
            , j floordiv 2 : compressed
            , i mod 2 : dense
            , j mod 2 : dense
            )
        }>

        #NV_24 = #sparse_tensor.encoding<{
          map = ( i, j ) -> ( i            : dense,
                              j floordiv 4 : dense,
                              j mod 4      : block2_4),
          crdWidth = 2  // 2-bits for each coordinate
        }>

        type Blocks = tensor<4x6xf64, #BSR>;
    }
}

/// CSR spelt differently (other variable names, canonical `d0`, layout).
mod elsewhere {
    sparse_core::sparse_kernel! {
        #RowMajor = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 0 }>
    }
}

fn lt(format: LevelFormat) -> Option<LevelType> {
    Some(LevelType::new(format))
}

type F = f64;

#[test]
fn level_types_and_maps_read_back_through_the_alias() {
    use LevelExpr::*;
    use LevelFormat::*;
    type V = seed000::SparseVector<'static, F>;
    assert_eq!(V::level_types(), [lt(Compressed)]);
    assert_eq!((V::DIM, V::LVL), (1, 1));

    type Aos = seed000::SortedCOO<'static, F>;
    let nonunique = LevelType::new(Compressed).with(LevelProps::NONUNIQUE);
    assert_eq!(Aos::level_types(), [Some(nonunique), lt(Singleton)]);
    type Soa = seed000::SortedCOO_SoA<'static, F>;
    assert_eq!(
        Soa::level_types(),
        [
            Some(nonunique),
            Some(LevelType::new(Singleton).with(LevelProps::SOA))
        ]
    );

    type Bcoo = seed000::BCOO<'static, F>;
    assert_eq!(
        Bcoo::level_types()[1],
        Some(nonunique.with(LevelProps::HIGH))
    );
    assert_eq!((Bcoo::DIM, Bcoo::LVL), (3, 3));

    type Csr = seed000::CSR<'static, F>;
    assert_eq!(Csr::level_types(), [lt(Dense), lt(Compressed)]);
    assert_eq!(Csr::level_exprs(), [Dim(0), Dim(1)]);
    assert_eq!(Csr::widths(), (size_of::<usize>(), size_of::<usize>()));

    type Dcsc = seed000::DCSC<'static, F>;
    assert_eq!(Dcsc::level_exprs(), [Dim(1), Dim(0)]);
    assert_eq!(Dcsc::widths(), (4, 1));

    type Bsr = seed000::BSR<'static, F>;
    assert_eq!(
        Bsr::level_exprs(),
        [
            FloorDiv { dim: 0, divisor: 2 },
            FloorDiv { dim: 1, divisor: 3 },
            Mod { dim: 0, modulus: 2 },
            Mod { dim: 1, modulus: 3 },
        ]
    );
    assert_eq!(
        Bsr::level_types(),
        [lt(Dense), lt(Compressed), lt(Dense), lt(Dense)]
    );
    assert_eq!((Bsr::DIM, Bsr::LVL), (2, 4));

    type Ell = seed000::ELL<'static, F>;
    assert_eq!(
        Ell::level_exprs(),
        [Counting { dim: 0, slices: 3 }, Dim(0), Dim(1)]
    );

    type Nv = seed001::NV_24<'static, F>;
    assert_eq!(
        Nv::level_types(),
        [lt(Dense), lt(Dense), lt(Structured { n: 2, m: 4 })]
    );
    // 2-bit coordinates are packed four per byte: one `Packed2` byte.
    assert_eq!(Nv::widths(), (size_of::<usize>(), 1));
    let _: fn(Nv) -> &'static [sparse_core::Packed2] = |t| t.level(2).coordinates();
}

/// Compiles only if `A` and `B` are the same type.
fn same_type<A, B>(a: A) -> B
where
    A: Into<B>,
{
    a.into()
}

#[test]
fn the_same_encoding_written_twice_is_the_same_type() {
    // Two blocks, two spellings of CSR: one type. `From<T> for T` is the
    // only `Into` impl these have, so this compiles only if they are equal.
    let convert: fn(seed000::CSR<'static, F>) -> elsewhere::RowMajor<'static, F> = same_type;
    let convert2: fn(seed001::CSR<'static, F>) -> seed000::CSR<'static, F> = same_type;
    let _ = (convert, convert2);
    // The explicit-inverse spelling of BSR is BSR.
    let convert3: fn(seed000::BSR<'static, F>) -> seed000::BSR_explicit<'static, F> = same_type;
    let _ = convert3;
    // A tensor type alias is the encoding alias with its element type.
    let convert4: fn(seed000::Matrix<'static>) -> seed000::CSR<'static, f64> = same_type;
    let _ = convert4;
    let grid: seed000::Grid = [[0i32; 8]; 4];
    assert_eq!(grid.len() * grid[0].len(), 32);
}

#[test]
fn csr_and_csc_are_different_types() {
    assert_ne!(
        core::any::TypeId::of::<seed000::CSR<'static, F>>(),
        core::any::TypeId::of::<seed000::CSC<'static, F>>()
    );
    assert_eq!(
        core::any::TypeId::of::<seed000::CSR<'static, F>>(),
        core::any::TypeId::of::<elsewhere::RowMajor<'static, F>>()
    );
}

#[test]
fn seed_001_bsr_assembles_through_its_type_alias() {
    // Seed 001's 2x2 block example: positions[1] = 0 2 3, coordinates[1] =
    // 0 2 1, and the three stored blocks row by row.
    static POS: [usize; 3] = [0, 2, 3];
    static CRD: [usize; 3] = [0, 2, 1];
    static VALUES: [f64; 12] = [1., 2., 0., 3., 4., 0., 0., 5., 6., 7., 8., 0.];
    let tensor = seed001::Blocks::assemble(
        [4, 6],
        [
            Level::dense(),
            Level::compressed(&POS, &CRD),
            Level::dense(),
            Level::dense(),
        ],
        &VALUES,
    )
    .expect("seed 001's BSR layout is valid");
    let mut dense = [[0.0; 6]; 4];
    tensor.for_each_lvl(|lvl, v| {
        let [i, j] = tensor.lvl_to_dim(lvl);
        dense[i][j] = *v;
    });
    let expected = [
        [1., 2., 0., 0., 4., 0.],
        [0., 3., 0., 0., 0., 5.],
        [0., 0., 6., 7., 0., 0.],
        [0., 0., 8., 0., 0., 0.],
    ];
    assert_eq!(dense, expected);
}
