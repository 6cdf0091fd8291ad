//! CMSIS-NN's int8 requantization written in the kernel language, checked
//! bit for bit against a plain Rust transcription of `arm_nn_requantize`
//! (CMSIS-NN `arm_nnsupportfunctions.h`, the default double rounding):
//!
//! ```c
//! int32_t arm_nn_doubling_high_mult_no_sat(int32_t m1, int32_t m2) {
//!     int64_t mult = (1 << 30) + (int64_t)m1 * m2;   // rounding offset
//!     return (int32_t)(mult >> 31);
//! }
//! int32_t arm_nn_divide_by_power_of_two(int32_t dividend, int32_t exponent) {
//!     const int32_t remainder_mask = (1 << exponent) - 1;
//!     int32_t remainder = remainder_mask & dividend;
//!     int32_t result = dividend >> exponent;
//!     int32_t threshold = remainder_mask >> 1;
//!     if (result < 0) threshold++;
//!     if (remainder > threshold) result++;
//!     return result;
//! }
//! int32_t arm_nn_requantize(int32_t val, int32_t multiplier, int32_t shift) {
//!     return arm_nn_divide_by_power_of_two(
//!         arm_nn_doubling_high_mult_no_sat(val * (1 << LEFT_SHIFT(shift)), multiplier),
//!         RIGHT_SHIFT(shift));   // LEFT_SHIFT = max(shift, 0), RIGHT_SHIFT = max(-shift, 0)
//! }
//! ```
//!
//! and the fully connected s8 layer around it (`arm_nn_vec_mat_mult_t_s8`:
//! `acc = bias + sum_j w * (x + input_offset)`, requantized, plus the
//! output offset, clamped to `[-128, 127]`) over a pruned CSR weight matrix
//! against the same layer evaluated densely. Where C overflows a signed
//! `int32_t` (`val * (1 << shift)` for large values) the reference and the
//! kernels wrap, as the kernel language defines it.
//!
//! The same checks run the built-in `requantize(acc, mult, shift)`
//! (`sparse_core::quant::requantize`), in a dense kernel, in the layer,
//! over a sparse vector (whose absent entries requantize to 0) and in a
//! semiring region's closure, and the library function itself.

use proptest::collection::vec;
use proptest::prelude::*;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSR, SV};
use sparse_tests::gen::Entries;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16 }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

        /// `arm_nn_requantize(acc, mult, shift) + out_off`, clamped to int8:
        /// the doubling high multiply into `d`, then the rounding divide by
        /// `2^max(-shift, 0)` (halfway away from zero).
        pub fn requantize(
            acc: &tensor<?xi32>,
            d: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            d[i] = (((acc[i] * (1 << max(shift, 0))) as i64 * mult as i64 + (1 << 30)) >> 31) as i32;
            y[i] = clamp(
                (d[i] >> max(-shift, 0))
                    + (if ((1 << max(-shift, 0)) - 1 & d[i])
                        > (((1 << max(-shift, 0)) - 1 >> 1)
                            + (if d[i] >> max(-shift, 0) < 0 { 1 } else { 0 }))
                    {
                        1
                    } else {
                        0
                    })
                    + out_off,
                -128,
                127,
            ) as i8;
        }

        /// The built-in: `requantize(acc, mult, shift) + out_off`, clamped.
        pub fn requantize_builtin(
            acc: &tensor<?xi32>,
            y: &mut tensor<?xi8>,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
        }

        /// The layer with the built-in.
        pub fn fc_s8_builtin(
            w: &tensor<?x?xi8, #CSR>,
            x: &tensor<?xi8>,
            bias: &tensor<?xi32>,
            acc: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            in_off: i32,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
            y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
        }

        /// The built-in over a sparse vector: zero where `a` stores nothing.
        pub fn requantize_sparse(a: &tensor<?xi32, #SV>, y: &mut tensor<?xi32>, mult: i32, shift: i32) {
            y[i] = requantize(a[i], mult, shift);
        }

        /// The built-in inside a semiring region (a Rust closure): the
        /// requantized value plus `out_off` where `a` stores one, `out_off`
        /// elsewhere.
        pub fn requantize_region(a: &tensor<?xi32, #SV>, y: &mut tensor<?xi32>, mult: i32, shift: i32, out_off: i32) {
            y[i] = unary(a[i], present = |v| requantize(v, mult, shift).wrapping_add(out_off), absent = || out_off);
        }

        /// A pruned int8 fully connected layer, CMSIS-NN's arithmetic.
        pub fn fc_s8(
            w: &tensor<?x?xi8, #CSR>,
            x: &tensor<?xi8>,
            bias: &tensor<?xi32>,
            acc: &mut tensor<?xi32>,
            y: &mut tensor<?xi8>,
            in_off: i32,
            mult: i32,
            shift: i32,
            out_off: i32,
        ) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
            acc[i] = (((acc[i] * (1 << max(shift, 0))) as i64 * mult as i64 + (1 << 30)) >> 31) as i32;
            y[i] = clamp(
                (acc[i] >> max(-shift, 0))
                    + (if ((1 << max(-shift, 0)) - 1 & acc[i])
                        > (((1 << max(-shift, 0)) - 1 >> 1)
                            + (if acc[i] >> max(-shift, 0) < 0 { 1 } else { 0 }))
                    {
                        1
                    } else {
                        0
                    })
                    + out_off,
                -128,
                127,
            ) as i8;
        }
    }
}

