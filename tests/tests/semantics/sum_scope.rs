//! Sum scope (issue 10, item 1): a reduction index sums over the smallest
//! subexpression holding every use of it. Each kernel is compared with the
//! same statement run by the independent dense evaluator
//! (`sparse_tests::index_notation`), on random operands in CSR, CSC, DCSR,
//! COO (unique, and nonunique with duplicates, which add up), CSF and dense
//! storage: implicit zeros, explicit stored zeros (the generators draw 0),
//! empty rows and 0-sized dimensions. Dense outputs are pre-filled with
//! garbage for `=` and with known values for `+=`.

use proptest::prelude::*;
use sparse_core::{DenseView, DenseViewMut};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, entries_with_duplicates, Elem, Entries};
use sparse_tests::index_notation::{access, call, evaluate, lit, Assign, Expr, Func, Tensors};

use super::common::{same, sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        // y = (sum_j w x) + b, w in every format.
        pub fn bias_csr(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_dcsr(w: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_coo(w: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_coo_nu(w: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        pub fn bias_dense(w: &tensor<?x?xf64>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i];
        }
        // A third term after the bias (taco issue 576's shape).
        pub fn bias_zero_csr(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i] + 0.0;
        }
        pub fn bias_zero_dcsr(w: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] + b[i] + 0.0;
        }
        // The bias first, and subtracted.
        pub fn bias_first_csr(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] + w[i, j] * x[j];
        }
        pub fn bias_first_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = b[i] + w[i, j] * x[j];
        }
        pub fn minus_bias_coo(w: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = w[i, j] * x[j] - b[i];
        }
        // Two matrices sharing the reduction, then the bias.
        pub fn two_matrices(w: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>,
                            b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = (w[i, j] * x[j] + u[i, j] * x[j]) + b[i];
        }
        pub fn two_matrices_coo(w: &tensor<?x?xf64, #COO>, u: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>,
                                b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = (w[i, j] * x[j] + u[i, j] * x[j]) + b[i];
        }
        pub fn two_matrices_csc(w: &tensor<?x?xf64, #CSC>, u: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>,
                                b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = (w[i, j] * x[j] + u[i, j] * x[j]) + b[i];
        }
        // The sum nested in calls, then scaled.
        pub fn nested_call_csr(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, c: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sqrt(abs(w[i, j] * x[j])) * c[i];
        }
        pub fn nested_call_dcsr(w: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, c: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = sqrt(abs(w[i, j] * x[j])) * c[i];
        }
        // `+=`: the sum and the bias are added once each.
        pub fn add_assign_csr(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i];
        }
        pub fn add_assign_csc(w: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i];
        }
        pub fn add_assign_dcsr(w: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] += w[i, j] * x[j] + b[i];
        }
        // Two reduction indices, summed separately.
        pub fn two_depths(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, c: &tensor<?x?xf64, #DCSR>,
                          z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j] + c[i, k] * z[k];
        }
        pub fn two_depths_csc_coo(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, c: &tensor<?x?xf64, #COO>,
                                  z: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j] + c[i, k] * z[k];
        }
        // A reduction inside another: k inside, j outside.
        pub fn inner_outer(a: &tensor<?x?xf64, #CSR>, v: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>,
                           d: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * (v[j, k] * z[k] + d[j]);
        }
        pub fn inner_outer_dcsr(a: &tensor<?x?xf64, #DCSR>, v: &tensor<?x?xf64, #DCSR>, z: &tensor<?xf64>,
                                    d: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * (v[j, k] * z[k] + d[j]);
        }
        // Scalar outputs.
        pub fn dot_plus(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, c: f64, s: &mut tensor<f64>) {
            s[] = a[i] * b[i] + c;
        }
        pub fn dot_plus_add(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, c: f64, s: &mut tensor<f64>) {
            s[] += a[i] * b[i] + c;
        }
        pub fn matrix_plus(w: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, c: f64, s: &mut tensor<f64>) {
            s[] = w[i, j] * x[j] + c;
        }
        // Three dimensions.
        pub fn csf_bias(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, m: &tensor<?x?xf64>, y: &mut tensor<?x?xf64>) {
            y[i, j] = t[i, j, k] * z[k] + m[i, j];
        }
        pub fn csf_rows(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, b: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = t[i, j, k] * z[k] + b[i];
        }
        // The sum as an operand of `binary`: present on every row of a CSR
        // matrix (its rows are dense), so `right` never runs.
        pub fn binary_of_sum(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i, j] * x[j], b[i], overlap = |p, q| p + q, left = |p| p * 2.0, right = |q| q - 100.0);
        }
        pub fn binary_of_sum_identity(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i, j] * x[j], b[i], overlap = |p, q| p + q, left = identity, right = identity);
        }
    }
}

