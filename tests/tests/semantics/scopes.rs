//! Explicit sum scopes and term splitting (issue 10, items 1 and 8).
//!
//! - `sum(j, e)` sums `e` over `j` exactly where it is written:
//!   `y[i] = sum(j, abs(a[i, j]))` is the sum of absolute values, while
//!   `y[i] = abs(a[i, j])` is the absolute value of the row sum (the
//!   smallest subexpression holding `j` is the access `a[i, j]`);
//!   `sum(j, select(a[i, j], |v| v > 0.0))` sums the positive entries, while
//!   `select(a[i, j], |v| v > 0.0)` keeps the row sum if it is positive (0
//!   in the dense output otherwise); `sum(j, a[i, j] * x[j]) + b[i]` is the
//!   implicit form; `sum(j, k, ..)` sums two indices; sums nest.
//! - Term splitting: a dense, unread output whose sums cannot nest inside
//!   the output loops (CSC or DCSC `w`, whose loop over `j` encloses the
//!   loop over `i`; CSF `t` written to `y[k]` or `y[j]`) is computed one
//!   term at a time (`y = w x; y += b; y += -c`), with the same value as
//!   the evaluator's.
//!
//! Left out, compile errors today (the sum sits inside a call, a semiring
//! operation or a product, so the statement cannot be split): with a CSC
//! `a`, `y[i] = abs(a[i, j])`, `y[i] = select(a[i, j], |v| v > 0.0)` and
//! `y[i] = (w[i, j] * x[j] + b[i]) * 2.0`.
//!
//! References: the dense evaluator of `sparse_tests::index_notation` (its
//! explicit `sum` nodes for the written scopes), and for `select` plain
//! loops over the stored entries.

use proptest::prelude::*;
use sparse_core::{DenseView, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSC, DCSR};
use sparse_tests::gen::{dense_vec, dims, entries, entries_with_duplicates, Elem, Entries};
use sparse_tests::index_notation::{access, call, evaluate, sum, Assign, Expr, Func, Tensors};

