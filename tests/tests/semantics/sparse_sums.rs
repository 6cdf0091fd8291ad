//! Sparse outputs of statements with a scoped sum (issue 10, item 1):
//! `c[i] = a[i, j] * x[j] + b[i]` into a sparse vector, `a` CSR, DCSR or
//! COO and `b` a sparse vector, the sum over `j` evaluated once per stored
//! row (`local r1 = 0; iterate j ..; insert c[i] = r1 + b[i]`).
//!
//! Which rows are stored is decided by what the generated code does, and
//! pinned here: exactly the points of the lattice of the loop over `i`,
//! i.e. the union of
//! - the rows `a`'s outer level iterates: every row `0..m` for a CSR `a`
//!   (its level 0 is dense), the stored rows for DCSR and COO;
//! - the entries of `b`;
//!
//! computed zeros included: a stored row of `a` whose products sum to 0
//! (explicit zeros, `x[j]` = 0, or a sparse `x` meeting none of its
//! columns) is stored with the value 0 + `b[i]`. The sum's own operands do
//! not decide the pattern: a CSR row with no entries is stored (0 + `b`).
//! For a matrix output `c[i, j] = t[i, j, k] * z[k] + m[i, j]` (CSF `t`,
//! DCSR `m` and `c`): the `(i, j)` under which `t` stores something, and
//! `m`'s entries.
//!
//! Each output over every buffer family (`each_family!`), each kernel
//! called twice on the same output (the second result replaces the first),
//! read back through `view()` and re-assembled (`check_output`).

use proptest::prelude::*;
use sparse_tests::dense::Dense;
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, COO, CSF, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, entries_with_duplicates, Entries};
use sparse_tests::sparse_out::{check_output, Stored};

use super::common::{sorted, Report};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO_NU = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
        #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>

        pub fn bias_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j] * x[j] + b[i];
        }
        pub fn bias_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j] * x[j] + b[i];
        }
        pub fn bias_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j] * x[j] + b[i];
        }
        pub fn minus_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = b[i] - a[i, j] * x[j];
        }
        pub fn explicit_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = sum(j, a[i, j] * x[j]) + b[i];
        }
        pub fn sparse_x_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j] * x[j] + b[i];
        }
        pub fn abs_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = abs(a[i, j] * x[j]) + b[i];
        }
        pub fn nested_dcsr(a: &tensor<?x?xf64, #DCSR>, v: &tensor<?x?xf64, #CSR>, z: &tensor<?xf64>, d: &tensor<?xf64>,
                           b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j] * (v[j, k] * z[k] + d[j]) + b[i];
        }
        pub fn csf_dcsr(t: &tensor<?x?x?xf64, #CSF>, z: &tensor<?xf64>, m: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = t[i, j, k] * z[k] + m[i, j];
        }
    }
}

/// One problem: `a` (`m x n`; `dup` with repeated coordinates), `v` (`n x
/// q`), `t` (`m x n x q`), `mm` (`m x n`), `x`, `d` (`n`), `xs` (`n`,
/// sparse), `z` (`q`), `b` (`m`, sparse).
#[derive(Clone, Debug)]
struct P {
    m: usize,
    n: usize,
    q: usize,
    a: Entries<f64>,
    dup: Entries<f64>,
    v: Entries<f64>,
    t: Entries<f64>,
    mm: Entries<f64>,
    x: Vec<f64>,
    d: Vec<f64>,
    xs: Entries<f64>,
    z: Vec<f64>,
    b: Entries<f64>,
}

fn problem(max: usize) -> impl Strategy<Value = P> {
    dims::<3>(max).prop_flat_map(|[m, n, q]| {
        (
            (
                entries::<f64>(&[m, n]),
                entries_with_duplicates::<f64>(&[m, n], 10),
                entries::<f64>(&[n, q]),
                entries::<f64>(&[m, n, q]),
                entries::<f64>(&[m, n]),
            ),
            (
                dense_vec::<f64>(n),
                dense_vec::<f64>(n),
                entries::<f64>(&[n]),
                dense_vec::<f64>(q),
                entries::<f64>(&[m]),
            ),
        )
            .prop_map(move |((a, dup, v, t, mm), (x, d, xs, z, b))| P {
                m,
                n,
                q,
                a,
                dup: sorted(dup),
                v,
                t,
                mm,
                x,
                d,
                xs,
                z,
                b,
            })
    })
}

