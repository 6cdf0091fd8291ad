//! Compound assignments (issue 10, item 5) on dense outputs: `y -= e` adds
//! `-e`; `y *= e` and `y /= e` assign `y * E` and `y / E`, where `E` is `e`
//! with its reductions summed inside `e` (TACO's rule applied to `e`) and
//! the old element is read once, outside every sum. So `y[i] *= a[i, j] *
//! x[j]` is `y[i] = y[i] * sum_j (a[i, j] * x[j])`: a row of `a` with no
//! entries makes `y[i]` 0, and an elementwise `y[i, j] *= a[i, j]` zeroes
//! `y` wherever `a` stores nothing.
//!
//! Since issue 29 a `*=` or `/=` whose right-hand side reduces over an index
//! without saying how is a compile error (MLIR's `linalg.generic` would
//! multiply by every value, index notation by the sum; see
//! `tests/ui/kernel/compound-reduction.rs`): the kernels here write the sum
//! out, `y[i] *= sum(j, a[i, j] * x[j])`, which is what `*=` computed
//! before.
//!
//! The reference is the dense evaluator of `sparse_tests::index_notation`
//! ([`Assign::SubFrom`], [`Assign::MulBy`], [`Assign::DivBy`]), on outputs
//! pre-filled with known values, over CSR, CSC, DCSR, COO (nonunique
//! included) and dense operands; vectors, matrices and scalars.
//!
//! Left out because they are compile errors (each a spanned error today):
//! - `y[i] *= a[i, j] * x[j]` with a CSC `a`: the sum over `j` must run
//!   inside the loop over `i`, and a read output cannot be split;
//! - `/=` by anything holding a sparse operand (`y[i] /= a[i, j] * x[j]`
//!   with `a` sparse, `s[] /= v[i] * x[i]` with `v` sparse): "division by
//!   sparse tensor `a` would divide by its implicit zeros", so `/=` is
//!   tested with dense divisors (NaN-aware where a divisor sums to 0).

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, elem, entries, entries_with_duplicates, Entries};
use sparse_tests::index_notation::{access, evaluate, lit, Assign, Expr, Tensors};

