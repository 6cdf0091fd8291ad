//! Sum scopes (TACO's rule): where [`scope::place_sums`] puts each
//! reduction, the loop trees that evaluate nested sums, and those plans run
//! through the interpreter against a brute-force evaluation of the scoped
//! statement, in every format.

use super::interp::check;
use super::*;

/// A kernel with dense `y[i]`, `b[i]`, `c[i]`, `x[j]`, `z[k]`, scalar
/// `s`, `t`, and the matrices `w[i, j]`, `u[i, j]` and `v[i, k]` as given.
struct Fx {
    k: Kernel,
    y: TensorId,
    s: TensorId,
    t: TensorId,
    b: TensorId,
    c: TensorId,
    x: TensorId,
    z: TensorId,
    w: TensorId,
    u: TensorId,
    v: TensorId,
    i: LoopId,
    j: LoopId,
    kk: LoopId,
}

fn fx(w: TensorDesc, u: TensorDesc, v: TensorDesc) -> Fx {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let s = k.tensor(TensorDesc::scalar("s").output());
    let t = k.tensor(TensorDesc::scalar("t"));
    let b = k.tensor(TensorDesc::dense("b", 1));
    let c = k.tensor(TensorDesc::dense("c", 1));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let z = k.tensor(TensorDesc::dense("z", 1));
    let w = k.tensor(TensorDesc {
        name: "w".into(),
        ..w
    });
    let u = k.tensor(TensorDesc {
        name: "u".into(),
        ..u
    });
    let v = k.tensor(TensorDesc {
        name: "v".into(),
        ..v
    });
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    Fx {
        k,
        y,
        s,
        t,
        b,
        c,
        x,
        z,
        w,
        u,
        v,
        i,
        j,
        kk,
    }
}

fn shapes(n: &str) -> Vec<usize> {
    match n {
        "y" | "b" | "c" => vec![4],
        "x" => vec![5],
        "z" => vec![3],
        "w" | "u" => vec![4, 5],
        "v" => vec![4, 3],
        _ => vec![],
    }
}

fn scoped(k: &Kernel) -> String {
    let s = &k.stmts[0];
    format!("{}", k.show(&crate::sparsifier::scope::place_sums(k, s)))
}

#[test]
fn each_reduction_covers_the_smallest_subexpression_holding_its_uses() {
    let mut f = fx(csr("w"), csr("u"), csr("v"));
    let (i, j, kk) = (f.i, f.j, f.kk);
    let wx = || Expr::at(f.w, &[i, j]) * Expr::at(f.x, &[j]);
    let cases: Vec<(Expr, &str)> = vec![
        (wx() + Expr::at(f.b, &[i]), "sum(j, w[i, j] * x[j]) + b[i]"),
        (Expr::at(f.b, &[i]) + wx(), "b[i] + sum(j, w[i, j] * x[j])"),
        (
            wx() + Expr::at(f.b, &[i]) + Expr::lit("0.0"),
            "sum(j, w[i, j] * x[j]) + b[i] + 0.0",
        ),
        (
            (wx() + Expr::at(f.u, &[i, j]) * Expr::at(f.x, &[j])) + Expr::at(f.b, &[i]),
            "sum(j, w[i, j] * x[j] + u[i, j] * x[j]) + b[i]",
        ),
        (
            Expr::call("sqrt", vec![wx()]) * Expr::at(f.c, &[i]),
            "sqrt(sum(j, w[i, j] * x[j])) * c[i]",
        ),
        (
            wx() + Expr::at(f.v, &[i, kk]) * Expr::at(f.z, &[kk]),
            "sum(j, w[i, j] * x[j]) + sum(k, v[i, k] * z[k])",
        ),
        // Factors free of the summed index move inside: one loop nest.
        (wx() * Expr::lit("2.0"), "w[i, j] * x[j] * 2.0"),
        (-(wx() / Expr::at(f.c, &[i])), "-(w[i, j] * x[j] / c[i])"),
        // ... but not a factor that is itself a sum.
        (
            wx() * (Expr::at(f.v, &[i, kk]) * Expr::at(f.z, &[kk])),
            "sum(j, w[i, j] * x[j]) * sum(k, v[i, k] * z[k])",
        ),
        // A reduction used everywhere covers everything: implicit.
        (wx() + Expr::at(f.u, &[i, j]), "w[i, j] * x[j] + u[i, j]"),
    ];
    for (rhs, expected) in cases {
        f.k.stmts.clear();
        f.k.assign(f.y, &[i], rhs);
        assert_eq!(scoped(&f.k), expected);
    }
    // Nested scopes: `k` inside, `j` outside.
    f.k.stmts.clear();
    f.k.assign(
        f.y,
        &[i],
        Expr::at(f.w, &[i, j])
            * (Expr::at(f.u, &[j, kk]) * Expr::at(f.z, &[kk]) + Expr::at(f.x, &[j])),
    );
    assert_eq!(scoped(&f.k), "w[i, j] * (sum(k, u[j, k] * z[k]) + x[j])");
    // A scalar output.
    f.k.stmts.clear();
    f.k.assign(
        f.s,
        &[],
        Expr::at(f.b, &[i]) * Expr::at(f.c, &[i]) + Expr::at(f.t, &[]),
    );
    assert_eq!(scoped(&f.k), "sum(i, b[i] * c[i]) + t[]");
    // A closure naming the index is a use of it.
    let g = f.k.func_using("|v| j < i", 1, &[i, j]);
    f.k.stmts.clear();
    f.k.assign(
        f.y,
        &[i],
        Expr::Select(g, Box::new(Expr::at(f.w, &[i, j]))) + Expr::at(f.b, &[i]),
    );
    assert_eq!(scoped(&f.k), "sum(j, select(w[i, j], |v| j < i)) + b[i]");
}