/// The rows `a`'s outer level visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rows {
    /// Every row (`a` CSR: level 0 dense).
    All,
    /// The rows with a stored entry (DCSR, COO).
    Stored,
}

/// What `c[i] = f(row_sum(i)) (+ or -) b[i]` must store, as `Stored` and
/// as a dense vector: rows by `rows` and `b`'s entries; `row_sum(i)` is
/// `row(i)`, `b` 0 where absent.
fn vector_want(
    p: &P,
    a: &Entries<f64>,
    rows: Rows,
    row: impl Fn(usize) -> f64,
    combine: impl Fn(f64, f64) -> f64,
) -> (Stored<f64>, Dense<f64>) {
    let bd = Dense::from_entries(&[p.m], &p.b);
    let mut keep: Vec<usize> = match rows {
        Rows::All => (0..p.m).collect(),
        Rows::Stored => a.iter().map(|(c, _)| c[0]).collect(),
    };
    keep.extend(p.b.iter().map(|(c, _)| c[0]));
    keep.sort_unstable();
    keep.dedup();
    let stored: Stored<f64> = keep
        .into_iter()
        .map(|i| (vec![i], combine(row(i), bd.data[i])))
        .collect();
    let mut dense = Dense::zeros(&[p.m]);
    for (c, v) in &stored {
        dense.data[c[0]] = *v;
    }
    (stored, dense)
}

/// `sum_j a[i, j] * x[j]` with `a` and `x` dense.
fn row_sums(a: &Dense<f64>, x: &Dense<f64>) -> Vec<f64> {
    let (m, n) = (a.dims[0], a.dims[1]);
    (0..m)
        .map(|i| (0..n).map(|j| a.at(&[i, j]) * x.data[j]).sum::<f64>() + 0.0)
        .collect()
}

fn vectors(p: &P) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.q);
    let d = [m, n];
    let ad = Dense::from_entries(&d, &p.a);
    let xd = Dense::from_data(&[n], p.x.clone());
    let ax = row_sums(&ad, &xd);
    let plus = |s: f64, b: f64| s + b;
    let mut rep = Report::default();
    let mut check = |what: &str, r: Result<(), String>| {
        rep.add(r.map_err(|e| TestCaseError::fail(format!("{what}: {e}\n{p:?}"))));
    };
    macro_rules! vector_case {
        ($what:expr, $want:expr, |$c:ident| $call:expr) => {{
            let want = $want;
            each_family!([m], |$c| {
                for _ in 0..2 {
                    let r = $call;
                    let r = match r {
                        Ok(()) => check_output(&$c.view(), &want.0, &want.1),
                        Err(e) => Err(format!("kernel error {e:?}")),
                    };
                    check($what, r);
                }
            });
        }};
    }

    vector_case!(
        "bias_csr",
        vector_want(p, &p.a, Rows::All, |i| ax[i], plus),
        |c| with_tensor(&CSR, d, &p.a, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::bias_csr(ta, &p.x, tb, &mut c))
        })
    );
    vector_case!(
        "bias_dcsr",
        vector_want(p, &p.a, Rows::Stored, |i| ax[i], plus),
        |c| with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::bias_dcsr(ta, &p.x, tb, &mut c))
        })
    );
    vector_case!(
        "explicit_dcsr",
        vector_want(p, &p.a, Rows::Stored, |i| ax[i], plus),
        |c| with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::explicit_dcsr(ta, &p.x, tb, &mut c))
        })
    );
    vector_case!(
        "minus_coo",
        vector_want(p, &p.a, Rows::Stored, |i| ax[i], |s, b| b - s),
        |c| with_tensor(&COO, d, &p.a, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::minus_coo(ta, &p.x, tb, &mut c))
        })
    );
    vector_case!(
        "abs_dcsr",
        vector_want(p, &p.a, Rows::Stored, |i| ax[i].abs(), plus),
        |c| with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::abs_dcsr(ta, &p.x, tb, &mut c))
        })
    );
    let dup_ax = row_sums(&Dense::from_entries(&d, &p.dup), &xd);
    vector_case!(
        "bias_coo_nu",
        vector_want(p, &p.dup, Rows::Stored, |i| dup_ax[i], plus),
        |c| with_tensor(&COO, d, &p.dup, |ta| {
            with_tensor(&SV, [m], &p.b, |tb| k::bias_coo_nu(ta, &p.x, tb, &mut c))
        })
    );
    // A sparse `x`: the row is stored even where it meets none of `x`.
    let sparse_ax = row_sums(&ad, &Dense::from_entries(&[n], &p.xs));
    vector_case!(
        "sparse_x_dcsr",
        vector_want(p, &p.a, Rows::Stored, |i| sparse_ax[i], plus),
        |c| with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&SV, [n], &p.xs, |tx| {
                with_tensor(&SV, [m], &p.b, |tb| k::sparse_x_dcsr(ta, tx, tb, &mut c))
            })
        })
    );
    // Nested: sum_j a[i, j] * (sum_k v[j, k] z[k] + d[j]).
    let vd = Dense::from_entries(&[n, q], &p.v);
    let zd = Dense::from_data(&[q], p.z.clone());
    let inner: Vec<f64> = row_sums(&vd, &zd)
        .iter()
        .zip(&p.d)
        .map(|(s, dj)| s + dj)
        .collect();
    let nested = row_sums(&ad, &Dense::from_data(&[n], inner));
    vector_case!(
        "nested_dcsr",
        vector_want(p, &p.a, Rows::Stored, |i| nested[i], plus),
        |c| with_tensor(&DCSR, d, &p.a, |ta| {
            with_tensor(&CSR, [n, q], &p.v, |tv| {
                with_tensor(&SV, [m], &p.b, |tb| {
                    k::nested_dcsr(ta, tv, &p.z, &p.d, tb, &mut c)
                })
            })
        })
    );
    rep.finish()
}