use super::common::{same, sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>

        // y -= a x, every format.
        pub fn sub_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        pub fn sub_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        pub fn sub_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        pub fn sub_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        pub fn sub_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        pub fn sub_dense(a: &tensor<?x?xf64>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j];
        }
        // y -= (a x + b): the bias subtracted once.
        pub fn sub_bias_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j] + b[i];
        }
        pub fn sub_bias_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j] + b[i];
        }
        pub fn sub_bias_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j] + b[i];
        }
        // y *= a x: y times the row sum (0 for a row with no entries).
        pub fn mul_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]);
        }
        pub fn mul_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]);
        }
        pub fn mul_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]);
        }
        pub fn mul_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]);
        }
        pub fn mul_dense(a: &tensor<?x?xf64>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]);
        }
        pub fn mul_scaled_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j] * 2.0);
        }
        // y *= (a x + b): by TACO's rule inside `e`, `b` is added once.
        pub fn mul_bias_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn sub_bias_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] -= a[i, j] * x[j] + b[i];
        }
        pub fn mul_bias_dense(a: &tensor<?x?xf64>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] *= sum(j, a[i, j] * x[j]) + b[i];
        }
        // y /= d x (dense d: the sum may be 0, giving inf or NaN), y /= x.
        pub fn div_dense(d: &tensor<?x?xf64>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] /= sum(j, d[i, j] * x[j]);
        }
        pub fn div_vector(z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] /= z[i];
        }
        // Elementwise with a sparse vector: `*=` zeroes where `v` is absent.
        pub fn mul_sv(v: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] *= v[i];
        }
        pub fn sub_sv(v: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] -= v[i];
        }

        // Matrices, elementwise.
        pub fn msub_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] -= a[i, j];
        }
        pub fn msub_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?x?xf64>) {
            y[i, j] -= a[i, j];
        }
        pub fn msub_coo_nu(a: &tensor<?x?xf64, #COO_NU>, y: &mut tensor<?x?xf64>) {
            y[i, j] -= a[i, j];
        }
        pub fn mmul_csr(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] *= a[i, j];
        }
        pub fn mmul_csc(a: &tensor<?x?xf64, #CSC>, y: &mut tensor<?x?xf64>) {
            y[i, j] *= a[i, j];
        }
        pub fn mmul_dcsr(a: &tensor<?x?xf64, #DCSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] *= a[i, j];
        }
        pub fn mmul_coo_nu(a: &tensor<?x?xf64, #COO_NU>, y: &mut tensor<?x?xf64>) {
            y[i, j] *= a[i, j];
        }
        pub fn mdiv_dense(d: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, j] /= d[i, j];
        }
        // Matrices with a reduction.
        pub fn gemm_sub_csr(a: &tensor<?x?xf64, #CSR>, c: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, k] -= a[i, j] * c[j, k];
        }
        pub fn gemm_sub_csc(a: &tensor<?x?xf64, #CSC>, c: &tensor<?x?xf64, #CSC>, y: &mut tensor<?x?xf64>) {
            y[i, k] -= a[i, j] * c[j, k];
        }
        pub fn gemm_mul_csr(a: &tensor<?x?xf64, #CSR>, e: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, k] *= sum(j, a[i, j] * e[j, k]);
        }
        pub fn gemm_mul_dcsr(a: &tensor<?x?xf64, #DCSR>, e: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, k] *= sum(j, a[i, j] * e[j, k]);
        }

        // Scalars.
        pub fn s_sub(v: &tensor<?xf64, #SV>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] -= v[i] * x[i];
        }
        pub fn s_mul(v: &tensor<?xf64, #SV>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] *= sum(i, v[i] * x[i]);
        }
        pub fn s_sub_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] -= a[i, j] * x[j];
        }
        pub fn s_mul_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] *= sum(i, j, a[i, j] * x[j]);
        }
        pub fn s_mul_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] *= sum(i, j, a[i, j] * x[j]);
        }
        pub fn s_div_dense(z: &tensor<?xf64>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] /= sum(i, z[i] * x[i]);
        }
    }
}

/// One problem: `a` (`m x n`, unique entries; `dup` the same shape with
/// repeated coordinates), `c` (`n x p`, sparse), `e` (`n x p`, dense), `d`
/// (`m x n`, dense), `x` (`n`), `b` (`m`), `z` (`m`, no zeros), `v` (`m`,
/// sparse), old outputs `y0` (`m`), `ym` (`m x n`), `yg` (`m x p`), `s0`.
#[derive(Clone, Debug)]
struct P {
    m: usize,
    n: usize,
    p: usize,
    a: Entries<f64>,
    dup: Entries<f64>,
    c: Entries<f64>,
    e: Vec<f64>,
    d: Vec<f64>,
    x: Vec<f64>,
    b: Vec<f64>,
    z: Vec<f64>,
    v: Entries<f64>,
    y0: Vec<f64>,
    ym: Vec<f64>,
    yg: Vec<f64>,
    s0: f64,
}

/// Small values with no zero (divisors of exact quotients' tests).
fn nonzero_vec(len: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(
        elem::<f64>().prop_map(|v| if v == 0.0 { 1.0 } else { v }),
        len,
    )
}

fn problem(max: usize) -> impl Strategy<Value = P> {
    dims::<3>(max).prop_flat_map(|[m, n, p]| {
        (
            (
                entries::<f64>(&[m, n]),
                entries_with_duplicates::<f64>(&[m, n], 12),
                entries::<f64>(&[n, p]),
                dense_vec::<f64>(n * p),
                dense_vec::<f64>(m * n),
                dense_vec::<f64>(n),
            ),
            (
                dense_vec::<f64>(m),
                nonzero_vec(m),
                entries::<f64>(&[m]),
                dense_vec::<f64>(m),
                dense_vec::<f64>(m * n),
                dense_vec::<f64>(m * p),
                elem::<f64>(),
            ),
        )
            .prop_map(move |((a, dup, c, e, d, x), (b, z, v, y0, ym, yg, s0))| P {
                m,
                n,
                p,
                a,
                dup: sorted(dup),
                c,
                e,
                d,
                x,
                b,
                z,
                v,
                y0,
                ym,
                yg,
                s0,
            })
    })
}

