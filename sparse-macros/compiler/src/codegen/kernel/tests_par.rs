//! `#[parallel]` kernels: the outer loop as chunks (`parallel.rs`). The
//! snapshots are compiled and run against the sequential kernels and dense
//! references by `tests/tests/parallel.rs` (feature `rayon`).

use super::tests::{at, has, snapshot, spmv, spmv_def, Def, BSR, COO, CSC, CSF, CSR, DCSR, LOOSE};
use crate::model::ElemType::F64;
use crate::sparsifier::Expr;

fn parallel_spmv(encodings: &str, enc: &str, name: &'static str) -> String {
    let mut d = spmv_def(encodings, enc, name);
    d.parallel = true;
    d.generate()
}

#[test]
fn spmv_csr_runs_its_rows_in_chunks_balanced_by_entries() {
    let text = parallel_spmv(CSR, "CSR", "spmv_csr_par");
    snapshot("spmv_csr_par", &text);
    assert!(has(&text, "::sparse_core::__private::require_rayon!();"));
    assert!(has(
        &text,
        "::sparse_core::__private::par::dense(__sk_y_data, 1usize, __sk_n_i, \
         ::core::option::Option::Some(__sk_a_pos1),"
    ));
    // Each chunk reads its rows through a row cursor from its first row
    // and writes its part of `y` through a slots cursor, counting its rows
    // down, as the sequential kernel does for all rows.
    assert!(has(
        &text,
        "::sparse_core::__private::rows_values_from(__sk_a_pos1, __sk_a_crd1, __sk_a_val, \
         __sk_i_row0,)"
    ));
    assert!(has(&text, "::sparse_core::__private::slots(__sk_y_data)"));
    assert!(has(
        &text,
        "let mut __sk_left_i: ::core::primitive::usize = __sk_i_hi - __sk_i_row0;"
    ));
    assert!(has(&text, "__sk_acc += __sk_a_v * __sk_x_v;"));
    assert!(has(
        &text,
        "the loop over `i` runs in chunks of rows of `y`, in parallel"
    ));
    // Without the attribute, the tokens are the sequential kernel's.
    let seq = spmv(CSR, "CSR", "spmv_csr_par");
    assert!(!has(&seq, "par::") && !has(&seq, "require_rayon") && !has(&seq, "parallel`"));
}

#[test]
fn spmv_dcsr_runs_chunks_of_stored_rows() {
    let text = parallel_spmv(DCSR, "DCSR", "spmv_dcsr_par");
    snapshot("spmv_dcsr_par", &text);
    assert!(has(&text, "::sparse_core::__private::par::compressed("));
    assert!(has(
        &text,
        "::sparse_core::__private::par::Coordinates { crd: __sk_a_crd0, stride: 1, offset: 0, }"
    ));
    assert!(has(&text, "(__sk_a_lo0, __sk_a_hi0),"));
    // `y` is zeroed first (rows DCSR does not store): each chunk zeroes its
    // own rows, in parallel, not the caller before the loop.
    assert!(has(
        &text,
        "__sk_y_data: &mut [::core::primitive::f64]| { __sk_y_data.fill(0.0_f64);"
    ));
    assert_eq!(text.matches(".fill(").count(), 1);
    assert!(has(&text, "::core::option::Option::Some(__sk_a_pos1)"));
    assert!(has(&text, "slot(__sk_y_data, __sk_i - __sk_i_row0)"));
}

#[test]
fn spmv_coo_cuts_between_row_segments() {
    let text = parallel_spmv(COO, "COO", "spmv_coo_par");
    snapshot("spmv_coo_par", &text);
    // AoS tuples: the row coordinate is slot 0 of 2; no positions below.
    assert!(has(
        &text,
        "::sparse_core::__private::par::Coordinates { crd: __sk_a_crd0, stride: 2, offset: 0, }"
    ));
    assert!(has(
        &text,
        "::core::option::Option::None::<&[::core::primitive::usize]>"
    ));
}

#[test]
fn spmv_loose_balances_by_rows() {
    let text = parallel_spmv(LOOSE, "LOOSE", "spmv_loose_par");
    assert!(has(&text, "::sparse_core::__private::par::dense("));
    assert!(has(
        &text,
        "::core::option::Option::None::<&[::core::primitive::usize]>"
    ));
}

