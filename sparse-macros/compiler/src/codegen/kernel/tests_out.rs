//! Snapshot tests of kernels with sparse outputs: direct insertion and
//! access-pattern expansion (compiled and run by
//! `tests/tests/sparse_outputs/codegen.rs`).

use super::tests::{at, has, snapshot, Def, CSR, DCSR, SV};
use crate::model::ElemType::F64;
use crate::sparsifier::Expr;

#[test]
fn sparse_add_csr_inserts_in_row_order() {
    let mut d = Def::new(CSR, "add");
    d.doc = Some("C = A + B, all CSR");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.sparse("b", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    let text = d.generate();
    snapshot("sparse_add_csr", &text);
    assert!(has(&text, "output c: sparse, direct insertion"));
    assert!(has(
        &text,
        "pub fn add<__SkB0: ::sparse_core::__private::OutputBuffers<::core::primitive::u16, ::core::primitive::u8, ::core::primitive::f64,>,>"
    ));
    assert!(has(&text, "c: &mut CSROut<::core::primitive::f64, __SkB0>"));
    assert!(has(&text, "c.begin();"));
    // One segment holds every row of `c`, opened before the loop over
    // `i`; each row's entries go into slots reserved for both rows'
    // entries, asked of it before the merge over `j`; the row's rest of
    // either operand is copied in one step.
    let seg = at(&text, "let mut __sk_c_seg = c.segment([0usize; 2]);");
    assert!(seg < at(&text, "for __sk_i in 0..__sk_n_i {"));
    assert!(has(
        &text,
        "let mut __sk_c_row = __sk_c_seg.row_at([__sk_i, 0], 0usize.saturating_add(__sk_a_bhi1.saturating_sub(__sk_a_blo1)).saturating_add(__sk_b_bhi1.saturating_sub(__sk_b_blo1)),);"
    ));
    assert_eq!(text.matches(".segment(").count(), 1);
    // Validated inputs merged in order: the kernel vouches for the order
    // and range of every coordinate it writes.
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_a_v + __sk_b_v) };"
    ));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.extend_in_order(__sk_a_crd1.get(__sk_a_p1..__sk_a_hi1).unwrap_or_default(), __sk_a_val.get(__sk_a_p1..__sk_a_hi1).unwrap_or_default(),) };"
    ));
    assert!(!has(&text, "__sk_c_row.push("));
    assert!(has(
        &text,
        "j: its coordinates in order and in range by construction"
    ));
    assert!(!has(&text, "__sk_c_seg.push("));
    assert!(!has(&text, "c.insert("));
    assert!(has(&text, "c.finish(\"c\")?;"));
    // The output's levels are written by coordinates, never positioned.
    assert!(!has(&text, "__sk_c_p0"));
    assert!(!has(&text, "c.level("));
}

#[test]
fn sparse_vector_add_inserts_every_case() {
    let mut d = Def::new(SV, "vadd");
    let a = d.sparse("a", "SV", F64, &[None]);
    let b = d.sparse("b", "SV", F64, &[None]);
    let c = d.sparse_out("c", "SV", F64, &[None]);
    let i = d.index("i");
    d.k.assign(c, &[i], Expr::at(a, &[i]) + Expr::at(b, &[i]));
    let text = d.generate();
    snapshot("sparse_vector_add", &text);
    // One insert per case of the union (both, a only, b only) into the
    // row's slots, and the two exhaustion phases as bulk copies, in each
    // of the two copies of the merge: without the slot test when the row
    // holds its bound, with it otherwise.
    let flat: String = text.split_whitespace().collect();
    assert_eq!(flat.matches("if__sk_c_row.holds_bound()").count(), 1);
    assert_eq!(flat.matches("__sk_c_row.push_reserved(").count(), 3);
    assert_eq!(flat.matches("__sk_c_row.push_in_order(").count(), 3);
    assert_eq!(flat.matches("__sk_c_row.extend_in_order(").count(), 4);
    assert_eq!(flat.matches("__sk_c_seg.row(").count(), 1);
    assert_eq!(text.matches(".segment(").count(), 1);
    assert!(!has(&text, "fill("));
}

#[test]
fn scaling_keeps_the_pattern() {
    let mut d = Def::new(CSR, "scale");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    let text = d.generate();
    snapshot("sparse_scale", &text);
    // A walk of `a`'s row bounds the output row: its slots reserved once.
    assert!(has(
        &text,
        "let mut __sk_c_row = __sk_c_seg.row_at([__sk_i, 0], 0usize.saturating_add(__sk_a_bhi1.saturating_sub(__sk_a_blo1)),);"
    ));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_a_v * 2.0) };"
    ));
}