fn doubling_high_mult_no_sat(m1: i32, m2: i32) -> i32 {
    let mult = (1i64 << 30) + i64::from(m1) * i64::from(m2);
    (mult >> 31) as i32
}

fn divide_by_power_of_two(dividend: i32, exponent: i32) -> i32 {
    let remainder_mask = (1i32 << exponent).wrapping_sub(1);
    let remainder = remainder_mask & dividend;
    let mut result = dividend >> exponent;
    let mut threshold = remainder_mask >> 1;
    if result < 0 {
        threshold += 1;
    }
    if remainder > threshold {
        result += 1;
    }
    result
}

/// CMSIS-NN's `arm_nn_requantize`, shift in `-31..=30` as TFLite produces.
fn arm_nn_requantize(val: i32, multiplier: i32, shift: i32) -> i32 {
    let left = if shift > 0 { shift } else { 0 };
    let right = if shift > 0 { 0 } else { -shift };
    divide_by_power_of_two(
        doubling_high_mult_no_sat(val.wrapping_mul(1 << left), multiplier),
        right,
    )
}

fn to_s8(v: i32, out_off: i32) -> i8 {
    v.wrapping_add(out_off).clamp(-128, 127) as i8
}

/// `requantize` over `acc`, compared with the reference value by value.
fn check_requantize(acc: &[i32], mult: i32, shift: i32, out_off: i32) -> Result<(), TestCaseError> {
    let mut d = vec![0x5a5a_5a5a; acc.len()];
    let mut y = vec![0x5a; acc.len()];
    prop_assert_eq!(
        k::requantize(acc, &mut d, &mut y, mult, shift, out_off),
        Ok(())
    );
    let mut built_in = vec![0x5a; acc.len()];
    prop_assert_eq!(
        k::requantize_builtin(acc, &mut built_in, mult, shift, out_off),
        Ok(())
    );
    for (n, &v) in acc.iter().enumerate() {
        let exact = arm_nn_requantize(v, mult, shift);
        let want = to_s8(exact, out_off);
        let why = format!("acc {v} multiplier {mult} shift {shift} offset {out_off}");
        prop_assert_eq!(y[n], want, "{}", why);
        prop_assert_eq!(built_in[n], want, "built-in: {}", why);
        prop_assert_eq!(
            sparse_core::quant::requantize(v, mult, shift),
            exact,
            "library: {}",
            why
        );
    }
    Ok(())
}

/// Accumulators of every magnitude: small ones (as a layer makes), and
/// the whole `i32` range.
fn accumulators() -> impl Strategy<Value = i32> {
    prop_oneof![-70_000i32..=70_000, any::<i32>()]
}

