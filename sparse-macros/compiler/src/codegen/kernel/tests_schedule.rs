//! Strategies chosen by the schedule and lowered by codegen: unrolled
//! walks (`#[unroll(n)]`) and the schedule's lines in the doc comment. The
//! snapshots are compiled and run against dense references by
//! `tests/tests/codegen_snapshots.rs`.

use super::tests::{has, snapshot, spmv, spmv_def, CSR, DCSR, LOOSE};

fn unrolled_spmv(encodings: &str, enc: &str, name: &'static str, factor: u32) -> String {
    let mut d = spmv_def(encodings, enc, name);
    d.unroll = Some(factor);
    d.generate()
}

#[test]
fn unroll_writes_the_row_walk_out_four_times_then_finishes_one_by_one() {
    let text = unrolled_spmv(CSR, "CSR", "spmv_csr_unroll4", 4);
    snapshot("spmv_csr_unroll4", &text);
    assert!(has(&text, "let mut __sk_a_u1 = __sk_a_lo1;"));
    assert!(has(&text, "while __sk_a_hi1 - __sk_a_u1 >= 4 {"));
    for k in 0..4 {
        assert!(
            has(&text, &format!("let __sk_a_p1 = __sk_a_u1 + {k};")),
            "{k}"
        );
    }
    assert!(has(&text, "__sk_a_u1 += 4;"));
    assert!(has(&text, "while __sk_a_u1 < __sk_a_hi1 {"));
    // The schedule is printed after the loop tree.
    assert!(has(
        &text,
        "/// schedule\n///   j: unrolled by 4 (statement 1), the rest of each range one at a time"
    ));
    // An unrolled walk reads its own range: no row cursor, in the code or
    // in the schedule.
    assert!(!has(&text, "__private::rows("));
    assert!(!has(&text, "row cursor"));
    // Without the attribute, the plain kernel: the rows through a cursor,
    // which its schedule says.
    let plain = spmv(CSR, "CSR", "spmv_csr_unroll4");
    assert!(!has(&plain, "__sk_a_u1") && !has(&plain, "unrolled"));
    assert!(has(
        &plain,
        "/// schedule\n///   i: rows of `a` level 1 through a row cursor, `y` through a slots \
         cursor (statement 1)"
    ));
}

#[test]
fn unroll_takes_loose_levels_and_the_inner_walk_of_dcsr() {
    let loose = unrolled_spmv(LOOSE, "LOOSE", "spmv_loose_unroll3", 3);
    snapshot("spmv_loose_unroll3", &loose);
    assert!(has(&loose, "while __sk_a_hi1 - __sk_a_u1 >= 3 {"));
    // DCSR: only the innermost walk (level 1) is unrolled, not the rows.
    let dcsr = unrolled_spmv(DCSR, "DCSR", "spmv_dcsr_unroll2", 2);
    assert!(has(&dcsr, "while __sk_a_hi1 - __sk_a_u1 >= 2 {"));
    assert!(!has(&dcsr, "__sk_a_u0"));
}

#[test]
fn unroll_without_a_qualifying_walk_says_why_in_the_docs() {
    // A dense matrix-vector product has no walk over stored entries.
    let mut d = super::tests::Def::new(CSR, "dense_mv");
    let a = d.dense("a", crate::model::ElemType::F64, &[None, None], false);
    let x = d.dense("x", crate::model::ElemType::F64, &[None], false);
    let y = d.dense("y", crate::model::ElemType::F64, &[None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(
        y,
        &[i],
        crate::sparsifier::Expr::at(a, &[i, j]) * crate::sparsifier::Expr::at(x, &[j]),
    );
    d.unroll = Some(4);
    let text = d.generate();
    assert!(has(
        &text,
        "statement 1: not unrolled: it has no innermost walk over stored entries"
    ));
}