#[test]
fn spmm_chunks_own_whole_rows_of_the_output() {
    let mut d = Def::new(CSR, "spmm_par");
    d.parallel = true;
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.dense("b", F64, &[None, Some(4)], false);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, k]) * Expr::at(b, &[k, j]));
    let text = d.generate();
    snapshot("spmm_par", &text);
    assert!(has(&text, "par::dense(__sk_c_data, __sk_n_j, __sk_n_i,"));
    assert!(has(&text, "(__sk_i - __sk_i_row0) * __sk_n_j + __sk_j"));
    // `b` is read as before.
    assert!(has(&text, "__sk_k * 4 + __sk_j"));
}

#[test]
fn loops_that_are_not_parallel_outermost_stay_sequential_and_say_why() {
    // CSC: the outer loop `j` is a reduction.
    let text = parallel_spmv(CSC, "CSC", "spmv_csc_par");
    assert!(!has(&text, "par::"));
    assert!(has(&text, "::sparse_core::__private::require_rayon!();"));
    assert!(has(
        &text,
        "runs on one thread: its outer loop `j` is a reduction."
    ));
    // A scalar output.
    let mut d = Def::new(CSR, "sum_par");
    d.parallel = true;
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let s = d.dense("s", F64, &[], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(s, &[], Expr::at(a, &[i, j]));
    let text = d.generate();
    assert!(!has(&text, "par::"));
    assert!(has(&text, "runs on one thread: its output `s`"));
}

#[test]
fn ttv_over_csf_runs_chunks_of_its_stored_outer_slices() {
    let mut d = Def::new(CSF, "ttv_par");
    d.parallel = true;
    let t = d.sparse("t", "CSF", F64, &[None, None, None]);
    let v = d.dense("v", F64, &[None], false);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(t, &[i, j, k]) * Expr::at(v, &[k]));
    let text = d.generate();
    assert!(has(
        &text,
        "::sparse_core::__private::par::compressed(__sk_c_data, __sk_n_j, __sk_n_i,"
    ));
    assert!(has(&text, "(__sk_i - __sk_i_row0) * __sk_n_j + __sk_j"));
    assert!(has(
        &text,
        "the loop over `i` runs in chunks of rows of `c`, in parallel"
    ));
}

// ---- sparse outputs written per row ----------------------------------

/// The chunk closure of a sparse output: its rows' output replaces `c`.
const SPARSE_CHUNK: &str = "|__sk_i_row0: ::core::primitive::usize, __sk_i_hi: \
     ::core::primitive::usize, c, | -> ::core::result::Result<(), \
     ::sparse_core::__private::KernelError> {";

#[test]
fn sparse_add_into_csr_inserts_each_chunk_into_its_own_rows() {
    let mut d = Def::new(CSR, "add_csr_par");
    d.parallel = true;
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.sparse("b", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    let text = d.generate();
    snapshot("sparse_add_csr_par", &text);
    assert!(has(&text, "::sparse_core::__private::require_rayon!();"));
    // The output is started before the chunks and finished after them;
    // in between, the chunks run into outputs of their own.
    let begin = at(&text, "c.begin();");
    let chunks = at(
        &text,
        "::sparse_core::__private::par::sparse_dense(c, __sk_n_i, \
         ::core::option::Option::Some(__sk_a_pos1),",
    );
    let finish = at(&text, "c.finish(\"c\")?;");
    assert!(begin < chunks && chunks < finish);
    assert!(has(&text, SPARSE_CHUNK));
    assert!(has(&text, "for __sk_i in __sk_i_row0..__sk_i_hi {"));
    // One segment per chunk, opened before its rows; rows are inserted
    // relative to the chunk's first row; the columns and the values as in
    // the sequential kernel.
    let seg = at(&text, "let mut __sk_c_seg = c.segment([0usize; 2]);");
    assert!(seg < at(&text, "for __sk_i in __sk_i_row0..__sk_i_hi {"));
    assert!(has(&text, "__sk_c_seg.row_at([(__sk_i - __sk_i_row0), 0],"));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_a_v + __sk_b_v) };"
    ));
    assert!(has(
        &text,
        "::core::result::Result::Ok(()) }, )?; c.finish(\"c\")?;"
    ));
    assert!(has(
        &text,
        "the loop over `i` runs in chunks of rows of `c`, in parallel (each chunk inserts its \
         rows into an output of its own; the chunks are joined in row order)."
    ));
}

