//! One test per way `assemble` refuses input, each asserting the exact
//! error, plus the relaxations nonunique/nonordered levels allow, and
//! `disassemble_into`'s capacity error.

use sparse_core::levels::{compressed, d0, d1, dense, nonordered, nonunique, singleton};
use sparse_core::{
    AssembleError, Buffer, CapacityError, Enc, Encoding, Level, LevelBuffersMut, SparseTensor,
};
use sparse_tests::reference::*;

use AssembleError::*;

type CsrNu = Enc<usize, usize, (dense, compressed<nonunique>), (d0, d1)>;
type CsrNo = Enc<usize, usize, (dense, compressed<nonordered>), (d0, d1)>;
type CsrNuNo = Enc<usize, usize, (dense, compressed<(nonunique, nonordered)>), (d0, d1)>;
type CooNo = Enc<usize, usize, (compressed<(nonunique, nonordered)>, singleton), (d0, d1)>;
type Dense2 = Enc<usize, usize, (dense, dense), (d0, d1)>;

fn csr<E: Encoding<Pos = usize, Crd = usize>>(
    dims: [usize; 2],
    pos: &[usize],
    crd: &[usize],
    val: &[f32],
) -> Result<(), AssembleError> {
    SparseTensor::<f32, E, 2, 2>::assemble(dims, [Level::dense(), Level::compressed(pos, crd)], val)
        .map(|_| ())
}

fn coo<E: Encoding<Pos = usize, Crd = usize>>(
    dims: [usize; 2],
    pos: &[usize],
    tuples: &[usize],
    val: &[f32],
) -> Result<(), AssembleError> {
    SparseTensor::<f32, E, 2, 2>::assemble(
        dims,
        [Level::compressed(pos, tuples), Level::fused()],
        val,
    )
    .map(|_| ())
}

const V3: [f32; 3] = [1.0, 2.0, 3.0];

// ---- lengths and buffers --------------------------------------------

#[test]
fn wrong_length_of_positions() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 3], &[0, 1, 2], &V3),
        Err(WrongLength {
            level: 1,
            buffer: Buffer::Positions,
            expected: 4,
            found: 3
        })
    );
}

#[test]
fn wrong_length_of_coordinates_against_last_position() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 1, 2], &[0, 1, 2], &V3),
        Err(WrongLength {
            level: 1,
            buffer: Buffer::Coordinates,
            expected: 2,
            found: 3
        })
    );
}

#[test]
fn wrong_length_of_an_aos_buffer_that_is_not_whole_tuples() {
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[0, 0, 1, 2, 1, 3, 0], &V3),
        Err(WrongLength {
            level: 0,
            buffer: Buffer::Coordinates,
            expected: 6,
            found: 7
        })
    );
}

#[test]
fn wrong_length_of_soa_singleton_coordinates() {
    let r = SparseTensor::<f32, CooSoa<usize, usize>, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 3], &[0, 1, 1]),
            Level::singleton(&[0, 2]),
        ],
        &V3,
    );
    assert_eq!(
        r.err(),
        Some(WrongLength {
            level: 1,
            buffer: Buffer::Coordinates,
            expected: 3,
            found: 2
        })
    );
}

#[test]
fn wrong_length_of_values() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 1, 3], &[0, 1, 2], &[1.0, 2.0]),
        Err(WrongLength {
            level: 1,
            buffer: Buffer::Values,
            expected: 3,
            found: 2
        })
    );
    // A dense tensor needs every value.
    let r = SparseTensor::<f32, Dense2, 2, 2>::assemble([2, 3], [Level::dense(); 2], &V3);
    assert_eq!(
        r.err(),
        Some(WrongLength {
            level: 1,
            buffer: Buffer::Values,
            expected: 6,
            found: 3
        })
    );
}

#[test]
fn unexpected_buffer_on_a_dense_level() {
    let r = SparseTensor::<f32, Csr<usize, usize>, 2, 2>::assemble(
        [1, 4],
        [
            Level::compressed(&[0, 1], &[]),
            Level::compressed(&[0, 1], &[0]),
        ],
        &[1.0],
    );
    assert_eq!(
        r.err(),
        Some(UnexpectedBuffer {
            level: 0,
            buffer: Buffer::Positions
        })
    );
    let r = SparseTensor::<f32, Csr<usize, usize>, 2, 2>::assemble(
        [1, 4],
        [Level::singleton(&[0]), Level::compressed(&[0, 1], &[0])],
        &[1.0],
    );
    assert_eq!(
        r.err(),
        Some(UnexpectedBuffer {
            level: 0,
            buffer: Buffer::Coordinates
        })
    );
}

