//! `assemble_with_capacity`: buffers with room past their used prefix,
//! as MLIR's `assemble` takes them, and `disassemble_into` returning the
//! used lengths.

use proptest::prelude::*;
use sparse_core::levels::{compressed, d0, d1, d2, dense, loose_compressed, nonunique, singleton};
use sparse_core::{
    AssembleError, Enc, Index, Level, LevelBuffersMut, LevelLens, SparseTensor, StoresValues,
};

use super::common::*;

type Bcoo = Enc<usize, usize, (dense, loose_compressed<nonunique>, singleton), (d0, d1, d2)>;
type Csr32 = Enc<u32, u32, (dense, compressed), (d0, d1)>;
type LooseRows = Enc<u8, u8, (dense, loose_compressed), (d0, d1)>;

/// `sparse_pack.mlir`: a batched COO whose coordinate buffer holds a sixth
/// tuple `(10, 10)` (out of range) past the five the positions use.
#[test]
fn mlir_sparse_pack_bcoo() {
    let pos = [0usize, 3, 3, 5];
    let index = [1usize, 2, 5, 6, 7, 8, 2, 3, 4, 2, 10, 10];
    let data = [1.0, 2.0, 3.0, 4.0, 5.0];
    let levels = [
        Level::dense(),
        Level::compressed(&pos, &index),
        Level::fused(),
    ];
    // The plain `assemble` reads every slot as an entry.
    assert!(SparseTensor::<f64, Bcoo, 3, 3>::assemble([2, 10, 10], levels, &data).is_err());
    let bs = SparseTensor::<f64, Bcoo, 3, 3>::assemble_with_capacity([2, 10, 10], levels, &data)
        .unwrap();
    let mut seen = Vec::new();
    bs.for_each(|c, v| seen.push((c, *v)));
    assert_eq!(
        seen,
        [
            ([0, 1, 2], 1.0),
            ([0, 5, 6], 2.0),
            ([0, 7, 8], 3.0),
            ([1, 2, 3], 4.0),
            ([1, 4, 2], 5.0)
        ]
    );
    // disassemble into buffers of the original sizes: the used lengths.
    let (mut bop, mut boi, mut bod) = ([0usize; 4], [0usize; 12], [0.0; 6]);
    let lens = bs
        .disassemble_into(
            [
                LevelBuffersMut::none(),
                LevelBuffersMut::new(&mut bop, &mut boi),
                LevelBuffersMut::none(),
            ],
            &mut bod,
        )
        .unwrap();
    assert_eq!(lens.values, 5);
    assert_eq!(
        lens.levels[1],
        LevelLens {
            positions: 4,
            coordinates: 10
        }
    );
    assert_eq!(bod[..5], data);
    assert_eq!(boi[..10], index[..10]);

    // The CSR of the same test, disassembled into a values buffer of 4.
    let csr = SparseTensor::<f64, Csr32, 2, 2>::assemble_with_capacity(
        [2, 2],
        [Level::dense(), Level::compressed(&[0, 1, 3], &[1, 0, 1])],
        &data[..3],
    )
    .unwrap();
    let (mut p, mut i, mut d) = ([0u32; 3], [0u32; 3], [0.0; 4]);
    let lens = csr
        .disassemble_into(
            [
                LevelBuffersMut::none(),
                LevelBuffersMut::new(&mut p, &mut i),
            ],
            &mut d,
        )
        .unwrap();
    assert_eq!((lens.values, d[..3].to_vec()), (3, vec![1.0, 2.0, 3.0]));
}