fn w() -> Expr {
    access("w", &["i", "j"])
}
fn u() -> Expr {
    access("u", &["i", "j"])
}
fn x() -> Expr {
    access("x", &["j"])
}
fn b() -> Expr {
    access("b", &["i"])
}

/// One matrix-vector problem: `w`, `u` (`m x n`), `x` (`n`), `b`, `c`,
/// `y0` (`m`): `y0` is the old output of `+=`.
#[derive(Clone, Debug)]
struct Mv {
    m: usize,
    n: usize,
    w: Entries<f64>,
    u: Entries<f64>,
    x: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    y0: Vec<f64>,
}

impl Mv {
    fn dense(&self) -> [Dense<f64>; 5] {
        let (m, n) = (self.m, self.n);
        [
            Dense::from_entries(&[m, n], &self.w),
            Dense::from_entries(&[m, n], &self.u),
            Dense::from_data(&[n], self.x.clone()),
            Dense::from_data(&[m], self.b.clone()),
            Dense::from_data(&[m], self.c.clone()),
        ]
    }

    /// `y[i] (=|+=) e` by the evaluator.
    fn want(&self, assign: Assign, e: &Expr) -> Vec<f64> {
        let [wd, ud, xd, bd, cd] = self.dense();
        let t: Tensors = [("w", &wd), ("u", &ud), ("x", &xd), ("b", &bd), ("c", &cd)].into();
        let mut y = Dense::from_data(&[self.m], self.y0.clone());
        evaluate(&["i"], assign, e, &t, &mut y);
        y.data
    }
}

fn mv(max: usize) -> impl Strategy<Value = Mv> {
    dims::<2>(max).prop_flat_map(|[m, n]| {
        (
            entries::<f64>(&[m, n]),
            entries::<f64>(&[m, n]),
            dense_vec::<f64>(n),
            dense_vec::<f64>(m),
            dense_vec::<f64>(m),
            dense_vec::<f64>(m),
        )
            .prop_map(move |(w, u, x, b, c, y0)| Mv {
                m,
                n,
                w,
                u,
                x,
                b,
                c,
                y0,
            })
    })
}

/// `y = kernel(...)` into garbage against `want`.
fn run(
    what: &str,
    p: &Mv,
    want: &[f64],
    kernel: impl FnOnce(&mut [f64]) -> Result<(), sparse_core::KernelError>,
) -> Result<(), TestCaseError> {
    let mut y = vec![f64::GARBAGE; p.m];
    let r = kernel(&mut y);
    prop_assert_eq!(r, Ok(()), "{}", what);
    same(&format!("{what} {p:?}"), &y, want)
}

/// `y += kernel(...)` onto `p.y0` against `want`.
fn run_add(
    what: &str,
    p: &Mv,
    want: &[f64],
    kernel: impl FnOnce(&mut [f64]) -> Result<(), sparse_core::KernelError>,
) -> Result<(), TestCaseError> {
    let mut y = p.y0.clone();
    let r = kernel(&mut y);
    prop_assert_eq!(r, Ok(()), "{}", what);
    same(&format!("{what} {p:?}"), &y, want)
}