/// The dense tensors of `p` by name, `a` (or `dup` as `a` when `dup`).
struct Operands {
    t: Vec<(&'static str, Dense<f64>)>,
}

impl Operands {
    fn new(p: &P, dup: bool) -> Self {
        let (m, n, q) = (p.m, p.n, p.p);
        let a = if dup { &p.dup } else { &p.a };
        Operands {
            t: vec![
                ("a", Dense::from_entries(&[m, n], a)),
                ("c", Dense::from_entries(&[n, q], &p.c)),
                ("e", Dense::from_data(&[n, q], p.e.clone())),
                ("d", Dense::from_data(&[m, n], p.d.clone())),
                ("x", Dense::from_data(&[n], p.x.clone())),
                ("b", Dense::from_data(&[m], p.b.clone())),
                ("z", Dense::from_data(&[m], p.z.clone())),
                ("v", Dense::from_entries(&[m], &p.v)),
            ],
        }
    }

    /// `out[lhs] assign e` by the evaluator, from `old` of shape `dims`.
    fn want(
        &self,
        lhs: &[&str],
        assign: Assign,
        e: &Expr,
        dims: &[usize],
        old: &[f64],
    ) -> Vec<f64> {
        let t: Tensors = self.t.iter().map(|(n, d)| (*n, d)).collect();
        let mut y = Dense::from_data(dims, old.to_vec());
        evaluate(lhs, assign, e, &t, &mut y);
        y.data
    }
}

fn a() -> Expr {
    access("a", &["i", "j"])
}
fn x() -> Expr {
    access("x", &["j"])
}

/// `kernel(y)` on a copy of `old` against `want`.
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
    same(&format!("{what}: old {old:?}, {p:?}"), &y, want)
}

/// `kernel(s)` on `p.s0` against `want`.
fn run_scalar(
    what: &str,
    p: &P,
    want: &[f64],
    kernel: impl FnOnce(&mut f64) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let mut s = p.s0;
    let r = kernel(&mut s);
    prop_assert_eq!(r, Ok(()), "{}", what);
    same(&format!("{what}: old {}, {p:?}", p.s0), &[s], want)
}

