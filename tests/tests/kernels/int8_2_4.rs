//! The int8 layer over 2:4 weights (`structured[2, 4]`), whose row walk
//! the schedule hands whole to sparse-core's `dot_s8_2_4` (eight groups'
//! packed coordinates per word and one dual multiply-accumulate per group
//! on Cortex-M4/M7, a plain loop here): `acc[i] = sum_j w[i, j] * (x[j] +
//! off) + bias[i]` against the same sum evaluated densely, with 2-bit and
//! 8-bit coordinates, row lengths that are and are not multiples of eight
//! groups (odd ones put every other row's first group in the middle of a
//! coordinate byte), and offsets inside and outside the 16-bit lanes.

use proptest::collection::vec;
use proptest::prelude::*;
use sparse_core::{Level, Packed2};

mod k {
    sparse_core::sparse_kernel! {
        #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>
        #NV24B = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 8 }>
        #V24 = #sparse_tensor.encoding<{ map = (j) -> (j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>

        /// CMSIS-NN's accumulation, 2-bit coordinates.
        pub fn fc(w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, bias: &tensor<?xi32>, acc: &mut tensor<?xi32>, in_off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        }
        /// The same, one byte per coordinate.
        pub fn fc_bytes(w: &tensor<?x?xi8, #NV24B>, x: &tensor<?xi8>, bias: &tensor<?xi32>, acc: &mut tensor<?xi32>, in_off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        }
        /// One 2:4 row: a dot product without offset.
        pub fn dot(w: &tensor<?xi8, #V24>, x: &tensor<?xi8>, y: &mut tensor<i32>) {
            y[] = w[j] as i32 * x[j] as i32;
        }
    }
}

/// The six pairs of distinct in-group coordinates, in order.
const PAIRS: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// A random 2:4 layer: `rows x 4 groups` weights (a coordinate pair and
/// two values per group), input, bias, offset.
#[derive(Debug)]
struct Layer {
    rows: usize,
    groups: usize,
    pairs: Vec<usize>,
    val: Vec<i8>,
    x: Vec<i8>,
    bias: Vec<i32>,
    in_off: i32,
}

impl Layer {
    /// The coordinates, two per group.
    fn crd(&self) -> Vec<u8> {
        self.pairs
            .iter()
            .flat_map(|&p| [PAIRS[p].0, PAIRS[p].1])
            .collect()
    }

    /// Row `i`'s accumulator from the dense weights, wrapping.
    fn want(&self, i: usize, off: i32) -> i32 {
        let cols = 4 * self.groups;
        let mut dense = vec![0i8; cols];
        for g in 0..self.groups {
            let e = 2 * (i * self.groups + g);
            let (a, b) = PAIRS[self.pairs[e / 2]];
            dense[4 * g + usize::from(a)] = self.val[e];
            dense[4 * g + usize::from(b)] = self.val[e + 1];
        }
        (0..cols).fold(self.bias[i], |s, j| {
            s.wrapping_add(i32::from(dense[j]).wrapping_mul(i32::from(self.x[j]).wrapping_add(off)))
        })
    }
}

fn layer() -> impl Strategy<Value = Layer> {
    (0usize..=6, 0usize..=27).prop_flat_map(|(rows, groups)| {
        let n = rows * groups;
        (
            vec(0usize..6, n),
            vec(any::<i8>(), 2 * n),
            vec(any::<i8>(), 4 * groups),
            vec(any::<i32>(), rows),
            prop_oneof![-128i32..=128, -32640i32..=32640, any::<i32>()],
        )
            .prop_map(move |(pairs, val, x, bias, in_off)| Layer {
                rows,
                groups,
                pairs,
                val,
                x,
                bias,
                in_off,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_2_4_int8_layer_matches_its_dense_evaluation(l in layer()) {
        let want: Vec<i32> = (0..l.rows).map(|i| l.want(i, l.in_off)).collect();
        let crd = l.crd();
        let mut packed = vec![Packed2::default(); crd.len().div_ceil(4)];
        prop_assert_eq!(Packed2::pack(&crd, &mut packed), Some(packed.len()));
        let dims = [l.rows, 4 * l.groups];
        let levels = [Level::dense(), Level::dense(), Level::structured(&packed)];
        let w = k::NV24::<i8>::assemble(dims, levels, &l.val).expect("a valid 2:4 tensor");
        let mut acc = vec![0x5a5a_5a5a; l.rows];
        prop_assert_eq!(k::fc(&w, &l.x, &l.bias, &mut acc, l.in_off), Ok(()));
        prop_assert_eq!(&acc, &want);
        let levels = [Level::dense(), Level::dense(), Level::structured(&crd)];
        let w = k::NV24B::<i8>::assemble(dims, levels, &l.val).expect("a valid 2:4 tensor");
        let mut acc = vec![0x5a5a_5a5a; l.rows];
        prop_assert_eq!(k::fc_bytes(&w, &l.x, &l.bias, &mut acc, l.in_off), Ok(()));
        prop_assert_eq!(acc, want);
    }

    #[test]
    fn a_2_4_vector_dot_matches(l in layer()) {
        // The first row (if any) as a vector, without bias or offset.
        let groups = if l.rows == 0 { 0 } else { l.groups };
        let crd: Vec<u8> = l.crd().into_iter().take(2 * groups).collect();
        let mut packed = vec![Packed2::default(); crd.len().div_ceil(4)];
        prop_assert_eq!(Packed2::pack(&crd, &mut packed), Some(packed.len()));
        let v = k::V24::<i8>::assemble([4 * groups], [Level::dense(), Level::structured(&packed)], &l.val[..2 * groups])
            .expect("a valid 2:4 vector");
        let x = &l.x[..4 * groups];
        let want = if groups == 0 { 0 } else { l.want(0, 0).wrapping_sub(l.bias[0]) };
        let mut y = 0x5a5a_5a5a;
        prop_assert_eq!(k::dot(&v, x, &mut y), Ok(()));
        prop_assert_eq!(y, want);
    }
}

/// Two rows of 3 groups (the second starting mid-byte), by hand: the values
/// and coordinates written out, the sum computed on paper.
#[test]
fn a_small_layer_by_hand() {
    // Row 0: groups (0,1) w 1,2; (2,3) w 3,4; (1,3) w -5,6.
    // Row 1: groups (0,2) w 7,-8; (0,3) w 9,10; (1,2) w -128,127.
    let crd = [0u8, 1, 2, 3, 1, 3, 0, 2, 0, 3, 1, 2];
    let val = [1i8, 2, 3, 4, -5, 6, 7, -8, 9, 10, -128, 127];
    let mut packed = [Packed2::default(); 3];
    assert_eq!(Packed2::pack(&crd, &mut packed), Some(3));
    let w = k::NV24::<i8>::assemble(
        [2, 12],
        [Level::dense(), Level::dense(), Level::structured(&packed)],
        &val,
    )
    .unwrap();
    let x: [i8; 12] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12];
    let mut acc = [0; 2];
    k::fc(&w, &x, &[100, -100], &mut acc, 128).unwrap();
    // x + 128 = 129 130 131 132 | 133 134 135 136 | 137 138 139 116.
    // Row 0: 1*129 + 2*130 + 3*135 + 4*136 - 5*138 + 6*116 = 1344, + 100.
    // Row 1: 7*129 - 8*131 + 9*133 + 10*136 - 128*138 + 127*139 = 2401, - 100.
    assert_eq!(acc, [1444, 2301]);
}
