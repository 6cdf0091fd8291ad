//! Loop order and loop-tree text of the classic kernels. Each expected text
//! was written by hand from the kernel's storage formats before running.

use super::*;

#[test]
fn spmv_csr_scalarises_the_row_reduction() {
    let k = spmv(csr("a"), AssignOp::Assign);
    assert_text(
        &plan_text(&k),
        "
y[i] = a[i, j] * x[j]
order i (parallel), j (reduction)
output y: dense, stored directly: every element is visited once
for i in 0..y.dim0  // parallel
  local r = 0
  iterate j in a.lvl1 compressed  // reduction
    r += a[i, j] * x[j]
  y[i] = r
",
    );
}

#[test]
fn spmv_csc_puts_the_reduction_outside_and_zeroes_y() {
    let k = spmv(csc("a"), AssignOp::Assign);
    assert_text(
        &plan_text(&k),
        "
y[i] = a[i, j] * x[j]
order j (reduction), i (parallel)
output y: dense, zeroed then accumulated: reduction j encloses parallel loop i
zero y
for j in 0..a.dim1  // reduction
  iterate i in a.lvl1 compressed  // parallel
    y[i] += a[i, j] * x[j]
",
    );
}

#[test]
fn spmv_dcsr_skips_empty_rows_so_y_is_zeroed() {
    let k = spmv(dcsr("a"), AssignOp::Assign);
    assert_text(
        &plan_text(&k),
        "
y[i] = a[i, j] * x[j]
order i (parallel), j (reduction)
output y: dense, zeroed first: sparse loops skip elements
zero y
iterate i in a.lvl0 compressed  // parallel
  local r = 0
  iterate j in a.lvl1 compressed  // reduction
    r += a[i, j] * x[j]
  y[i] = r
",
    );
}

#[test]
fn spmv_dcsc_iterates_stored_columns_outermost() {
    let k = spmv(dcsc("a"), AssignOp::Assign);
    assert_text(
        &plan_text(&k),
        "
y[i] = a[i, j] * x[j]
order j (reduction), i (parallel)
output y: dense, zeroed then accumulated: reduction j encloses parallel loop i
zero y
iterate j in a.lvl0 compressed  // reduction
  iterate i in a.lvl1 compressed  // parallel
    y[i] += a[i, j] * x[j]
",
    );
}

#[test]
fn spmv_coo_walks_row_segments_then_singletons() {
    let k = spmv(coo("a"), AssignOp::Assign);
    assert_text(
        &plan_text(&k),
        "
y[i] = a[i, j] * x[j]
order i (parallel), j (reduction)
output y: dense, zeroed first: sparse loops skip elements
zero y
iterate i in a.lvl0 compressed(nonunique)  // parallel
  local r = 0
  iterate j in a.lvl1 singleton  // reduction
    r += a[i, j] * x[j]
  y[i] = r
",
    );
}

#[test]
fn spmv_add_assign_starts_the_local_from_y_and_never_zeroes() {
    let k = spmv(dcsr("a"), AssignOp::AddAssign);
    assert_text(
        &plan_text(&k),
        "
y[i] += a[i, j] * x[j]
order i (parallel), j (reduction)
output y: dense, accumulated into (+=)
iterate i in a.lvl0 compressed  // parallel
  local r = y[i]
  iterate j in a.lvl1 compressed  // reduction
    r += a[i, j] * x[j]
  y[i] = r
",
    );
}

#[test]
fn spmm_with_dense_b_and_c_keeps_parallel_loops_outermost() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(TensorDesc::dense("b", 2));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(c, &[i, j], Expr::at(a, &[i, kk]) * Expr::at(b, &[kk, j]));
    assert_text(
        &plan_text(&k),
        "
c[i, j] = a[i, k] * b[k, j]
order i (parallel), j (parallel), k (reduction)
output c: dense, stored directly: every element is visited once
for i in 0..c.dim0  // parallel
  for j in 0..c.dim1  // parallel
    local r = 0
    iterate k in a.lvl1 compressed  // reduction
      r += a[i, k] * b[k, j]
    c[i, j] = r
",
    );
}

