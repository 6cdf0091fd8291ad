//! Semiring operations through the front end and the sparsifier: the loop
//! trees that implement each lattice shape of seed 000's examples, pinned
//! as text (reviewed by hand: which cases exist, which are empty, which
//! loops visit whole ranges).

use super::kernels::kernel;
use crate::sparsifier::sparsify;

fn plan_text(src: &str) -> String {
    let def = kernel(src);
    let plan = sparsify(&def.kernel).expect("the sparsifier accepts the kernel");
    plan.text(&def.kernel)
}

fn check(src: &str, expected: &str) {
    let got = plan_text(src);
    assert_eq!(got.trim_end(), expected.trim_end(), "\n{got}");
}

#[test]
fn intersection_of_binary_with_none_sides() {
    check(
        "fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi8, #SV>) { c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none); }",
        "\
c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = none, right = none)
order i (parallel)
output c: sparse, direct insertion: parallel loops i are outermost, in level order
coiterate i in a.lvl0 compressed, b.lvl0 compressed  // parallel, intersection
  while a.lvl0, b.lvl0
    case a.lvl0, b.lvl0
      insert c[i] = (|x, y| (x == y) as i8)(a[i], b[i])
",
    );
}

#[test]
fn set_difference_keeps_the_overlap_case_to_exclude_it() {
    check(
        "fn f(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xi32, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none); }",
        "\
c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none)
order i (parallel), j (parallel)
output c: sparse, direct insertion: parallel loops i, j are outermost, in level order
for i in 0..c.dim0  // parallel
  coiterate j in a.lvl1 compressed, b.lvl1 compressed  // parallel, union
    while a.lvl1, b.lvl1
      case a.lvl1, b.lvl1
      case a.lvl1, _
        insert c[i, j] = a[i, j]
    while a.lvl1
      case a.lvl1
        insert c[i, j] = a[i, j]
",
    );
}

#[test]
fn structural_inversion_walks_the_complement() {
    check(
        "fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64, #SV>) { c[i] = unary(a[i], present = none, absent = || 1); }",
        "\
c[i] = unary(a[i], present = none, absent = || 1)
order i (parallel)
output c: sparse, direct insertion: parallel loops i are outermost, in level order
coiterate i in a.lvl0 compressed, all 0..c.dim0  // parallel, union
  while a.lvl0, all
    case a.lvl0
    case _
      insert c[i] = (|| 1)()
  while all
    case all
      insert c[i] = (|| 1)()
",
    );
}

#[test]
fn custom_reduce_folds_present_values_only() {
    // MLIR's `reduce` folds the stored entries only: rows DCSR does not
    // store keep the identity (the output is filled with it first), and
    // the loops walk stored coordinates. Folding implicit zeros is spelled
    // `unary(a[i, j], present = identity, absent = || 0.0)`.
    check(
        "fn f(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) { x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v); }",
        "\
x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v)
order i (parallel), j (reduction)
output x: dense, zeroed first: sparse loops skip elements
zero x
iterate i in a.lvl0 compressed  // parallel
  local r = 1.0
  iterate j in a.lvl1 compressed  // reduction
    r = (|acc, v| acc * v)(r, a[i, j])
  x[i] = r
",
    );
}

#[test]
fn select_filters_a_single_walk() {
    check(
        "fn f(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = select(a[i, j], |v| v >= 4.0); }",
        "\
c[i, j] = select(a[i, j], |v| v >= 4.0)
order i (parallel), j (parallel)
output c: sparse, direct insertion: parallel loops i, j are outermost, in level order
for i in 0..c.dim0  // parallel
  iterate j in a.lvl1 compressed  // parallel
    insert c[i, j] = select(a[i, j], |v| v >= 4.0)
",
    );
}

mod diagnostics {
    use crate::tests::kernel_diagnostics::{assert_error_at, error_count};

    fn vec2(body: &str) -> String {
        format!(
            "fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {{ {body} }}"
        )
    }

    #[test]
    fn closure_arity_is_checked_per_region() {
        let k = vec2("c[i] = binary(a[i], b[i], overlap = |x| x, left = identity, right = none);");
        assert_error_at(
            &k,
            "|x| x",
            0,
            "`overlap` takes 2 parameter(s), `|x, y|`: the values of both operands, found 1",
        );
        let k = vec2("c[i] = unary(a[i], present = |x, y| x, absent = none);");
        assert_error_at(&k, "|x, y|", 0, "`present` takes 1 parameter(s)");
        let k = vec2("c[i] = select(a[i], |x, y| x > y);");
        assert_error_at(&k, "|x, y|", 0, "`predicate` takes 1 parameter(s)");
    }

