//! An int8 layer's accumulation, `bias + sum w * (x + off)` in `i32`, as
//! CMSIS-NN computes it, three ways on one pruned 8x40 layer in flash
//! (`data/int8_8x40.mtx`, rows of 0 to 14 entries): the CSR walk summed by
//! sparse-core's `dot_s8` (SMLAD pairs on the M4F, a plain loop on the
//! others), the same kernel with the weights compiled into the code
//! (`#[specialize]`), and a dense loop over the same file. Offsets inside
//! and far outside CMSIS-NN's range; every result must be the dense one,
//! bit for bit.
//!
//! And a 2:4 layer (`block2_4`, 5 rows of 21 groups: every other row's
//! first group in the middle of a coordinate byte, two steps of eight
//! groups and a rest per row) summed by sparse-core's `dot_s8_2_4` (one
//! word of packed coordinates per eight groups and one SMLAD per group on
//! the M4F, `LDRD`s for a word-aligned input), with 2-bit and 8-bit
//! coordinates and the input at every alignment, against its dense
//! evaluation.

use core::hint::black_box;

use sparse_core::{Level, Packed2};

use crate::report::{fail, CheckResult, Report};

sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// The layer's weights, pruned.
    pub static LAYER: tensor<8x40xi8, #CSR8> = file("data/int8_8x40.mtx");
    /// The same weights, dense (the reference reads these).
    pub static LAYER_DENSE: tensor<8x40xi8> = file("data/int8_8x40.mtx");

    /// One `dot_s8` call per row.
    pub fn fc(w: &tensor<8x40xi8, #CSR8>, x: &tensor<40xi8>, bias: &tensor<8xi32>,
              acc: &mut tensor<8xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }

    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>
    #NV24B = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 8
    }>

    /// One `dot_s8_2_4` call per row, 2-bit coordinates.
    pub fn fc_2_4(w: &tensor<5x84xi8, #NV24>, x: &tensor<84xi8>, bias: &tensor<5xi32>,
                  acc: &mut tensor<5xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }

    /// The same, one byte per coordinate.
    pub fn fc_2_4_bytes(w: &tensor<5x84xi8, #NV24B>, x: &tensor<84xi8>, bias: &tensor<5xi32>,
                        acc: &mut tensor<5xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }

    /// The weights written into the code.
    #[specialize(w = LAYER)]
    pub fn fc_specialized(w: &tensor<8x40xi8, #CSR8>, x: &tensor<40xi8>, bias: &tensor<8xi32>,
                          acc: &mut tensor<8xi32>, off: i32) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + off) + bias[i];
    }
}

fn input() -> [i8; 40] {
    let mut x = [0i8; 40];
    for (j, v) in x.iter_mut().enumerate() {
        *v = ((j * 53 + 7) % 256) as u8 as i8;
    }
    x[0] = -128;
    x[1] = 127;
    x
}

const BIAS: [i32; 8] = [0, -1, 1000, -70_000, 5, i32::MAX, i32::MIN, 12345];

fn dense(x: &[i8; 40], off: i32) -> [i32; 8] {
    let mut acc = BIAS;
    for (a, row) in acc.iter_mut().zip(&LAYER_DENSE) {
        for (&w, &v) in row.iter().zip(x) {
            *a = a.wrapping_add(i32::from(w).wrapping_mul(i32::from(v).wrapping_add(off)));
        }
    }
    acc
}

/// A layer kernel: input, bias, accumulators, offset.
type Layer = fn(&[i8; 40], &[i32; 8], &mut [i32; 8], i32) -> Result<(), sparse_core::KernelError>;

fn check(kernel: Layer) -> CheckResult {
    let x = input();
    for off in [0, 128, -128, 127, 32640, 32641, -40_000, i32::MAX] {
        let mut acc = [0x5a5a_5a5a; 8];
        if let Err(e) = kernel(black_box(&x), black_box(&BIAS), &mut acc, black_box(off)) {
            fail!("kernel error: {}", e);
        }
        let want = dense(&x, off);
        if acc != want {
            fail!("offset {}: {:?}, dense gives {:?}", off, acc, want);
        }
    }
    Ok(())
}

/// The 2:4 layer's groups: 5 rows of 21.
const GROUPS: usize = 5 * 21;