use super::common::{same, sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #DCSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        // The sum of absolute values.
        pub fn abs_sum_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        pub fn abs_sum_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        pub fn abs_sum_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        pub fn abs_sum_coo(a: &tensor<?x?xf64, #COO>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        pub fn abs_sum_coo_nu(a: &tensor<?x?xf64, #COO_NU>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        pub fn abs_sum_dense(a: &tensor<?x?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, abs(a[i, j]));
        }
        // The absolute value of the row sum.
        pub fn abs_of_sum_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = abs(a[i, j]);
        }
        pub fn abs_of_sum_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?xf64>) {
            y[i] = abs(a[i, j]);
        }
        pub fn abs_of_sum_coo(a: &tensor<?x?xf64, #COO>, y: &mut tensor<?xf64>) {
            y[i] = abs(a[i, j]);
        }
        pub fn abs_of_sum_coo_nu(a: &tensor<?x?xf64, #COO_NU>, y: &mut tensor<?xf64>) {
            y[i] = abs(a[i, j]);
        }
        pub fn abs_of_sum_dense(a: &tensor<?x?xf64>, y: &mut tensor<?xf64>) {
            y[i] = abs(a[i, j]);
        }
        // Scalars: the sum of all absolute values, the absolute total.
        pub fn s_abs_sum_csc(a: &tensor<?x?xf64, #CSC>, s: &mut tensor<f64>) {
            s[] = sum(i, j, abs(a[i, j]));
        }
        pub fn s_abs_of_sum_csc(a: &tensor<?x?xf64, #CSC>, s: &mut tensor<f64>) {
            s[] = abs(a[i, j]);
        }
        // The sum of the positive entries.
        pub fn pos_sum_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
        pub fn pos_sum_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
        pub fn pos_sum_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
        pub fn pos_sum_coo(a: &tensor<?x?xf64, #COO>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
        // The row sum, kept if positive.
        pub fn pos_of_sum_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = select(a[i, j], |v| v > 0.0);
        }
        pub fn pos_of_sum_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?xf64>) {
            y[i] = select(a[i, j], |v| v > 0.0);
        }
        pub fn pos_of_sum_coo(a: &tensor<?x?xf64, #COO>, y: &mut tensor<?xf64>) {
            y[i] = select(a[i, j], |v| v > 0.0);
        }
        // The explicit form of `y = a x + b`.
        pub fn explicit_bias_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn explicit_bias_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn explicit_bias_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn explicit_bias_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn explicit_add_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += sum(j, a[i, j] * x[j]) + b[i];
        }
        // Two indices in one sum.
        pub fn sum_jk_csf(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, k, t[i, j, k] * z[k]) + b[i];
        }
        pub fn sum_ij_csf(t: &tensor<?x?x?xf64, #CSF>, b: &tensor<?xf64>, g: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[k] = sum(i, j, t[i, j, k] * b[i]) + g[k];
        }
        pub fn sum_jk_chain_csr(a: &tensor<?x?xf64, #CSR>, c: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>,
                                b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, k, a[i, j] * c[j, k] * z[k]) + b[i];
        }
        pub fn sum_jk_chain_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &tensor<?x?xf64, #DCSR>, z: &tensor<?xf64>,
                                 b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, k, a[i, j] * c[j, k] * z[k]) + b[i];
        }
        // Nested sums.
        pub fn nested_csr(a: &tensor<?x?xf64, #CSR>, c: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * sum(k, c[j, k] * z[k]));
        }
        pub fn nested_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &tensor<?x?xf64, #DCSR>, z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * sum(k, c[j, k] * z[k]));
        }
        pub fn nested_coo(a: &tensor<?x?xf64, #COO>, c: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * sum(k, c[j, k] * z[k]));
        }
        pub fn nested_bias_csr(a: &tensor<?x?xf64, #CSR>, c: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>,
                               d: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sum(j, a[i, j] * (sum(k, c[j, k] * z[k]) + d[j])) + b[i];
        }

        // Term splitting: y = w x; y += b; y += -e.
        pub fn split_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, e: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i] - e[i];
        }
        pub fn split_dcsc(w: &tensor<?x?xf64, #DCSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, e: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i] - e[i];
        }
        pub fn split_add_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, e: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i] - e[i];
        }
        pub fn split_add_dcsc(w: &tensor<?x?xf64, #DCSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, e: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i] - e[i];
        }
        pub fn split_first_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] - w[i, j] * x[j];
        }
        pub fn split_first_dcsc(w: &tensor<?x?xf64, #DCSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] - w[i, j] * x[j];
        }
        pub fn split_neg_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = -(w[i, j] * x[j]) + b[i];
        }
        pub fn split_scaled_dcsc(w: &tensor<?x?xf64, #DCSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] - w[i, j] * x[j] * 2.0;
        }
        // Two sums over two indices, a term between them (`u` is `w` again).
        pub fn split_two_sums_csc(w: &tensor<?x?xf64, #CSC>, u: &tensor<?x?xf64, #DCSC>, x: &tensor<?xf64>,
                                  b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] - b[i] + u[i, k] * x[k];
        }
        // CSF: the reduction loops enclose the output loop.
        pub fn split_csf_k(t: &tensor<?x?x?xf64, #CSF>, b: &tensor<?xf64>, g: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[k] = t[i, j, k] * b[i] + g[k];
        }
        pub fn split_add_csf_k(t: &tensor<?x?x?xf64, #CSF>, b: &tensor<?xf64>, g: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[k] += t[i, j, k] * b[i] + g[k];
        }
        pub fn split_csf_j(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, d: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[j] = d[j] - t[i, j, k] * z[k];
        }
        pub fn csf_i(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = t[i, j, k] * z[k] + b[i];
        }
    }
}

/// One problem: `a` (`m x n`, unique entries; `dup` with repeated
/// coordinates), `c` (`n x q`), `t` (`m x n x q`), `x`, `d` (`n`), `z`, `g`
/// (`q`), `b`, `e` (`m`), and old outputs of `+=`: `y0` (`m`), `yq` (`q`).
#[derive(Clone, Debug)]
struct P {
    m: usize,
    n: usize,
    q: usize,
    a: Entries<f64>,
    dup: Entries<f64>,
    c: Entries<f64>,
    t: Entries<f64>,
    x: Vec<f64>,
    d: Vec<f64>,
    z: Vec<f64>,
    g: Vec<f64>,
    b: Vec<f64>,
    e: Vec<f64>,
    y0: Vec<f64>,
    yq: Vec<f64>,
}