fn vectors(p: &P) -> Result<(), TestCaseError> {
    let (m, n) = (p.m, p.n);
    let d = [m, n];
    let (xs, bs, y0) = (&p.x[..], &p.b[..], &p.y0[..]);
    let ops = Operands::new(p, false);
    let dups = Operands::new(p, true);
    let ad = Dense::from_entries(&d, &p.a);
    let adense = DenseView::new(&ad.data, d).unwrap();
    let dview = DenseView::new(&p.d, d).unwrap();
    let coo_a = sorted(p.a.clone());
    let want = |ops: &Operands, assign, e: &Expr| ops.want(&["i"], assign, e, &[m], y0);
    let mut rep = Report::default();

    let w = want(&ops, Assign::SubFrom, &(a() * x()));
    rep.add(run("sub_csr", p, y0, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::sub_csr(t, xs, y))
    }));
    rep.add(run("sub_csc", p, y0, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::sub_csc(t, xs, y))
    }));
    rep.add(run("sub_dcsr", p, y0, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::sub_dcsr(t, xs, y))
    }));
    rep.add(run("sub_coo", p, y0, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::sub_coo(t, xs, y))
    }));
    rep.add(run("sub_dense", p, y0, &w, |y| k::sub_dense(adense, xs, y)));
    let w = want(&dups, Assign::SubFrom, &(a() * x()));
    rep.add(run("sub_coo_nu", p, y0, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::sub_coo_nu(t, xs, y))
    }));

    let e = a() * x() + access("b", &["i"]);
    let w = want(&ops, Assign::SubFrom, &e);
    rep.add(run("sub_bias_csr", p, y0, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::sub_bias_csr(t, xs, bs, y))
    }));
    rep.add(run("sub_bias_dcsr", p, y0, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::sub_bias_dcsr(t, xs, bs, y))
    }));
    rep.add(run("sub_bias_coo", p, y0, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::sub_bias_coo(t, xs, bs, y))
    }));

    let w = want(&ops, Assign::MulBy, &(a() * x()));
    rep.add(run("mul_csr", p, y0, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::mul_csr(t, xs, y))
    }));
    rep.add(run("mul_dcsr", p, y0, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::mul_dcsr(t, xs, y))
    }));
    rep.add(run("mul_coo", p, y0, &w, |y| {
        with_tensor(&COO, d, &coo_a, |t| k::mul_coo(t, xs, y))
    }));
    rep.add(run("mul_dense", p, y0, &w, |y| k::mul_dense(adense, xs, y)));
    let w = want(&dups, Assign::MulBy, &(a() * x()));
    rep.add(run("mul_coo_nu", p, y0, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::mul_coo_nu(t, xs, y))
    }));
    let w = want(&ops, Assign::MulBy, &(a() * x() * lit(2.0)));
    rep.add(run("mul_scaled_csr", p, y0, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::mul_scaled_csr(t, xs, y))
    }));

    let w = want(&ops, Assign::DivBy, &(access("d", &["i", "j"]) * x()));
    rep.add(run("div_dense", p, y0, &w, |y| k::div_dense(dview, xs, y)));
    let w = want(&ops, Assign::DivBy, &access("z", &["i"]));
    rep.add(run("div_vector", p, y0, &w, |y| k::div_vector(&p.z, y)));

    let w = want(&ops, Assign::MulBy, &access("v", &["i"]));
    rep.add(run("mul_sv", p, y0, &w, |y| {
        with_tensor(&SV, [m], &p.v, |t| k::mul_sv(t, y))
    }));
    let w = want(&ops, Assign::SubFrom, &access("v", &["i"]));
    rep.add(run("sub_sv", p, y0, &w, |y| {
        with_tensor(&SV, [m], &p.v, |t| k::sub_sv(t, y))
    }));
    rep.finish()
}

/// `y[i] *= a[i, j] * x[j] + b[i]`: `b` added once, not once per `j`.
fn mul_bias(p: &P) -> Result<(), TestCaseError> {
    let d = [p.m, p.n];
    let ops = Operands::new(p, false);
    let e = a() * x() + access("b", &["i"]);
    let w = ops.want(&["i"], Assign::MulBy, &e, &[p.m], &p.y0);
    let ad = Dense::from_entries(&d, &p.a);
    let mut rep = Report::default();
    rep.add(run("mul_bias_csr", p, &p.y0, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::mul_bias_csr(t, &p.x, &p.b, y))
    }));
    rep.add(run("mul_bias_dense", p, &p.y0, &w, |y| {
        k::mul_bias_dense(DenseView::new(&ad.data, d).unwrap(), &p.x, &p.b, y)
    }));
    rep.finish()
}

