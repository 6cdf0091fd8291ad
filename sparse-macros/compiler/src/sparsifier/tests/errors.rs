//! Errors are values that name the tensors involved and say what to change;
//! no input makes the sparsifier panic.

use super::*;

fn errors(k: &Kernel) -> Vec<SparsifyError> {
    sparsify(k).expect_err("the kernel should be rejected")
}

/// `x[i, j] = a[i, j] + b[i, j]` with the given encodings for `a` and `b`.
fn add2(a: TensorDesc, b: TensorDesc) -> Kernel {
    let mut k = Kernel::new();
    let x = k.tensor(TensorDesc::dense("x", 2).output());
    let a = k.tensor(a);
    let b = k.tensor(b);
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(x, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    k
}

#[test]
fn csr_plus_csc_names_both_tensors_and_the_fix() {
    let e = errors(&add2(csr("a"), csc("b")));
    assert_eq!(e.len(), 1);
    let SparsifyError::OrderConflict { tensors, .. } = &e[0] else {
        panic!("{e:?}");
    };
    assert_eq!(tensors, &["a", "b"]);
    assert_eq!(
        e[0].to_string(),
        "no loop order visits both `a` and `b` in storage order: `a` is CSR (levels i, j) \
         but `b` is CSC (levels j, i); use a CSR encoding for `b`, or pass a copy in that order made with `sparse_core::convert::convert`"
    );
}

#[test]
fn dcsc_against_dcsr_suggests_dcsr() {
    let e = errors(&add2(dcsr("a"), dcsc("b")));
    assert!(
        e[0].to_string()
            .contains("use a DCSR encoding for `b`, or pass a copy"),
        "{}",
        e[0]
    );
}

#[test]
fn an_unnamed_format_gets_its_map_spelled_out() {
    let mut k = Kernel::new();
    let x = k.tensor(TensorDesc::dense("x", 3).output());
    let a = k.tensor(csf3("a"));
    let b = k.tensor(enc("b", &[D, C, C], &[0, 2, 1]));
    let (i, j, l) = (k.index("i"), k.index("j"), k.index("l"));
    k.assign(
        x,
        &[i, j, l],
        Expr::at(a, &[i, j, l]) * Expr::at(b, &[i, j, l]),
    );
    let e = errors(&k);
    assert!(
        e[0].to_string().ends_with(
            "`a` has levels (i, j, l) but `b` has levels (i, l, j); \
             store `b` with `map = (d0, d1, d2) -> (d0 : dense, d1 : compressed, d2 : compressed)`, \
             or pass a copy in that order made with `sparse_core::convert::convert`"
        ),
        "{}",
        e[0]
    );
}

#[test]
fn a_cycle_through_three_operands_names_all_of_them() {
    let mut k = Kernel::new();
    let x = k.tensor(TensorDesc::dense("x", 3).output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let c = k.tensor(csr("c"));
    let (i, j, l) = (k.index("i"), k.index("j"), k.index("l"));
    let rhs = Expr::at(a, &[i, j]) * Expr::at(b, &[j, l]) * Expr::at(c, &[l, i]);
    k.assign(x, &[i, j, l], rhs);
    let e = errors(&k);
    let SparsifyError::OrderConflict {
        tensors, message, ..
    } = &e[0]
    else {
        panic!("{e:?}");
    };
    assert_eq!(tensors, &["a", "b", "c"]);
    assert!(message.contains("`c` is CSR (levels l, i)"), "{message}");
}

#[test]
fn a_sparse_output_needing_more_than_one_workspace_level_is_rejected() {
    // c[i, j] = a[k, i] * b[k, j]: k must enclose both i and j.
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(c, &[i, j], Expr::at(a, &[kk, i]) * Expr::at(b, &[kk, j]));
    let e = errors(&k);
    assert!(
        matches!(&e[0], SparsifyError::SparseOutputOrder { tensor, .. } if tensor == "c"),
        "{e:?}"
    );
    assert!(e[0].to_string().contains("loop order k, i, j"), "{}", e[0]);
}

#[test]
fn every_statement_and_every_problem_is_reported() {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let s = k.tensor(sv("s"));
    let blocked = TensorDesc::sparse(
        "bsr",
        2,
        &[
            (C, crate::vocab::LevelExpr::FloorDiv { dim: 0, divisor: 2 }),
            (C, crate::vocab::LevelExpr::Dim(1)),
        ],
    );
    let bsr = k.tensor(blocked);
    let (i, j, z) = (k.index("i"), k.index("j"), k.index("z"));
    // 0: wrong rank and a repeated index.
    k.assign(y, &[i, j], Expr::at(a, &[i, i]));
    // 1: += into a sparse output, and a sparse divisor.
    k.add_assign(c, &[i, j], Expr::at(a, &[i, j]) / Expr::at(s, &[j]));
    // 2: a block level without its `mod` level (a map demapping cannot
    // walk), and an index that indexes nothing.
    k.assign(y, &[i], Expr::at(bsr, &[i, j]) * Expr::Index(z));
    let e = errors(&k);
    let kinds: Vec<&str> = e
        .iter()
        .map(|e| match e {
            SparsifyError::WrongRank { .. } => "rank",
            SparsifyError::RepeatedIndex { .. } => "repeated",
            SparsifyError::SparseOutputAccumulate { .. } => "accumulate",
            SparsifyError::SparseDivisor { .. } => "divisor",
            SparsifyError::UnsupportedLevel { .. } => "level",
            SparsifyError::UnboundedIndex { .. } => "unbounded",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["rank", "repeated", "accumulate", "divisor", "level"],
        "{e:?}"
    );
    assert!(e[1]
        .to_string()
        .contains("`a[i, i]` uses `i` for two dimensions"));
    assert!(e[4].to_string().contains("level 0 of `bsr`"));
}

#[test]
fn an_index_used_only_as_a_value_has_no_range() {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let a = k.tensor(sv("a"));
    let (i, z) = (k.index("i"), k.index("z"));
    k.assign(y, &[i], Expr::at(a, &[i]) * Expr::Index(z).cast("f64"));
    let e = errors(&k);
    assert_eq!(
        e,
        [SparsifyError::UnboundedIndex {
            index: "z".to_string()
        }]
    );
}

#[test]
fn reading_an_input_through_the_output_or_twice_is_checked() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(c, &[i, j]) * Expr::at(a, &[i, j]));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::at(a, &[j, i]));
    let e = errors(&k);
    // `c = c * a` is an in-place update, refused because `a` is sparse.
    assert!(
        matches!(&e[0], SparsifyError::InPlaceUpdate { tensor, reason } if tensor == "c" && reason.contains("`a` is sparse"))
    );
    assert!(matches!(&e[1], SparsifyError::InconsistentAccess { tensor } if tensor == "a"));
    // Reading the output at other coordinates is no update.
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(c, &[j, i]) * Expr::lit("2.0"));
    let e = errors(&k);
    assert!(
        matches!(&e[0], SparsifyError::InPlaceUpdate { tensor, reason } if tensor == "c" && reason.contains("other coordinates"))
    );
    // A dense tensor may be read with two index orders: it is random access.
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 2).output());
    let d = k.tensor(TensorDesc::dense("d", 2));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i, j], Expr::at(d, &[i, j]) + Expr::at(d, &[j, i]));
    assert!(sparsify(&k).is_ok());
}