fn problem(max: usize) -> impl Strategy<Value = P> {
    dims::<3>(max).prop_flat_map(|[m, n, q]| {
        (
            (
                entries::<f64>(&[m, n]),
                entries_with_duplicates::<f64>(&[m, n], 12),
                entries::<f64>(&[n, q]),
                entries::<f64>(&[m, n, q]),
                dense_vec::<f64>(n),
                dense_vec::<f64>(n),
            ),
            (
                dense_vec::<f64>(q),
                dense_vec::<f64>(q),
                dense_vec::<f64>(m),
                dense_vec::<f64>(m),
                dense_vec::<f64>(m),
                dense_vec::<f64>(q),
            ),
        )
            .prop_map(move |((a, dup, c, t, x, d), (z, g, b, e, y0, yq))| P {
                m,
                n,
                q,
                a,
                dup: sorted(dup),
                c,
                t,
                x,
                d,
                z,
                g,
                b,
                e,
                y0,
                yq,
            })
    })
}

impl P {
    /// `out[lhs] assign rhs` by the evaluator (`a` is `dup` if `dup`), from
    /// `old` of shape `dims`.
    fn want(&self, dup: bool, lhs: &[&str], assign: Assign, rhs: &Expr, old: &[f64]) -> Vec<f64> {
        let (m, n, q) = (self.m, self.n, self.q);
        let ad = Dense::from_entries(&[m, n], if dup { &self.dup } else { &self.a });
        let cd = Dense::from_entries(&[n, q], &self.c);
        let td = Dense::from_entries(&[m, n, q], &self.t);
        let v = |len: usize, data: &[f64]| Dense::from_data(&[len], data.to_vec());
        let (xd, dd, zd, gd) = (v(n, &self.x), v(n, &self.d), v(q, &self.z), v(q, &self.g));
        let (bd, ed) = (v(m, &self.b), v(m, &self.e));
        let t: Tensors = [
            ("a", &ad),
            ("w", &ad),
            ("u", &ad),
            ("c", &cd),
            ("t", &td),
            ("x", &xd),
            ("d", &dd),
            ("z", &zd),
            ("g", &gd),
            ("b", &bd),
            ("e", &ed),
        ]
        .into();
        let mut y = Dense::from_data(&[old.len()], old.to_vec());
        if lhs.is_empty() {
            y = Dense::from_data(&[], old.to_vec());
        }
        evaluate(lhs, assign, rhs, &t, &mut y);
        y.data
    }

    /// `y[i] = sum_j select(a[i, j], v > 0)`: the positive stored entries.
    fn positive_sums(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.m];
        for (c, v) in &self.a {
            if *v > 0.0 {
                y[c[0]] += v;
            }
        }
        y
    }

    /// `y[i] = select(sum_j a[i, j], v > 0)`: the row sum if positive, the
    /// dense output's 0 otherwise.
    fn positive_row_sums(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.m];
        for (c, v) in &self.a {
            y[c[0]] += v;
        }
        y.into_iter()
            .map(|s| if s > 0.0 { s } else { 0.0 })
            .collect()
    }
}

fn acc(name: &str, idx: &[&str]) -> Expr {
    access(name, idx)
}

/// `kernel(y)` on `old` (garbage for `=`) against `want`.
fn run(
    what: &str,
    p: &P,
    old: &[f64],
    want: &[f64],
    kernel: impl FnOnce(&mut [f64]) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let mut y = old.to_vec();
    let r = kernel(&mut y);
    prop_assert_eq!(r, Ok(()), "{}", what);
    same(&format!("{what}: {p:?}"), &y, want)
}