#[test]
fn unexpected_buffer_on_a_fused_singleton() {
    let r = SparseTensor::<f32, Coo<usize, usize>, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 3], &[0, 0, 1, 2, 1, 3]),
            Level::singleton(&[0, 2, 3]),
        ],
        &V3,
    );
    assert_eq!(
        r.err(),
        Some(UnexpectedBuffer {
            level: 1,
            buffer: Buffer::Coordinates
        })
    );
}

#[test]
fn unexpected_positions_on_a_soa_singleton() {
    let r = SparseTensor::<f32, CooSoa<usize, usize>, 2, 2>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 3], &[0, 1, 1]),
            Level::compressed(&[0], &[0, 2, 3]),
        ],
        &V3,
    );
    assert_eq!(
        r.err(),
        Some(UnexpectedBuffer {
            level: 1,
            buffer: Buffer::Positions
        })
    );
}

// ---- positions -------------------------------------------------------

#[test]
fn non_monotone_positions() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 2, 1, 3], &[0, 1, 2], &V3),
        Err(NonMonotonePositions { level: 1, index: 1 })
    );
}

#[test]
fn non_monotone_loose_pair() {
    let r = SparseTensor::<f32, Loose<usize, usize>, 2, 2>::assemble(
        [2, 4],
        [Level::dense(), Level::compressed(&[0, 1, 3, 2], &[0, 1, 2])],
        &V3,
    );
    assert_eq!(r.err(), Some(NonMonotonePositions { level: 1, index: 2 }));
}

#[test]
fn position_past_the_coordinates() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 4, 3], &[0, 1, 2], &V3),
        Err(PositionOutOfRange {
            level: 1,
            index: 2,
            position: 4,
            limit: 3
        })
    );
    let r = SparseTensor::<f32, Loose<usize, usize>, 2, 2>::assemble(
        [2, 4],
        [Level::dense(), Level::compressed(&[0, 1, 2, 9], &[0, 1, 2])],
        &V3,
    );
    assert_eq!(
        r.err(),
        Some(PositionOutOfRange {
            level: 1,
            index: 3,
            position: 9,
            limit: 3
        })
    );
}

#[test]
fn first_position_not_zero() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[1, 1, 2, 3], &[0, 1, 2], &V3),
        Err(PositionOutOfRange {
            level: 1,
            index: 0,
            position: 1,
            limit: 0
        })
    );
}

// ---- coordinates -----------------------------------------------------

#[test]
fn coordinate_out_of_range() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 1, 3], &[0, 1, 4], &V3),
        Err(CoordinateOutOfRange {
            level: 1,
            position: 2,
            coordinate: 4,
            size: 4
        })
    );
    // In a fused singleton: the position is the tuple's, not the offset.
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[0, 0, 1, 2, 1, 7], &V3),
        Err(CoordinateOutOfRange {
            level: 1,
            position: 2,
            coordinate: 7,
            size: 4
        })
    );
}

#[test]
fn unsorted_compressed_level() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 1, 3], &[0, 3, 1], &V3),
        Err(Unsorted {
            level: 1,
            position: 2
        })
    );
}

#[test]
fn duplicate_in_compressed_level() {
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 1, 3], &[0, 2, 2], &V3),
        Err(Duplicate {
            level: 1,
            position: 2
        })
    );
}

#[test]
fn segments_are_checked_separately() {
    // 3 then 1 in different rows is fine.
    assert_eq!(
        csr::<Csr<usize, usize>>([3, 4], &[0, 1, 2, 3], &[3, 1, 0], &V3),
        Ok(())
    );
}

#[test]
fn unsorted_coo_start() {
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[1, 2, 0, 0, 1, 3], &V3),
        Err(Unsorted {
            level: 0,
            position: 1
        })
    );
}

#[test]
fn unsorted_coo_singleton_is_lexicographic() {
    // (1, 3) before (1, 2): the singleton decreases under an equal row.
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[0, 0, 1, 3, 1, 2], &V3),
        Err(Unsorted {
            level: 1,
            position: 2
        })
    );
    // (0, 3) then (1, 2): the column decreases, but the row moved on.
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[0, 3, 1, 2, 1, 3], &V3),
        Ok(())
    );
}

#[test]
fn duplicate_coo_tuple() {
    assert_eq!(
        coo::<Coo<usize, usize>>([3, 4], &[0, 3], &[0, 0, 1, 2, 1, 2], &V3),
        Err(Duplicate {
            level: 1,
            position: 2
        })
    );
}