#[test]
fn ids_outside_the_kernel_and_bad_maps_are_errors_not_panics() {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let i = k.index("i");
    k.assign(
        y,
        &[i],
        Expr::at(TensorId(7), &[i]) + Expr::Index(LoopId(9)),
    );
    k.assign(TensorId(8), &[], Expr::lit("1"));
    let bad = k.tensor(enc("bad", &[D, C], &[0, 0]));
    k.assign(y, &[i], Expr::at(bad, &[i, i]));
    let e = errors(&k);
    assert!(e.contains(&SparsifyError::UnknownTensor { stmt: 0, id: 7 }));
    assert!(e.contains(&SparsifyError::UnknownIndex { stmt: 0, id: 9 }));
    assert!(e.contains(&SparsifyError::UnknownTensor { stmt: 1, id: 8 }));
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 2).output());
    let bad = k.tensor(enc("bad", &[D, C], &[1, 1]));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i, j], Expr::at(bad, &[i, j]));
    let input = k.tensor(TensorDesc::dense("input", 1));
    k.assign(input, &[i], Expr::lit("1.0"));
    assert_eq!(
        errors(&k),
        [
            SparsifyError::NotAPermutation {
                tensor: "bad".to_string()
            },
            SparsifyError::NotAnOutput {
                tensor: "input".to_string()
            }
        ]
    );
}

/// `x[i, j] = t0[i, j] + t1[i, j] + ...` over `n` DCSR matrices.
fn sum_of(n: usize) -> Kernel {
    let mut k = Kernel::new();
    let x = k.tensor(TensorDesc::dense("x", 2).output());
    let (i, j) = (k.index("i"), k.index("j"));
    let mut rhs: Option<Expr> = None;
    for t in 0..n {
        let t = k.tensor(dcsr(&format!("t{t}")));
        let term = Expr::at(t, &[i, j]);
        rhs = Some(match rhs {
            None => term,
            Some(r) => r + term,
        });
    }
    k.assign(x, &[i, j], rhs.unwrap());
    k
}

#[test]
fn co_iteration_too_large_to_generate_is_an_error() {
    let e = errors(&sum_of(9));
    assert!(
        e[0].to_string()
            .starts_with("this statement reads 9 sparse tensors; at most 8"),
        "{}",
        e[0]
    );
    let e = errors(&sum_of(8));
    assert!(
        e[0].to_string()
            .starts_with("this statement needs more than 4096 co-iteration cases"),
        "{}",
        e[0]
    );
    // Three matrices stay well inside the budget.
    let plan = sparsify(&sum_of(3)).unwrap();
    assert_eq!(plan.stmts[0].lattices[0].points.len(), 7);
}