/// A stride-1 slice read in place (affine subscripts `j + a.offset1`): its
/// coordinates are shifted by a run-time offset, so nothing vouches for
/// them: every entry is checked.
#[test]
fn scaling_a_slice_checks_every_coordinate() {
    let enc = format!("{CSR} #CSR_U = #sparse_tensor.encoding<{{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense, j : compressed) }}>");
    let mut d = Def::new(&enc, "scale_slice");
    let a = d.sparse("a", "CSR_U", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    let offset = |l, dim: usize| crate::sparsifier::Affine {
        terms: vec![(l, 1)],
        constant: 0,
        slice: Some((a, dim)),
    };
    let read = Expr::Access(crate::sparsifier::Access {
        tensor: a,
        indices: vec![i, j],
        affine: vec![(0, offset(i, 0)), (1, offset(j, 1))],
    });
    d.k.assign(c, &[i, j], read * Expr::lit("2.0"));
    let text = d.generate();
    assert!(!has(&text, "push_in_order"), "{text}");
    assert!(!has(&text, "in order and in range by construction"));
    assert!(has(&text, ".push(") || has(&text, "c.insert("), "{text}");
}

#[test]
fn row_sums_reduce_in_a_local_then_insert_once() {
    let mut d = Def::new(&format!("{CSR} {SV}"), "row_sums");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "SV", F64, &[None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i], Expr::at(a, &[i, j]));
    let text = d.generate();
    // A sparse vector's one level is the last: its segment hangs below the
    // root, opened around the loop over `i`.
    assert!(has(&text, "let mut __sk_c_seg = c.segment([0]);"));
    assert!(has(&text, "__sk_c_seg.push(__sk_i, __sk_acc);"));
    assert_eq!(text.matches(".push(").count(), 1);
}

#[test]
fn spgemm_csr_expands_rows_into_a_workspace() {
    let mut d = Def::new(CSR, "spgemm");
    d.doc = Some("C = A B (Gustavson), all CSR");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.sparse("b", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, k]) * Expr::at(b, &[k, j]));
    let text = d.generate();
    snapshot("spgemm_csr", &text);
    assert!(has(
        &text,
        "output c: sparse, expanded into a workspace over c.lvl1"
    ));
    assert!(has(
        &text,
        "let ::core::result::Result::Ok(mut __sk_ws) = c.workspace(__sk_n_j) else"
    ));
    assert!(has(&text, "return c.finish(\"c\")"));
    assert!(has(&text, "__sk_ws.entry(__sk_j)"));
    assert!(has(&text, "*__sk_slot += __sk_a_v * __sk_b_v;"));
    // The workspace hands its count back before the row is compressed.
    assert!(has(
        &text,
        "::core::mem::drop(__sk_ws);\n            c.compress([__sk_i, 0]);"
    ));
    // Sized once before the loops, then borrowed once per row.
    assert_eq!(text.matches("c.workspace(").count(), 2);
}

#[test]
fn spgemm_dcsr_expands_below_stored_rows() {
    let mut d = Def::new(DCSR, "spgemm_dcsr");
    let a = d.sparse("a", "DCSR", F64, &[None, None]);
    let b = d.sparse("b", "DCSR", F64, &[None, None]);
    let c = d.sparse_out("c", "DCSR", F64, &[None, None]);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, k]) * Expr::at(b, &[k, j]));
    let text = d.generate();
    // The workspace is borrowed per stored row of `a` and compressed
    // under that row's coordinate.
    let walk = text
        .find("for (__sk_a_p0, __sk_i) in")
        .expect("a walk over stored rows");
    let expand = text.find("Ok(mut __sk_ws)").expect("an expansion");
    assert!(walk < expand);
    assert!(has(&text, "c.compress([__sk_i, 0]);"));
}

/// `c[j, i] = a[i, j]` with both CSR: `c` needs `j` outside `i`, `a` the
/// opposite, and the statement only copies `a`: a conversion of `a`, viewed
/// transposed (same levels, map renamed), into `c`'s own buffers.
#[test]
fn csr_transpose_is_a_conversion_into_the_output() {
    let mut d = Def::new(CSR, "transpose_csr");
    d.doc = Some("C = Aᵀ, CSR in and out");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[j, i], Expr::at(a, &[i, j]));
    let text = d.generate();
    assert!(has(&text, "::sparse_core::__private::convert_into("));
    assert!(has(&text, "[1, 0],"));
    assert!(!text.contains("insert"), "{text}");
    snapshot("transpose_csr", &text);
}