#[test]
fn spgemm_chunks_expand_into_their_own_workspaces() {
    let mut d = Def::new(CSR, "spgemm_csr_par");
    d.parallel = true;
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.sparse("b", "CSR", F64, &[None, None]);
    let c = d.sparse_out("c", "CSR", F64, &[None, None]);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, k]) * Expr::at(b, &[k, j]));
    let text = d.generate();
    snapshot("spgemm_csr_par", &text);
    // The output's workspace is sized before the chunks (the same capacity
    // error as the sequential kernel); inside, `c` is the chunk's output,
    // whose workspace each row borrows and compresses.
    let setup = at(
        &text,
        "let ::core::result::Result::Ok(_) = c.workspace(__sk_n_j) else",
    );
    let chunks = at(&text, "par::sparse_dense(c,");
    let expand = at(
        &text,
        "let ::core::result::Result::Ok(mut __sk_ws) = c.workspace(__sk_n_j) else",
    );
    assert!(setup < chunks && chunks < expand);
    assert!(has(&text, "c.compress([(__sk_i - __sk_i_row0), 0]);"));
    assert!(has(&text, "return c.finish(\"c\")"));
}

#[test]
fn scaling_dcsr_runs_chunks_of_stored_rows_into_dcsr() {
    let mut d = Def::new(DCSR, "scale_dcsr_par");
    d.parallel = true;
    let a = d.sparse("a", "DCSR", F64, &[None, None]);
    let c = d.sparse_out("c", "DCSR", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    let text = d.generate();
    snapshot("sparse_scale_dcsr_par", &text);
    assert!(has(
        &text,
        "::sparse_core::__private::par::sparse_compressed(c, __sk_n_i,"
    ));
    assert!(has(
        &text,
        "::sparse_core::__private::par::Coordinates { crd: __sk_a_crd0, stride: 1, offset: 0, }"
    ));
    assert!(has(
        &text,
        "|__sk_a_lo0: ::core::primitive::usize, __sk_a_hi0: ::core::primitive::usize, \
         __sk_i_row0: ::core::primitive::usize, c, |"
    ));
    assert!(has(&text, "c.segment([(__sk_i - __sk_i_row0), 0]);"));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_a_v * 2.0) };"
    ));
}

