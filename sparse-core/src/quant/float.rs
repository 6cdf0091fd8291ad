//! The float side of quantization: `f32` to `int8` and back, and a real
//! scale as TFLite's fixed-point multiplier and shift. All three use only
//! `core` (exact bit manipulation instead of `frexp`/`round`, which `core`
//! lacks), so they need neither `std` nor `libm` and run on the host and on
//! a microcontroller alike.

use super::QuantError;

/// `x` rounded to the nearest integer, halfway cases away from zero (C's
/// `round`, TFLite's `TfLiteRound`), then converted with Rust's
/// saturating `as` (NaN gives 0).
fn round_f32(x: f32) -> i32 {
    // Every `f32` of magnitude 2^23 or more is an integer already.
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x as i32;
    }
    let t = x as i32;
    // Exact: `x` and its integer part share their exponent range below
    // 2^23, so the difference is representable.
    let frac = x - t as f32;
    if frac >= 0.5 {
        t + 1
    } else if frac <= -0.5 {
        t - 1
    } else {
        t
    }
}

/// The real value `x` as an `int8` of `scale` and `zero_point`:
/// `clamp(round(x / scale) + zero_point, -128, 127)`, the division in
/// `f32` and the rounding half away from zero, as TFLite's reference
/// `AffineQuantize`.
///
/// Where C's conversion to `int32_t` is undefined (a quotient beyond its
/// range, NaN) the quotient saturates (NaN gives 0), and the zero point is
/// added saturating; a zero or non-finite `scale` therefore gives the
/// saturated (or, for NaN, zero-point) value, never a panic.
pub fn quantize(x: f32, scale: f32, zero_point: i32) -> i8 {
    let q = round_f32(x / scale).saturating_add(zero_point);
    q.clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

/// The real value of the `int8` `q` of `scale` and `zero_point`: `scale *
/// (q - zero_point)`, computed in `f64` and rounded once to `f32`, as
/// TFLite's reference `Dequantize`.
pub fn dequantize(q: i8, scale: f32, zero_point: i32) -> f32 {
    let centered = i64::from(q) - i64::from(zero_point);
    (f64::from(scale) * centered as f64) as f32
}

/// `x = m * 2^e` with `|m|` in `[0.5, 1)`, for finite nonzero `x`: C's
/// `frexp`, exact.
fn frexp(x: f64) -> (f64, i32) {
    const EXP_MASK: u64 = 0x7ff << 52;
    let bits = x.to_bits();
    let biased = ((bits & EXP_MASK) >> 52) as i32;
    if biased == 0 {
        // Subnormal: scale into the normal range first (exact).
        let (m, e) = frexp(x * 18_446_744_073_709_551_616.0);
        return (m, e - 64);
    }
    // The same sign and significand with the exponent of [0.5, 1).
    let m = f64::from_bits((bits & !EXP_MASK) | (1022 << 52));
    (m, biased - 1022)
}

/// `y` rounded to the nearest integer, halfway cases away from zero, for
/// `|y| < 2^52` (exact there).
fn round_f64(y: f64) -> i64 {
    let t = y as i64;
    let frac = y - t as f64;
    if frac >= 0.5 {
        t + 1
    } else if frac <= -0.5 {
        t - 1
    } else {
        t
    }
}

/// A real factor as TFLite's fixed-point `(multiplier, shift)` with
/// `scale ≈ multiplier * 2^(shift - 31)`, for [`requantize`](super::requantize):
/// TFLite's `QuantizeMultiplier`.
///
/// `frexp` splits `scale` into `q * 2^shift` with `|q|` in `[0.5, 1)`;
/// the multiplier is `round(q * 2^31)` (halfway away from zero), and where
/// that rounds up to `2^31` it is halved and the shift raised by one. A
/// shift below -31 (`|scale| < 2^-32` or so) flushes to `(0, 0)`, a shift
/// above 30 saturates to `(2^31 - 1, 30)`, and `0.0` is `(0, 0)`. A
/// negative scale gives a negative multiplier, as TFLite's formula does.
///
/// # Errors
///
/// [`QuantError::NotFinite`] for a NaN or infinite scale (TFLite aborts
/// there).
pub fn quantize_multiplier(scale: f64) -> Result<(i32, i32), QuantError> {
    if !scale.is_finite() {
        return Err(QuantError::NotFinite);
    }
    if scale == 0.0 {
        return Ok((0, 0));
    }
    let (q, mut shift) = frexp(scale);
    // `q * 2^31` is exact (a power-of-two scaling) and below 2^31 in
    // magnitude, so the rounding is exact too.
    let mut fixed = round_f64(q * 2_147_483_648.0);
    if fixed == 1 << 31 {
        fixed /= 2;
        shift += 1;
    }
    if shift < -31 {
        return Ok((0, 0));
    }
    if shift > 30 {
        return Ok((i32::MAX, 30));
    }
    // In range: |fixed| <= 2^31 - 1, or -2^31 for q = -1 + tiny, which
    // `i32` holds.
    Ok((fixed as i32, shift))
}