fn matrices(p: &P) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.p);
    let d = [m, n];
    let ops = Operands::new(p, false);
    let dups = Operands::new(p, true);
    let ij = ["i", "j"];
    let mut rep = Report::default();

    let w = ops.want(&ij, Assign::SubFrom, &a(), &d, &p.ym);
    rep.add(run("msub_csr", p, &p.ym, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::msub_csr(t, out(y, d)))
    }));
    rep.add(run("msub_csc", p, &p.ym, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::msub_csc(t, out(y, d)))
    }));
    let w = dups.want(&ij, Assign::SubFrom, &a(), &d, &p.ym);
    rep.add(run("msub_coo_nu", p, &p.ym, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::msub_coo_nu(t, out(y, d)))
    }));

    let w = ops.want(&ij, Assign::MulBy, &a(), &d, &p.ym);
    rep.add(run("mmul_csr", p, &p.ym, &w, |y| {
        with_tensor(&CSR, d, &p.a, |t| k::mmul_csr(t, out(y, d)))
    }));
    rep.add(run("mmul_csc", p, &p.ym, &w, |y| {
        with_tensor(&CSC, d, &p.a, |t| k::mmul_csc(t, out(y, d)))
    }));
    rep.add(run("mmul_dcsr", p, &p.ym, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |t| k::mmul_dcsr(t, out(y, d)))
    }));
    let w = dups.want(&ij, Assign::MulBy, &a(), &d, &p.ym);
    rep.add(run("mmul_coo_nu", p, &p.ym, &w, |y| {
        with_tensor(&COO, d, &p.dup, |t| k::mmul_coo_nu(t, out(y, d)))
    }));
    let w = ops.want(&ij, Assign::DivBy, &access("d", &ij), &d, &p.ym);
    rep.add(run("mdiv_dense", p, &p.ym, &w, |y| {
        k::mdiv_dense(DenseView::new(&p.d, d).unwrap(), out(y, d))
    }));

    let g = [m, q];
    let ik = ["i", "k"];
    let e = access("a", &["i", "j"]) * access("c", &["j", "k"]);
    let w = ops.want(&ik, Assign::SubFrom, &e, &g, &p.yg);
    rep.add(run("gemm_sub_csr", p, &p.yg, &w, |y| {
        with_tensor(&CSR, d, &p.a, |ta| {
            with_tensor(&CSR, [n, q], &p.c, |tc| k::gemm_sub_csr(ta, tc, out(y, g)))
        })
    }));
    rep.add(run("gemm_sub_csc", p, &p.yg, &w, |y| {
        with_tensor(&CSC, d, &p.a, |ta| {
            with_tensor(&CSC, [n, q], &p.c, |tc| k::gemm_sub_csc(ta, tc, out(y, g)))
        })
    }));
    let e = access("a", &["i", "j"]) * access("e", &["j", "k"]);
    let w = ops.want(&ik, Assign::MulBy, &e, &g, &p.yg);
    let ev = DenseView::new(&p.e, [n, q]).unwrap();
    rep.add(run("gemm_mul_csr", p, &p.yg, &w, |y| {
        with_tensor(&CSR, d, &p.a, |ta| k::gemm_mul_csr(ta, ev, out(y, g)))
    }));
    rep.add(run("gemm_mul_dcsr", p, &p.yg, &w, |y| {
        with_tensor(&DCSR, d, &p.a, |ta| k::gemm_mul_dcsr(ta, ev, out(y, g)))
    }));
    rep.finish()
}

/// `y` as a kernel's dense matrix output.
fn out(y: &mut [f64], dims: [usize; 2]) -> DenseViewMut<'_, f64, 2> {
    DenseViewMut::new(y, dims).unwrap()
}

fn scalars(p: &P) -> Result<(), TestCaseError> {
    let d = [p.m, p.n];
    let ops = Operands::new(p, false);
    let dups = Operands::new(p, true);
    let s0 = [p.s0];
    // `v` (length m) against `b` as the dense factor: `x` has length n.
    let vb = access("v", &["i"]) * access("b", &["i"]);
    let mut rep = Report::default();
    let w = ops.want(&[], Assign::SubFrom, &vb, &[], &s0);
    rep.add(run_scalar("s_sub", p, &w, |s| {
        with_tensor(&SV, [p.m], &p.v, |t| k::s_sub(t, &p.b, s))
    }));
    let w = ops.want(&[], Assign::MulBy, &vb, &[], &s0);
    rep.add(run_scalar("s_mul", p, &w, |s| {
        with_tensor(&SV, [p.m], &p.v, |t| k::s_mul(t, &p.b, s))
    }));
    let w = ops.want(&[], Assign::SubFrom, &(a() * x()), &[], &s0);
    rep.add(run_scalar("s_sub_csc", p, &w, |s| {
        with_tensor(&CSC, d, &p.a, |t| k::s_sub_csc(t, &p.x, s))
    }));
    let w = ops.want(&[], Assign::MulBy, &(a() * x()), &[], &s0);
    rep.add(run_scalar("s_mul_csc", p, &w, |s| {
        with_tensor(&CSC, d, &p.a, |t| k::s_mul_csc(t, &p.x, s))
    }));
    let w = dups.want(&[], Assign::MulBy, &(a() * x()), &[], &s0);
    rep.add(run_scalar("s_mul_coo_nu", p, &w, |s| {
        with_tensor(&COO, d, &p.dup, |t| k::s_mul_coo_nu(t, &p.x, s))
    }));
    // A sum of products that may be 0: inf or NaN on both sides.
    let zb = access("z", &["i"]) * access("b", &["i"]);
    let w = ops.want(&[], Assign::DivBy, &zb, &[], &s0);
    rep.add(run_scalar("s_div_dense", p, &w, |s| {
        k::s_div_dense(&p.z, &p.b, s)
    }));
    rep.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn vectors_random(p in problem(4)) {
        vectors(&p)?;
    }

    #[test]
    fn mul_bias_random(p in problem(4)) {
        mul_bias(&p)?;
    }

    #[test]
    fn matrices_random(p in problem(4)) {
        matrices(&p)?;
    }

    #[test]
    fn scalars_random(p in problem(4)) {
        scalars(&p)?;
    }
}