/// `c[i, j] = t[i, j, k] * z[k] + m[i, j]`: stored at the `(i, j)` under
/// which `t` stores an entry, and at `m`'s entries.
fn matrix(p: &P) -> Result<(), TestCaseError> {
    let (m, n, q) = (p.m, p.n, p.q);
    let td = Dense::from_entries(&[m, n, q], &p.t);
    let md = Dense::from_entries(&[m, n], &p.mm);
    let mut keys: Vec<Vec<usize>> =
        p.t.iter()
            .map(|(c, _)| vec![c[0], c[1]])
            .chain(p.mm.iter().map(|(c, _)| c.clone()))
            .collect();
    keys.sort();
    keys.dedup();
    let value = |i: usize, j: usize| {
        (0..q).map(|k| td.at(&[i, j, k]) * p.z[k]).sum::<f64>() + md.at(&[i, j])
    };
    let stored: Stored<f64> = keys
        .into_iter()
        .map(|c| {
            let v = value(c[0], c[1]);
            (c, v)
        })
        .collect();
    let dense = Dense::from_entries(&[m, n], &stored.clone().into_iter().collect());
    let mut rep = Report::default();
    each_family!([m, n], |c| {
        for _ in 0..2 {
            let r = with_tensor(&CSF, [m, n, q], &p.t, |tt| {
                with_tensor(&DCSR, [m, n], &p.mm, |tm| k::csf_dcsr(tt, &p.z, tm, &mut c))
            });
            let r = match r {
                Ok(()) => check_output(&c.view(), &stored, &dense),
                Err(e) => Err(format!("kernel error {e:?}")),
            };
            rep.add(r.map_err(|e| TestCaseError::fail(format!("csf_dcsr: {e}\n{p:?}"))));
        }
    });
    rep.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn vectors_random(p in problem(4)) {
        vectors(&p)?;
    }

    #[test]
    fn matrix_random(p in problem(3)) {
        matrix(&p)?;
    }
}

// ---- named edge cases