    #[test]
    fn absent_has_no_argument() {
        let k = vec2("c[i] = unary(a[i], present = |x| x, absent = |x| x);");
        assert_error_at(&k, "|x| x", 1, "the `absent` region has no parameter");
        let k = vec2("c[i] = unary(a[i], present = |x| x, absent = || x + 1.0);");
        assert_error_at(
            &k,
            "x + 1.0",
            0,
            "`x` is the parameter of `present`, not available in `absent`",
        );
    }

    #[test]
    fn a_semiring_result_may_only_be_the_whole_right_hand_side() {
        let k = vec2("c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = identity) * 2.0;");
        assert_error_at(&k, "binary", 0, "the result of `binary` may only be the whole right-hand side of a statement or the argument of `reduce`");
        let k = vec2("c[i] = a[i] + unary(b[i], present = identity, absent = none);");
        assert_error_at(&k, "unary", 0, "the result of `unary` may only be");
        let k = vec2("c[i] = binary(select(a[i], |v| v > 0.0), b[i], overlap = none, left = identity, right = identity);");
        assert_error_at(&k, "select", 0, "the result of `select` may only be");
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) { x[i] = reduce(a[i, j], identity = 0.0, |s, v| s + v) + 1.0; }";
        assert_error_at(
            k,
            "reduce",
            0,
            "`reduce` may only be the whole right-hand side",
        );
    }

    #[test]
    fn regions_are_named_once_each_and_all_given() {
        let k = vec2(
            "c[i] = binary(a[i], b[i], overlap = |x, y| x + y, lefft = identity, right = none);",
        );
        assert_error_at(&k, "lefft", 0, "unknown argument `lefft`: `binary` takes `overlap`, `left`, `right`; did you mean `left`?");
        let k = vec2("c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = none, left = none, right = none);");
        assert_error_at(&k, "left", 1, "`left` is given twice");
        let k = vec2("c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = none);");
        assert_error_at(&k, "binary", 0, "`binary` needs its `right = ...` region");
        let k = vec2("c[i] = binary(a[i], b[i], overlap = identity, left = none, right = none);");
        assert_error_at(&k, "identity", 0, "`overlap` cannot be `identity`");
        let k = vec2("c[i] = binary(a[i], overlap = none, left = none, right = none);");
        assert_error_at(
            &k,
            "binary",
            0,
            "`binary` takes 2 operand(s) before its regions, found 1",
        );
    }

    #[test]
    fn a_bare_identity_or_none_is_told_a_region_the_operation_has() {
        let k = vec2("c[i] = unary(a[i], identity, absent = none);");
        assert_error_at(
            &k,
            "identity",
            0,
            "name the region `identity` is for, e.g. `present = identity`; `unary` takes `present`, `absent`",
        );
        let k = vec2("c[i] = binary(a[i], b[i], none, left = identity, right = none);");
        assert_error_at(
            &k,
            "none",
            0,
            "name the region `none` is for, e.g. `overlap = none`; `binary` takes `overlap`, `left`, `right`",
        );
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) { x[i] = reduce(a[i, j], identity, |p, v| p * v); }";
        assert_error_at(
            k,
            "identity",
            0,
            "`identity` is not an argument of `reduce`: it takes its operand, `identity = <value>`",
        );
        let k = vec2("c[i] = select(a[i], none, |v| v > 1.0);");
        assert_error_at(
            &k,
            "none",
            0,
            "`none` is not an argument of `select`: it takes its operand and one predicate closure",
        );
    }

    #[test]
    fn an_async_closure_is_read_as_a_closure_and_refused() {
        let k = vec2("c[i] = unary(a[i], present = async |x| x, absent = none);");
        assert_error_at(&k, "async", 0, "closures of a kernel cannot be `async`");
        assert_eq!(error_count(&k), 1);
    }

    #[test]
    fn identity_needs_the_output_type() {
        let k = "fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi8, #SV>) { c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = identity, right = none); }";
        assert_error_at(k, "identity", 0, "`left = identity` passes `a[i]` (`f64`) through unchanged, but the output holds `i8`; convert it: `left = |x| x as i8`");
        let k = "fn f(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi32, #SV>) { c[i] = select(a[i], |v| v > 1.0); }";
        assert_error_at(
            k,
            "select",
            0,
            "`select` passes its operand's `f64` values through, but the output holds `i32`",
        );
    }

    #[test]
    fn reduce_rules() {
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) { x[i] += reduce(a[i, j], identity = 1.0, |p, v| p * v); }";
        assert_error_at(
            k,
            "+=",
            0,
            "`reduce` computes the whole value of `x[i]`; use `=`",
        );
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?x?xf64>) { x[i, j] = reduce(a[i, j], identity = 1.0, |p, v| p * v); }";
        assert_error_at(k, "reduce", 0, "`reduce` folds over the index variables that appear on the right but not in `x[i, j]`, and there are none");
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) { x[i] = reduce(a[i, j], |p, v| p * v); }";
        assert_error_at(k, "reduce", 0, "`reduce` needs `identity = <value>`");
        let k = "fn f(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) { x[i] = reduce(a[i, j], identity = 1.0, |p| p); }";
        assert_error_at(k, "|p|", 0, "`combiner` takes 2 parameter(s)");
        assert_eq!(error_count(k), 1);
    }

    #[test]
    fn closures_are_only_allowed_in_semiring_operations() {
        let k = vec2("c[i] = a[i] + (|x| x)(b[i]);");
        assert_error_at(
            &k,
            "|x|",
            0,
            "closures outside `binary`, `unary`, `select` and `reduce` are not supported",
        );
    }
}

