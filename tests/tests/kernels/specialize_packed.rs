//! `#[specialize(w = W)]` above its written-out budget: an int8 walk over
//! the constant's last level reads a stream the macro packed from `W`'s
//! entries (groups of four, `u8` or `u16` coordinates, an input offset
//! folded into the rows' weights summed) through sparse-core's
//! `dot_s8_packed`. Each packed kernel is checked bit for bit against an
//! independent reference (the entries listed again here, summed in `i64`
//! then wrapped) and against the same kernel reading `W`'s arrays through
//! its loops, for a literal offset, a run-time offset, no offset, narrow
//! and wide coordinates, and rows of 0, 1, 4, 5 and 9 entries (padding).

use proptest::collection::vec;
use proptest::prelude::*;

/// The entries of `Q` and `WIDE`, `(row, column, weight)`.
const Q_ENTRIES: [(usize, usize, i8); 8] = [
    (0, 0, 127),
    (0, 3, -128),
    (0, 6, 5),
    (2, 1, -7),
    (2, 4, 100),
    (2, 7, 1),
    (3, 2, 64),
    (3, 6, -3),
];
const WIDE_ENTRIES: [(usize, usize, i8); 19] = [
    (0, 24, 127),
    (0, 37, -99),
    (0, 77, -128),
    (0, 165, 127),
    (0, 202, -128),
    (2, 46, -98),
    (2, 123, -128),
    (2, 217, -97),
    (2, 282, -128),
    (3, 23, 29),
    (3, 60, -128),
    (3, 68, 127),
    (3, 73, -79),
    (3, 113, -96),
    (3, 148, -98),
    (3, 214, 127),
    (3, 276, 127),
    (3, 285, 110),
    (4, 299, 127),
];

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 16 }>

        pub static Q: tensor<4x8xi8, #CSR> = sparse<
            [[0, 0], [0, 3], [0, 6], [2, 1], [2, 4], [2, 7], [3, 2], [3, 6]],
            [127, -128, 5, -7, 100, 1, 64, -3]>;
        pub static WIDE: tensor<5x300xi8, #CSR16> = sparse<
            [[0, 24], [0, 37], [0, 77], [0, 165], [0, 202], [2, 46], [2, 123], [2, 217], [2, 282],
             [3, 23], [3, 60], [3, 68], [3, 73], [3, 113], [3, 148], [3, 214], [3, 276], [3, 285],
             [4, 299]],
            [127, -99, -128, 127, -128, -98, -128, -97, -128, 29, -128, 127, -79, -96, -98, 127,
             127, 110, 127]>;

        /// CMSIS-NN's accumulation with a literal offset, packed.
        #[specialize(q = Q, max_entries = 4)]
        pub fn layer(q: &tensor<4x8xi8, #CSR>, x: &tensor<8xi8>, bias: &tensor<4xi32>,
                     acc: &mut tensor<4xi32>) {
            acc[i] = q[i, j] as i32 * (x[j] as i32 + 128) + bias[i];
        }
        /// A run-time offset, the statement's own sum, packed.
        #[specialize(q = Q, max_entries = 1)]
        pub fn layer_off(q: &tensor<4x8xi8, #CSR>, x: &tensor<8xi8>, acc: &mut tensor<4xi32>, off: i32) {
            acc[i] = q[i, j] as i32 * (off + x[j] as i32);
        }
        /// Wide coordinates, no offset, packed.
        #[specialize(w = WIDE, max_entries = 1)]
        pub fn wide(w: &tensor<5x300xi8, #CSR16>, x: &tensor<300xi8>, acc: &mut tensor<5xi32>) {
            acc[i] = w[i, j] as i32 * x[j] as i32;
        }
        /// Wide coordinates and a run-time offset, packed.
        #[specialize(w = WIDE, max_entries = 1)]
        pub fn wide_off(w: &tensor<5x300xi8, #CSR16>, x: &tensor<300xi8>, acc: &mut tensor<5xi32>, off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + off);
        }
        /// The same through its loops (not specialized).
        pub fn wide_loops(w: &tensor<5x300xi8, #CSR16>, x: &tensor<300xi8>, acc: &mut tensor<5xi32>, off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + off);
        }
    }
}

/// `sum w * (x + off)` per row, in `i64`, wrapped to `i32`.
fn reference<const R: usize>(entries: &[(usize, usize, i8)], x: &[i8], off: i32) -> [i32; R] {
    let mut sums = [0i64; R];
    for &(i, j, w) in entries {
        sums[i] += i64::from(w) * (i64::from(x[j]) + i64::from(off));
    }
    sums.map(|s| s as i32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_packed_layer_matches_the_entries_summed(
        x in vec(any::<i8>(), 8),
        bias in vec(any::<i32>(), 4),
        off in any::<i32>(),
    ) {
        let x: [i8; 8] = core::array::from_fn(|n| x[n]);
        let bias: [i32; 4] = core::array::from_fn(|n| bias[n]);
        let want = reference::<4>(&Q_ENTRIES, &x, 128);
        let mut acc = [0x5a; 4];
        prop_assert_eq!(k::layer(&x, &bias, &mut acc), Ok(()));
        prop_assert_eq!(acc, core::array::from_fn(|i| want[i].wrapping_add(bias[i])));
        let mut acc = [0x5a; 4];
        prop_assert_eq!(k::layer_off(&x, &mut acc, off), Ok(()));
        prop_assert_eq!(acc, reference::<4>(&Q_ENTRIES, &x, off));
    }

    #[test]
    fn wide_coordinates_and_padded_rows_match_the_entries_and_the_loops(
        x in vec(any::<i8>(), 300),
        off in prop_oneof![Just(0), Just(128), Just(-128), any::<i32>()],
    ) {
        let x: [i8; 300] = core::array::from_fn(|n| x[n]);
        let mut acc = [0x5a; 5];
        prop_assert_eq!(k::wide(&x, &mut acc), Ok(()));
        prop_assert_eq!(acc, reference::<5>(&WIDE_ENTRIES, &x, 0));
        let want = reference::<5>(&WIDE_ENTRIES, &x, off);
        let mut acc = [0x5a; 5];
        prop_assert_eq!(k::wide_off(&x, &mut acc, off), Ok(()));
        prop_assert_eq!(acc, want);
        let mut loops = [0x5a; 5];
        prop_assert_eq!(k::wide_loops(&k::WIDE, &x, &mut loops, off), Ok(()));
        prop_assert_eq!(loops, want);
    }
}

/// The extremes: every input -128 or 127, where a lane or a sum would
/// overflow first.
#[test]
fn extreme_inputs_match() {
    for v in [-128i8, 127] {
        let x = [v; 300];
        let mut acc = [0; 5];
        assert_eq!(k::wide_off(&x, &mut acc, i32::MAX), Ok(()));
        assert_eq!(acc, reference::<5>(&WIDE_ENTRIES, &x, i32::MAX));
        let x = [v; 8];
        let mut acc = [0; 4];
        assert_eq!(k::layer_off(&x, &mut acc, i32::MIN), Ok(()));
        assert_eq!(acc, reference::<4>(&Q_ENTRIES, &x, i32::MIN));
    }
}