#[test]
fn stored_rows_by_hand() {
    // a = | 1 . 2 |  x = [1, 2, 3], b = { 1: 5 }:
    //     | . . . |  DCSR: rows 0, 2 (a) and 1 (b): [7, 5, 6];
    //     | . . . |  row 3 has neither: not stored; a row of explicit
    //     | 0 3 . |  zeros... (row 3 here) sums to 6.
    //     | . . . |  CSR: every row, 0 + 0 where neither: rows 0..5.
    let a: Entries<f64> = vec![
        (vec![0, 0], 1.0),
        (vec![0, 2], 2.0),
        (vec![3, 0], 0.0),
        (vec![3, 1], 3.0),
    ];
    let b: Entries<f64> = vec![(vec![1], 5.0)];
    let x = [1.0, 2.0, 3.0];
    let mut got = Vec::new();
    let mut c = k::SVOut::<f64, sparse_core::output::Owned>::with_dims([5]).unwrap();
    with_tensor(&DCSR, [5, 3], &a, |ta| {
        with_tensor(&SV, [5], &b, |tb| k::bias_dcsr(ta, &x, tb, &mut c))
    })
    .unwrap();
    c.view().for_each(|i, v| got.push((i[0], *v)));
    assert_eq!(got, [(0, 7.0), (1, 5.0), (3, 6.0)]);
    got.clear();
    with_tensor(&CSR, [5, 3], &a, |ta| {
        with_tensor(&SV, [5], &b, |tb| k::bias_csr(ta, &x, tb, &mut c))
    })
    .unwrap();
    c.view().for_each(|i, v| got.push((i[0], *v)));
    assert_eq!(got, [(0, 7.0), (1, 5.0), (2, 0.0), (3, 6.0), (4, 0.0)]);
    // A sparse x = { 1: 1 } meets row 0 nowhere: row 0 is stored as 0.
    got.clear();
    let xs: Entries<f64> = vec![(vec![1], 1.0)];
    with_tensor(&DCSR, [5, 3], &a, |ta| {
        with_tensor(&SV, [3], &xs, |tx| {
            with_tensor(&SV, [5], &b, |tb| k::sparse_x_dcsr(ta, tx, tb, &mut c))
        })
    })
    .unwrap();
    c.view().for_each(|i, v| got.push((i[0], *v)));
    assert_eq!(got, [(0, 0.0), (1, 5.0), (3, 3.0)]);
}

#[test]
fn edge_cases() {
    let seq = |len: usize, f: fn(usize) -> f64| (0..len).map(f).collect::<Vec<f64>>();
    // (m, n, q, a, b)
    type Case = (usize, usize, usize, Entries<f64>, Entries<f64>);
    let cases: Vec<Case> = vec![
        // Empty, 0-sized.
        (0, 0, 0, vec![], vec![]),
        (3, 0, 2, vec![], vec![(vec![2], 1.0)]),
        (0, 3, 2, vec![], vec![]),
        (3, 4, 0, vec![(vec![1, 1], 2.0)], vec![]),
        (3, 4, 2, vec![], vec![]),
        // Explicit zeros in `a` and `b`; a full row.
        (
            3,
            4,
            2,
            vec![(vec![0, 0], 0.0), (vec![2, 3], -1.5)],
            vec![(vec![0], 0.0), (vec![1], 0.0)],
        ),
        (
            2,
            3,
            3,
            vec![(vec![1, 0], 1.0), (vec![1, 1], -2.0), (vec![1, 2], 0.25)],
            vec![(vec![0], 4.0)],
        ),
    ];
    let mut rep = Report::default();
    for (m, n, q, a, b) in cases {
        let p = P {
            m,
            n,
            q,
            dup: sorted([a.clone(), a.clone()].concat()),
            v: a.iter()
                .filter(|(c, _)| c[0] < n && c[1] < q)
                .cloned()
                .collect(),
            t: a.iter()
                .filter(|(c, _)| c[1] < q)
                .map(|(c, v)| (vec![c[0], c[1], c[1]], *v))
                .collect(),
            mm: a.iter().map(|(c, v)| (c.clone(), v + 1.0)).collect(),
            x: seq(n, |j| j as f64 + 1.0),
            d: seq(n, |j| 1.0 - j as f64),
            xs: a
                .iter()
                .filter(|(c, _)| c[0] == 1)
                .map(|(c, v)| (vec![c[1]], *v))
                .collect(),
            z: seq(q, |k| k as f64 - 1.0),
            a,
            b,
        };
        rep.add(vectors(&p));
        rep.add(matrix(&p));
    }
    rep.finish().unwrap();
}