fn explicit_sums(p: &P) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.q);
    let d = [m, n];
    let garbage = vec![f64::GARBAGE; m];
    let g = &garbage[..];
    let coo_a = sorted(p.a.clone());
    let ad = Dense::from_entries(&d, &p.a);
    let adense = DenseView::new(&ad.data, d).unwrap();
    let a = || acc("a", &["i", "j"]);
    let abs = |e: Expr| call(Func::Abs, vec![e]);
    let mut rep = Report::default();

    let e = sum("j", abs(a()));
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("abs_sum_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::abs_sum_csr(t, y))
    }));
    rep.add(run("abs_sum_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::abs_sum_csc(t, y))
    }));
    rep.add(run("abs_sum_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::abs_sum_dcsr(t, y))
    }));
    rep.add(run("abs_sum_coo", p, g, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::abs_sum_coo(t, y))
    }));
    rep.add(run("abs_sum_dense", p, g, &w, |y| {
        k::abs_sum_dense(adense, y)
    }));
    // Duplicates add up first: |1 + -2| is 1, not 3.
    let w = p.want(true, &["i"], Assign::Set, &e, g);
    rep.add(run("abs_sum_coo_nu", p, g, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::abs_sum_coo_nu(t, y))
    }));

    // No explicit sum: placed on the access, inside `abs`.
    let e = abs(a());
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("abs_of_sum_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::abs_of_sum_csr(t, y))
    }));
    rep.add(run("abs_of_sum_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::abs_of_sum_dcsr(t, y))
    }));
    rep.add(run("abs_of_sum_coo", p, g, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::abs_of_sum_coo(t, y))
    }));
    rep.add(run("abs_of_sum_dense", p, g, &w, |y| {
        k::abs_of_sum_dense(adense, y)
    }));
    let w = p.want(true, &["i"], Assign::Set, &e, g);
    rep.add(run("abs_of_sum_coo_nu", p, g, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::abs_of_sum_coo_nu(t, y))
    }));

    let s0 = [f64::GARBAGE];
    let w = p.want(false, &[], Assign::Set, &sum("i", sum("j", abs(a()))), &s0);
    rep.add(run("s_abs_sum_csc", p, &s0, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::s_abs_sum_csc(t, &mut y[0]))
    }));
    let w = p.want(false, &[], Assign::Set, &abs(a()), &s0);
    rep.add(run("s_abs_of_sum_csc", p, &s0, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::s_abs_of_sum_csc(t, &mut y[0]))
    }));

    let w = p.positive_sums();
    rep.add(run("pos_sum_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::pos_sum_csr(t, y))
    }));
    rep.add(run("pos_sum_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::pos_sum_csc(t, y))
    }));
    rep.add(run("pos_sum_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::pos_sum_dcsr(t, y))
    }));
    rep.add(run("pos_sum_coo", p, g, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::pos_sum_coo(t, y))
    }));
    let w = p.positive_row_sums();
    rep.add(run("pos_of_sum_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::pos_of_sum_csr(t, y))
    }));
    rep.add(run("pos_of_sum_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::pos_of_sum_dcsr(t, y))
    }));
    rep.add(run("pos_of_sum_coo", p, g, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::pos_of_sum_coo(t, y))
    }));

    // Written out or implicit: the same statement.
    let ax = a() * acc("x", &["j"]);
    let b = || acc("b", &["i"]);
    let implicit = p.want(false, &["i"], Assign::Set, &(ax.clone() + b()), g);
    let written = p.want(false, &["i"], Assign::Set, &(sum("j", ax.clone()) + b()), g);
    rep.add(same("explicit = implicit (evaluator)", &written, &implicit));
    let (xs, bs) = (&p.x[..], &p.b[..]);
    rep.add(run("explicit_bias_csr", p, g, &implicit, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::explicit_bias_csr(t, xs, bs, y))
    }));
    rep.add(run("explicit_bias_csc", p, g, &implicit, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::explicit_bias_csc(t, xs, bs, y))
    }));
    rep.add(run("explicit_bias_dcsr", p, g, &implicit, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::explicit_bias_dcsr(t, xs, bs, y))
    }));
    let w = p.want(true, &["i"], Assign::Set, &(sum("j", ax.clone()) + b()), g);
    rep.add(run("explicit_bias_coo_nu", p, g, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::explicit_bias_coo_nu(t, xs, bs, y))
    }));
    let w = p.want(false, &["i"], Assign::AddTo, &(sum("j", ax) + b()), &p.y0);
    rep.add(run("explicit_add_csc", p, &p.y0, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::explicit_add_csc(t, xs, bs, y))
    }));

    // Two indices in one sum.
    let tz = acc("t", &["i", "j", "k"]) * acc("z", &["k"]);
    let w = p.want(
        false,
        &["i"],
        Assign::Set,
        &(sum("j", sum("k", tz)) + b()),
        g,
    );
    rep.add(run("sum_jk_csf", p, g, &w, |y| {
        with_tensor(&CSF, [m, n, q], &p.t, |t| k::sum_jk_csf(t, &p.z, bs, y))
    }));
    let gq = vec![f64::GARBAGE; q];
    let tb = acc("t", &["i", "j", "k"]) * b();
    let e = sum("i", sum("j", tb)) + acc("g", &["k"]);
    let w = p.want(false, &["k"], Assign::Set, &e, &gq);
    rep.add(run("sum_ij_csf", p, &gq, &w, |y| {
        with_tensor(&CSF, [m, n, q], &p.t, |t| k::sum_ij_csf(t, bs, &p.g, y))
    }));
    let chain = a() * acc("c", &["j", "k"]) * acc("z", &["k"]);
    let w = p.want(
        false,
        &["i"],
        Assign::Set,
        &(sum("j", sum("k", chain)) + b()),
        g,
    );
    rep.add(run("sum_jk_chain_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |ta| {
            with_tensor(&CSR, [n, q], &p.c, |tc| {
                k::sum_jk_chain_csr(ta, tc, &p.z, bs, y)
            })
        })
    }));
    rep.add(run("sum_jk_chain_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&DCSR, [n, q], &p.c, |tc| {
                k::sum_jk_chain_dcsr(ta, tc, &p.z, bs, y)
            })
        })
    }));

    // Nested sums.
    let inner = || sum("k", acc("c", &["j", "k"]) * acc("z", &["k"]));
    let w = p.want(false, &["i"], Assign::Set, &sum("j", a() * inner()), g);
    rep.add(run("nested_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |ta| {
            with_tensor(&CSR, [n, q], &p.c, |tc| k::nested_csr(ta, tc, &p.z, y))
        })
    }));
    rep.add(run("nested_dcsr", p, g, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&DCSR, [n, q], &p.c, |tc| k::nested_dcsr(ta, tc, &p.z, y))
        })
    }));
    rep.add(run("nested_coo", p, g, &w, |y| {
        with_tensor(&COO, d, &coo_a, |ta| {
            with_tensor(&CSR, [n, q], &p.c, |tc| k::nested_coo(ta, tc, &p.z, y))
        })
    }));
    let e = sum("j", a() * (inner() + acc("d", &["j"]))) + b();
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("nested_bias_csr", p, g, &w, |y| {
        with_tensor(&CSR, d, &p.a, |ta| {
            with_tensor(&CSR, [n, q], &p.c, |tc| {
                k::nested_bias_csr(ta, tc, &p.z, &p.d, bs, y)
            })
        })
    }));
    rep.finish()
}

