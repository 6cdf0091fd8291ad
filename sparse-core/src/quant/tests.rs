//! `quant` against references written from TFLite's and CMSIS-NN's
//! formulas with other arithmetic (exact `i128` rounding, `std`'s float
//! functions), and values checked by hand. Small, so Miri runs them.

extern crate std;

use super::{
    dequantize, quantize, quantize_multiplier, requantize, requantize_per_channel,
    requantize_per_tensor, Output, QuantError,
};

/// `2^e`, exact (bits written out): `powi` may round differently under
/// Miri, which perturbs the results of float intrinsics.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// A small deterministic generator (no proptest: Miri runs this).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }
    fn i32(&mut self) -> i32 {
        self.next() as i32
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u32) as i32
    }
}

/// `arm_nn_requantize` from its definition: `val * 2^left` wrapped to 32
/// bits, `floor((v * m + 2^30) / 2^31)` truncated to 32 bits, then the
/// quotient by `2^right` rounded to nearest with ties away from zero,
/// computed by exact division rather than masks.
fn reference(value: i32, multiplier: i32, shift: i32) -> i32 {
    let left = shift.clamp(0, 31);
    let right = (-shift).clamp(0, 31);
    let v = (i128::from(value) << left) as i32;
    let high = (i128::from(v) * i128::from(multiplier) + (1 << 30)).div_euclid(1 << 31) as i32;
    let d = i128::from(high);
    let divisor = 1i128 << right;
    let (q, r) = (d / divisor, d % divisor);
    let away = 2 * r.abs() >= divisor;
    (q + if away { d.signum() } else { 0 }) as i32
}

#[test]
fn requantize_by_hand() {
    // 1.5 * 2^30 is the Q31 multiplier 0.75.
    let three_quarters = 3 << 29;
    assert_eq!(requantize(100, three_quarters, 0), 75);
    assert_eq!(requantize(-100, three_quarters, 0), -75);
    // 0.75 * 2 / 2^3 = 0.1875: 10 -> 1.875 -> 2, -10 -> -2.
    assert_eq!(requantize(10, three_quarters, -2), 2);
    assert_eq!(requantize(-10, three_quarters, -2), -2);
    // 0.5 / 4 = 1/8: 12 -> 1.5 rounds away from zero both ways.
    assert_eq!(requantize(12, 1 << 30, -2), 2);
    assert_eq!(requantize(-12, 1 << 30, -2), -2);
    assert_eq!(requantize(9, 1 << 30, -2), 1);
    assert_eq!(requantize(-9, 1 << 30, -2), -1);
    // CMSIS-NN rounds twice, the first time halfway cases up: 11 * 0.5 =
    // 5.5 -> 6, 6 / 4 = 1.5 -> 2, although 11 / 8 = 1.375; -5.5 -> -5,
    // -5 / 4 -> -1.
    assert_eq!(requantize(11, 1 << 30, -2), 2);
    assert_eq!(requantize(-11, 1 << 30, -2), -1);
    // A left shift: 0.5 * 2^3 = 4.
    assert_eq!(requantize(7, 1 << 30, 3), 28);
    // Zero stays zero, whatever the parameters.
    assert_eq!(requantize(0, i32::MIN, -31), 0);
    assert_eq!(requantize(i32::MAX, 0, 30), 0);
    // MIN * MIN overflows the high half: C's truncation gives MIN.
    assert_eq!(requantize(i32::MIN, i32::MIN, 0), i32::MIN);
}

#[test]
fn requantize_matches_the_reference() {
    let mut rng = Lcg(27);
    let edges = [
        0,
        1,
        -1,
        2,
        -3,
        255,
        -256,
        1 << 20,
        -(1 << 20),
        0x4000_0000,
        -0x4000_0000,
        i32::MAX,
        i32::MIN,
        i32::MIN + 1,
    ];
    let multipliers = [0, 1, -1, 1 << 30, i32::MAX, i32::MIN, 1_518_500_250];
    for shift in -40..=40 {
        for &m in &multipliers {
            for &v in &edges {
                assert_eq!(
                    requantize(v, m, shift),
                    reference(v, m, shift),
                    "{v} {m} {shift}"
                );
            }
        }
    }
    let cases = if cfg!(miri) { 200 } else { 200_000 };
    for _ in 0..cases {
        let v = if rng.next() % 2 == 0 {
            rng.range(-70_000, 70_000)
        } else {
            rng.i32()
        };
        let m = if rng.next() % 4 == 0 {
            rng.i32()
        } else {
            rng.range(1 << 30, i32::MAX)
        };
        let shift = rng.range(-33, 32);
        assert_eq!(
            requantize(v, m, shift),
            reference(v, m, shift),
            "{v} {m} {shift}"
        );
    }
}

