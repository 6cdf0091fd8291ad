//! Unit tests of the validator, the unchecked constructor and the walks,
//! small enough for Miri (`cargo +nightly miri test -p sparse-core --lib`).

extern crate std;

use crate::levels::{compressed, d0, d1, dense, nonunique, singleton};
use std::string::ToString;
use std::vec::Vec;

use crate::{AssembleError, Buffer, Enc, Level, LevelBuffersMut, SparseTensor};

type Csr = Enc<u16, u8, (dense, compressed), (d0, d1)>;
type Coo = Enc<usize, u32, (compressed<nonunique>, singleton), (d0, d1)>;

#[test]
fn csr_assembles_and_walks() {
    let (pos, crd, val) = ([0u16, 2, 2, 3], [0u8, 3, 1], [1.5f32, 2.5, 3.5]);
    let t = SparseTensor::<f32, Csr, 2, 2>::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .expect("valid");
    let mut got = Vec::new();
    t.for_each(|d, v| got.push((d, *v)));
    assert_eq!(got, [([0, 0], 1.5), ([0, 3], 2.5), ([2, 1], 3.5)]);
    assert_eq!(t.level(1).crd_stride(), 1);
}

#[test]
fn validator_reports_the_first_violation() {
    let val = [1.0f32; 3];
    let check = |pos: &[u16], crd: &[u8]| {
        SparseTensor::<f32, Csr, 2, 2>::assemble(
            [3, 4],
            [Level::dense(), Level::compressed(pos, crd)],
            &val,
        )
        .err()
    };
    assert_eq!(
        check(&[0, 2, 1, 3], &[0, 1, 2]),
        Some(AssembleError::NonMonotonePositions { level: 1, index: 1 })
    );
    assert_eq!(
        check(&[0, 2, 2, 3], &[0, 9, 1]),
        Some(AssembleError::CoordinateOutOfRange {
            level: 1,
            position: 1,
            coordinate: 9,
            size: 4
        })
    );
    assert_eq!(
        check(&[0, 2, 2, 3], &[1, 1, 1]),
        Some(AssembleError::Duplicate {
            level: 1,
            position: 1
        })
    );
    assert_eq!(
        check(&[0, 2, 2], &[0, 1, 2]),
        Some(AssembleError::WrongLength {
            level: 1,
            buffer: Buffer::Positions,
            expected: 4,
            found: 3
        })
    );
}

#[test]
fn unchecked_matches_checked_on_valid_coo() {
    let (pos, tuples, val) = ([0usize, 3], [0u32, 0, 1, 2, 1, 3], [1.1f64, 2.2, 3.3]);
    let levels = [Level::compressed(&pos, &tuples), Level::fused()];
    let checked = SparseTensor::<f64, Coo, 2, 2>::assemble([3, 4], levels, &val).expect("valid");
    // SAFETY: `assemble` accepted the same input just above.
    let unchecked =
        unsafe { SparseTensor::<f64, Coo, 2, 2>::assemble_unchecked([3, 4], levels, &val) };
    assert_eq!(checked.to_string(), unchecked.to_string());
    assert_eq!(
        (
            unchecked.level(1).crd_stride(),
            unchecked.level(1).crd_offset()
        ),
        (2, 1)
    );
    let mut got = Vec::new();
    unchecked.for_each(|d, v| got.push((d, *v)));
    assert_eq!(got, [([0, 0], 1.1), ([1, 2], 2.2), ([1, 3], 3.3)]);
}

#[test]
fn misused_unchecked_walks_without_panicking() {
    // Positions past the buffers: the contract is broken, but the walk and
    // the printer only read through `get`.
    let (pos, crd, val) = ([0u16, 9, 2, 1], [7u8], [1.0f32]);
    // SAFETY: deliberately violates the contract to show that the safe
    // walkers in this crate stay in bounds anyway; nothing here relies on
    // the invariants for memory safety.
    let t = unsafe {
        SparseTensor::<f32, Csr, 2, 2>::assemble_unchecked(
            [3, 4],
            [Level::dense(), Level::compressed(&pos, &crd)],
            &val,
        )
    };
    let mut n = 0;
    t.for_each_lvl(|_, _| n += 1);
    assert!(n <= 1);
    assert!(t.to_string().contains("pos[1] : ( 0, 9, 2, 1 )"));
}

#[test]
fn disassemble_into_copies_exactly() {
    let (pos, crd, val) = ([0u16, 1, 1, 2], [2u8, 0], [4i32, 5]);
    let t = SparseTensor::<i32, Csr, 2, 2>::assemble(
        [3, 3],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .expect("valid");
    let (mut p, mut c, mut v) = ([0u16; 8], [0u8; 8], [0i32; 8]);
    let lens = t
        .disassemble_into(
            [
                LevelBuffersMut::none(),
                LevelBuffersMut::new(&mut p, &mut c),
            ],
            &mut v,
        )
        .expect("room enough");
    assert_eq!(
        (
            lens.levels[1].positions,
            lens.levels[1].coordinates,
            lens.values
        ),
        (4, 2, 2)
    );
    assert_eq!((&p[..4], &c[..2], &v[..2]), (&pos[..], &crd[..], &val[..]));
}