fn splitting(p: &P) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.q);
    let d = [m, n];
    let garbage = vec![f64::GARBAGE; m];
    let g = &garbage[..];
    let (xs, bs, es) = (&p.x[..], &p.b[..], &p.e[..]);
    let wx = || acc("w", &["i", "j"]) * acc("x", &["j"]);
    let b = || acc("b", &["i"]);
    let mut rep = Report::default();

    let e = wx() + b() - acc("e", &["i"]);
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("split_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::split_csc(t, xs, bs, es, y))
    }));
    rep.add(run("split_dcsc", p, g, &w, |y| {
        with_tensor(&DCSC, d, &p.a, |t| k::split_dcsc(t, xs, bs, es, y))
    }));
    let w = p.want(false, &["i"], Assign::AddTo, &e, &p.y0);
    rep.add(run("split_add_csc", p, &p.y0, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::split_add_csc(t, xs, bs, es, y))
    }));
    rep.add(run("split_add_dcsc", p, &p.y0, &w, |y| {
        with_tensor(&DCSC, d, &p.a, |t| k::split_add_dcsc(t, xs, bs, es, y))
    }));
    let w = p.want(false, &["i"], Assign::Set, &(b() - wx()), g);
    rep.add(run("split_first_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::split_first_csc(t, xs, bs, y))
    }));
    rep.add(run("split_first_dcsc", p, g, &w, |y| {
        with_tensor(&DCSC, d, &p.a, |t| k::split_first_dcsc(t, xs, bs, y))
    }));
    let w = p.want(false, &["i"], Assign::Set, &(-wx() + b()), g);
    rep.add(run("split_neg_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::split_neg_csc(t, xs, bs, y))
    }));
    let e = b() - wx() * sparse_tests::index_notation::lit(2.0);
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("split_scaled_dcsc", p, g, &w, |y| {
        with_tensor(&DCSC, d, &p.a, |t| k::split_scaled_dcsc(t, xs, bs, y))
    }));
    let e = wx() - b() + acc("u", &["i", "k"]) * acc("x", &["k"]);
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("split_two_sums_csc", p, g, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| {
            with_tensor(&DCSC, d, &p.a, |u| k::split_two_sums_csc(t, u, xs, bs, y))
        })
    }));

    // CSF: y[k] and y[j] are inside the reduction loops; y[i] is not.
    let dims3 = [m, n, q];
    let t = || acc("t", &["i", "j", "k"]);
    let gq = vec![f64::GARBAGE; q];
    let e = t() * b() + acc("g", &["k"]);
    let w = p.want(false, &["k"], Assign::Set, &e, &gq);
    rep.add(run("split_csf_k", p, &gq, &w, |y| {
        with_tensor(&CSF, dims3, &p.t, |tt| k::split_csf_k(tt, bs, &p.g, y))
    }));
    let w = p.want(false, &["k"], Assign::AddTo, &e, &p.yq);
    rep.add(run("split_add_csf_k", p, &p.yq, &w, |y| {
        with_tensor(&CSF, dims3, &p.t, |tt| k::split_add_csf_k(tt, bs, &p.g, y))
    }));
    let gn = vec![f64::GARBAGE; n];
    let e = acc("d", &["j"]) - t() * acc("z", &["k"]);
    let w = p.want(false, &["j"], Assign::Set, &e, &gn);
    rep.add(run("split_csf_j", p, &gn, &w, |y| {
        with_tensor(&CSF, dims3, &p.t, |tt| k::split_csf_j(tt, &p.z, &p.d, y))
    }));
    let e = t() * acc("z", &["k"]) + b();
    let w = p.want(false, &["i"], Assign::Set, &e, g);
    rep.add(run("csf_i", p, g, &w, |y| {
        with_tensor(&CSF, dims3, &p.t, |tt| k::csf_i(tt, &p.z, bs, y))
    }));
    rep.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn explicit_sums_random(p in problem(4)) {
        explicit_sums(&p)?;
    }

    #[test]
    fn splitting_random(p in problem(4)) {
        splitting(&p)?;
    }
}