// ---- named edge cases

/// `m x n` with `a` = `entries`, `dup` = `entries` twice, and fixed dense
/// operands: `x = 1..=n`, `b = 10, 20, ..`, `z = 1, -2, 3, ..`, old values
/// `y = 2, 3, ..`.
fn fixed(m: usize, n: usize, q: usize, a: Entries<f64>) -> P {
    let seq = |len: usize, f: fn(usize) -> f64| (0..len).map(f).collect::<Vec<f64>>();
    P {
        m,
        n,
        p: q,
        dup: sorted([a.clone(), a.clone()].concat()),
        c: a.iter()
            .filter(|(c, _)| c[0] < n && c[1] < q)
            .map(|(c, v)| (vec![c[0], c[1]], v + 1.0))
            .collect(),
        e: seq(n * q, |k| k as f64 - 2.0),
        d: seq(m * n, |k| (k % 3) as f64 - 1.0),
        x: seq(n, |j| j as f64 + 1.0),
        b: seq(m, |i| 10.0 * (i as f64 + 1.0)),
        z: seq(m, |i| {
            if i % 2 == 0 {
                i as f64 + 1.0
            } else {
                -(i as f64) - 1.0
            }
        }),
        v: a.iter()
            .filter(|(c, _)| c[1] == 0)
            .map(|(c, v)| (vec![c[0]], *v))
            .collect(),
        y0: seq(m, |i| i as f64 + 2.0),
        ym: seq(m * n, |k| k as f64 + 0.5),
        yg: seq(m * q, |k| k as f64 - 0.25),
        s0: 3.0,
        a,
    }
}

