//! Iteration lattices in the style of MLIR's `MergerTest`: number of points,
//! their sparse level sets, expressions and order, with no loop tree.

use super::*;
use crate::sparsifier::merger::lattice;

/// Sparse vectors `a`, `b`, `c`, `d`, dense vectors `x`, `y`, all indexed by
/// `i`, plus an output `o` and a second index `j`.
struct Vectors {
    k: Kernel,
    i: LoopId,
    j: LoopId,
}

impl Vectors {
    fn new() -> Vectors {
        let mut k = Kernel::new();
        k.tensor(TensorDesc::dense("o", 1).output());
        for name in ["a", "b", "c", "d"] {
            k.tensor(sv(name));
        }
        for name in ["x", "y"] {
            k.tensor(TensorDesc::dense(name, 1));
        }
        let (i, j) = (k.index("i"), k.index("j"));
        Vectors { k, i, j }
    }
    /// `name[i]`.
    fn v(&self, name: &str) -> Expr {
        let t = self.k.tensors.iter().position(|t| t.name == name).unwrap();
        Expr::at(TensorId(t as u32), &[self.i])
    }
    /// The lattice of `e` for loop `i`, as text.
    fn lat(&self, e: &Expr) -> String {
        lattice(&self.k, e, self.i).text(&self.k)
    }
}

/// Every point comes before the points whose sparse set is a subset of its
/// own, and no two points have the same sparse set.
fn assert_exhaustion_order(l: &Lattice) {
    for (n, p) in l.points.iter().enumerate() {
        for q in &l.points[n + 1..] {
            assert_ne!(p.sparse, q.sparse);
            let p_in_q = p.sparse.iter().all(|s| q.sparse.contains(s));
            assert!(
                !p_in_q,
                "{:?} precedes its superset {:?}",
                p.sparse, q.sparse
            );
        }
    }
}

#[test]
fn product_is_one_conjunction_point() {
    let t = Vectors::new();
    let e = t.v("a") * t.v("b");
    assert_eq!(t.lat(&e), "{a.lvl0, b.lvl0}: a[i] * b[i]");
    let l = lattice(&t.k, &e, t.i);
    assert!(
        matches!(l.kind(), LoopKind::CoIterate { universal: false, ref spaces } if spaces.len() == 2)
    );
}

#[test]
fn sum_is_conjunction_then_left_then_right() {
    let t = Vectors::new();
    assert_eq!(
        t.lat(&(t.v("a") + t.v("b"))),
        "{a.lvl0, b.lvl0}: a[i] + b[i]\n{a.lvl0}: a[i]\n{b.lvl0}: b[i]"
    );
}

#[test]
fn difference_negates_the_right_only_point() {
    let t = Vectors::new();
    assert_eq!(
        t.lat(&(t.v("a") - t.v("b"))),
        "{a.lvl0, b.lvl0}: a[i] - b[i]\n{a.lvl0}: a[i]\n{b.lvl0}: -b[i]"
    );
}

#[test]
fn product_plus_vector_has_three_points() {
    let t = Vectors::new();
    assert_eq!(
        t.lat(&(t.v("a") * t.v("b") + t.v("c"))),
        "{a.lvl0, b.lvl0, c.lvl0}: a[i] * b[i] + c[i]\n{a.lvl0, b.lvl0}: a[i] * b[i]\n{c.lvl0}: c[i]"
    );
}

#[test]
fn product_of_sums_has_nine_points_in_exhaustion_order() {
    let t = Vectors::new();
    let e = (t.v("a") + t.v("b")) * (t.v("c") + t.v("d"));
    let l = lattice(&t.k, &e, t.i);
    assert_eq!(l.points.len(), 9);
    assert_exhaustion_order(&l);
    assert_eq!(l.points[0].sparse.len(), 4);
    assert_eq!(l.points[0].expr, e);
    // The points of exactly one level from each side come last.
    let last: Vec<usize> = l.points[5..].iter().map(|p| p.sparse.len()).collect();
    assert_eq!(last, [2, 2, 2, 2]);
}

#[test]
fn dense_operands_do_not_restrict_a_product() {
    let t = Vectors::new();
    let l = lattice(&t.k, &(t.v("a") * t.v("x")), t.i);
    assert_eq!(l.points.len(), 1);
    assert_eq!(l.points[0].dense.len(), 1);
    assert!(matches!(l.kind(), LoopKind::Iterate(tl) if tl.tensor == TensorId(1)));
}

#[test]
fn a_point_differing_only_by_dense_levels_is_dropped() {
    let t = Vectors::new();
    // {a, x}: a*x + a, {a}: a (same sparse set: dropped), {}: never made.
    let e = t.v("a") * t.v("x") + t.v("a");
    assert_eq!(t.lat(&e), "{a.lvl0}: a[i] * x[i] + a[i]");
}