// ---- named edge cases

/// `m x n x q` with `a` = `entries` (`dup` = them twice, negated the second
/// time where odd, so duplicates cancel or add), `c` and `t` derived from
/// them, fixed dense operands.
fn fixed(m: usize, n: usize, q: usize, a: Entries<f64>) -> P {
    let seq = |len: usize, f: fn(usize) -> f64| (0..len).map(f).collect::<Vec<f64>>();
    P {
        m,
        n,
        q,
        dup: sorted(
            a.iter()
                .cloned()
                .chain(a.iter().map(|(c, v)| (c.clone(), -2.0 * v)))
                .collect(),
        ),
        c: a.iter()
            .filter(|(c, _)| c[0] < n && c[1] < q)
            .map(|(c, v)| (vec![c[0], c[1]], v - 1.0))
            .collect(),
        t: a.iter()
            .filter(|(c, _)| c[1] < q)
            .map(|(c, v)| (vec![c[0], c[1] % n.max(1), c[1]], *v))
            .filter(|(c, _)| c[1] < n)
            .collect(),
        x: seq(n, |j| j as f64 + 1.0),
        d: seq(n, |j| 2.0 - j as f64),
        z: seq(q, |k| (k % 3) as f64 - 1.0),
        g: seq(q, |k| 5.0 * k as f64),
        b: seq(m, |i| 10.0 * (i as f64 + 1.0)),
        e: seq(m, |i| i as f64 - 0.5),
        y0: seq(m, |i| i as f64 + 2.0),
        yq: seq(q, |k| k as f64 * 0.25),
        a,
    }
}

