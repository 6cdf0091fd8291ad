//! Int8 quantization as TensorFlow Lite and CMSIS-NN define it, `no_std`
//! and without an allocator.
//!
//! A quantized tensor stores `q` for the real value `scale * (q -
//! zero_point)`. A fully connected or convolution layer accumulates
//! `bias + sum w * (x - x_zero_point)` in `i32`, then *requantizes* the
//! accumulator to the output's scale with a fixed-point multiplier and a
//! power-of-two shift (the real factor `x_scale * w_scale / y_scale`, as
//! [`quantize_multiplier`] encodes it), adds the output zero point and
//! clamps to the activation range. [`requantize`] is that fixed-point
//! step, bit for bit CMSIS-NN's `arm_nn_requantize` (the default double
//! rounding), which TFLite Micro's reference kernels compute as well; it is
//! also the kernel-language built-in `requantize(acc, mult, shift)`.
//!
//! ```
//! use sparse_core::quant::{quantize_multiplier, requantize, Output};
//!
//! // acc * 0.0039 in fixed point: 1 / 256, rounded half away from zero.
//! let (mult, shift) = quantize_multiplier(1.0 / 256.0).unwrap();
//! assert_eq!((mult, shift), (1 << 30, -7));
//! assert_eq!(requantize(640, mult, shift), 3); // 2.5 -> 3
//! assert_eq!(requantize(-640, mult, shift), -3);
//! assert_eq!(Output::s8(-5).apply(requantize(100_000, mult, shift)), 127);
//! ```
//!
//! Where C leaves the arithmetic undefined (a signed overflow in
//! `val * (1 << shift)`, a float out of `int32_t` range), these functions
//! wrap or saturate as documented on each, and never panic.

mod float;
#[cfg(test)]
mod tests;

use core::fmt;

pub use float::{dequantize, quantize, quantize_multiplier};

/// Why a quantization helper refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum QuantError {
    /// Two slices that pair up element for element differ in length.
    LengthMismatch {
        /// The slice whose length is wrong (`"multipliers"`, `"shifts"`,
        /// `"output"`).
        what: &'static str,
        /// The length of the accumulators.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A scale that is NaN or infinite has no fixed-point multiplier.
    NotFinite,
}

impl fmt::Display for QuantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantError::LengthMismatch {
                what,
                expected,
                found,
            } => write!(
                f,
                "{what} has {found} elements, but there are {expected} accumulators"
            ),
            QuantError::NotFinite => f.write_str("the scale is NaN or infinite"),
        }
    }
}

/// `(2 * a * b + 2^31) >> 32` without saturation: CMSIS-NN's
/// `arm_nn_doubling_high_mult_no_sat`. The high half is truncated to 32
/// bits as C's conversion does, so `MIN * MIN` gives `MIN`.
#[inline(always)]
const fn doubling_high_mult(a: i32, b: i32) -> i32 {
    let product = a as i64 * b as i64 + (1 << 30);
    // Truncating on purpose: C's `(int32_t)(mult >> 31)`.
    (product >> 31) as i32
}

/// `dividend / 2^exponent` rounded to nearest, halfway cases away from
/// zero: CMSIS-NN's `arm_nn_divide_by_power_of_two`, for `exponent` in
/// `0..=31`.
#[inline(always)]
const fn divide_by_power_of_two(dividend: i32, exponent: u32) -> i32 {
    let mask = (1i32 << exponent).wrapping_sub(1);
    let remainder = mask & dividend;
    let result = dividend >> exponent;
    // The threshold is one more for negative results, which rounds a
    // negative half away from zero as a positive one is.
    let threshold = (mask >> 1) + (result < 0) as i32;
    result + (remainder > threshold) as i32
}