fn matrix_vector(p: &Mv) -> Result<(), TestCaseError> {
    let d = [p.m, p.n];
    let (xs, bs, cs) = (&p.x[..], &p.b[..], &p.c[..]);
    let coo_w = sorted(p.w.clone());
    let mut rep = Report::default();

    let want = p.want(Assign::Set, &(w() * x() + b()));
    rep.add(run("bias_csr", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| k::bias_csr(t, xs, bs, y))
    }));
    rep.add(run("bias_csc", p, &want, |y| {
        with_tensor(&CSC, d, &p.w, |t| k::bias_csc(t, xs, bs, y))
    }));
    rep.add(run("bias_dcsr", p, &want, |y| {
        with_tensor(&DCSR, d, &p.w, |t| k::bias_dcsr(t, xs, bs, y))
    }));
    rep.add(run("bias_coo", p, &want, |y| {
        with_tensor(&COO, d, &coo_w, |t| k::bias_coo(t, xs, bs, y))
    }));
    let wd = Dense::from_entries(&d, &p.w);
    rep.add(run("bias_dense", p, &want, |y| {
        k::bias_dense(DenseView::new(&wd.data, d).unwrap(), xs, bs, y)
    }));

    let want = p.want(Assign::Set, &(w() * x() + b() + lit(0.0)));
    rep.add(run("bias_zero_csr", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| k::bias_zero_csr(t, xs, bs, y))
    }));
    rep.add(run("bias_zero_dcsr", p, &want, |y| {
        with_tensor(&DCSR, d, &p.w, |t| k::bias_zero_dcsr(t, xs, bs, y))
    }));

    let want = p.want(Assign::Set, &(b() + w() * x()));
    rep.add(run("bias_first_csr", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| k::bias_first_csr(t, xs, bs, y))
    }));
    rep.add(run("bias_first_csc", p, &want, |y| {
        with_tensor(&CSC, d, &p.w, |t| k::bias_first_csc(t, xs, bs, y))
    }));
    let want = p.want(Assign::Set, &(w() * x() - b()));
    rep.add(run("minus_bias_coo", p, &want, |y| {
        with_tensor(&COO, d, &coo_w, |t| k::minus_bias_coo(t, xs, bs, y))
    }));

    let want = p.want(Assign::Set, &((w() * x() + u() * x()) + b()));
    rep.add(run("two_matrices", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |tw| {
            with_tensor(&DCSR, d, &p.u, |tu| k::two_matrices(tw, tu, xs, bs, y))
        })
    }));
    rep.add(run("two_matrices_coo", p, &want, |y| {
        with_tensor(&COO, d, &coo_w, |tw| {
            with_tensor(&CSR, d, &p.u, |tu| k::two_matrices_coo(tw, tu, xs, bs, y))
        })
    }));
    rep.add(run("two_matrices_csc", p, &want, |y| {
        with_tensor(&CSC, d, &p.w, |tw| {
            with_tensor(&CSC, d, &p.u, |tu| k::two_matrices_csc(tw, tu, xs, bs, y))
        })
    }));

    let e = call(Func::Sqrt, vec![call(Func::Abs, vec![w() * x()])]) * access("c", &["i"]);
    let want = p.want(Assign::Set, &e);
    rep.add(run("nested_call_csr", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| k::nested_call_csr(t, xs, cs, y))
    }));
    rep.add(run("nested_call_dcsr", p, &want, |y| {
        with_tensor(&DCSR, d, &p.w, |t| k::nested_call_dcsr(t, xs, cs, y))
    }));

    let want = p.want(Assign::AddTo, &(w() * x() + b()));
    rep.add(run_add("add_assign_csr", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| k::add_assign_csr(t, xs, bs, y))
    }));
    rep.add(run_add("add_assign_csc", p, &want, |y| {
        with_tensor(&CSC, d, &p.w, |t| k::add_assign_csc(t, xs, bs, y))
    }));
    rep.add(run_add("add_assign_dcsr", p, &want, |y| {
        with_tensor(&DCSR, d, &p.w, |t| k::add_assign_dcsr(t, xs, bs, y))
    }));

    // The sum as a `binary` operand, present on every row; `b` a sparse
    // vector holding the stored entries of `u`'s first column.
    let bv: Entries<f64> =
        p.u.iter()
            .filter(|(c, _)| c[1] == 0)
            .map(|(c, v)| (vec![c[0]], *v))
            .collect();
    let sums = p.want(Assign::Set, &(w() * x()));
    let present = |i: usize| bv.iter().find(|(c, _)| c[0] == i).map(|(_, v)| *v);
    let want: Vec<f64> = (0..p.m)
        .map(|i| present(i).map_or(sums[i] * 2.0, |q| sums[i] + q))
        .collect();
    rep.add(run("binary_of_sum", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| {
            with_tensor(&SV, [p.m], &bv, |tb| k::binary_of_sum(t, xs, tb, y))
        })
    }));
    let want: Vec<f64> = (0..p.m)
        .map(|i| sums[i] + present(i).unwrap_or(0.0))
        .collect();
    rep.add(run("binary_of_sum_identity", p, &want, |y| {
        with_tensor(&CSR, d, &p.w, |t| {
            with_tensor(&SV, [p.m], &bv, |tb| {
                k::binary_of_sum_identity(t, xs, tb, y)
            })
        })
    }));
    rep.finish()
}