#[test]
fn spgemm_into_csr_expands_the_output_row_into_a_workspace() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(c, &[i, j], Expr::at(a, &[i, kk]) * Expr::at(b, &[kk, j]));
    assert_text(
        &plan_text(&k),
        "
c[i, j] = a[i, k] * b[k, j]
order i (parallel), k (reduction), j (parallel)
output c: sparse, expanded into a workspace over c.lvl1: reduction k encloses parallel loop j
for i in 0..c.dim0  // parallel
  workspace w = expand c.lvl1
  iterate k in a.lvl1 compressed  // reduction
    iterate j in b.lvl1 compressed  // parallel
      w[j] += a[i, k] * b[k, j]
  compress w into c.lvl1
",
    );
}

#[test]
fn sparse_dot_is_one_intersection_point() {
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let a = k.tensor(sv("a"));
    let b = k.tensor(sv("b"));
    let i = k.index("i");
    k.assign(s, &[], Expr::at(a, &[i]) * Expr::at(b, &[i]));
    assert_text(
        &plan_text(&k),
        "
s[] = a[i] * b[i]
order i (reduction)
output s: scalar, reduced in a local
local r = 0
coiterate i in a.lvl0 compressed, b.lvl0 compressed  // reduction, intersection
  while a.lvl0, b.lvl0
    case a.lvl0, b.lvl0
      r += a[i] * b[i]
s[] = r
",
    );
}

/// `c[i] = a[i] <op> b[i]` over sparse vectors into a dense `c`.
fn vector_op(rhs: impl Fn(Expr, Expr) -> Expr) -> Kernel {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let a = k.tensor(sv("a"));
    let b = k.tensor(sv("b"));
    let i = k.index("i");
    k.assign(c, &[i], rhs(Expr::at(a, &[i]), Expr::at(b, &[i])));
    k
}

#[test]
fn sparse_vector_add_is_a_union_with_exhaustion_loops() {
    let k = vector_op(|a, b| a + b);
    assert_text(
        &plan_text(&k),
        "
c[i] = a[i] + b[i]
order i (parallel)
output c: dense, zeroed first: sparse loops skip elements
zero c
coiterate i in a.lvl0 compressed, b.lvl0 compressed  // parallel, union
  while a.lvl0, b.lvl0
    case a.lvl0, b.lvl0
      c[i] = a[i] + b[i]
    case a.lvl0, _
      c[i] = a[i]
    case _, b.lvl0
      c[i] = b[i]
  while a.lvl0
    case a.lvl0
      c[i] = a[i]
  while b.lvl0
    case b.lvl0
      c[i] = b[i]
",
    );
}

#[test]
fn sparse_vector_sub_negates_the_right_only_point() {
    let k = vector_op(|a, b| a - b);
    let text = plan_text(&k);
    assert!(text.contains("    case a.lvl0, b.lvl0\n      c[i] = a[i] - b[i]\n"));
    assert!(text.contains("    case _, b.lvl0\n      c[i] = -b[i]\n"));
    assert!(text.contains("  while b.lvl0\n    case b.lvl0\n      c[i] = -b[i]\n"));
    assert!(text.contains("  while a.lvl0\n    case a.lvl0\n      c[i] = a[i]\n"));
}

#[test]
fn sparse_plus_dense_vector_visits_every_coordinate() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let a = k.tensor(sv("a"));
    let d = k.tensor(TensorDesc::dense("d", 1));
    let i = k.index("i");
    k.assign(c, &[i], Expr::at(a, &[i]) + Expr::at(d, &[i]));
    assert_text(
        &plan_text(&k),
        "
c[i] = a[i] + d[i]
order i (parallel)
output c: dense, stored directly: every element is visited once
coiterate i in a.lvl0 compressed, all 0..c.dim0  // parallel, union
  while a.lvl0, all
    case a.lvl0
      c[i] = a[i] + d[i]
    case _
      c[i] = d[i]
  while all
    case all
      c[i] = d[i]
",
    );
}

#[test]
fn three_sparse_operands_mix_intersection_and_union() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let a = k.tensor(sv("a"));
    let b = k.tensor(sv("b"));
    let d = k.tensor(sv("d"));
    let i = k.index("i");
    let rhs = Expr::at(a, &[i]) * Expr::at(b, &[i]) + Expr::at(d, &[i]);
    k.assign(c, &[i], rhs);
    assert_text(
        &plan_text(&k),
        "
c[i] = a[i] * b[i] + d[i]
order i (parallel)
output c: dense, zeroed first: sparse loops skip elements
zero c
coiterate i in a.lvl0 compressed, b.lvl0 compressed, d.lvl0 compressed  // parallel, union
  while a.lvl0, b.lvl0, d.lvl0
    case a.lvl0, b.lvl0, d.lvl0
      c[i] = a[i] * b[i] + d[i]
    case a.lvl0, b.lvl0, _
      c[i] = a[i] * b[i]
    case _, _, d.lvl0
      c[i] = d[i]
  while a.lvl0, b.lvl0
    case a.lvl0, b.lvl0
      c[i] = a[i] * b[i]
  while d.lvl0
    case d.lvl0
      c[i] = d[i]
",
    );
}

