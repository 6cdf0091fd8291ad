//! Narrow accumulation: a sum of products of `i8`/`ui8`/`i16`/`ui16`
//! values stored in that type is an error at the product; wrapping
//! spelt out as an identity cast, sums of plain values and narrow
//! arithmetic that is not summed are accepted.

use super::kernel_diagnostics::{assert_error_at, error_count};
use super::kernels::kernel;

/// A kernel over an `ELEM` CSR matrix `a`, vectors `x`, `b` and a scalar
/// `s`, writing `y`, with `body`.
fn k(elem: &str, out: &str, body: &str) -> String {
    format!(
        "fn f(a: &tensor<?x?x{elem}, #CSR>, x: &tensor<?x{elem}>, b: &tensor<?x{elem}>, \
         s: {rust}, y: &mut tensor<?x{out}>) {{ {body} }}",
        rust = match elem {
            "ui8" => "u8",
            "ui16" => "u16",
            e => e,
        }
    )
}

#[test]
fn a_narrow_sum_of_products_is_refused_at_the_product() {
    for (elem, wide) in [
        ("i8", "i32"),
        ("ui8", "i32"),
        ("i16", "i32"),
        ("ui16", "i64"),
    ] {
        let src = k(elem, elem, "y[i] = a[i, j] * x[j];");
        let ty = if elem.starts_with('u') {
            elem.replacen("ui", "u", 1)
        } else {
            elem.to_string()
        };
        assert_error_at(
            &src,
            "a[i, j] * x[j]",
            0,
            &format!(
                "`a[i, j] * x[j]` multiplies `{ty}` values and is summed over `j` in `{ty}`, \
                 the element type of the output `y`"
            ),
        );
        assert_error_at(
            &src,
            "a[i, j] * x[j]",
            0,
            &format!(
                "make `y` an `{wide}` tensor and widen the factors, `a[i, j] as {wide} * x[j] as \
                 {wide}`; to wrap in `{ty}` on purpose, cast the summed product to its own \
                 type: `(a[i, j] * x[j]) as {ty}`"
            ),
        );
        assert_eq!(error_count(&src), 1, "{src}");
    }
}

#[test]
fn every_way_of_summing_a_product_is_refused() {
    // `+=`, an explicit `sum`, a product with a term added, a scaled
    // product (the inner product is summed, the scaling is not), a sparse
    // output, SpGEMM's inner index.
    let cases = [
        ("y[i] += a[i, j] * x[j];", "a[i, j] * x[j]"),
        ("y[i] = sum(j, a[i, j] * x[j]);", "a[i, j] * x[j]"),
        ("y[i] = a[i, j] * x[j] - b[i];", "a[i, j] * x[j]"),
        ("y[i] = a[i, j] * x[j] * s;", "a[i, j] * x[j]"),
        ("y[i] = s * (a[i, j] * x[j]);", "a[i, j] * x[j]"),
        // A factor cast to its own type is no wrapping spelling: the
        // product is still summed.
        ("y[i] = a[i, j] as i8 * x[j];", "a[i, j]"),
    ];
    for (body, at) in cases {
        let src = k("i8", "i8", body);
        assert_error_at(&src, at, 0, "in `i8`, the element type of the output `y`");
        assert_eq!(error_count(&src), 1, "{src}");
    }
    let spgemm = "fn f(a: &tensor<?x?xi8, #CSR>, b: &tensor<?x?xi8, #CSR>, \
                  c: &mut tensor<?x?xi8, #CSR>) { c[i, j] = a[i, k] * b[k, j]; }";
    assert_error_at(spgemm, "a[i, k]", 0, "is summed over `k` in `i8`");
    // A widening cast of a narrow sum is not the identity: `i8` products
    // summed in `i8`, then widened.
    let src = k("i8", "i16", "y[i] = (a[i, j] * x[j]) as i16;");
    assert_error_at(&src, "a[i, j] * x[j]", 0, "is summed over `j` in `i8`");
}

#[test]
fn wrapping_spelt_out_and_narrow_arithmetic_without_sums_are_accepted() {
    for body in [
        // The identity cast: wrapping in `i8` on purpose.
        "y[i] = (a[i, j] * x[j]) as i8;",
        "y[i] = sum(j, a[i, j] * x[j]) as i8;",
        "y[i] = (a[i, j] * x[j]) as i8 - b[i];",
        // Products that are not summed.
        "y[i] = x[i] * b[i];",
        "y[i] += x[i] * b[i] * s;",
        // A sum of the scaled row sum: the product is outside the sum.
        "y[i] = s * a[i, j];",
        // Sums of plain values.
        "y[i] = a[i, j];",
        "y[i] += a[i, j] - x[j];",
    ] {
        kernel(&k("i8", "i8", body));
    }
    // Accumulating in `i32`, the fix the error names.
    kernel(&k("i8", "i32", "y[i] = a[i, j] as i32 * x[j] as i32;"));
    // Wider types and floats are not narrow.
    kernel(&k("i32", "i32", "y[i] = a[i, j] * x[j];"));
    kernel(&k("f32", "f32", "y[i] = a[i, j] * x[j];"));
}