/// `value * multiplier * 2^shift / 2^31`, rounded as CMSIS-NN rounds:
/// bit for bit `arm_nn_requantize(value, multiplier, shift)`.
///
/// `multiplier` is a Q31 fixed-point factor (in `[2^30, 2^31)` as
/// [`quantize_multiplier`] makes it) and `shift` its power of two:
/// positive shifts multiply `value` by `2^shift` first (wrapping on
/// overflow, where C's signed overflow is undefined), negative ones divide
/// the product by `2^-shift`, rounding to nearest with halfway cases away
/// from zero. TFLite makes shifts in `-31..=30`; a shift outside
/// `-31..=31` is taken as the nearest of those bounds (it would shift
/// every bit out), so no argument panics.
///
/// The same function is the kernel-language built-in
/// `requantize(acc, mult, shift)` on `i32` operands.
#[inline]
pub const fn requantize(value: i32, multiplier: i32, shift: i32) -> i32 {
    let left = if shift > 31 {
        31
    } else if shift > 0 {
        shift as u32
    } else {
        0
    };
    let right = if shift < -31 {
        31
    } else if shift < 0 {
        (-shift) as u32
    } else {
        0
    };
    divide_by_power_of_two(
        doubling_high_mult(value.wrapping_shl(left), multiplier),
        right,
    )
}

/// The output side of a quantized layer: its zero point, added after
/// requantization, and the activation range the result is clamped to
/// (TFLite's `output_offset`, `output_activation_min`/`max`; a fused ReLU
/// raises `min` to the zero point).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Output {
    /// The output tensor's zero point.
    pub zero_point: i32,
    /// The smallest output value.
    pub min: i32,
    /// The largest output value.
    pub max: i32,
}

impl Output {
    /// An `int8` output with `zero_point` and no fused activation: the
    /// range `[-128, 127]`.
    pub const fn s8(zero_point: i32) -> Self {
        Output {
            zero_point,
            min: i8::MIN as i32,
            max: i8::MAX as i32,
        }
    }

    /// `value + zero_point` (wrapping) clamped to `[min, max]`; where
    /// `min > max` the result is `max`, as `min(max(x, min), max)`.
    #[inline]
    pub const fn apply(self, value: i32) -> i32 {
        let v = value.wrapping_add(self.zero_point);
        let v = if v < self.min { self.min } else { v };
        if v > self.max {
            self.max
        } else {
            v
        }
    }

    /// [`apply`](Self::apply), then saturated to `i8` (a range wider than
    /// `i8`'s is limited to it rather than wrapped).
    #[inline]
    pub const fn apply_s8(self, value: i32) -> i8 {
        let v = self.apply(value);
        if v < i8::MIN as i32 {
            i8::MIN
        } else if v > i8::MAX as i32 {
            i8::MAX
        } else {
            v as i8
        }
    }
}

/// Per-tensor requantization to `int8`: `output[n] =
/// out.apply_s8(requantize(acc[n], multiplier, shift))`, every output
/// channel sharing one multiplier and shift (TFLite's per-tensor
/// quantized weights).
///
/// # Errors
///
/// [`QuantError::LengthMismatch`] if `output` is not as long as `acc`;
/// nothing is written then.
pub fn requantize_per_tensor(
    acc: &[i32],
    multiplier: i32,
    shift: i32,
    out: Output,
    output: &mut [i8],
) -> Result<(), QuantError> {
    same_length("output", acc.len(), output.len())?;
    for (y, &a) in output.iter_mut().zip(acc) {
        *y = out.apply_s8(requantize(a, multiplier, shift));
    }
    Ok(())
}

/// Per-channel requantization to `int8`: output channel `n` has its own
/// `multipliers[n]` and `shifts[n]` (TFLite's per-axis quantized weights,
/// CMSIS-NN's `arm_nn_requantize` in its per-channel kernels), and every
/// channel the same output zero point and range.
///
/// # Errors
///
/// [`QuantError::LengthMismatch`] naming the first of `multipliers`,
/// `shifts`, `output` that is not as long as `acc`; nothing is written
/// then.
pub fn requantize_per_channel(
    acc: &[i32],
    multipliers: &[i32],
    shifts: &[i32],
    out: Output,
    output: &mut [i8],
) -> Result<(), QuantError> {
    same_length("multipliers", acc.len(), multipliers.len())?;
    same_length("shifts", acc.len(), shifts.len())?;
    same_length("output", acc.len(), output.len())?;
    for (((y, &a), &m), &s) in output.iter_mut().zip(acc).zip(multipliers).zip(shifts) {
        *y = out.apply_s8(requantize(a, m, s));
    }
    Ok(())
}

fn same_length(what: &'static str, expected: usize, found: usize) -> Result<(), QuantError> {
    if expected == found {
        Ok(())
    } else {
        Err(QuantError::LengthMismatch {
            what,
            expected,
            found,
        })
    }
}