#[test]
fn csr_plus_csr_into_csr_inserts_directly_after_a_dense_row_loop() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(csr("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    assert_text(
        &plan_text(&k),
        "
c[i, j] = a[i, j] + b[i, j]
order i (parallel), j (parallel)
output c: sparse, direct insertion: parallel loops i, j are outermost, in level order
for i in 0..c.dim0  // parallel
  coiterate j in a.lvl1 compressed, b.lvl1 compressed  // parallel, union
    while a.lvl1, b.lvl1
      case a.lvl1, b.lvl1
        insert c[i, j] = a[i, j] + b[i, j]
      case a.lvl1, _
        insert c[i, j] = a[i, j]
      case _, b.lvl1
        insert c[i, j] = b[i, j]
    while a.lvl1
      case a.lvl1
        insert c[i, j] = a[i, j]
    while b.lvl1
      case b.lvl1
        insert c[i, j] = b[i, j]
",
    );
}

#[test]
fn dcsr_plus_dcsr_nests_a_union_inside_each_row_case() {
    let mut k = Kernel::new();
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let a = k.tensor(dcsr("a"));
    let b = k.tensor(dcsr("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    let plan = sparsify(&k).unwrap();
    let text = plan.text(&k);
    // Rows stored in both: a union over j; rows of one side: iterate it.
    assert!(text.contains(
        "    case a.lvl0, b.lvl0\n      coiterate j in a.lvl1 compressed, b.lvl1 compressed  // parallel, union\n"
    ));
    assert!(text.contains(
        "    case a.lvl0, _\n      iterate j in a.lvl1 compressed  // parallel\n        c[i, j] = a[i, j]\n"
    ));
    assert!(text.contains(
        "    case _, b.lvl0\n      iterate j in b.lvl1 compressed  // parallel\n        c[i, j] = b[i, j]\n"
    ));
    // One lattice at i, then one per case body: 3 in the first phase and
    // one in each exhaustion phase.
    assert_eq!(plan.stmts[0].lattices.len(), 1 + 3 + 1 + 1);
    assert_eq!(plan.stmts[0].lattices[0].points.len(), 3);
}

#[test]
fn csr_times_dcsr_iterates_the_rows_b_stores_and_intersects_columns() {
    let mut k = Kernel::new();
    let x = k.tensor(TensorDesc::dense("x", 2).output());
    let a = k.tensor(csr("a"));
    let b = k.tensor(dcsr("b"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(x, &[i, j], Expr::at(a, &[i, j]) * Expr::at(b, &[i, j]));
    assert_text(
        &plan_text(&k),
        "
x[i, j] = a[i, j] * b[i, j]
order i (parallel), j (parallel)
output x: dense, zeroed first: sparse loops skip elements
zero x
iterate i in b.lvl0 compressed  // parallel
  coiterate j in a.lvl1 compressed, b.lvl1 compressed  // parallel, intersection
    while a.lvl1, b.lvl1
      case a.lvl1, b.lvl1
        x[i, j] = a[i, j] * b[i, j]
",
    );
}

#[test]
fn scalar_add_assign_reduction_over_a_csr_matrix() {
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let a = k.tensor(csr("a"));
    let (i, j) = (k.index("i"), k.index("j"));
    k.add_assign(s, &[], Expr::at(a, &[i, j]));
    assert_text(
        &plan_text(&k),
        "
s[] += a[i, j]
order i (reduction), j (reduction)
output s: scalar, reduced in a local
local r = s[]
for i in 0..a.dim0  // reduction
  iterate j in a.lvl1 compressed  // reduction
    r += a[i, j]
s[] = r
",
    );
}

#[test]
fn sddmm_samples_the_dense_product_at_the_stored_entries() {
    let mut k = Kernel::new();
    let c = k.tensor(csr("c").output());
    let s = k.tensor(csr("s"));
    let u = k.tensor(TensorDesc::dense("u", 2));
    let v = k.tensor(TensorDesc::dense("v", 2));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    let rhs = Expr::at(s, &[i, j]) * (Expr::at(u, &[i, kk]) * Expr::at(v, &[kk, j]));
    k.assign(c, &[i, j], rhs);
    assert_text(
        &plan_text(&k),
        "
c[i, j] = s[i, j] * (u[i, k] * v[k, j])
order i (parallel), j (parallel), k (reduction)
output c: sparse, direct insertion: parallel loops i, j are outermost, in level order
for i in 0..c.dim0  // parallel
  iterate j in s.lvl1 compressed  // parallel
    local r = 0
    for k in 0..u.dim1  // reduction
      r += s[i, j] * (u[i, k] * v[k, j])
    insert c[i, j] = r
",
    );
}

#[test]
fn ttv_on_a_csf_tensor() {
    let mut k = Kernel::new();
    let a = k.tensor(TensorDesc::dense("a", 2).output());
    let b = k.tensor(csf3("b"));
    let c = k.tensor(TensorDesc::dense("c", 1));
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(a, &[i, j], Expr::at(b, &[i, j, kk]) * Expr::at(c, &[kk]));
    assert_text(
        &plan_text(&k),
        "
a[i, j] = b[i, j, k] * c[k]
order i (parallel), j (parallel), k (reduction)
output a: dense, zeroed first: sparse loops skip elements
zero a
iterate i in b.lvl0 compressed  // parallel
  iterate j in b.lvl1 compressed  // parallel
    local r = 0
    iterate k in b.lvl2 compressed  // reduction
      r += b[i, j, k] * c[k]
    a[i, j] = r
",
    );
}

#[test]
fn mttkrp_on_a_csf_tensor() {
    let mut k = Kernel::new();
    let a = k.tensor(TensorDesc::dense("a2", 2).output());
    let b = k.tensor(csf3("b"));
    let c = k.tensor(TensorDesc::dense("c", 2));
    let d = k.tensor(TensorDesc::dense("d", 2));
    let (i, j, kk, l) = (k.index("i"), k.index("j"), k.index("k"), k.index("l"));
    let rhs = Expr::at(b, &[i, kk, l]) * Expr::at(c, &[kk, j]) * Expr::at(d, &[l, j]);
    k.assign(a, &[i, j], rhs);
    assert_text(
        &plan_text(&k),
        "
a2[i, j] = b[i, k, l] * c[k, j] * d[l, j]
order i (parallel), j (parallel), k (reduction), l (reduction)
output a2: dense, zeroed first: sparse loops skip elements
zero a2
iterate i in b.lvl0 compressed  // parallel
  for j in 0..a2.dim1  // parallel
    local r = 0
    iterate k in b.lvl1 compressed  // reduction
      iterate l in b.lvl2 compressed  // reduction
        r += b[i, k, l] * c[k, j] * d[l, j]
    a2[i, j] = r
",
    );
}

#[test]
fn every_statement_gets_its_own_nest() {
    let mut k = spmv(csr("a"), AssignOp::Assign);
    let z = k.tensor(TensorDesc::dense("z", 1).output());
    let y = TensorId(0);
    let i = LoopId(0);
    k.assign(z, &[i], Expr::at(y, &[i]) * Expr::lit("2.0"));
    let plan = sparsify(&k).unwrap();
    assert_eq!(plan.stmts.len(), 2);
    assert_eq!(plan.stmts[1].stmt, 1);
    assert!(plan.text(&k).ends_with(
        "\nz[i] = y[i] * 2.0\norder i (parallel)\noutput z: dense, stored directly: every element is visited once\nfor i in 0..z.dim0  // parallel\n  z[i] = y[i] * 2.0\n"
    ));
}

#[test]
fn a_statement_without_loops_is_a_single_store() {
    let mut k = Kernel::new();
    let s = k.tensor(TensorDesc::scalar("s").output());
    let t = k.tensor(TensorDesc::scalar("t"));
    k.add_assign(s, &[], Expr::at(t, &[]) * Expr::lit("2.0"));
    assert_text(
        &plan_text(&k),
        "
s[] += t[] * 2.0
order none
output s: scalar, stored directly: no loops
s[] += t[] * 2.0
",
    );
}