#[test]
fn nonunique_levels_accept_duplicates() {
    assert_eq!(csr::<CsrNu>([3, 4], &[0, 1, 1, 3], &[0, 2, 2], &V3), Ok(()));
    assert_eq!(
        coo::<CooNu<usize, usize>>([3, 4], &[0, 3], &[0, 0, 1, 2, 1, 2], &V3),
        Ok(())
    );
    // Still ordered.
    assert_eq!(
        csr::<CsrNu>([3, 4], &[0, 1, 1, 3], &[0, 2, 1], &V3),
        Err(Unsorted {
            level: 1,
            position: 2
        })
    );
}

#[test]
fn nonordered_unique_levels_accept_any_order_but_no_duplicate() {
    assert_eq!(csr::<CsrNo>([3, 4], &[0, 0, 0, 3], &[3, 0, 2], &V3), Ok(()));
    // The duplicate is not adjacent to its twin: the pairwise check finds it.
    assert_eq!(
        csr::<CsrNo>([3, 4], &[0, 0, 0, 3], &[3, 0, 3], &V3),
        Err(Duplicate {
            level: 1,
            position: 2
        })
    );
    assert_eq!(
        csr::<CsrNuNo>([3, 4], &[0, 0, 0, 3], &[3, 0, 3], &V3),
        Ok(())
    );
}

#[test]
fn nonordered_coo_start_still_forbids_duplicate_tuples() {
    // Rows in any order; (1, 2) twice, not adjacent.
    assert_eq!(
        coo::<CooNo>([3, 4], &[0, 3], &[1, 2, 0, 0, 1, 3], &V3),
        Ok(())
    );
    assert_eq!(
        coo::<CooNo>([3, 4], &[0, 3], &[1, 2, 0, 0, 1, 2], &V3),
        Err(Duplicate {
            level: 1,
            position: 2
        })
    );
}

// ---- widths and sizes ------------------------------------------------

#[test]
fn width_overflow_of_coordinates() {
    let r = SparseTensor::<f32, Csr<u16, u8>, 2, 2>::assemble(
        [1, 257],
        [Level::dense(), Level::compressed(&[0, 0], &[])],
        &[],
    );
    assert_eq!(
        r.err(),
        Some(WidthOverflow {
            level: 1,
            buffer: Buffer::Coordinates,
            value: 256,
            max: 255
        })
    );
}

#[test]
fn width_overflow_of_positions() {
    let crd = [0u16; 256];
    let val = [0.0f32; 256];
    let r = SparseTensor::<f32, Csr<u8, u16>, 2, 2>::assemble(
        [256, 1],
        [Level::dense(), Level::compressed(&[0; 257], &crd)],
        &val,
    );
    assert_eq!(
        r.err(),
        Some(WidthOverflow {
            level: 1,
            buffer: Buffer::Positions,
            value: 256,
            max: 255
        })
    );
}

#[test]
fn too_large() {
    let r = SparseTensor::<f32, Dense2, 2, 2>::assemble([usize::MAX, 2], [Level::dense(); 2], &[]);
    assert_eq!(r.err(), Some(TooLarge { level: 1 }));
}

// ---- disassemble_into -----------------------------------------------

#[test]
fn capacity_error_names_the_buffer_and_writes_nothing() {
    let pos = [0usize, 1, 1, 3];
    let crd = [0usize, 1, 2];
    let t = SparseTensor::<f32, Csr<usize, usize>, 2, 2>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &V3,
    )
    .expect("valid CSR");
    let (mut p, mut c, mut v) = ([9usize; 4], [9usize; 2], [9.0f32; 3]);
    let r = t.disassemble_into(
        [
            LevelBuffersMut::none(),
            LevelBuffersMut::new(&mut p, &mut c),
        ],
        &mut v,
    );
    assert_eq!(
        r,
        Err(CapacityError {
            level: 1,
            buffer: Buffer::Coordinates,
            needed: 3,
            capacity: 2
        })
    );
    assert_eq!((p, c, v), ([9; 4], [9; 2], [9.0; 3]));

    let (mut c, mut v) = ([9usize; 3], [9.0f32; 2]);
    let r = t.disassemble_into(
        [
            LevelBuffersMut::none(),
            LevelBuffersMut::new(&mut p, &mut c),
        ],
        &mut v,
    );
    assert_eq!(
        r,
        Err(CapacityError {
            level: 1,
            buffer: Buffer::Values,
            needed: 3,
            capacity: 2
        })
    );
    assert_eq!((p, c, v), ([9; 4], [9; 3], [9.0; 2]));
}

#[test]
fn errors_display_what_is_wrong() {
    let e = Unsorted {
        level: 1,
        position: 2,
    };
    assert_eq!(
        e.to_string(),
        "level 1: coordinates are not sorted at position 2, but the level is ordered"
    );
}