/// `bias_coo_nu` on entries whose coordinates repeat: the tensor is the sum
/// of its duplicates.
fn duplicates(p: &Mv, dup: &Entries<f64>) -> Result<(), TestCaseError> {
    let p = Mv {
        w: sorted(dup.clone()),
        ..p.clone()
    };
    let want = p.want(Assign::Set, &(w() * x() + b()));
    run("bias_coo_nu", &p, &want, |y| {
        with_tensor(&COO, [p.m, p.n], &p.w, |t| k::bias_coo_nu(t, &p.x, &p.b, y))
    })
}

/// Two reduction indices at two depths: `a` (`m x n`), `c` (`m x q` or
/// `n x q`), `x` (`n`), `z` (`q`), `d` (`n`).
#[derive(Clone, Debug)]
struct Deep {
    m: usize,
    n: usize,
    q: usize,
    a: Entries<f64>,
    c: Entries<f64>,
    v: Entries<f64>,
    x: Vec<f64>,
    z: Vec<f64>,
    d: Vec<f64>,
}

fn deep(max: usize) -> impl Strategy<Value = Deep> {
    dims::<3>(max).prop_flat_map(|[m, n, q]| {
        (
            entries::<f64>(&[m, n]),
            entries::<f64>(&[m, q]),
            entries::<f64>(&[n, q]),
            dense_vec::<f64>(n),
            dense_vec::<f64>(q),
            dense_vec::<f64>(n),
        )
            .prop_map(move |(a, c, v, x, z, d)| Deep {
                m,
                n,
                q,
                a,
                c,
                v,
                x,
                z,
                d,
            })
    })
}

fn depths(p: &Deep) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.q);
    let ad = Dense::from_entries(&[m, n], &p.a);
    let cd = Dense::from_entries(&[m, q], &p.c);
    let vd = Dense::from_entries(&[n, q], &p.v);
    let xd = Dense::from_data(&[n], p.x.clone());
    let zd = Dense::from_data(&[q], p.z.clone());
    let dd = Dense::from_data(&[n], p.d.clone());
    let t: Tensors = [
        ("a", &ad),
        ("c", &cd),
        ("v", &vd),
        ("x", &xd),
        ("z", &zd),
        ("d", &dd),
    ]
    .into();
    let check = |what: &str, want: &Dense<f64>, got: Vec<f64>| {
        same(&format!("{what} {p:?}"), &got, &want.data)
    };

    let e = access("a", &["i", "j"]) * access("x", &["j"])
        + access("c", &["i", "k"]) * access("z", &["k"]);
    let mut want = Dense::zeros(&[m]);
    evaluate(&["i"], Assign::Set, &e, &t, &mut want);
    let mut y = vec![f64::GARBAGE; m];
    let r = with_tensor(&CSR, [m, n], &p.a, |ta| {
        with_tensor(&DCSR, [m, q], &p.c, |tc| {
            k::two_depths(ta, &p.x, tc, &p.z, &mut y)
        })
    });
    prop_assert_eq!(r, Ok(()));
    check("two_depths", &want, y)?;
    let coo_c = sorted(p.c.clone());
    let mut y = vec![f64::GARBAGE; m];
    let r = with_tensor(&CSC, [m, n], &p.a, |ta| {
        with_tensor(&COO, [m, q], &coo_c, |tc| {
            k::two_depths_csc_coo(ta, &p.x, tc, &p.z, &mut y)
        })
    });
    prop_assert_eq!(r, Ok(()));
    check("two_depths_csc_coo", &want, y)?;

    let e = access("a", &["i", "j"])
        * (access("v", &["j", "k"]) * access("z", &["k"]) + access("d", &["j"]));
    let mut want = Dense::zeros(&[m]);
    evaluate(&["i"], Assign::Set, &e, &t, &mut want);
    let mut y = vec![f64::GARBAGE; m];
    let r = with_tensor(&CSR, [m, n], &p.a, |ta| {
        with_tensor(&CSR, [n, q], &p.v, |tv| {
            k::inner_outer(ta, tv, &p.z, &p.d, &mut y)
        })
    });
    prop_assert_eq!(r, Ok(()));
    check("inner_outer", &want, y)?;
    let mut y = vec![f64::GARBAGE; m];
    let r = with_tensor(&DCSR, [m, n], &p.a, |ta| {
        // (A CSC `v` stores `k` before `j`, but the sum over `k` runs once
        // per `j`: that kernel is a compile error, pinned in the
        // sparsifier's own tests.)
        with_tensor(&DCSR, [n, q], &p.v, |tv| {
            k::inner_outer_dcsr(ta, tv, &p.z, &p.d, &mut y)
        })
    });
    prop_assert_eq!(r, Ok(()));
    check("inner_outer_dcsr", &want, y)
}