#[test]
fn summed_rows_into_a_sparse_output_insert_only_produced_values() {
    // A row whose entries the predicate all drops produces no value, so
    // nothing is inserted for it (a plain sum would insert every row).
    // Without `sum(j, ..)` the sum would cover `a[i, j]` only (the smallest
    // subexpression holding every use of `j`), and select the row sums.
    check(
        "fn f(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) { x[i] = sum(j, select(a[i, j], |v| v > 0.0)); }",
        "\
x[i] = sum(j, select(a[i, j], |v| v > 0.0))
order i (parallel), j (reduction)
output x: sparse, direct insertion: parallel loops i are outermost, in level order
iterate i in a.lvl0 compressed  // parallel
  local r = 0, produced = false
  iterate j in a.lvl1 compressed  // reduction
    r += select(a[i, j], |v| v > 0.0), produced = true
  insert x[i] = r if produced
",
    );
    let plain = plan_text(
        "fn f(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) { x[i] = a[i, j]; }",
    );
    assert!(plain.contains("insert x[i] = r\n"), "{plain}");
    assert!(!plain.contains("produced"), "{plain}");
}

#[test]
fn custom_reduce_into_a_sparse_output_under_an_outer_reduction_goes_through_the_workspace() {
    // Min-plus SpGEMM: `k` encloses `j`, so each row is gathered in the
    // workspace, each slot starting from the identity on its first touch.
    let text = plan_text(
        "fn f(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { \
         c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y, left = none, right = none), \
         identity = f64::INFINITY, |acc, v| min(acc, v)); }",
    );
    assert!(
        text.contains("output c: sparse, expanded into a workspace over c.lvl1"),
        "{text}"
    );
    assert!(
        text.contains("w[j] = (|acc, v| min(acc, v))(w[j] or f64:: INFINITY, (|x, y| x + y)(a[i, k], b[k, j]))"),
        "{text}"
    );
    // Row products of a CSC matrix: the loop over columns encloses the
    // loop over rows, so the whole vector is the workspace.
    let text = plan_text(
        "fn f(a: &tensor<?x?xf64, #CSC>, x: &mut tensor<?xf64, #SV>) { \
         x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v); }",
    );
    assert!(
        text.contains("output x: sparse, expanded into a workspace over x.lvl0"),
        "{text}"
    );
    assert!(!text.contains("local r"), "{text}");
}

#[test]
fn a_diagonal_read_walks_the_row_and_keeps_one_entry() {
    check(
        "fn f(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }",
        "\
y[i] = sum(i__diag1, (if (i__diag1 == i) { a[i, i__diag1] } else { 0 }))
order i (parallel), i__diag1 (reduction)
output y: dense, stored directly: every element is visited once
for i in 0..y.dim0  // parallel
  local r = 0
  iterate i__diag1 in a.lvl1 compressed  // reduction
    r += (if (i__diag1 == i) { a[i, i__diag1] } else { 0 })
  y[i] = r
",
    );
}

#[test]
fn an_in_place_update_walks_the_output_and_overwrites_its_values() {
    check(
        "fn f(d: &tensor<?xf64>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] *= d[i]; }",
        "\
c[i, j] = c[i, j] * d[i]
order i (parallel), j (parallel)
output c: sparse, updated in place: the value is zero wherever `c` stores nothing, so its stored entries are walked and overwritten
iterate i in c.lvl0 compressed  // parallel
  iterate j in c.lvl1 compressed  // parallel
    update c[i, j] = c[i, j] * d[i]
",
    );
}
