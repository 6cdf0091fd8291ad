//! The feature gates of element types beyond `core`'s primitives, which
//! generated kernels name through `__private::elem`: `complex<f32>`/`complex<f64>` are `num_complex::Complex<f32>`/
//! `<f64>` (feature `complex`), `f16`/`bf16` are `half::f16`/`half::bf16`
//! (feature `half`).
//!
//! A proc macro cannot see this crate's features, so a kernel over such
//! elements invokes [`require_complex!`](crate::__sk_require_complex) or
//! [`require_half!`](crate::__sk_require_half) first: nothing with the
//! feature, a compile error at the kernel that names the feature without.

/// `complex<f32>`/`complex<f64>` elements need the `complex` feature.
#[cfg(feature = "complex")]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_complex {
    () => {};
}

/// `complex<f32>`/`complex<f64>` elements need the `complex` feature.
#[cfg(not(feature = "complex"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_complex {
    () => {
        ::core::compile_error!(
            "`complex<f32>` and `complex<f64>` elements need sparse-core's `complex` feature: \
             add `features = [\"complex\"]` to the `sparse-core` dependency"
        );
    };
}

/// `f16`/`bf16` elements need the `half` feature.
#[cfg(feature = "half")]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_half {
    () => {};
}

/// `f16`/`bf16` elements need the `half` feature.
#[cfg(not(feature = "half"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_half {
    () => {
        ::core::compile_error!(
            "`f16` and `bf16` elements need sparse-core's `half` feature: add \
             `features = [\"half\"]` to the `sparse-core` dependency"
        );
    };
}

/// Writes an element as MLIR's `sparse_tensor.print` does: a complex
/// number as the pair `( re, im )`, anything else through `Display` with
/// the formatter's options (`{:.6}`).
pub(crate) fn write_value<V: core::fmt::Display>(
    f: &mut core::fmt::Formatter<'_>,
    v: &V,
) -> core::fmt::Result {
    #[cfg(feature = "complex")]
    {
        use num_complex::Complex;
        if let Some(z) = crate::value::downcast_ref::<V, Complex<f64>>(v) {
            return write_pair(f, &z.re, &z.im);
        }
        if let Some(z) = crate::value::downcast_ref::<V, Complex<f32>>(v) {
            return write_pair(f, &z.re, &z.im);
        }
    }
    core::fmt::Display::fmt(v, f)
}

#[cfg(feature = "complex")]
fn write_pair<T: core::fmt::Display>(
    f: &mut core::fmt::Formatter<'_>,
    re: &T,
    im: &T,
) -> core::fmt::Result {
    f.write_str("( ")?;
    core::fmt::Display::fmt(re, f)?;
    f.write_str(", ")?;
    core::fmt::Display::fmt(im, f)?;
    f.write_str(" )")
}

/// An element displayed by [`write_value`] (so `{:.6}` applies to each part
/// of a complex number).
pub(crate) struct Mlir<'v, V>(pub(crate) &'v V);

impl<V: core::fmt::Display> core::fmt::Display for Mlir<'_, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_value(f, self.0)
    }
}
