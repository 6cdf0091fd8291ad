//! Named edge cases of the storage: empty tensors, all-zero rows, a single
//! entry, coordinates and positions at the maximum of their widths, and the
//! less common formats (2:4, ELL, 3-D COO, block padding, scalars).

use sparse_core::levels::{
    compressed, counting, d0, d1, d2, dense, floordiv, modulo, nonunique, singleton, structured,
};
use sparse_core::{AssembleError, Buffer, Enc, Level, SparseTensor};
use sparse_tests::reference::*;

fn entries<const DIM: usize, V: Copy, E: sparse_core::Encoding, const LVL: usize>(
    t: &SparseTensor<'_, V, E, DIM, LVL>,
) -> Vec<([usize; DIM], V)> {
    let mut out = Vec::new();
    t.for_each(|d, v| out.push((d, *v)));
    out
}

#[test]
fn empty_tensors_of_every_shape() {
    let csr = SparseTensor::<f32, Csr<u8, u8>, 2, 2>::assemble(
        [3, 5],
        [Level::dense(), Level::compressed(&[0, 0, 0, 0], &[])],
        &[],
    )
    .expect("empty CSR");
    assert!(entries(&csr).is_empty());
    let zero_rows = SparseTensor::<f32, Csr<u8, u8>, 2, 2>::assemble(
        [0, 5],
        [Level::dense(), Level::compressed(&[0], &[])],
        &[],
    )
    .expect("0x5 CSR");
    assert!(entries(&zero_rows).is_empty());
    let coo = SparseTensor::<f32, Coo<u8, u8>, 2, 2>::assemble(
        [0, 0],
        [Level::compressed(&[0, 0], &[]), Level::fused()],
        &[],
    )
    .expect("0x0 COO");
    assert!(entries(&coo).is_empty());
    let dcsr = SparseTensor::<f32, Dcsr<u8, u8>, 2, 2>::assemble(
        [4, 4],
        [
            Level::compressed(&[0, 0], &[]),
            Level::compressed(&[0], &[]),
        ],
        &[],
    )
    .expect("empty DCSR");
    assert!(entries(&dcsr).is_empty());
    // A level of size 0 has no largest coordinate to fit a width.
    let no_columns = SparseTensor::<f32, Csr<u8, u8>, 2, 2>::assemble(
        [1, 0],
        [Level::dense(), Level::compressed(&[0, 0], &[])],
        &[],
    );
    assert!(no_columns.is_ok());
}

#[test]
fn all_zero_rows_and_one_entry() {
    // Rows 0, 1 and 3 empty; one entry at (2, 4).
    let t = SparseTensor::<i32, Csr<u16, u16>, 2, 2>::assemble(
        [4, 5],
        [Level::dense(), Level::compressed(&[0, 0, 0, 1, 1], &[4])],
        &[7],
    )
    .expect("one entry");
    assert_eq!(entries(&t), [([2, 4], 7)]);
    let t = SparseTensor::<i32, Coo<u16, u16>, 2, 2>::assemble(
        [4, 5],
        [Level::compressed(&[0, 1], &[2, 4]), Level::fused()],
        &[7],
    )
    .expect("one COO entry");
    assert_eq!(entries(&t), [([2, 4], 7)]);
}

#[test]
fn coordinates_at_the_width_maximum() {
    // u8 coordinates with a level of size 256: coordinate 255 fits.
    let t = SparseTensor::<i32, Csr<u8, u8>, 2, 2>::assemble(
        [1, 256],
        [Level::dense(), Level::compressed(&[0, 2], &[0, 255])],
        &[1, 2],
    )
    .expect("255 fits u8");
    assert_eq!(entries(&t), [([0, 0], 1), ([0, 255], 2)]);
    // u16 with 65536.
    let t = SparseTensor::<i32, Coo<u8, u16>, 2, 2>::assemble(
        [65536, 65536],
        [Level::compressed(&[0, 1], &[65535, 65535]), Level::fused()],
        &[3],
    )
    .expect("65535 fits u16");
    assert_eq!(entries(&t), [([65535, 65535], 3)]);
    // One more and the width no longer holds the largest coordinate.
    let r = SparseTensor::<i32, Coo<u8, u16>, 2, 2>::assemble(
        [65537, 1],
        [Level::compressed(&[0, 0], &[]), Level::fused()],
        &[],
    );
    assert_eq!(
        r.err(),
        Some(AssembleError::WidthOverflow {
            level: 0,
            buffer: Buffer::Coordinates,
            value: 65536,
            max: 65535
        })
    );
}