/// Multipliers as TFLite's `QuantizeMultiplier` makes them (`[2^30,
/// 2^31)`, or 0), and any `i32`.
fn multipliers() -> impl Strategy<Value = i32> {
    prop_oneof![3 => (1i32 << 30)..=i32::MAX, 1 => any::<i32>(), 1 => Just(0)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn requantize_is_bit_exact_with_arm_nn_requantize(
        acc in vec(accumulators(), 0..=48),
        mult in multipliers(),
        shift in -31i32..=30,
        out_off in -128i32..=127,
    ) {
        check_requantize(&acc, mult, shift, out_off)?;
    }
}

#[test]
fn requantize_at_the_edges() {
    let values = [
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        255,
        -256,
        1 << 20,
        -(1 << 20),
        i32::MAX,
        i32::MIN,
        i32::MIN + 1,
        0x4000_0000,
        -0x4000_0000,
    ];
    for shift in -31..=30 {
        for mult in [
            0,
            1,
            i32::MAX,
            i32::MIN,
            1 << 30,
            1_518_500_250,
            -1_518_500_250,
        ] {
            for out_off in [-128, 0, 127] {
                check_requantize(&values, mult, shift, out_off).unwrap();
            }
        }
    }
}

/// A random int8 layer: a pruned `m x n` weight matrix, input, bias and
/// quantization parameters.
#[derive(Debug)]
struct Layer {
    dims: [usize; 2],
    weights: Entries<i8>,
    x: Vec<i8>,
    bias: Vec<i32>,
    in_off: i32,
    mult: i32,
    shift: i32,
    out_off: i32,
}

fn layer() -> impl Strategy<Value = Layer> {
    (0usize..=12, 0usize..=40).prop_flat_map(|(m, n)| {
        (
            // About three quarters of the weights pruned.
            vec((0u8..4, any::<i8>()), m * n),
            vec(any::<i8>(), n),
            vec(-100_000i32..=100_000, m),
            -128i32..=127,
            multipliers(),
            -12i32..=4,
            -128i32..=127,
        )
            .prop_map(
                move |(slots, x, bias, in_off, mult, shift, out_off)| Layer {
                    dims: [m, n],
                    weights: slots
                        .into_iter()
                        .enumerate()
                        .filter(|(_, (keep, _))| *keep == 0)
                        .map(|(at, (_, v))| (vec![at / n, at % n], v))
                        .collect(),
                    x,
                    bias,
                    in_off,
                    mult,
                    shift,
                    out_off,
                },
            )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_pruned_int8_layer_matches_its_dense_evaluation(l in layer()) {
        let [m, n] = l.dims;
        let w = Dense::from_entries(&l.dims, &l.weights);
        let want: Vec<i8> = (0..m)
            .map(|i| {
                let acc = (0..n).fold(l.bias[i], |s, j| {
                    s.wrapping_add(w.at(&[i, j]) as i32 * (l.x[j] as i32 + l.in_off))
                });
                to_s8(arm_nn_requantize(acc, l.mult, l.shift), l.out_off)
            })
            .collect();
        let mut acc = vec![0x5a5a; m];
        let mut y = vec![0x5a; m];
        let got = with_tensor(&CSR, l.dims, &l.weights, |t| {
            k::fc_s8(t, &l.x, &l.bias, &mut acc, &mut y, l.in_off, l.mult, l.shift, l.out_off)
        });
        prop_assert_eq!(got, Ok(()));
        prop_assert_eq!(&y, &want);
        let mut y = vec![0x5a; m];
        let got = with_tensor(&CSR, l.dims, &l.weights, |t| {
            k::fc_s8_builtin(t, &l.x, &l.bias, &mut acc, &mut y, l.in_off, l.mult, l.shift, l.out_off)
        });
        prop_assert_eq!(got, Ok(()));
        prop_assert_eq!(y, want);
    }

    #[test]
    fn the_builtin_over_a_sparse_vector_is_zero_where_nothing_is_stored(
        slots in vec(prop::option::of(accumulators()), 0..=40),
        mult in multipliers(),
        shift in -31i32..=30,
        out_off in -128i32..=127,
    ) {
        let entries: Entries<i32> = slots
            .iter()
            .enumerate()
            .filter_map(|(at, v)| v.map(|v| (vec![at], v)))
            .collect();
        let want: Vec<i32> = slots
            .iter()
            .map(|v| arm_nn_requantize(v.unwrap_or(0), mult, shift))
            .collect();
        let mut y = vec![0x5a5a_5a5a; slots.len()];
        let got = with_tensor(&SV, [slots.len()], &entries, |t| {
            k::requantize_sparse(t, &mut y, mult, shift)
        });
        prop_assert_eq!(got, Ok(()));
        prop_assert_eq!(y, want);
        let in_region: Vec<i32> = slots
            .iter()
            .map(|v| v.map_or(out_off, |v| arm_nn_requantize(v, mult, shift).wrapping_add(out_off)))
            .collect();
        let mut y = vec![0x5a5a_5a5a; slots.len()];
        let got = with_tensor(&SV, [slots.len()], &entries, |t| {
            k::requantize_region(t, &mut y, mult, shift, out_off)
        });
        prop_assert_eq!(got, Ok(()));
        prop_assert_eq!(y, in_region);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The accumulation alone, with offsets far outside CMSIS-NN's range
    /// (sparse-core's `dot_s8` then takes its plain loop on every target):
    /// the same wrapped `i32` sums.
    #[test]
    fn the_accumulation_wraps_alike_for_any_offset(l in layer(), in_off in any::<i32>()) {
        let [m, n] = l.dims;
        let w = Dense::from_entries(&l.dims, &l.weights);
        let want: Vec<i32> = (0..m)
            .map(|i| {
                (0..n).fold(l.bias[i], |s, j| {
                    s.wrapping_add((w.at(&[i, j]) as i32).wrapping_mul((l.x[j] as i32).wrapping_add(in_off)))
                })
            })
            .collect();
        let mut acc = vec![0x5a5a; m];
        let mut y = vec![0x5a; m];
        let got = with_tensor(&CSR, l.dims, &l.weights, |t| {
            k::fc_s8(t, &l.x, &l.bias, &mut acc, &mut y, in_off, l.mult, l.shift, l.out_off)
        });
        prop_assert_eq!(got, Ok(()));
        // `fc_s8` requantizes `acc` in place after the sum; compare the
        // sums through the same requantization.
        let mut d = vec![0; m];
        let mut want_y = vec![0; m];
        prop_assert_eq!(k::requantize(&want, &mut d, &mut want_y, l.mult, l.shift, l.out_off), Ok(()));
        prop_assert_eq!(y, want_y);
    }
}
