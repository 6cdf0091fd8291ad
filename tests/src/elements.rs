//! Element types beyond the primitives (`complex<f32>`/`complex<f64>`,
//! `f16`/`bf16`) for the kernel tests: their [`Elem`] values, and the
//! widened reference the half-precision kernels are checked against.
//!
//! Complex kernels compare exactly: the small values have dyadic parts
//! (quarters), so their products and short sums are exact in `f32` and
//! `f64`, whatever the order. Half-precision kernels compute in their own
//! type, each operation rounded (as MLIR's `arith` on `f16`), so they are
//! checked against the exact result computed in `f64` from the same
//! inputs, within the rounding bound of a sum of `n` products:
//! `|got - exact| <= (n + 1) * u * sum |terms|` with `u` the unit
//! roundoff (`2^-11` for `f16`, `2^-8` for `bf16`), plus the rounding of
//! the result itself.

use sparse_core::half::{bf16, f16};
use sparse_core::num_complex::Complex;

use crate::gen::Elem;

macro_rules! complex_elem {
    ($($t:ty),*) => {$(
        impl Elem for Complex<$t> {
            const ZERO: Self = Complex::new(0.0, 0.0);
            const GARBAGE: Self = Complex::new(777.25, -555.5);
            fn small(k: i32) -> Self {
                // Both parts in quarters; `k = 0` is an explicit zero.
                Complex::new(k as $t / 4.0, ((k * 3) % 7) as $t / 4.0)
            }
        }
    )*};
}
complex_elem!(f32, f64);

macro_rules! half_elem {
    ($($t:ident),*) => {$(
        impl Elem for $t {
            const ZERO: Self = $t::ZERO;
            const GARBAGE: Self = $t::from_f32_const(777.25);
            fn small(k: i32) -> Self {
                $t::from_f32(k as f32 / 4.0)
            }
        }
    )*};
}
half_elem!(f16, bf16);

/// A half-precision type: its unit roundoff and its value in `f64`.
pub trait Half: Elem {
    /// The unit roundoff, `2^-(p)` for `p` significand bits.
    const UNIT: f64;
    /// The value, exactly.
    fn wide(self) -> f64;
}

impl Half for f16 {
    const UNIT: f64 = 1.0 / 2048.0;
    fn wide(self) -> f64 {
        self.to_f64()
    }
}

impl Half for bf16 {
    const UNIT: f64 = 1.0 / 256.0;
    fn wide(self) -> f64 {
        self.to_f64()
    }
}

/// One output element of a half-precision kernel against its widened
/// reference: `terms` are the exact (`f64`) products the element sums.
///
/// # Panics
///
/// If `got` is farther from the exact sum than the rounding bound.
pub fn assert_close<H: Half>(got: H, terms: &[f64], what: &str) {
    let exact: f64 = terms.iter().sum();
    let magnitude: f64 = terms.iter().map(|t| t.abs()).sum();
    let bound = (terms.len() as f64 + 1.0) * H::UNIT * magnitude + H::UNIT * exact.abs();
    let got = got.wide();
    assert!(
        (got - exact).abs() <= bound,
        "{what}: got {got}, exact {exact}, bound {bound} (terms {terms:?})"
    );
}