#[test]
fn positions_at_the_width_maximum() {
    // u8 positions with 255 entries: the last position is 255.
    let crd: Vec<u16> = (0..255).collect();
    let val: Vec<i32> = (0..255).collect();
    let t = SparseTensor::<i32, Csr<u8, u16>, 2, 2>::assemble(
        [1, 300],
        [Level::dense(), Level::compressed(&[0, 255], &crd)],
        &val,
    )
    .expect("255 entries fit u8 positions");
    assert_eq!(t.number_of_entries(), 255);
    assert_eq!(entries(&t).last(), Some(&([0, 254], 254)));
}

#[test]
fn nvidia_2_of_4() {
    // Seed 001's #NV_24: (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4).
    type Nv24 = Enc<u8, u8, (dense, dense, structured<2, 4>), (d0, floordiv<d1, 4>, modulo<d1, 4>)>;
    // Row 0: [0 1 0 2 | 3 0 0 4], row 1: [5 6 0 0 | 0 0 7 8].
    let crd = [1, 3, 0, 3, 0, 1, 2, 3];
    let val = [1, 2, 3, 4, 5, 6, 7, 8];
    let t = SparseTensor::<i32, Nv24, 2, 3>::assemble(
        [2, 8],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &val,
    )
    .expect("valid 2:4");
    assert_eq!(t.lvl_sizes(), [2, 2, 4]);
    assert_eq!(
        entries(&t),
        [
            ([0, 1], 1),
            ([0, 3], 2),
            ([0, 4], 3),
            ([0, 7], 4),
            ([1, 0], 5),
            ([1, 1], 6),
            ([1, 6], 7),
            ([1, 7], 8)
        ]
    );
    // A group out of order.
    let bad = [3, 1, 0, 3, 0, 1, 2, 3];
    let r = SparseTensor::<i32, Nv24, 2, 3>::assemble(
        [2, 8],
        [Level::dense(), Level::dense(), Level::structured(&bad)],
        &val,
    );
    assert_eq!(
        r.err(),
        Some(AssembleError::Unsorted {
            level: 2,
            position: 1
        })
    );
}

#[test]
fn ell_counting_level() {
    // Seed 000's #ELL: [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed).
    type Ell = Enc<usize, u8, (dense, dense, compressed), (counting<d0, 3>, d0, d1)>;
    // 3 slices x 2 rows; slice 0 holds (0,1) and (1,0); slice 1 holds (0,2).
    let pos = [0, 1, 2, 3, 3, 3, 3];
    let crd = [1, 0, 2];
    let t = SparseTensor::<i32, Ell, 2, 3>::assemble(
        [2, 3],
        [
            Level::dense(),
            Level::dense(),
            Level::compressed(&pos, &crd),
        ],
        &[10, 20, 30],
    )
    .expect("valid ELL");
    assert_eq!(t.lvl_sizes(), [3, 2, 3]);
    assert_eq!(entries(&t), [([0, 1], 10), ([1, 0], 20), ([0, 2], 30)]);
    let mut lvl = Vec::new();
    t.for_each_lvl(|l, _| lvl.push(l));
    assert_eq!(lvl, [[0, 0, 1], [0, 1, 0], [1, 0, 2]]);
    assert_eq!(t.dim_to_lvl([1, 2]), [0, 1, 2]);
}

