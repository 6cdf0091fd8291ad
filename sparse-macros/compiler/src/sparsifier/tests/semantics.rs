//! The classic kernels run through the interpreter of [`super::interp`] on
//! random tensors, in every supported format, against a dense evaluation.

use super::interp::check;
use super::*;

/// Builds `out[idx] op= rhs` where every tensor is given by an encoding.
fn kernel(
    out: TensorDesc,
    ins: Vec<TensorDesc>,
    f: impl Fn(&mut Kernel, &[TensorId], &[LoopId]),
) -> Kernel {
    let mut k = Kernel::new();
    let mut ids = vec![k.tensor(out.output())];
    ids.extend(ins.into_iter().map(|t| k.tensor(t)));
    let loops: Vec<LoopId> = ["i", "j", "k", "l"].iter().map(|n| k.index(n)).collect();
    f(&mut k, &ids, &loops);
    k
}

fn square(_: &str) -> Vec<usize> {
    vec![4, 4]
}

#[test]
fn spmv_in_every_format_matches_the_dense_product() {
    for a in [csr("a"), csc("a"), dcsr("a"), dcsc("a"), coo("a")] {
        for op in [AssignOp::Assign, AssignOp::AddAssign] {
            let k = spmv(a.clone(), op);
            check(
                &k,
                &|n| {
                    if n == "a" {
                        vec![5, 4]
                    } else if n == "y" {
                        vec![5]
                    } else {
                        vec![4]
                    }
                },
                20,
            );
        }
    }
}

#[test]
fn matrix_kernels_match_the_dense_evaluation() {
    let mats = [csr("a"), csc("a"), dcsr("a"), dcsc("a")];
    for a in &mats {
        for b in &mats {
            for out in [TensorDesc::dense("c", 2), csr("c"), dcsr("c")] {
                let add = kernel(out.clone(), vec![a.clone(), b.clone()], |k, t, l| {
                    k.assign(
                        t[0],
                        &l[..2],
                        Expr::at(t[1], &l[..2]) + Expr::at(t[2], &l[..2]),
                    )
                });
                let mul = kernel(out.clone(), vec![a.clone(), b.clone()], |k, t, l| {
                    k.assign(
                        t[0],
                        &l[..2],
                        Expr::at(t[1], &l[..2]) * Expr::at(t[2], &l[..2]),
                    )
                });
                let gemm = kernel(out, vec![a.clone(), b.clone()], |k, t, l| {
                    let (i, j, kk) = (l[0], l[1], l[2]);
                    k.assign(
                        t[0],
                        &[i, j],
                        Expr::at(t[1], &[i, kk]) * Expr::at(t[2], &[kk, j]),
                    )
                });
                for k in [add, mul, gemm] {
                    if sparsify(&k).is_ok() {
                        check(&k, &square, 8);
                    }
                }
            }
        }
    }
}

#[test]
fn vector_expressions_match_the_dense_evaluation() {
    let rhs: Vec<fn(&[Expr]) -> Expr> = vec![
        |v| v[0].clone() + v[1].clone(),
        |v| v[0].clone() - v[1].clone(),
        |v| v[0].clone() * v[1].clone() + v[2].clone(),
        |v| (v[0].clone() + v[1].clone()) * (v[2].clone() - v[3].clone()),
        |v| v[0].clone() + Expr::lit("1.0"),
        |v| v[0].clone() * v[3].clone() + v[0].clone(),
        |v| Expr::call("max", vec![v[0].clone(), v[1].clone()]) - v[2].clone(),
        |v| Expr::call("exp", vec![v[0].clone()]) * v[1].clone(),
        |v| Expr::call("abs", vec![-v[2].clone()]) / (v[3].clone() + Expr::lit("10.0")),
        |v| v[0].clone() * Expr::Index(LoopId(0)).cast("f64") + v[1].clone(),
    ];
    for (n, f) in rhs.iter().enumerate() {
        for out in [TensorDesc::dense("o", 1), sv("o")] {
            let k = kernel(
                out,
                vec![sv("a"), sv("b"), sv("c"), TensorDesc::dense("d", 1)],
                |k, t, l| {
                    let v: Vec<Expr> = t[1..].iter().map(|&t| Expr::at(t, &l[..1])).collect();
                    k.assign(t[0], &l[..1], f(&v));
                },
            );
            check(&k, &|_| vec![7], 30);
            let _ = n;
        }
    }
}

