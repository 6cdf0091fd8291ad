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