#[test]
fn three_d_coo_with_a_nonunique_middle() {
    type Coo3 =
        Enc<usize, usize, (compressed<nonunique>, singleton<nonunique>, singleton), (d0, d1, d2)>;
    let tuples = [0, 1, 0, 0, 1, 2, 1, 0, 0];
    let t = SparseTensor::<i32, Coo3, 3, 3>::assemble(
        [2, 2, 3],
        [
            Level::compressed(&[0, 3], &tuples),
            Level::fused(),
            Level::fused(),
        ],
        &[1, 2, 3],
    )
    .expect("sorted 3-D COO");
    assert_eq!(t.level(2).crd_stride(), 3);
    assert_eq!(t.level(2).crd_offset(), 2);
    assert_eq!(
        entries(&t),
        [([0, 1, 0], 1), ([0, 1, 2], 2), ([1, 0, 0], 3)]
    );
    let dup = [0, 1, 0, 0, 1, 0, 1, 0, 0];
    let r = SparseTensor::<i32, Coo3, 3, 3>::assemble(
        [2, 2, 3],
        [
            Level::compressed(&[0, 3], &dup),
            Level::fused(),
            Level::fused(),
        ],
        &[1, 2, 3],
    );
    assert_eq!(
        r.err(),
        Some(AssembleError::Duplicate {
            level: 2,
            position: 1
        })
    );
}

#[test]
fn block_padding_outside_the_dimensions_is_skipped() {
    // A 3x3 matrix in 2x2 blocks: the blocks cover 4x4.
    let val = [1, 0, 0, 2, 3, 0, 0, 0];
    let t = SparseTensor::<i32, Bsr22<u8, u8>, 2, 4>::assemble(
        [3, 3],
        [
            Level::dense(),
            Level::compressed(&[0, 1, 2], &[0, 1]),
            Level::dense(),
            Level::dense(),
        ],
        &val,
    )
    .expect("valid BSR");
    assert_eq!(t.lvl_sizes(), [2, 2, 2, 2]);
    let got = entries(&t);
    assert_eq!(
        got,
        [
            ([0, 0], 1),
            ([0, 1], 0),
            ([1, 0], 0),
            ([1, 1], 2),
            ([2, 2], 3)
        ]
    );
    let mut all = 0;
    t.for_each_lvl(|_, _| all += 1);
    assert_eq!(all, 8);
}

#[test]
fn a_scalar_has_one_value() {
    type Scalar = Enc<usize, usize, (), ()>;
    let t = SparseTensor::<f64, Scalar, 0, 0>::assemble([], [], &[2.5]).expect("a scalar");
    assert_eq!(entries(&t), [([], 2.5)]);
    let r = SparseTensor::<f64, Scalar, 0, 0>::assemble([], [], &[]);
    assert_eq!(
        r.err(),
        Some(AssembleError::WrongLength {
            level: 0,
            buffer: Buffer::Values,
            expected: 1,
            found: 0
        })
    );
}

#[test]
fn statics_in_flash_work_unchanged() {
    static POS: [u16; 3] = [0, 1, 3];
    static CRD: [u8; 3] = [2, 0, 1];
    static VAL: [f32; 3] = [1.0, 2.0, 3.0];
    static T: std::sync::OnceLock<SparseTensor<'static, f32, Csr<u16, u8>, 2, 2>> =
        std::sync::OnceLock::new();
    let t = T.get_or_init(|| {
        SparseTensor::assemble(
            [2, 3],
            [Level::dense(), Level::compressed(&POS, &CRD)],
            &VAL,
        )
        .expect("valid")
    });
    assert!(std::ptr::eq(t.level(1).positions(), &POS[..]));
    assert_eq!(t.level_type(1), COMPRESSED);
    assert_eq!(t.level_size(1), Some(3));
    assert_eq!(t.dim_size(2), None);
}