#[test]
fn a_row_with_no_entries_zeroes_the_product() {
    // a = | 1 . 2 |   x = [1, 2, 3], y = [2, 3, 4]:
    //     | . . . |   a x = [7, 0, 6], y *= a x: [14, 0, 24];
    //     | . 3 . |   y -= a x: [-5, 3, -2].
    let a: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![0, 2], 2.0), (vec![2, 1], 3.0)];
    let x = [1.0, 2.0, 3.0];
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&CSR, [3, 3], &a, |t| k::mul_csr(t, &x, &mut y)).unwrap();
    assert_eq!(y, [14.0, 0.0, 24.0]);
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&DCSR, [3, 3], &a, |t| k::mul_dcsr(t, &x, &mut y)).unwrap();
    assert_eq!(y, [14.0, 0.0, 24.0]);
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&CSC, [3, 3], &a, |t| k::sub_csc(t, &x, &mut y)).unwrap();
    assert_eq!(y, [-5.0, 3.0, -2.0]);
    // y -= a x + b, b = [10, 20, 30]: [2 - 17, 3 - 20, 4 - 36].
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&CSR, [3, 3], &a, |t| {
        k::sub_bias_csr(t, &x, &[10.0, 20.0, 30.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [-15.0, -17.0, -32.0]);
    // Elementwise: y *= a zeroes every element `a` does not store.
    let mut y = [1.0; 9];
    with_tensor(&CSC, [3, 3], &a, |t| {
        k::mmul_csc(t, DenseViewMut::new(&mut y, [3, 3]).unwrap())
    })
    .unwrap();
    assert_eq!(y, [1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0]);
}

#[test]
fn mul_bias_adds_the_bias_once() {
    // The example above with b = [10, 20, 30]: y *= a x + b is
    // [2 * 17, 3 * 20, 4 * 36] = [34, 60, 144] (TACO's rule inside `e`);
    // summing `a x + b` over `j` would add b three times: [74, 180, 384].
    let a: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![0, 2], 2.0), (vec![2, 1], 3.0)];
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&CSR, [3, 3], &a, |t| {
        k::mul_bias_csr(t, &[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [34.0, 60.0, 144.0]);
    // `-=` of a sum and a bias with a CSC `a`: computed one term at a time,
    // y - (a x + b) = [2 - 17, 3 - 20, 4 - 36].
    let mut y = [2.0, 3.0, 4.0];
    with_tensor(&CSC, [3, 3], &a, |t| {
        k::sub_bias_csc(t, &[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [-15.0, -17.0, -32.0]);
}

#[test]
fn division_by_a_zero_sum_is_inf_or_nan() {
    // d x = [0, 2] for d = | 1 -1 |, x = [1, 1]: y = [1, 0] / [0, 2] ...
    //                      | 1  1 |
    // ... y = [inf, 0]; y = [0, 4] / [0, 2]: [NaN, 2].
    let d = [1.0, -1.0, 1.0, 1.0];
    for (old, want) in [
        ([1.0, 0.0], [f64::INFINITY, 0.0]),
        ([0.0, 4.0], [f64::NAN, 2.0]),
    ] {
        let mut y = old;
        k::div_dense(DenseView::new(&d, [2, 2]).unwrap(), &[1.0, 1.0], &mut y).unwrap();
        same("div_dense", &y, &want).unwrap();
    }
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
        // One entry; explicit zeros; a full row.
        (3, 4, 2, vec![(vec![1, 2], 2.0)]),
        (3, 4, 3, vec![(vec![0, 0], 0.0), (vec![2, 3], -1.5)]),
        (
            2,
            3,
            3,
            vec![(vec![1, 0], 1.0), (vec![1, 1], -2.0), (vec![1, 2], 0.25)],
        ),
        // Coordinates at the maximum of the 8-bit DCSR width.
        (2, 256, 1, vec![(vec![0, 255], 3.0), (vec![1, 0], 1.0)]),
    ];
    let mut rep = Report::default();
    for (m, n, q, a) in cases {
        let p = fixed(m, n, q, a);
        rep.add(vectors(&p));
        rep.add(matrices(&p));
        rep.add(scalars(&p));
    }
    rep.finish().unwrap();
}

#[test]
fn duplicates_add_up_before_the_product() {
    // COO with (0, 1) stored twice as 1 and 2: a[0, 1] = 3; x = [5, 2]:
    // y *= a x: [4 * 6]; y -= a x: [4 - 6]; s *= sum(a x) = 6.
    let dup: Entries<f64> = vec![(vec![0, 1], 1.0), (vec![0, 1], 2.0)];
    let x = [5.0, 2.0];
    let mut y = [4.0];
    with_tensor(&COO, [1, 2], &dup, |t| k::mul_coo_nu(t, &x, &mut y)).unwrap();
    assert_eq!(y, [24.0]);
    let mut y = [4.0];
    with_tensor(&COO, [1, 2], &dup, |t| k::sub_coo_nu(t, &x, &mut y)).unwrap();
    assert_eq!(y, [-2.0]);
    let mut s = 0.5;
    with_tensor(&COO, [1, 2], &dup, |t| k::s_mul_coo_nu(t, &x, &mut s)).unwrap();
    assert_eq!(s, 3.0);
    // Elementwise y *= a: 7 * 3 where stored, 0 elsewhere.
    let mut y = [7.0, 7.0];
    with_tensor(&COO, [1, 2], &dup, |t| {
        k::mmul_coo_nu(t, DenseViewMut::new(&mut y, [1, 2]).unwrap())
    })
    .unwrap();
    assert_eq!(y, [0.0, 21.0]);
}
