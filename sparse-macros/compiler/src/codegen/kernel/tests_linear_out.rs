//! Outputs written at affine subscripts (`x[4 * i + j] = a[i, j]`): the
//! output zeroed, every point's value added at its element, the subscript
//! range-checked in the prologue, the output's size read before its
//! `&mut` reborrow (run by `tests/tests/semantics/linear_out.rs`).

use super::tests::{expand_pretty, has};

const ENCODINGS: &str =
    "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>";

#[test]
fn a_flattened_matrix_is_zeroed_then_scattered() {
    let text = expand_pretty(&format!(
        "{ENCODINGS}
        pub fn flat(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {{ x[4 * i + j] = a[i, j]; }}"
    ));
    assert!(has(&text, "/// order i (parallel), j (parallel)"), "{text}");
    assert!(has(
        &text,
        "/// output x: dense, zeroed then accumulated: an affine output subscript may reach an \
         element from several points"
    ));
    assert!(has(&text, "///     x[4 * i + j] += a[i, j]"));
    assert!(has(&text, "subscript: \"4 * i + j\","));
    assert!(has(&text, "__sk_x_data.fill(0.0_f64);"));
    assert!(has(&text, "__sk_i.wrapping_mul(4).wrapping_add(__sk_j)"));
    assert!(has(&text, "*__sk_x_out += __sk_a_v;"));
    // The size is read before `x` is reborrowed as `__sk_x_data`.
    let size = text.find("let __sk_x_dim0").expect("the size is bound");
    let data = text.find("let __sk_x_data").expect("the data is bound");
    assert!(size < data, "{text}");
}

#[test]
fn a_polynomial_product_accumulates_and_stays_sequential_under_parallel() {
    let text = expand_pretty(&format!(
        "{ENCODINGS}
        #[parallel]
        pub fn poly(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64>) {{ y[i + j] += a[i, j]; }}"
    ));
    assert!(
        has(&text, "/// output y: dense, accumulated into (+=)"),
        "{text}"
    );
    assert!(!has(&text, "__sk_y_data.fill"));
    assert!(has(
        &text,
        "at the subscript `i + j`, which may reach elements of other chunks"
    ));
}

#[test]
fn a_sparse_output_at_a_subscript_is_staged_then_sorted_and_summed() {
    let text = expand_pretty(&format!(
        "{ENCODINGS}
        #SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
        pub fn rev(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64, #SV>) {{ y[i + j] = a[i, j]; }}"
    ));
    assert!(
        has(
            &text,
            "/// output y: sparse, staged in any order: an affine output subscript may reach a \
             coordinate from several points or out of order; sorted and summed when the \
             statement finishes"
        ),
        "{text}"
    );
    // The output asks nothing of the loop order: `a`'s storage order.
    assert!(has(&text, "/// order j (parallel), i (parallel)"));
    assert!(has(&text, "y.begin_unordered();"), "{text}");
    assert!(has(
        &text,
        "y.insert_unordered([__sk_i.wrapping_add(__sk_j)], __sk_a_v);"
    ));
    assert!(
        has(
            &text,
            "y.finish_unordered(\"y\", ::sparse_core::output::Repeats::Combine(|mut a: \
         ::core::primitive::f64, b: ::core::primitive::f64, | -> ::core::primitive::f64 { a += b; \
         a }), )?;"
        ),
        "{text}"
    );
}