#[test]
fn outputs_clamp_and_offset() {
    let out = Output::s8(-5);
    assert_eq!(out.apply(3), -2);
    assert_eq!(out.apply_s8(200), 127);
    assert_eq!(out.apply_s8(-200), -128);
    // A fused ReLU: the range starts at the zero point.
    let relu = Output {
        zero_point: -5,
        min: -5,
        max: 127,
    };
    assert_eq!(relu.apply(-40), -5);
    // An empty range gives `max`, as `min(max(x, lo), hi)`.
    let empty = Output {
        zero_point: 0,
        min: 10,
        max: 0,
    };
    assert_eq!(empty.apply(5), 0);
    // A range wider than i8 saturates to it.
    let wide = Output {
        zero_point: 0,
        min: i32::MIN,
        max: i32::MAX,
    };
    assert_eq!(wide.apply_s8(1000), 127);
    assert_eq!(wide.apply(i32::MAX), i32::MAX);
}

#[test]
fn per_tensor_and_per_channel_requantization() {
    let acc = [1000, -1000, 64, 0];
    let mut y = [0x5a_i8; 4];
    // 1/16 (0.5 * 2^-3), output zero point 3.
    requantize_per_tensor(&acc, 1 << 30, -3, Output::s8(3), &mut y).unwrap();
    assert_eq!(y, [66, -60, 7, 3]);
    // Channel n scaled by 2^-n, halves rounded away from zero.
    let mults = [1 << 30; 4];
    let shifts = [1, 0, -1, -2];
    requantize_per_channel(&acc, &mults, &shifts, Output::s8(0), &mut y).unwrap();
    assert_eq!(y, [127, -128, 16, 0]);
    let mut short = [0i8; 3];
    assert_eq!(
        requantize_per_channel(&acc, &mults, &shifts[..2], Output::s8(0), &mut y),
        Err(QuantError::LengthMismatch {
            what: "shifts",
            expected: 4,
            found: 2
        })
    );
    assert_eq!(
        requantize_per_tensor(&acc, 1, 0, Output::s8(0), &mut short),
        Err(QuantError::LengthMismatch {
            what: "output",
            expected: 4,
            found: 3
        })
    );
    // Nothing was written on error.
    assert_eq!(short, [0; 3]);
}

/// TFLite's `AffineQuantize` with `std`'s `round` (ties away from zero).
fn quantize_reference(x: f32, scale: f32, zero_point: i32) -> i8 {
    let q = (x / scale).round() as i32;
    (q.saturating_add(zero_point)).clamp(-128, 127) as i8
}

#[test]
fn quantize_and_dequantize() {
    // By hand: 0.05 / 0.1 = 0.5 rounds away from zero, both signs.
    assert_eq!(quantize(0.25, 0.5, 0), 1);
    assert_eq!(quantize(-0.25, 0.5, 0), -1);
    assert_eq!(quantize(0.24, 0.5, 0), 0);
    assert_eq!(quantize(1.0, 0.5, -10), -8);
    assert_eq!(quantize(1000.0, 0.5, 0), 127);
    assert_eq!(quantize(-1000.0, 0.5, 0), -128);
    assert_eq!(quantize(f32::NAN, 0.5, 7), 7);
    assert_eq!(quantize(1.0, 0.0, 0), 127);
    assert_eq!(quantize(f32::INFINITY, 1.0, 0), 127);
    assert_eq!(dequantize(-8, 0.5, -10), 1.0);
    assert_eq!(dequantize(-128, 0.25, 127), -63.75);
    let mut rng = Lcg(8);
    let cases = if cfg!(miri) { 100 } else { 100_000 };
    for _ in 0..cases {
        let scale = (rng.next() % 10_000 + 1) as f32 * 1e-4;
        let zp = rng.range(-128, 127);
        let x = rng.i32() as f32 * 1e-8;
        assert_eq!(
            quantize(x, scale, zp),
            quantize_reference(x, scale, zp),
            "{x} {scale} {zp}"
        );
        // Halfway points exactly: (k + 0.5) * 2^-4 with scale 2^-4.
        let half = (rng.range(-300, 300) as f32 + 0.5) / 16.0;
        assert_eq!(
            quantize(half, 0.0625, zp),
            quantize_reference(half, 0.0625, zp)
        );
        // A quantized value survives the round trip.
        let q = rng.range(-128, 127) as i8;
        assert_eq!(
            quantize(dequantize(q, scale, zp), scale, zp),
            q,
            "{q} {scale} {zp}"
        );
    }
}

