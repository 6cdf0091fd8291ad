//! Loop-order conflicts resolved by reading inputs through reordered
//! copies (`reorder::resolve`): which input is copied, how the copy is
//! stored, and the plan the statement then gets.

use super::*;
use crate::sparsifier::reorder::{resolve, Reordering};

fn levels(d: &TensorDesc) -> Vec<(LevelType, usize)> {
    d.levels.iter().map(|&(t, e)| (t, e.dim())).collect()
}

#[test]
fn a_dcsr_transpose_is_a_conversion_into_the_output() {
    let mut k = Kernel::new();
    let c = k.tensor(dcsr("c").output());
    let a = k.tensor(dcsr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[j, i], Expr::at(a, &[i, j]));
    let (r, made) = resolve(&k);
    assert!(made.is_empty());
    assert_text(
        &plan_text(&r),
        "
c[j, i] = a[i, j]
order none
output c: sparse, converted from `a` (count, then scatter into the output's buffers): no loop nest walks both in storage order, and the statement only copies `a`
",
    );
    let plan = sparsify(&r).unwrap();
    let mut perm = [0u8; 8];
    perm[..2].copy_from_slice(&[1, 0]);
    assert_eq!(
        plan.stmts[0].output.strategy,
        OutputStrategy::Convert { source: a, perm }
    );
}

#[test]
fn a_scaled_dcsr_transpose_reads_a_dcsc_copy() {
    let mut k = Kernel::new();
    let c = k.tensor(dcsr("c").output());
    let a = k.tensor(dcsr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[j, i], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    assert!(sparsify(&k).is_err());
    let (r, made) = resolve(&k);
    assert_eq!(
        made,
        [Reordering {
            source: a,
            copy: TensorId(2)
        }]
    );
    assert_eq!(r.tensors[2].name, "a_reordered");
    assert_eq!(levels(&r.tensors[2]), [(C, 1), (C, 0)]);
    assert_text(
        &plan_text(&r),
        "
c[j, i] = a_reordered[i, j] * 2.0
order j (parallel), i (parallel)
output c: sparse, direct insertion: parallel loops j, i are outermost, in level order
iterate j in a_reordered.lvl0 compressed  // parallel
  iterate i in a_reordered.lvl1 compressed  // parallel
    insert c[j, i] = a_reordered[i, j] * 2.0
",
    );
}

#[test]
fn the_input_written_later_is_the_one_copied() {
    // `y[i, j] = a[i, j] + b[j, i]`, both CSR: `b` is read by columns.
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 2).output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[j, i]));
    let (r, made) = resolve(&k);
    assert_eq!(
        made,
        [Reordering {
            source: b,
            copy: TensorId(3)
        }]
    );
    // `b[j, i]` stored (i, j): dimension 1 first.
    assert_eq!(levels(&r.tensors[3]), [(D, 1), (C, 0)]);
    assert!(sparsify(&r).is_ok());
    assert_eq!(
        r.stmts[0].rhs,
        Expr::at(a, &[i, j]) + Expr::at(TensorId(3), &[j, i])
    );
}

#[test]
fn kernels_without_conflicts_and_block_kernels_are_left_alone() {
    let k = spmv(csc("a"), AssignOp::Assign);
    let (r, made) = resolve(&k);
    assert!(made.is_empty());
    assert_eq!(r, k);
    // A block operand puts the kernel in level space: no copies there.
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 2).output());
    let bsr = TensorDesc::sparse(
        "a",
        2,
        &[
            (D, LevelExpr::FloorDiv { dim: 0, divisor: 2 }),
            (C, LevelExpr::FloorDiv { dim: 1, divisor: 2 }),
            (D, LevelExpr::Mod { dim: 0, modulus: 2 }),
            (D, LevelExpr::Mod { dim: 1, modulus: 2 }),
        ],
    );
    let a = k.tensor(bsr);
    let b = k.tensor(csc("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i, j], Expr::at(a, &[i, j]) * Expr::at(b, &[i, j]));
    let (_, made) = resolve(&k);
    assert!(made.is_empty());
}

#[test]
fn statements_wanting_the_same_order_share_a_copy() {
    let mut k = Kernel::new();
    let c = k.tensor(csc("c").output());
    let y = k.tensor(TensorDesc::dense("y", 2).output());
    let a = k.tensor(csr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]) * Expr::lit("2.0"));
    k.assign(
        y,
        &[j, i],
        Expr::at(a, &[i, j]) + Expr::at(c, &[i, j]) * Expr::lit("0.0"),
    );
    let (r, made) = resolve(&k);
    // The first statement needs the copy; the second reads `c`, a sparse
    // output, which is its own error and is left as written.
    assert_eq!(made.len(), 1);
    assert_eq!(r.tensors.len(), 4);
}