/// Group `g`'s two in-group coordinates: every one of the six pairs.
fn pair(g: usize) -> (u8, u8) {
    const PAIRS: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    PAIRS[(g * 7 + g / 3) % 6]
}

/// Entry `e`'s value, the extremes included.
fn value(e: usize) -> i8 {
    match e % 9 {
        0 => -128,
        4 => 127,
        _ => ((e * 37 + 11) % 256) as u8 as i8,
    }
}

/// The 2:4 layer's accumulators, densely: row `i`, column `4 g + c`.
fn dense_2_4(x: &[i8], off: i32) -> [i32; 5] {
    let mut acc = [0i32; 5];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = BIAS[i];
        for g in 0..21 {
            let e = 2 * (21 * i + g);
            let (c0, c1) = pair(21 * i + g);
            for (k, c) in [c0, c1].into_iter().enumerate() {
                let v = i32::from(x[4 * g + usize::from(c)]).wrapping_add(off);
                *a = a.wrapping_add(i32::from(value(e + k)).wrapping_mul(v));
            }
        }
    }
    acc
}

/// Word-aligned storage for the input, read at every alignment.
#[repr(C, align(4))]
struct Aligned([i8; 88]);

fn check_2_4() -> CheckResult {
    let mut crd = [0u8; 2 * GROUPS];
    let mut val = [0i8; 2 * GROUPS];
    for g in 0..GROUPS {
        let (c0, c1) = pair(g);
        crd[2 * g] = c0;
        crd[2 * g + 1] = c1;
        val[2 * g] = value(2 * g);
        val[2 * g + 1] = value(2 * g + 1);
    }
    let mut packed = [Packed2::default(); GROUPS.div_ceil(2)];
    if Packed2::pack(&crd, &mut packed).is_none() {
        fail!("packing the coordinates");
    }
    let levels = [
        Level::dense(),
        Level::dense(),
        Level::structured(&packed[..]),
    ];
    let Ok(w) = NV24::<i8>::assemble([5, 84], levels, &val) else {
        fail!("assembling the 2-bit 2:4 layer");
    };
    let levels = [Level::dense(), Level::dense(), Level::structured(&crd[..])];
    let Ok(wb) = NV24B::<i8>::assemble([5, 84], levels, &val) else {
        fail!("assembling the 8-bit 2:4 layer");
    };
    let mut store = Aligned([0; 88]);
    for (j, v) in store.0.iter_mut().enumerate() {
        *v = ((j * 53 + 7) % 256) as u8 as i8;
    }
    store.0[5] = -128;
    store.0[6] = 127;
    let bias = [BIAS[0], BIAS[1], BIAS[2], BIAS[3], BIAS[4]];
    for at in 0..4 {
        let Ok(x) = <&[i8; 84]>::try_from(&store.0[at..at + 84]) else {
            fail!("input at {}", at);
        };
        for off in [0, 128, -128, 32640, -32640, 32641, i32::MIN] {
            let want = dense_2_4(x, off);
            for (name, packed) in [("2-bit", true), ("8-bit", false)] {
                let mut acc = [0x5a5a_5a5a; 5];
                let got = if packed {
                    fc_2_4(black_box(&w), black_box(x), &bias, &mut acc, black_box(off))
                } else {
                    fc_2_4_bytes(
                        black_box(&wb),
                        black_box(x),
                        &bias,
                        &mut acc,
                        black_box(off),
                    )
                };
                if let Err(e) = got {
                    fail!("{} kernel error: {}", name, e);
                }
                if acc != want {
                    fail!(
                        "{}, input at {}, offset {}: {:?}, dense gives {:?}",
                        name,
                        at,
                        off,
                        acc,
                        want
                    );
                }
            }
        }
    }
    Ok(())
}

/// Runs the int8 checks.
pub fn run_all(r: &mut Report) {
    r.run("int8 layer, one dot_s8 call per row == dense", || {
        check(|x, bias, acc, off| fc(black_box(&LAYER), x, bias, acc, off))
    });
    r.run("int8 layer, weights compiled into code == dense", || {
        check(fc_specialized)
    });
    r.run(
        "int8 2:4 layer, one dot_s8_2_4 call per row == dense",
        check_2_4,
    );
}