#[test]
fn a_sum_plus_a_term_adds_the_term_once() {
    let mut f = fx(csr("w"), csr("u"), csr("v"));
    let (i, j) = (f.i, f.j);
    f.k.assign(
        f.y,
        &[i],
        Expr::at(f.w, &[i, j]) * Expr::at(f.x, &[j]) + Expr::at(f.b, &[i]),
    );
    assert_text(
        &plan_text(&f.k),
        "
y[i] = w[i, j] * x[j] + b[i]
scoped y[i] = sum(j, w[i, j] * x[j]) + b[i]
order i (parallel); summed inside: j
output y: dense, stored directly: every element is visited once
for i in 0..y.dim0  // parallel
  local r1 = 0
  iterate j in w.lvl1 compressed  // reduction
    r1 += w[i, j] * x[j]
  y[i] = r1 + b[i]
",
    );
}

#[test]
fn a_sum_whose_operand_stores_the_summed_index_first_splits_into_terms() {
    // A CSC `w` needs the loop over `j` outside the loop over `i`, so the
    // sum cannot be nested in a loop over rows: the dense output is
    // computed one term at a time.
    let mut f = fx(csc("w"), csr("u"), csr("v"));
    let (i, j) = (f.i, f.j);
    f.k.assign(
        f.y,
        &[i],
        Expr::at(f.w, &[i, j]) * Expr::at(f.x, &[j]) - Expr::at(f.b, &[i]),
    );
    let text = plan_text(&f.k);
    assert!(text.contains("part y[i] = w[i, j] * x[j]\n"), "{text}");
    assert!(text.contains("part y[i] += -b[i]\n"), "{text}");
    check(&f.k, &shapes, 8);
    // A sparse output cannot take a second statement's `+=`: a clear error.
    let mut k = Kernel::new();
    let c = k.tensor(sv("c").output());
    let w = k.tensor(csc("w"));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let b = k.tensor(sv("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(
        c,
        &[i],
        Expr::at(w, &[i, j]) * Expr::at(x, &[j]) + Expr::at(b, &[i]),
    );
    let text = plan_text(&k);
    assert!(text.contains("`w` is CSC (levels j, i)"), "{text}");
    assert!(
        text.contains("compute that sum into a separate output first"),
        "{text}"
    );
}

#[test]
fn nested_sums_match_a_brute_force_evaluation_in_every_format() {
    let formats = [csr, dcsr, coo, csc, dcsc];
    for w in formats {
        for v in [csr, dcsr, coo] {
            let f = fx(w("w"), csr("u"), v("v"));
            let (i, j, kk) = (f.i, f.j, f.kk);
            let wx = || Expr::at(f.w, &[i, j]) * Expr::at(f.x, &[j]);
            let vz = || Expr::at(f.v, &[i, kk]) * Expr::at(f.z, &[kk]);
            let rhss = vec![
                wx() + Expr::at(f.b, &[i]),
                Expr::at(f.b, &[i]) - wx() + Expr::lit("1.0"),
                wx() + vz(),
                Expr::call("abs", vec![wx()]) * Expr::at(f.c, &[i]),
                wx() * vz(),
                wx() * Expr::lit("2.0"),
            ];
            for rhs in rhss {
                for op in [AssignOp::Assign, AssignOp::AddAssign] {
                    let mut k = f.k.clone();
                    match op {
                        AssignOp::Assign => k.assign(f.y, &[i], rhs.clone()),
                        AssignOp::AddAssign => k.add_assign(f.y, &[i], rhs.clone()),
                    }
                    // A CSC/DCSC `w` stores `j` first: only kernels whose
                    // sum over `j` covers everything can run.
                    let plan = sparsify(&k);
                    if matches!(w("w").levels[0].1, LevelExpr::Dim(1)) && plan.is_err() {
                        continue;
                    }
                    check(&k, &shapes, 12);
                }
            }
        }
    }
    // A scalar output with a sum inside.
    let f = fx(csr("w"), csr("u"), csr("v"));
    let mut k = f.k.clone();
    k.assign(
        f.s,
        &[],
        Expr::at(f.b, &[f.i]) * Expr::at(f.c, &[f.i]) + Expr::at(f.t, &[]),
    );
    check(&k, &shapes, 6);
}

#[test]
fn a_sum_nested_in_a_product_against_its_operand_order_is_a_clear_error() {
    // `y[i] = w[i, j] * (v[j, k] * z[k] + x[j])` with `v` stored `k` first:
    // the sum over `k` runs once per `j`, which no split into terms fixes.
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let w = k.tensor(dcsr("w"));
    let v = k.tensor(csc("v"));
    let z = k.tensor(TensorDesc::dense("z", 1));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(
        y,
        &[i],
        Expr::at(w, &[i, j]) * (Expr::at(v, &[j, kk]) * Expr::at(z, &[kk]) + Expr::at(x, &[j])),
    );
    let text = plan_text(&k);
    assert!(text.contains("`v` is CSC (levels k, j)"), "{text}");
    assert!(
        text.contains("the loop over `k` must enclose the loop over `j`"),
        "{text}"
    );
}
