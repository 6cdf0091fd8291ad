//! The rules for sparse outputs (`&mut tensor<..., #ENC>`): what is
//! accepted, and one test per rejection with its message and span.

use super::kernel_diagnostics::{assert_error_at, error_count};
use super::kernels::{kernel, ENCODINGS};
use super::{errors, model};
use crate::model::ParamKind;
use crate::vocab::LevelFormat;

const ADD: &str =
    "fn add(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
    c[i, j] = a[i, j] + b[i, j];
}";

#[test]
fn sparse_outputs_are_accepted() {
    let def = kernel(ADD);
    assert!(matches!(
        def.params[2].kind,
        ParamKind::Sparse { mutable: true, .. }
    ));
    assert!(def.kernel.tensors[2].is_output);
    assert_eq!(error_count(ADD), 0);
    // Gustavson SpGEMM (a workspace) and a reduction into a sparse vector.
    for k in [
        "fn mm(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, k] * b[k, j]; }",
        "fn mm(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, k] * b[k, j]; }",
        "fn rows(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?xf64, #SV>) { c[i] = a[i, j]; }",
        "fn coo(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #COO>) { c[i, j] = a[i, j] * 2.0; }",
    ] {
        assert_eq!(errors(&format!("{ENCODINGS}\n{k}")), Vec::new(), "{k}");
    }
}

#[test]
fn accumulating_into_a_sparse_output_is_at_the_operator() {
    let k =
        "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] += a[i, j]; }";
    assert_error_at(
        k,
        "+=",
        0,
        "`+=` into sparse output `c`: merge semantics into sparse outputs are not supported: pass the old values as an input `old: &tensor<...>` and write `c[i, j] = old[i, j] + ...;` into a fresh output, or use a dense output",
    );
    assert_eq!(error_count(k), 1);
}

#[test]
fn reading_a_sparse_output_is_at_the_read() {
    let k = "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = c[j, i] * a[i, j]; }";
    assert_error_at(
        k,
        "c[j, i]",
        0,
        "`c[j, i]` reads the sparse output `c`, which a kernel only builds",
    );
    assert_eq!(error_count(k), 1);
    // Where it writes, the read is an in-place update, refused here because
    // `a` is sparse (the product would drop entries).
    let k = "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = c[i, j] * a[i, j]; }";
    assert_error_at(
        k,
        "c[i, j] =",
        0,
        "`c` cannot be updated in place: `a` is sparse",
    );
    // In a later statement too.
    let k =
        "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
        c[i, j] = a[i, j];
        y[i] = c[i, j];
    }";
    assert_error_at(k, "c[i, j];", 0, "reads the sparse output `c`");
    assert_eq!(error_count(k), 1);
}

#[test]
fn a_sparse_output_is_written_by_one_statement() {
    let k = "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[i, j];
        c[i, j] = a[i, j] * 2.0;
    }";
    assert_error_at(
        k,
        "c[i, j]",
        1,
        "sparse output `c` is written by two statements, but each statement builds its output from nothing",
    );
    assert_error_at(k, "c[i, j]", 0, "`c` is first written here");
    // The error and its note.
    assert_eq!(error_count(k), 2);
}

#[test]
fn structured_above_other_levels_and_all_dense_outputs_name_the_level() {
    let encodings = "
        #NV = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
        #D = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
    ";
    let src = format!(
        "{encodings} fn f(a: &tensor<?x?xf64, #NV>, c: &mut tensor<?x?xf64, #NV>) {{ c[i, j] = a[i, j]; }}"
    );
    // An n:m last level is an output (groups padded, overflow a run-time
    // error); one with levels below it is not.
    assert_eq!(errors(&src).len(), 0, "{:#?}", errors(&src));
    let above = "#NV_UP = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 4 : dense, i mod 4 : structured[2, 4], j : compressed) }>";
    let src = format!(
        "{above} fn f(a: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #NV_UP>) {{ c[i, j] = a[i, j]; }}"
    );
    let found = errors(&src);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].0.contains(
        "kernels cannot write sparse output `c`: level 1 of `#NV_UP` is `structured[2, 4]`, and \
         an output's n:m level must be its last level"
    ), "{found:#?}");
    let src = format!(
        "{encodings} fn f(a: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #D>) {{ c[i, j] = a[i, j]; }}"
    );
    let found = errors(&src);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].0.contains(
        "`#D` stores every level densely, so `c` is a dense output; declare it without an encoding, `c: &mut tensor<?x?xf64>`"
    ));
    let batch = "#B = #sparse_tensor.encoding<{ map = (i, j) -> (i : batch, j : compressed) }>";
    let src = format!(
        "{batch} fn f(a: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #B>) {{ c[i, j] = a[i, j]; }}"
    );
    let found = errors(&src);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].0.contains("level 0 of `#B` is `batch`"),
        "{found:#?}"
    );
    // Reading such encodings stays fine.
    model(&format!(
        "{encodings} fn f(a: &tensor<?x?xf64, #NV>, c: &mut tensor<?x?xf64>) {{ c[i, j] = a[i, j]; }}"
    ));
}

#[test]
fn a_transpose_between_csr_tensors_reads_a_reordered_copy() {
    // `c` (CSR, written as `c[j, i]`) wants `j` outside `i`, `a` the
    // opposite. A plain copy is a conversion into `c` (no extra
    // parameter); anything more reads `a` through a CSC-ordered copy.
    let k = "fn t(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[j, i] = a[i, j]; }";
    assert_eq!(error_count(k), 0);
    assert_eq!(kernel(k).params.len(), 2);
    let k = "fn t(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[j, i] = a[i, j] * 2.0; }";
    assert_eq!(error_count(k), 0);
    let def = kernel(k);
    let copy = &def.kernel.tensors[2];
    assert_eq!(copy.name, "a_reordered");
    let levels: Vec<(LevelFormat, usize)> = copy
        .levels
        .iter()
        .map(|(t, e)| (t.format, e.dim()))
        .collect();
    assert_eq!(
        levels,
        [(LevelFormat::Dense, 1), (LevelFormat::Compressed, 0)]
    );
    // With the CSC input no copy is needed.
    let k = "fn t(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSR>) { c[j, i] = a[i, j] * 2.0; }";
    assert_eq!(kernel(k).params.len(), 2);
}

#[test]
fn a_reduction_enclosing_more_than_the_last_level_reads_a_reordered_copy() {
    // `a` (CSR, read as `a[k, i]`) and `b` both store `k` first, so the
    // reduction would be outermost: neither insertion nor a one-level
    // workspace. Reading `a` as (i, k) gives Gustavson's order i, k, j.
    let k = "fn f(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[k, i] * b[k, j]; }";
    assert_eq!(error_count(k), 0);
    let def = kernel(k);
    let names: Vec<String> = def.params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["a", "b", "c", "a_reordered"]);
}