#[test]
fn sum_of_absolute_values_and_absolute_value_of_the_sum() {
    // a = | 1 -3 |: sum(j, abs(a)) = [4, 0, 2]; abs(a) = |row sum| =
    //     | .  . |  [2, 0, 2]; sum(j, select(a, > 0)) = [1, 0, 2];
    //     | 2  0 |  select(a, > 0) = the row sum if positive: [0, 0, 2].
    let a: Entries<f64> = vec![
        (vec![0, 0], 1.0),
        (vec![0, 1], -3.0),
        (vec![2, 0], 2.0),
        (vec![2, 1], 0.0),
    ];
    let mut y = [9.0; 3];
    with_tensor(&CSR, [3, 2], &a, |t| k::abs_sum_csr(t, &mut y)).unwrap();
    assert_eq!(y, [4.0, 0.0, 2.0]);
    with_tensor(&CSC, [3, 2], &a, |t| k::abs_sum_csc(t, &mut y)).unwrap();
    assert_eq!(y, [4.0, 0.0, 2.0]);
    with_tensor(&DCSR, [3, 2], &a, |t| k::abs_of_sum_dcsr(t, &mut y)).unwrap();
    assert_eq!(y, [2.0, 0.0, 2.0]);
    with_tensor(&CSC, [3, 2], &a, |t| k::pos_sum_csc(t, &mut y)).unwrap();
    assert_eq!(y, [1.0, 0.0, 2.0]);
    let mut y = [9.0; 3];
    with_tensor(&DCSR, [3, 2], &a, |t| k::pos_of_sum_dcsr(t, &mut y)).unwrap();
    assert_eq!(y, [0.0, 0.0, 2.0]);
    let mut s = 9.0;
    with_tensor(&CSC, [3, 2], &a, |t| k::s_abs_sum_csc(t, &mut s)).unwrap();
    assert_eq!(s, 6.0);
    with_tensor(&CSC, [3, 2], &a, |t| k::s_abs_of_sum_csc(t, &mut s)).unwrap();
    assert_eq!(s, 0.0);
}

#[test]
fn split_terms_by_hand() {
    // w = | 1 . 2 |  x = [1, 2, 3], b = [10, 20], e = [1, 2]:
    //     | . 3 . |  w x = [7, 6]; w x + b - e = [16, 24].
    let w: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![0, 2], 2.0), (vec![1, 1], 3.0)];
    let (x, b, e) = ([1.0, 2.0, 3.0], [10.0, 20.0], [1.0, 2.0]);
    let mut y = [777.0; 2];
    with_tensor(&CSC, [2, 3], &w, |t| k::split_csc(t, &x, &b, &e, &mut y)).unwrap();
    assert_eq!(y, [16.0, 24.0]);
    let mut y = [777.0; 2];
    with_tensor(&DCSC, [2, 3], &w, |t| k::split_dcsc(t, &x, &b, &e, &mut y)).unwrap();
    assert_eq!(y, [16.0, 24.0]);
    let mut y = [1.0, 2.0];
    with_tensor(&DCSC, [2, 3], &w, |t| {
        k::split_add_dcsc(t, &x, &b, &e, &mut y)
    })
    .unwrap();
    assert_eq!(y, [17.0, 26.0]);
    let mut y = [777.0; 2];
    with_tensor(&CSC, [2, 3], &w, |t| k::split_first_csc(t, &x, &b, &mut y)).unwrap();
    assert_eq!(y, [3.0, 14.0]);
}

#[test]
fn edge_cases() {
    let cases: Vec<(usize, usize, usize, Entries<f64>)> = vec![
        // Empty, 0-sized.
        (0, 0, 0, vec![]),
        (3, 0, 2, vec![]),
        (0, 3, 2, vec![]),
        (3, 4, 0, vec![]),
        (3, 4, 2, vec![]),
        // One entry; explicit zeros; a full row; an all-negative row.
        (3, 4, 3, vec![(vec![1, 2], 2.0)]),
        (3, 4, 3, vec![(vec![0, 0], 0.0), (vec![2, 3], -1.5)]),
        (
            2,
            3,
            3,
            vec![(vec![1, 0], 1.0), (vec![1, 1], -2.0), (vec![1, 2], 0.25)],
        ),
        (2, 2, 2, vec![(vec![0, 0], -1.0), (vec![0, 1], -2.0)]),
        // Coordinates at the maximum of the 8-bit DCSR/DCSC width.
        (2, 256, 1, vec![(vec![0, 255], 3.0), (vec![1, 0], 1.0)]),
    ];
    let mut rep = Report::default();
    for (m, n, q, a) in cases {
        let p = fixed(m, n, q, a);
        rep.add(explicit_sums(&p));
        rep.add(splitting(&p));
    }
    rep.finish().unwrap();
}
