//! Levels walked where their relaxed properties would change the result:
//! a `nonordered` level in a merge, and a `nonunique` level whose
//! duplicates are visited one entry at a time. The COO forms whose
//! duplicates codegen groups stay accepted.

use super::*;
use crate::vocab::LevelProps;

fn unordered(t: LevelType) -> LevelType {
    t.with(LevelProps::NONORDERED)
}

/// `compressed(nonunique), compressed`: duplicate rows, each its own entry.
fn nuc(name: &str) -> TensorDesc {
    enc(name, &[cnu(), C], &[0, 1])
}

/// `dense, compressed(nonordered)`: CSR with unsorted rows.
fn unordered_csr(name: &str) -> TensorDesc {
    enc(name, &[D, unordered(C)], &[0, 1])
}

fn only_error(k: &Kernel) -> SparsifyError {
    let e = sparsify(k).expect_err("the kernel should be rejected");
    assert_eq!(e.len(), 1, "{e:?}");
    e[0].clone()
}

/// `c[i] = a[i] <op> b[i]` over sparse vectors.
fn vec2(a: TensorDesc, b: TensorDesc, mul: bool) -> Kernel {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let (a, b) = (k.tensor(a), k.tensor(b));
    let i = k.index("i");
    let (x, y) = (Expr::at(a, &[i]), Expr::at(b, &[i]));
    k.assign(c, &[i], if mul { x * y } else { x + y });
    k
}

/// `out[lhs] (= or +=) a[i, j] * factor` for a matrix `a`; `factor` 1.0
/// when `None`, `a[i, j]` itself when `square`.
fn reduce(a: TensorDesc, lhs: &[usize], op: AssignOp, square: bool) -> Kernel {
    let mut k = Kernel::new();
    let out = k.tensor(TensorDesc::dense("out", lhs.len()).output());
    let a = k.tensor(a);
    let ij = [k.index("i"), k.index("j")];
    let idx: Vec<LoopId> = lhs.iter().map(|&d| ij[d]).collect();
    let x = Expr::at(a, &ij);
    let rhs = if square {
        x.clone() * x
    } else {
        x * Expr::lit("2.0")
    };
    match op {
        AssignOp::Assign => k.assign(out, &idx, rhs),
        AssignOp::AddAssign => k.add_assign(out, &idx, rhs),
    }
    k
}

#[test]
fn merging_a_nonordered_level_names_the_tensor_level_and_fix() {
    for mul in [false, true] {
        let e = only_error(&vec2(enc("a", &[unordered(C)], &[0]), sv("b"), mul));
        assert_eq!(
            e,
            SparsifyError::NonorderedCoIteration {
                tensor: "a".into(),
                level: 0,
                index: "i".into(),
                reason: "the loop over it merges it with `b`".into(),
            }
        );
        assert_eq!(
            e.to_string(),
            "level 0 of `a` (over `i`) is `nonordered`, but the loop over it merges it with `b`, \
             which needs sorted coordinates; use an ordered encoding for `a` (drop `nonordered`) \
             or convert it first"
        );
    }
}

#[test]
fn a_nonordered_level_merged_with_the_whole_range_is_rejected() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let a = k.tensor(unordered_csr("a"));
    let x = k.tensor(TensorDesc::dense("x", 2));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(x, &[i, j]));
    let SparsifyError::NonorderedCoIteration {
        tensor,
        level,
        index,
        reason,
    } = only_error(&k)
    else {
        panic!("wrong error");
    };
    assert_eq!((tensor.as_str(), level, index.as_str()), ("a", 1, "j"));
    assert_eq!(
        reason,
        "the loop over it merges it with the whole range of `j`"
    );
}

#[test]
fn a_nonordered_level_cannot_feed_a_sparse_output_in_level_order() {
    let mut k = Kernel::new();
    let c = k.tensor(sv("c").output());
    let a = k.tensor(enc("a", &[unordered(C)], &[0]));
    let i = k.index("i");
    k.assign(c, &[i], Expr::at(a, &[i]) * Expr::lit("2.0"));
    let e = only_error(&k);
    assert!(
        matches!(&e, SparsifyError::NonorderedCoIteration { tensor, .. } if tensor == "a"),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("appends to sparse output `c`"),
        "{e}"
    );
}

#[test]
fn a_single_walk_over_a_nonordered_level_is_kept() {
    for op in [AssignOp::Assign, AssignOp::AddAssign] {
        let plan = sparsify(&spmv(unordered_csr("a"), op)).expect("SpMV on unsorted rows");
        assert!(matches!(
            &plan.stmts[0].tree[..],
            [.., Node::For { body, .. }] if body.iter().any(|n| matches!(n, Node::Iterate { .. }))
        ));
    }
    // A sum over a nonordered vector, and a scaled copy into a dense one.
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let a = k.tensor(enc("a", &[unordered(C)], &[0]));
    let i = k.index("i");
    k.assign(s, &[], Expr::at(a, &[i]));
    k.assign(c, &[i], Expr::at(a, &[i]) * Expr::lit("3.0"));
    assert!(sparsify(&k).is_ok());
}