/// TFLite's `QuantizeMultiplier` from its formula with `std`: the power of
/// two found by halving/doubling, `std`'s `round`.
fn multiplier_reference(scale: f64) -> (i32, i32) {
    if scale == 0.0 {
        return (0, 0);
    }
    let (mut q, mut shift) = (scale, 0);
    while q.abs() >= 1.0 {
        q /= 2.0;
        shift += 1;
    }
    while q.abs() < 0.5 {
        q *= 2.0;
        shift -= 1;
    }
    let mut fixed = (q * pow2(31)).round() as i64;
    if fixed == 1 << 31 {
        fixed /= 2;
        shift += 1;
    }
    if shift < -31 {
        (0, 0)
    } else if shift > 30 {
        (i32::MAX, 30)
    } else {
        (fixed as i32, shift)
    }
}

#[test]
fn quantize_multiplier_by_hand_and_by_formula() {
    assert_eq!(quantize_multiplier(0.0), Ok((0, 0)));
    assert_eq!(quantize_multiplier(0.5), Ok((1 << 30, 0)));
    assert_eq!(quantize_multiplier(1.0), Ok((1 << 30, 1)));
    assert_eq!(quantize_multiplier(0.75), Ok((3 << 29, 0)));
    assert_eq!(quantize_multiplier(1.0 / 256.0), Ok((1 << 30, -7)));
    assert_eq!(quantize_multiplier(-0.75), Ok((-(3 << 29), 0)));
    // Rounds up to 2^31: halved, shift raised.
    assert_eq!(quantize_multiplier(1.0 - pow2(-40)), Ok((1 << 30, 1)));
    // 0.1 = 0.8 * 2^-3; 0.8 * 2^31 = 1717986918.4.
    assert_eq!(quantize_multiplier(0.1), Ok((1_717_986_918, -3)));
    // Flushed and saturated ends.
    assert_eq!(quantize_multiplier(pow2(-40)), Ok((0, 0)));
    assert_eq!(quantize_multiplier(pow2(40)), Ok((i32::MAX, 30)));
    assert_eq!(quantize_multiplier(f64::MIN_POSITIVE / 8.0), Ok((0, 0)));
    assert_eq!(quantize_multiplier(f64::NAN), Err(QuantError::NotFinite));
    assert_eq!(
        quantize_multiplier(f64::NEG_INFINITY),
        Err(QuantError::NotFinite)
    );
    let mut rng = Lcg(31);
    let cases = if cfg!(miri) { 100 } else { 100_000 };
    for _ in 0..cases {
        let mantissa = f64::from(rng.next()) / f64::from(u32::MAX);
        let scale = mantissa * pow2(rng.range(-36, 34));
        assert_eq!(
            quantize_multiplier(scale),
            Ok(multiplier_reference(scale)),
            "{scale}"
        );
    }
    // The multiplier and shift represent the scale to within 2^-31.
    for scale in [0.3, 0.0042, 1.7e-5, 3.9] {
        let (m, s) = quantize_multiplier(scale).unwrap();
        let back = f64::from(m) * pow2(s - 31);
        assert!((back - scale).abs() <= scale * pow2(-30), "{scale}");
    }
}
