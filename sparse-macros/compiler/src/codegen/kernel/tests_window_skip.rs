//! Snapshot and shape tests of window skips (`schedule/window_skip.rs`):
//! dense loops over a sparse output's index that jump between the offsets
//! whose windows hold stored coordinates (run against entry-by-entry sums
//! over `usize::MAX`-sized tensors by `tests/tests/semantics/
//! bounded_windows.rs`).

use super::tests::{expand_pretty, has, snapshot, Def};
use crate::model::ElemType::F64;
use crate::sparsifier::{Access, Affine, Expr};

const SV: &str = "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>";

#[test]
fn conv1d_into_a_sparse_vector_skips_empty_windows() {
    let mut d = Def::new(SV, "conv1d_sv");
    d.doc = Some("y = x (*) f into a sparse vector");
    let x = d.sparse("x", "SV", F64, &[None]);
    let f = d.dense("f", F64, &[None], false);
    let y = d.sparse_out("y", "SV", F64, &[None]);
    let (i, k) = (d.index("i"), d.index("k"));
    let window = Expr::Access(Access {
        tensor: x,
        indices: vec![k],
        affine: vec![(
            0,
            Affine {
                terms: vec![(i, 1), (k, 1)],
                constant: 0,
                slice: None,
            },
        )],
    });
    d.k.assign(y, &[i], window * Expr::at(f, &[k]));
    let text = d.generate();
    snapshot("conv1d_sv_window_skip", &text);
    assert!(has(
        &text,
        "/// i: skips to the next offset whose window of `x` level 0 holds a stored coordinate \
         (statement 1)"
    ));
    // No dense walk over the output's size; one search per step.
    assert!(!has(&text, "for __sk_i in 0..__sk_n_i"));
    assert!(has(&text, "while __sk_from_i < __sk_n_i {"));
    assert!(has(
        &text,
        "::sparse_core::__private::next_window(__sk_x_crd0, (__sk_x_lo0, __sk_x_hi0), __sk_off, \
         __sk_n_k, (1, 0)"
    ));
    assert!(has(
        &text,
        "let __sk_candidate = __sk_i.saturating_add(__sk_d);"
    ));
}

/// The doc comment's schedule lines and the loop heads of `src`'s kernels.
fn expand(src: &str) -> String {
    expand_pretty(&format!(
        "#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
         #CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed) }}>
         #CSC = #sparse_tensor.encoding<{{ map = (i, j) -> (j : dense, i : compressed) }}>
         #DCSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : compressed, j : compressed) }}>
         {src}"
    ))
}

#[test]
fn strides_round_the_candidate_up() {
    let text = expand(
        "pub fn s(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64, #SV>) {
             y[i] = x[3 * i + k + 1] * f[k];
         }",
    );
    assert!(has(
        &text,
        "i: skips to the next offset whose window of `x` level 0"
    ));
    assert!(has(
        &text,
        "__sk_i.saturating_add(__sk_d / 3 + ::core::primitive::usize::from(__sk_d % 3 != 0)"
    ));
}

#[test]
fn two_dimensional_windows_skip_rows_and_columns() {
    // DCSR input: rows through level 0, columns through level 1 under
    // each stored row of the window (the probe walks them).
    let text = expand(
        "pub fn c(a: &tensor<?x?xf64, #DCSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #DCSR>) {
             o[i, j] = a[i + k, j + l] * f[k, l];
         }",
    );
    assert!(has(
        &text,
        "i: skips to the next offset whose window of `a` level 0"
    ));
    assert!(has(
        &text,
        "j: skips to the next offset whose window of `a` level 1"
    ));
    assert_eq!(text.matches("next_window(").count(), 2);
    // CSR input: its rows are stored densely (bounded by the input), the
    // columns jump; a sparse filter intersects with the window.
    let text = expand(
        "pub fn c(a: &tensor<?x?xf64, #CSR>, f: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64, #CSR>) {
             o[i, j] = a[i + k, j + l] * f[k, l];
         }",
    );
    assert!(!has(&text, "i: skips"));
    assert!(has(
        &text,
        "j: skips to the next offset whose window of `a` level 1"
    ));
}

#[test]
fn work_outside_a_window_keeps_the_dense_walk() {
    // A union: `b[i]` is added where no window holds an entry.
    let text = expand(
        "pub fn u(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64, #SV>) {
             y[i] = x[i + k] * f[k] + b[i];
         }",
    );
    assert!(!has(&text, "skips"));
    assert!(!text.contains("next_window("));
    // A dense output is written at every element (zeros included).
    let text = expand(
        "pub fn d(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
             y[i] = x[i + k] * f[k];
         }",
    );
    assert!(!has(&text, "skips"));
    // Column-major input into a row-major output: the window over the
    // rows of `a` lies under each column `j + l`, an output index.
    let text = expand(
        "pub fn c(a: &tensor<?x?xf64, #CSC>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64, #CSR>) {
             o[i, j] = a[i + k, j + l] * f[k, l];
         }",
    );
    assert!(!has(&text, "skips"));
}
