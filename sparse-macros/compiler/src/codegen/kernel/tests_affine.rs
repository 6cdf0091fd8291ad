//! Snapshot tests of kernels with affine subscripts (compiled and run by
//! `tests/tests/kernels/codegen_snapshots.rs`).

use super::tests::{has, snapshot, Def};
use crate::model::ElemType::F64;
use crate::sparsifier::{Access, Affine, Expr, LoopId, TensorId};

const ENCODINGS: &str = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>";

/// `t[x + y, z + w]`.
fn shifted(t: TensorId, (x, y): (LoopId, LoopId), (z, w): (LoopId, LoopId)) -> Expr {
    let sum = |a: LoopId, b: LoopId| Affine {
        terms: vec![(a, 1), (b, 1)],
        constant: 0,
        slice: None,
    };
    Expr::Access(Access {
        tensor: t,
        indices: vec![y, w],
        affine: vec![(0, sum(x, y)), (1, sum(z, w))],
    })
}

#[test]
fn conv2d_csr_walks_a_window_of_each_row() {
    let mut d = Def::new(ENCODINGS, "conv2d_csr");
    d.doc = Some("o = a (*) f, a CSR, valid 2-D convolution");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let f = d.dense("f", F64, &[None, None], false);
    let o = d.dense("o", F64, &[None, None], true);
    let (i, j, k, l) = (d.index("i"), d.index("j"), d.index("k"), d.index("l"));
    let rhs = shifted(a, (i, k), (j, l)) * Expr::at(f, &[k, l]);
    d.k.assign(o, &[i, j], rhs);
    let text = d.generate();
    snapshot("conv2d_csr", &text);
    assert!(has(&text, "/// o[i, j] = a[i + k, j + l] * f[k, l]"));
    assert!(has(
        &text,
        "/// order i (parallel), j (parallel), k (reduction), l (reduction)"
    ));
    assert!(has(
        &text,
        "///     iterate l in a.lvl1 compressed at j + l  // reduction"
    ));
    // Row `i + k`, its columns from `j` on, up to `j + len(l)`.
    assert!(has(&text, "let __sk_a_p0 = __sk_i.wrapping_add(__sk_k);"));
    assert!(has(
        &text,
        "let __sk_a_off1: ::core::primitive::usize = __sk_j;"
    ));
    assert!(has(&text, "__sk_a_off1.wrapping_add(__sk_n_l)"));
    assert!(has(&text, "let __sk_l = __sk_l.wrapping_sub(__sk_a_off1);"));
    assert!(has(&text, "::sparse_core::__private::subscript_range("));
}

#[test]
fn conv2d_with_both_sparse_intersects_the_window_with_the_filter() {
    let mut d = Def::new(ENCODINGS, "conv2d_dcsr_csr");
    d.doc = Some("o = a (*) f, a DCSR, f CSR");
    let a = d.sparse("a", "DCSR", F64, &[None, None]);
    let f = d.sparse("f", "CSR", F64, &[None, None]);
    let o = d.dense("o", F64, &[None, None], true);
    let (i, j, k, l) = (d.index("i"), d.index("j"), d.index("k"), d.index("l"));
    let rhs = shifted(a, (i, k), (j, l)) * Expr::at(f, &[k, l]);
    d.k.assign(o, &[i, j], rhs);
    let text = d.generate();
    snapshot("conv2d_dcsr_csr", &text);
    assert!(has(
        &text,
        "///   iterate k in a.lvl0 compressed at i + k  // reduction"
    ));
    assert!(has(
        &text,
        "coiterate l in a.lvl1 compressed at j + l, f.lvl1 compressed"
    ));
    // Both coordinates compared relative to the window: `l` from `a`
    // is its column minus `j`.
    assert!(has(&text, ".wrapping_sub(__sk_a_off1);"));
}

/// `y[i] = a[i + a.offset0, j + a.offset1] * x[j]`: a stride-1 slice of
/// a CSR tensor walked in place (the rewrite
/// `sparsifier::reorder::read_slices_through_copies` makes).
#[test]
fn sliced_spmv_is_walked_in_place() {
    let enc = "#CSR_U = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense, j : compressed) }>";
    let mut d = Def::new(enc, "spmv_slice");
    d.doc = Some("y = A x, A a stride-1 slice of a CSR tensor");
    let a = d.sparse("a", "CSR_U", F64, &[None, None]);
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
    snapshot("spmv_slice", &text);
    assert!(has(
        &text,
        "///     iterate j in a.lvl1 compressed at j + a.offset1  // reduction"
    ));
    // The offsets, bound once after the checks; the whole tensor's storage.
    assert!(has(
        &text,
        "let __sk_a_slice_off0: ::core::primitive::usize = a.offsets()[0];"
    ));
    assert!(has(&text, "a.tensor().level(1).coordinates()"));
    assert!(has(&text, "a.tensor().values()"));
    // Row `offset0 + i`; its window of columns `offset1 .. offset1 + n_j`,
    // read relative to its start.
    assert!(has(
        &text,
        "let __sk_a_p0 = __sk_i.wrapping_add(__sk_a_slice_off0);"
    ));
    assert!(has(
        &text,
        "let __sk_a_off1: ::core::primitive::usize = __sk_a_slice_off1;"
    ));
    assert!(has(&text, "__sk_a_off1.wrapping_add(__sk_n_j)"));
    assert!(has(&text, "let __sk_j = __sk_j.wrapping_sub(__sk_a_off1);"));
    // No range check: the view guarantees `offset + size <= n`.
    assert!(!has(&text, "subscript_range"));
}