#[test]
fn tensor_kernels_match_the_dense_evaluation() {
    let three = |_: &str| vec![3, 3, 3];
    let ttv = kernel(
        TensorDesc::dense("a", 2),
        vec![csf3("b"), TensorDesc::dense("c", 1)],
        |k, t, l| {
            k.assign(
                t[0],
                &l[..2],
                Expr::at(t[1], &l[..3]) * Expr::at(t[2], &l[2..3]),
            )
        },
    );
    check(
        &ttv,
        &|n| match n {
            "a" => vec![3, 3],
            "c" => vec![3],
            _ => vec![3, 3, 3],
        },
        10,
    );
    let mttkrp = kernel(
        TensorDesc::dense("a2", 2),
        vec![
            csf3("b"),
            TensorDesc::dense("c", 2),
            TensorDesc::dense("d", 2),
        ],
        |k, t, l| {
            let (i, j, kk, ll) = (l[0], l[1], l[2], l[3]);
            let rhs =
                Expr::at(t[1], &[i, kk, ll]) * Expr::at(t[2], &[kk, j]) * Expr::at(t[3], &[ll, j]);
            k.assign(t[0], &[i, j], rhs)
        },
    );
    check(
        &mttkrp,
        &|n| if n == "b" { vec![3, 3, 3] } else { vec![3, 3] },
        10,
    );
    let sddmm = kernel(
        csr("c"),
        vec![
            csr("s"),
            TensorDesc::dense("u", 2),
            TensorDesc::dense("v", 2),
        ],
        |k, t, l| {
            let (i, j, kk) = (l[0], l[1], l[2]);
            let rhs =
                Expr::at(t[1], &[i, j]) * (Expr::at(t[2], &[i, kk]) * Expr::at(t[3], &[kk, j]));
            k.assign(t[0], &[i, j], rhs)
        },
    );
    check(&sddmm, &square, 10);
    // Order j, i, k: an outer reduction, then a scalarised inner one.
    for op in [AssignOp::Assign, AssignOp::AddAssign] {
        let slice = kernel(TensorDesc::dense("c", 1), vec![csf3("b")], |k, t, l| {
            let (i, j, kk) = (l[0], l[1], l[2]);
            match op {
                AssignOp::Assign => k.assign(t[0], &[i], Expr::at(t[1], &[j, i, kk])),
                AssignOp::AddAssign => k.add_assign(t[0], &[i], Expr::at(t[1], &[j, i, kk])),
            }
        });
        let text = sparsify(&slice).unwrap().text(&slice);
        assert!(text.contains("local r = c[i]"), "{text}");
        check(&slice, &|n| if n == "c" { vec![3] } else { three(n) }, 10);
    }
    // Order i, k, j, l into CSR: a workspace filled from a local.
    let chain = kernel(csr("c"), vec![csr("a"), csf3("b")], |k, t, l| {
        let (i, j, kk, ll) = (l[0], l[1], l[2], l[3]);
        k.assign(
            t[0],
            &[i, j],
            Expr::at(t[1], &[i, kk]) * Expr::at(t[2], &[kk, j, ll]),
        )
    });
    let text = sparsify(&chain).unwrap().text(&chain);
    assert!(text.contains("w[j] += r"), "{text}");
    check(
        &chain,
        &|n| if n == "b" { vec![4, 4, 4] } else { vec![4, 4] },
        10,
    );
    let sum = kernel(TensorDesc::scalar("s"), vec![csf3("b")], |k, t, l| {
        k.add_assign(t[0], &[], Expr::at(t[1], &l[..3]))
    });
    check(&sum, &|n| if n == "s" { vec![] } else { three(n) }, 10);
}