#[test]
fn loose_gaps_stay_entries_capacity_does_not() {
    let pos = [0u8, 2, 4, 5];
    let crd = [0u8, 1, 9, 9, 2, 7, 7];
    let val = [1, 2, 0, 0, 3, 0, 0];
    let t = SparseTensor::<i64, LooseRows, 2, 2>::assemble_with_capacity(
        [2, 10],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .unwrap();
    // Slots 2 and 3 lie between segments (stored, never visited), 5 and 6
    // past the largest `hi` (capacity).
    assert_eq!(t.number_of_entries(), 5);
    assert_eq!(t.level(1).coordinates(), &crd[..5]);
    let mut seen = Vec::new();
    t.for_each(|c, v| seen.push((c, *v)));
    assert_eq!(seen, [([0, 0], 1), ([0, 1], 2), ([1, 2], 3)]);
    // A gap coordinate out of range is still an error; capacity is not read.
    let bad = [0u8, 1, 10, 9, 2, 200, 201];
    assert!(matches!(
        SparseTensor::<i64, LooseRows, 2, 2>::assemble_with_capacity(
            [2, 10],
            [Level::dense(), Level::compressed(&pos, &bad)],
            &val,
        ),
        Err(AssembleError::CoordinateOutOfRange { position: 2, .. })
    ));
}

/// `v` with `extra` garbage elements after it.
fn padded<T: Index>(v: &[T], extra: usize) -> Vec<T> {
    let mut out = v.to_vec();
    out.extend((0..extra).map(|k| T::from_usize(k % 3 + 1).unwrap()));
    out
}

fn round_trip<E: StoresValues, const D: usize, const L: usize>(
    dims: [usize; D],
    data: &[i64],
    extra: usize,
) -> Result<(), TestCaseError> {
    let src = owned::<E, D, L>(dims, data);
    let v = src.view();
    let (_, levels, values) = v.disassemble();
    let pos: Vec<Vec<E::Pos>> = levels
        .iter()
        .map(|l| {
            if l.positions.is_empty() {
                vec![]
            } else {
                padded(l.positions, extra)
            }
        })
        .collect();
    let crd: Vec<Vec<E::Crd>> = levels
        .iter()
        .map(|l| {
            if l.coordinates.is_empty() {
                vec![]
            } else {
                padded(l.coordinates, extra)
            }
        })
        .collect();
    let mut val = values.to_vec();
    val.extend(std::iter::repeat_n(-77, extra));
    let roomy: [Level<'_, E::Pos, E::Crd>; L] =
        core::array::from_fn(|l| Level::compressed(&pos[l], &crd[l]));
    let t = SparseTensor::<i64, E, D, L>::assemble_with_capacity(dims, roomy, &val)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(dense_of(&t), dense_of(&v));
    prop_assert_eq!(t.number_of_entries(), v.number_of_entries());
    // disassemble gives back exactly the used prefixes.
    let (_, back, back_values) = t.disassemble();
    prop_assert_eq!(back, levels);
    prop_assert_eq!(back_values, values);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn spare_room_is_ignored_2d((dims, extra) in (dims::<2>(5), 0usize..4), seed in any::<u64>()) {
        let n: usize = dims.iter().product();
        let data: Vec<i64> = (0..n).map(|k| ((seed >> (k % 60)) & 3) as i64 - 1).collect();
        round_trip::<Csr, 2, 2>(dims, &data, extra)?;
        round_trip::<Csc, 2, 2>(dims, &data, extra)?;
        round_trip::<Dcsr, 2, 2>(dims, &data, extra)?;
        round_trip::<Coo, 2, 2>(dims, &data, extra)?;
        round_trip::<CooSoa, 2, 2>(dims, &data, extra)?;
        round_trip::<RowSparse, 2, 2>(dims, &data, extra)?;
    }

    #[test]
    fn spare_room_is_ignored_3d((dims, extra) in (dims::<3>(3), 0usize..4), seed in any::<u64>()) {
        let n: usize = dims.iter().product();
        let data: Vec<i64> = (0..n).map(|k| ((seed >> (k % 60)) & 3) as i64 - 1).collect();
        round_trip::<Csf, 3, 3>(dims, &data, extra)?;
        round_trip::<Dcc, 3, 3>(dims, &data, extra)?;
        round_trip::<Coo3, 3, 3>(dims, &data, extra)?;
    }
}