#[test]
fn an_overwritten_output_under_ungrouped_duplicates_is_rejected() {
    // `c[i, j] = a[i, j]` and `y[i] = a[i, j]`: each duplicate row stores
    // its own part over the previous one.
    for lhs in [&[0, 1][..], &[0]] {
        let e = only_error(&reduce(nuc("a"), lhs, AssignOp::Assign, false));
        let SparsifyError::UngroupedDuplicates {
            tensor,
            level,
            index,
            nonordered,
            ..
        } = &e
        else {
            panic!("{e:?}");
        };
        assert_eq!((tensor.as_str(), *level, index.as_str()), ("a", 0, "i"));
        assert!(!nonordered);
        assert_eq!(
            e.to_string(),
            "level 0 of `a` is nonunique but its duplicates of one `i` are not grouped: each is \
             visited on its own, and the statement overwrites `out` on each visit (`=`), so the \
             last duplicate wins; a nonunique level must be the last level or be followed by \
             singleton levels (COO); use `compressed(nonunique), singleton` or a unique level"
        );
    }
}

#[test]
fn ungrouped_duplicates_whose_parts_add_up_are_kept() {
    // The parts of a duplicate row are added: into `+=` outputs, into the
    // reduction local, into a dense output zeroed under a reduction.
    for (lhs, op) in [
        (&[0, 1][..], AssignOp::AddAssign),
        (&[0], AssignOp::AddAssign),
        (&[1], AssignOp::Assign),
        (&[], AssignOp::Assign),
        (&[], AssignOp::AddAssign),
    ] {
        let k = reduce(nuc("a"), lhs, op, false);
        assert!(sparsify(&k).is_ok(), "{lhs:?} {op:?}: {}", plan_text(&k));
    }
    assert!(sparsify(&spmv(nuc("a"), AssignOp::AddAssign)).is_ok());
}

#[test]
fn a_statement_not_linear_in_ungrouped_duplicates_is_rejected() {
    // (a1 + a2)^2 is not a1^2 + a2^2.
    let e = only_error(&reduce(nuc("a"), &[], AssignOp::AddAssign, true));
    assert!(e.to_string().contains("not linear in `a`"), "{e}");
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let a = k.tensor(nuc("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    // `sum(i, j, sqrt(a))`: without the explicit sum, `sqrt(a[i, j])`
    // means the square root of the sum, which is linear inside it.
    k.assign(
        s,
        &[],
        Expr::Sum(
            vec![i, j],
            Box::new(Expr::Call("sqrt".into(), vec![Expr::at(a, &[i, j])])),
        ),
    );
    assert!(matches!(
        only_error(&k),
        SparsifyError::UngroupedDuplicates { .. }
    ));
}

#[test]
fn merging_ungrouped_duplicates_is_rejected() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let (a, b) = (k.tensor(nuc("a")), k.tensor(dcsr("b")));
    let (i, j) = (k.index("i"), k.index("j"));
    k.add_assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::at(b, &[i, j]));
    let e = only_error(&k);
    assert!(
        e.to_string()
            .contains("the loop over `i` merges it with `b`"),
        "{e}"
    );
}

#[test]
fn a_nonordered_nonunique_last_level_splits_its_duplicates() {
    let a = enc("a", &[unordered(cnu())], &[0]);
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let a = k.tensor(a);
    let i = k.index("i");
    k.assign(c, &[i], Expr::at(a, &[i]));
    let e = only_error(&k);
    assert!(
        matches!(
            e,
            SparsifyError::UngroupedDuplicates {
                nonordered: true,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().contains(
            "followed by singleton levels (COO), and be ordered so its duplicates are adjacent; use"
        ),
        "{e}"
    );
    // Summed, the parts add up.
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let a = k.tensor(enc("a", &[unordered(cnu())], &[0]));
    let i = k.index("i");
    k.assign(s, &[], Expr::at(a, &[i]));
    assert!(sparsify(&k).is_ok());
}

#[test]
fn coo_forms_that_group_their_duplicates_are_accepted() {
    let nu_s = S.with(LevelProps::NONUNIQUE);
    for a in [
        coo("a"),
        enc("a", &[cnu(), nu_s], &[0, 1]),
        enc("a", &[D, cnu()], &[0, 1]),
        enc("a", &[cnu(), S], &[1, 0]),
    ] {
        for (lhs, op) in [(&[0, 1][..], AssignOp::Assign), (&[0], AssignOp::Assign)] {
            let k = reduce(a.clone(), lhs, op, true);
            assert!(sparsify(&k).is_ok(), "{a:?}: {}", plan_text(&k));
        }
        // Merged with another operand too.
        let mut k = Kernel::new();
        let c = k.tensor(TensorDesc::dense("c", 2).output());
        let (a, b) = (k.tensor(a.clone()), k.tensor(TensorDesc::dense("b", 2)));
        let (i, j) = (k.index("i"), k.index("j"));
        k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
        assert!(sparsify(&k).is_ok());
    }
    // A last-level nonunique vector merged with a sorted one.
    assert!(sparsify(&vec2(enc("a", &[cnu()], &[0]), sv("b"), true)).is_ok());
}