/// Scalar outputs: `s = a . b + c`, `s += a . b + c`, `s = sum(w x) + c`.
fn scalars(p: &Mv, c: f64, s0: f64) -> Result<(), TestCaseError> {
    let n = p.n;
    // `a`: the first row of `w` as a sparse vector, `b`: `x`.
    let a: Entries<f64> =
        p.w.iter()
            .filter(|(c, _)| c[0] == 0)
            .map(|(c, v)| (vec![c[1]], *v))
            .collect();
    let ad = Dense::from_entries(&[n], &a);
    let xd = Dense::from_data(&[n], p.x.clone());
    let wd = Dense::from_entries(&[p.m, n], &p.w);
    let cd = Dense::from_data(&[], vec![c]);
    let t: Tensors = [("a", &ad), ("x", &xd), ("w", &wd), ("c", &cd)].into();
    let dot = access("a", &["i"]) * access("x", &["i"]) + access("c", &[]);

    let mut want = Dense::zeros(&[]);
    evaluate(&[], Assign::Set, &dot, &t, &mut want);
    let mut s = f64::GARBAGE;
    let r = with_tensor(&SV, [n], &a, |ta| k::dot_plus(ta, &p.x, c, &mut s));
    prop_assert_eq!(r, Ok(()));
    same(&format!("dot_plus {p:?} c = {c}"), &[s], &want.data)?;

    let mut want = Dense::from_data(&[], vec![s0]);
    evaluate(&[], Assign::AddTo, &dot, &t, &mut want);
    let mut s = s0;
    let r = with_tensor(&SV, [n], &a, |ta| k::dot_plus_add(ta, &p.x, c, &mut s));
    prop_assert_eq!(r, Ok(()));
    same(
        &format!("dot_plus_add {p:?} c = {c} s0 = {s0}"),
        &[s],
        &want.data,
    )?;

    let mut want = Dense::zeros(&[]);
    evaluate(
        &[],
        Assign::Set,
        &(w() * x() + access("c", &[])),
        &t,
        &mut want,
    );
    let mut s = f64::GARBAGE;
    let r = with_tensor(&CSR, [p.m, n], &p.w, |tw| {
        k::matrix_plus(tw, &p.x, c, &mut s)
    });
    prop_assert_eq!(r, Ok(()));
    same(&format!("matrix_plus {p:?} c = {c}"), &[s], &want.data)
}

/// CSF: `y[i, j] = t[i, j, k] z[k] + m[i, j]` and `y[i] = t z + b` (j and
/// k summed together).
fn three_dimensions(
    d: [usize; 3],
    te: &Entries<f64>,
    z: &[f64],
    mm: &[f64],
    bv: &[f64],
) -> Result<(), TestCaseError> {
    let td = Dense::from_entries(&d, te);
    let zd = Dense::from_data(&[d[2]], z.to_vec());
    let md = Dense::from_data(&[d[0], d[1]], mm.to_vec());
    let bd = Dense::from_data(&[d[0]], bv.to_vec());
    let t: Tensors = [("t", &td), ("z", &zd), ("m", &md), ("b", &bd)].into();
    let tz = access("t", &["i", "j", "k"]) * access("z", &["k"]);

    let mut want = Dense::zeros(&[d[0], d[1]]);
    evaluate(
        &["i", "j"],
        Assign::Set,
        &(tz.clone() + access("m", &["i", "j"])),
        &t,
        &mut want,
    );
    let mut y = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSF, d, te, |tt| {
        k::csf_bias(
            tt,
            z,
            DenseView::new(mm, [d[0], d[1]]).unwrap(),
            DenseViewMut::new(&mut y, [d[0], d[1]]).unwrap(),
        )
    });
    prop_assert_eq!(r, Ok(()));
    same(&format!("csf_bias {d:?} {te:?}"), &y, &want.data)?;

    let mut want = Dense::zeros(&[d[0]]);
    evaluate(
        &["i"],
        Assign::Set,
        &(tz + access("b", &["i"])),
        &t,
        &mut want,
    );
    let mut y = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSF, d, te, |tt| k::csf_rows(tt, z, bv, &mut y));
    prop_assert_eq!(r, Ok(()));
    same(&format!("csf_rows {d:?} {te:?}"), &y, &want.data)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn matrix_vector_random(p in mv(5)) {
        matrix_vector(&p)?;
    }

    #[test]
    fn duplicates_random(
        (p, w) in mv(4).prop_flat_map(|p| {
            let w = entries_with_duplicates::<f64>(&[p.m, p.n], 12);
            (Just(p), w)
        })
    ) {
        duplicates(&p, &w)?;
    }

    #[test]
    fn two_depths_random(p in deep(4)) {
        depths(&p)?;
    }

    #[test]
    fn scalars_random(p in mv(5), c in sparse_tests::gen::elem::<f64>(), s0 in sparse_tests::gen::elem::<f64>()) {
        scalars(&p, c, s0)?;
    }

    #[test]
    fn three_dimensions_random(
        (d, t, z, m, b) in dims::<3>(3).prop_flat_map(|d| {
            (
                Just(d),
                entries::<f64>(&d),
                dense_vec::<f64>(d[2]),
                dense_vec::<f64>(d[0] * d[1]),
                dense_vec::<f64>(d[0]),
            )
        })
    ) {
        three_dimensions(d, &t, &z, &m, &b)?;
    }
}