#[test]
fn sparse_plus_dense_or_invariant_needs_the_whole_range() {
    let t = Vectors::new();
    let l = lattice(&t.k, &(t.v("a") + t.v("x")), t.i);
    assert_eq!(l.text(&t.k), "{a.lvl0}: a[i] + x[i]\n{}: x[i]");
    assert!(l.is_universal());
    assert!(matches!(
        l.kind(),
        LoopKind::CoIterate {
            universal: true,
            ..
        }
    ));
    let l = lattice(&t.k, &(t.v("a") + Expr::lit("1.0")), t.i);
    assert_eq!(l.text(&t.k), "{a.lvl0}: a[i] + 1.0\n{}: 1.0");
}

#[test]
fn values_not_depending_on_the_loop_are_invariant() {
    let t = Vectors::new();
    let xj = Expr::at(TensorId(5), &[t.j]);
    let e = t.v("a") * xj.clone() * Expr::Index(t.j).cast("f64");
    assert_eq!(t.lat(&e), "{a.lvl0}: a[i] * x[j] * j as f64");
    let l = lattice(&t.k, &(xj * Expr::lit("2.0")), t.i);
    assert_eq!(l.kind(), LoopKind::Dense);
}

#[test]
fn zero_preserving_calls_keep_sparsity_others_fill_the_range() {
    let t = Vectors::new();
    assert_eq!(
        t.lat(&Expr::call("sqrt", vec![t.v("a")])),
        "{a.lvl0}: sqrt(a[i])"
    );
    assert_eq!(
        t.lat(&Expr::call("exp", vec![t.v("a")])),
        "{a.lvl0}: exp(a[i])\n{}: exp(0)"
    );
    assert_eq!(
        t.lat(&Expr::call("max", vec![t.v("a"), t.v("b")])),
        "{a.lvl0, b.lvl0}: max(a[i], b[i])\n{a.lvl0}: max(a[i], 0)\n{b.lvl0}: max(0, b[i])"
    );
}

#[test]
fn negation_and_casts_map_points() {
    let t = Vectors::new();
    assert_eq!(
        t.lat(&(-(t.v("a") + t.v("b")).cast("f32"))),
        "{a.lvl0, b.lvl0}: -((a[i] + b[i]) as f32)\n{a.lvl0}: -(a[i] as f32)\n{b.lvl0}: -(b[i] as f32)"
    );
}

#[test]
fn covers_follows_sparse_subsets() {
    let t = Vectors::new();
    let l = lattice(&t.k, &(t.v("a") * t.v("b") + t.v("c")), t.i);
    let p = |n| LatPointId(n);
    assert!(l.covers(p(0), p(1)) && l.covers(p(0), p(2)));
    assert!(!l.covers(p(1), p(2)) && !l.covers(p(2), p(1)));
    assert!(!l.covers(p(0), p(9)));
}

#[test]
fn integer_operators_keep_the_sparsity_of_their_zeros() {
    let t = Vectors::new();
    let call = |name: &str, args: Vec<Expr>| Expr::call(name, args);
    // A shifted zero is zero whatever the amount; a zero amount is not.
    assert_eq!(
        t.lat(&call("shl", vec![t.v("a"), t.v("x")])),
        "{a.lvl0}: (a[i] << x[i])"
    );
    assert_eq!(
        t.lat(&call("shr", vec![t.v("a"), t.v("b")])),
        "{a.lvl0, b.lvl0}: (a[i] >> b[i])\n{a.lvl0}: (a[i] >> 0)"
    );
    assert_eq!(
        t.lat(&call("shl", vec![t.v("x"), t.v("a")])),
        "{a.lvl0}: (x[i] << a[i])\n{}: (x[i] << 0)"
    );
    // `&` is an intersection, `|` and `^` unions.
    assert_eq!(
        t.lat(&call("bitand", vec![t.v("a"), t.v("b")])),
        "{a.lvl0, b.lvl0}: (a[i] & b[i])"
    );
    for (name, op) in [("bitor", "|"), ("bitxor", "^")] {
        assert_eq!(
            t.lat(&call(name, vec![t.v("a"), t.v("b")])),
            format!("{{a.lvl0, b.lvl0}}: (a[i] {op} b[i])\n{{a.lvl0}}: a[i]\n{{b.lvl0}}: b[i]")
        );
    }
    // `!0` is -1: every coordinate.
    assert_eq!(
        t.lat(&call("bitnot", vec![t.v("a")])),
        "{a.lvl0}: !a[i]\n{}: !0"
    );
    // `clamp(0, lo, hi)` is not zero unless `lo` and `hi` are.
    assert_eq!(
        t.lat(&call("clamp", vec![t.v("a"), t.v("b"), t.v("c")]))
            .lines()
            .count(),
        7
    );
}