#[test]
fn sparse_outputs_not_stored_by_rows_stay_sequential_and_say_why() {
    // CSC output: its level 0 holds the columns.
    let mut d = Def::new(&format!("{CSR} {CSC}"), "scale_csc_par");
    d.parallel = true;
    let a = d.sparse("a", "CSC", F64, &[None, None]);
    let c = d.sparse_out("c", "CSC", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    let text = d.generate();
    assert!(!has(&text, "par::"), "{text}");
    assert!(has(&text, "runs on one thread:"));
    // COO output: a singleton column level.
    let mut d = Def::new(COO, "scale_coo_par");
    d.parallel = true;
    let a = d.sparse("a", "COO", F64, &[None, None]);
    let c = d.sparse_out("c", "COO", F64, &[None, None]);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    let text = d.generate();
    assert!(!has(&text, "par::"));
    assert!(has(
        &text,
        "its sparse output `c` is not a matrix stored by rows with a compressed, unique and \
         ordered column level (CSR or DCSR), which chunks of rows can write."
    ));
}

/// `#[parallel]` SpMV over a stride-1 slice walked in place: the rows of a
/// sliced CSR still run in chunks (the loop variable is the slice's row,
/// balanced by iterations: the positions start at the slice's offset); a
/// sliced DCSR walks its rows through a window, shifted from the output's
/// rows: it runs in chunks of rows, each narrowing the window to the
/// coordinates of its rows.
#[test]
fn sliced_operands_walked_in_place_run_in_chunks_of_rows() {
    use crate::sparsifier::{Access, Affine, LoopId};
    for (enc, levels, dense_rows) in [("CSR_U", "dense", true), ("DCSR_U", "compressed", false)] {
        let encoding = format!(
            "#{enc} = #sparse_tensor.encoding<{{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : {levels}, j : compressed) }}>"
        );
        let mut d = Def::new(&encoding, "spmv_slice_par");
        d.parallel = true;
        let a = d.sparse("a", enc, F64, &[None, None]);
        let x = d.dense("x", F64, &[None], false);
        let y = d.dense("y", F64, &[None], true);
        let (i, j) = (d.index("i"), d.index("j"));
        let offset = |l: LoopId, dim: usize| Affine {
            terms: vec![(l, 1)],
            constant: 0,
            slice: Some((a, dim)),
        };
        let read = Expr::Access(Access {
            tensor: a,
            indices: vec![i, j],
            affine: vec![(0, offset(i, 0)), (1, offset(j, 1))],
        });
        d.k.assign(y, &[i], read * Expr::at(x, &[j]));
        let text = d.generate();
        assert!(has(
            &text,
            "::sparse_core::__private::par::dense(__sk_y_data, 1usize, __sk_n_i, \
             ::core::option::Option::None::<&[::core::primitive::usize]>,"
        ));
        if dense_rows {
            assert!(has(&text, "__sk_i.wrapping_add(__sk_a_slice_off0)"));
        } else {
            // The window of the slice, then its part that is the chunk's
            // rows (relative to the window's start).
            let window = at(
                &text,
                "let __sk_a_off0: ::core::primitive::usize = __sk_a_slice_off0;",
            );
            let narrow = at(
                &text,
                "let __sk_a_lo0 = ::sparse_core::__private::lower_bound(__sk_a_crd0, \
                 (__sk_a_lo0, __sk_a_hi0), __sk_a_off0.wrapping_add(__sk_i_row0), (1, 0),);",
            );
            assert!(window < narrow);
            assert!(has(&text, "__sk_a_off0.wrapping_add(__sk_i_hi), (1, 0),);"));
            assert!(has(&text, "slot(__sk_y_data, __sk_i - __sk_i_row0)"));
        }
    }
}

// ---- strategies composed with the chunks -----------------------------

/// DCSR + DCSR into a dense matrix: the outer loop merges two compressed
/// levels 0. It runs in chunks of rows (`par::dense`, balanced by rows),
/// each narrowing both levels to the coordinates of its rows by binary
/// search before merging them as the sequential kernel does.
#[test]
fn a_merged_outer_loop_runs_in_chunks_of_rows() {
    let mut d = Def::new(DCSR, "add_dcsr_dense_par");
    d.parallel = true;
    let a = d.sparse("a", "DCSR", F64, &[None, None]);
    let b = d.sparse("b", "DCSR", F64, &[None, None]);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    let text = d.generate();
    snapshot("add_dcsr_dense_par", &text);
    assert!(has(
        &text,
        "::sparse_core::__private::par::dense(__sk_c_data, __sk_n_j, __sk_n_i, \
         ::core::option::Option::None::<&[::core::primitive::usize]>,"
    ));
    for t in ["a", "b"] {
        let merge = at(&text, &format!("let mut __sk_{t}_p0 = __sk_{t}_lo0;"));
        let narrow = at(
            &text,
            &format!(
                "let __sk_{t}_lo0 = ::sparse_core::__private::lower_bound(__sk_{t}_crd0, \
                 (__sk_{t}_lo0, __sk_{t}_hi0), __sk_i_row0, (1, 0),);"
            ),
        );
        assert!(narrow < merge, "{t}: narrowed before the merge");
        assert!(has(
            &text,
            &format!("(__sk_{t}_lo0, __sk_{t}_hi0), __sk_i_hi, (1, 0),);")
        ));
    }
    assert!(has(&text, "(__sk_i - __sk_i_row0) * __sk_n_j + __sk_j"));
    assert!(has(
        &text,
        "the loop over `i` runs in chunks of rows of `c`, in parallel"
    ));
}

/// A merge with the whole range (`a + b + 0.5` visits every row): the
/// range's cursor starts at the chunk's first row and ends at its last.
#[test]
fn a_merge_with_the_whole_range_covers_the_chunks_rows() {
    let mut d = Def::new(DCSR, "shift_dcsr_dense_par");
    d.parallel = true;
    let a = d.sparse("a", "DCSR", F64, &[None, None]);
    let b = d.sparse("b", "DCSR", F64, &[None, None]);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    let sum = Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]) + Expr::lit("0.5");
    d.k.assign(c, &[i, j], sum);
    let text = d.generate();
    assert!(has(
        &text,
        "let mut __sk_u_i: ::core::primitive::usize = __sk_i_row0;"
    ));
    assert!(has(&text, "__sk_u_i < __sk_i_hi"));
    assert!(has(&text, "for __sk_i in __sk_u_i..__sk_i_hi {"));
    assert!(!has(&text, "__sk_u_i < __sk_n_i"));
}

/// SpMV over BSR: the outer loop over block rows runs in chunks; a block
/// row's rows of `y` are contiguous (2 per block row), so each chunk owns
/// `2 * (hi - row0)` elements (balanced by the blocks of its block rows), and the written-out inner loops are the
/// sequential kernel's.
#[test]
fn spmv_bsr_splits_its_block_rows() {
    let text = parallel_spmv(BSR, "BSR", "spmv_bsr_par");
    snapshot("spmv_bsr_par", &text);
    assert!(has(
        &text,
        "::sparse_core::__private::par::dense(__sk_y_data, 2, __sk_n_i__blk, \
         ::core::option::Option::Some(__sk_a_pos1),"
    ));
    assert!(has(
        &text,
        "(__sk_i__blk - __sk_i__blk_row0) * 2 + __sk_i__in"
    ));
    assert!(has(
        &text,
        "the loop over `i__blk` runs in chunks of rows of `y`, in parallel"
    ));
}