// ---- named edge cases

fn fixed(m: usize, n: usize, w: Entries<f64>) -> Mv {
    Mv {
        m,
        n,
        u: w.iter().map(|(c, v)| (c.clone(), *v - 1.0)).collect(),
        w,
        x: (0..n).map(|j| j as f64 + 1.0).collect(),
        b: (0..m).map(|i| 10.0 * (i as f64 + 1.0)).collect(),
        c: (0..m).map(|i| i as f64 - 1.0).collect(),
        y0: vec![0.5; m],
    }
}

#[test]
fn the_issue_example_adds_the_bias_once() {
    // w = ones(2, 3) stored in full, x = 1, b = [10, 20]: [13, 23], not
    // [33, 63] (b once per column); tests/oracle/sum_scope.py prints both.
    let w: Entries<f64> = (0..6).map(|p| (vec![p / 3, p % 3], 1.0)).collect();
    let mut y = [7.0; 2];
    with_tensor(&CSR, [2, 3], &w, |t| {
        k::bias_csr(t, &[1.0; 3], &[10.0, 20.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [13.0, 23.0]);
    with_tensor(&CSC, [2, 3], &w, |t| {
        k::bias_csc(t, &[1.0; 3], &[10.0, 20.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [13.0, 23.0]);
    let mut y = [1.0, 2.0];
    with_tensor(&CSR, [2, 3], &w, |t| {
        k::add_assign_csr(t, &[1.0; 3], &[10.0, 20.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [14.0, 25.0]);
}

#[test]
fn edge_cases() {
    let cases: Vec<(usize, usize, Entries<f64>)> = vec![
        // Empty, 0-sized.
        (0, 0, vec![]),
        (3, 0, vec![]),
        (0, 3, vec![]),
        (3, 4, vec![]),
        // All rows empty but one; an explicit zero; a full row.
        (3, 4, vec![(vec![1, 2], 2.0)]),
        (3, 4, vec![(vec![0, 0], 0.0), (vec![2, 3], -1.5)]),
        (
            2,
            3,
            vec![(vec![1, 0], 1.0), (vec![1, 1], -2.0), (vec![1, 2], 0.25)],
        ),
        // Coordinates at the maximum of the 8-bit DCSR width.
        (2, 256, vec![(vec![0, 255], 3.0), (vec![1, 0], 1.0)]),
    ];
    for (m, n, w) in cases {
        let p = fixed(m, n, w);
        matrix_vector(&p).unwrap();
        scalars(&p, 2.5, -1.0).unwrap();
        duplicates(&p, &[p.w.clone(), p.w.clone()].concat()).unwrap();
    }
    three_dimensions([2, 2, 2], &vec![], &[1.0, 2.0], &[1.0; 4], &[3.0, 4.0]).unwrap();
    three_dimensions(
        [2, 3, 2],
        &vec![
            (vec![0, 1, 1], 2.0),
            (vec![1, 0, 0], 0.0),
            (vec![1, 2, 1], -1.0),
        ],
        &[1.0, 2.0],
        &[1.0; 6],
        &[3.0, 4.0],
    )
    .unwrap();
}