#[test]
fn a_coo_copy_admits_repeated_rows_and_drops_nonordered() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let unordered = cnu().with(LevelProps::NONORDERED);
    let a = k.tensor(enc("a", &[unordered, S], &[0, 1]));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[j, i], -Expr::at(a, &[i, j]));
    let (r, made) = resolve(&k);
    assert_eq!(made.len(), 1);
    assert_eq!(levels(&r.tensors[2]), [(cnu(), 1), (S, 0)]);
    assert!(sparsify(&r).is_ok(), "{}", plan_text(&r));
}

#[test]
fn a_product_with_both_operands_transposed_copies_the_fewest() {
    // `c[i, j] = a[k, i] * b[j, k]` over CSR: a cycle k→i→j→k, broken by
    // copying one operand (`a`, as (i, k): Gustavson's order i, k, j).
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(c, &[i, j], Expr::at(a, &[kk, i]) * Expr::at(b, &[j, kk]));
    let (r, made) = resolve(&k);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(sparsify(&r).is_ok(), "{}", plan_text(&r));
    let _ = (a, b);
}

#[test]
fn a_copy_between_block_and_plain_encodings_is_a_conversion_in_statement_order() {
    // `y = b x` is walked block by block (level space); `c = a` (CSR into
    // BSR) is a conversion, kept in its place between the statements.
    let bsr = |name: &str| {
        TensorDesc::sparse(
            name,
            2,
            &[
                (D, LevelExpr::FloorDiv { dim: 0, divisor: 2 }),
                (C, LevelExpr::FloorDiv { dim: 1, divisor: 2 }),
                (D, LevelExpr::Mod { dim: 0, modulus: 2 }),
                (D, LevelExpr::Mod { dim: 1, modulus: 2 }),
            ],
        )
    };
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let c = k.tensor(bsr("c").output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(bsr("b"));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i], Expr::at(b, &[i, j]) * Expr::at(x, &[j]));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]));
    k.assign(y, &[i], Expr::at(b, &[i, j]) * Expr::at(x, &[j]));
    let plan = sparsify(&k).unwrap_or_else(|e| panic!("{e:?}"));
    let strategies: Vec<bool> = plan
        .stmts
        .iter()
        .map(|p| matches!(p.output.strategy, OutputStrategy::Convert { .. }))
        .collect();
    assert_eq!(strategies, [false, true, false]);
    let (level_kernel, _) = plan.level_space.as_ref().expect("planned in level space");
    let copy = &level_kernel.stmts[plan.stmts[1].stmt];
    assert_eq!(copy, &k.stmts[1]);
    assert!(plan
        .text(level_kernel)
        .contains("output c: sparse, converted from `a`"));
}

/// `[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)`.
fn ell(name: &str) -> TensorDesc {
    TensorDesc::sparse(
        name,
        2,
        &[
            (D, LevelExpr::Counting { dim: 0, slices: 3 }),
            (D, LevelExpr::Dim(0)),
            (C, LevelExpr::Dim(1)),
        ],
    )
}

#[test]
fn an_ell_operand_is_read_through_a_csr_copy() {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let a = k.tensor(ell("a"));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i], Expr::at(a, &[i, j]) * Expr::at(x, &[j]));
    assert!(sparsify(&k).is_err(), "a counting level is not walked");
    let (r, made) = resolve(&k);
    assert_eq!(
        made,
        [Reordering {
            source: a,
            copy: TensorId(3)
        }]
    );
    assert_eq!(r.tensors[3].name, "a_reordered");
    assert_eq!(levels(&r.tensors[3]), [(D, 0), (C, 1)]);
    assert!(sparsify(&r).is_ok());
}

#[test]
fn an_ell_copied_into_a_sparse_output_stays_a_conversion() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(ell("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]));
    let (_, made) = resolve(&k);
    assert!(made.is_empty());
}

/// `(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4)`.
fn nv24(name: &str) -> TensorDesc {
    TensorDesc::sparse(
        name,
        2,
        &[
            (D, LevelExpr::Dim(0)),
            (D, LevelExpr::FloorDiv { dim: 1, divisor: 4 }),
            (
                LevelType::new(LevelFormat::Structured { n: 2, m: 4 }),
                LevelExpr::Mod { dim: 1, modulus: 4 },
            ),
        ],
    )
}

#[test]
fn a_csc_copied_into_2_4_is_read_through_a_csr_copy() {
    let mut k = Kernel::new();
    let c = k.tensor(nv24("c").output());
    let a = k.tensor(csc("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]));
    let (r, made) = resolve(&k);
    assert_eq!(
        made,
        [Reordering {
            source: a,
            copy: TensorId(2)
        }]
    );
    assert_eq!(levels(&r.tensors[2]), [(D, 0), (C, 1)]);
    // A CSR source streams into 2:4 as it is.
    let mut k = Kernel::new();
    let c = k.tensor(nv24("c").output());
    let a = k.tensor(csr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]));
    assert!(resolve(&k).1.is_empty());
}
