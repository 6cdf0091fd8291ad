//! `#[parallel]` kernels (sparse-core feature `rayon`) against the same
//! kernels on one thread and against faer's sparse × dense product with
//! `Par::Seq` and `Par::rayon(n)`, on an `n`-thread global pool
//! (`BENCH_THREADS`, default 2). faer 0.24
//! ignores `Par` in this product (`let _ = par;` in
//! `sparse::linalg::matmul`), and sprs has no parallel SpMV/SpMM (its
//! `multi_thread` feature parallelises SpGEMM only), so neither has a
//! parallel path here; faer's rows show that in the same run. Every competitor runs in the same interleaved
//! rounds, so the speedups are ratios within one run.

use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor, Timing};
use crate::kernels;
use crate::report::{table, Work};
use faer::sparse::{SparseRowMatRef, SymbolicSparseRowMatRef};
use faer::{Accum, Par};
use sparse_core::{DenseView, DenseViewMut, Level, Owned};
use std::cell::RefCell;
use std::hint::black_box;
use std::num::NonZeroUsize;
use std::rc::Rc;

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .expect("a rayon pool")
}

/// Prints `seq / x` for every row (the speedup over our sequential
/// kernel), of the medians and of the minima (the least disturbed rounds).
fn speedups(t: &[Timing], seq: &str) {
    let Some(base) = t.iter().find(|r| r.name == seq) else {
        return;
    };
    let list: Vec<String> = t
        .iter()
        .filter(|r| r.name != seq)
        .map(|r| {
            format!(
                "{} **{:.2}×** (min {:.2}×)",
                r.name,
                base.median / r.median,
                base.min / r.min
            )
        })
        .collect();
    println!(
        "\nSpeedup over `{seq}` (median / median, same run): {}",
        list.join(", ")
    );
}

/// Checks every output against the first (ours, sequential) within `tol`
/// relative to the largest magnitude; our parallel kernels must be equal
/// bit for bit.
fn check(name: &str, outs: &[(String, Rc<RefCell<Vec<f64>>>)], exact: &[&str], tol: f64) {
    let want = outs[0].1.borrow().clone();
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    for (who, got) in &outs[1..] {
        let got = got.borrow();
        if exact.contains(&who.as_str()) {
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(g, w)| g.to_bits() == w.to_bits()),
                "{name}: {who} differs from the sequential kernel"
            );
        } else {
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= tol * scale, "{name}: {who}: {g} vs {w}");
            }
        }
    }
}

const SEQ: &str = "sparse_kernel! sequential";
/// The threads of the parallel rows: `BENCH_THREADS` (default 2, the
/// cores of the bench machine; set it to extrapolate on a larger one).
pub fn threads() -> usize {
    std::env::var("BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(2)
}

fn par_label() -> String {
    format!("sparse_kernel! #[parallel], {} threads", threads())
}

fn faer_par_label() -> String {
    format!("faer 0.24 Par::rayon({})", threads())
}

/// `measure`, on a thread of rayon's global pool when `BENCH_IN_POOL=1`:
/// the kernels are then called from a worker, as in a program that runs
/// its loop inside `install`/`scope`, where `rayon::join` runs a half no
/// other thread took itself instead of waiting for a thread to wake up.
fn measure_where_asked(comps: Vec<Competitor<'_>>, budget: &Budget) -> Vec<Timing> {
    if std::env::var("BENCH_IN_POOL").map_or(true, |v| v != "1") {
        return measure(comps, budget);
    }
    struct AssertSend<T>(T);
    // SAFETY: `rayon::scope` called from outside the pool blocks this thread
    // until the closure has returned on a worker, so the competitors (whose
    // `Rc` handles this thread also holds) are used by one thread at a time.
    unsafe impl<T> Send for AssertSend<T> {}
    impl<T> AssertSend<T> {
        // A method, so the closure captures the whole wrapper (edition
        // 2021 closures would capture the field alone).
        fn into_inner(self) -> T {
            self.0
        }
    }
    let job = AssertSend(comps);
    rayon::scope(move |_| measure(job.into_inner(), budget))
}

/// Makes rayon's global pool [`threads`] threads (once): the parallel
/// kernels are called from the main thread as a user calls them, and their
/// chunks go to that pool.
pub fn global_pool() {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads())
        .build_global();
    assert_eq!(rayon::current_num_threads(), threads(), "the global pool");
}

pub fn spmv(name: &str, a: &Csr, budget: &Budget) {
    let (m, n, nnz) = (a.rows, a.cols, a.nnz());
    let x = crate::gen::dense(n, 7);
    let val = a.val_f64();
    let t = kernels::PCSR32::<f64>::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &val,
    )
    .expect("valid CSR");
    let fr = SparseRowMatRef::new(
        SymbolicSparseRowMatRef::new_checked(m, n, &a.pos, None, &a.crd),
        &val[..],
    );
    let mut outs: Vec<(String, Rc<RefCell<Vec<f64>>>)> = Vec::new();
    let mut comps: Vec<Competitor<'_>> = Vec::new();
    let (x, t) = (&x[..], &t);
    let mut out = |who: &str| {
        let y = Rc::new(RefCell::new(vec![0.0; m]));
        outs.push((who.to_string(), y.clone()));
        y
    };
    let y = out(SEQ);
    comps.push(Competitor::ours(SEQ, move || {
        kernels::spmv_f64(black_box(t), black_box(x), &mut y.borrow_mut()).expect("ok")
    }));
    let y = out(&par_label());
    comps.push(Competitor::ours(par_label(), move || {
        kernels::par_spmv_f64(black_box(t), black_box(x), &mut y.borrow_mut()).expect("ok")
    }));
    for (label, threads) in [
        ("faer 0.24 Par::Seq".to_string(), 1usize),
        (faer_par_label(), threads()),
    ] {
        let y = out(&label);
        comps.push(Competitor::peer(label, move || {
            let mut yb = y.borrow_mut();
            let ys: &mut [f64] = &mut yb;
            {
                let dst = faer::MatMut::from_column_major_slice_mut(ys, m, 1);
                let rhs = faer::MatRef::from_column_major_slice(black_box(x), n, 1);
                let par = match NonZeroUsize::new(threads) {
                    Some(t) if threads > 1 => Par::Rayon(t),
                    _ => Par::Seq,
                };
                faer::sparse::linalg::matmul::sparse_dense_matmul(
                    dst,
                    Accum::Replace,
                    fr,
                    rhs,
                    1.0,
                    par,
                );
            }
        }));
    }
    let timings = measure_where_asked(comps, budget);
    check(name, &outs, &[&par_label()], 1e-12);
    table(
        &format!("SpMV f64, {name}"),
        &timings,
        &Work { nnz, bytes: None },
        None,
    );
    speedups(&timings, SEQ);
}

pub fn spmm(name: &str, a: &Csr, k: usize, budget: &Budget) {
    let (m, n, nnz) = (a.rows, a.cols, a.nnz());
    let b = crate::gen::dense(n * k, 9);
    let val = a.val_f64();
    let t = kernels::PCSR32::<f64>::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &val,
    )
    .expect("valid CSR");
    let fr = SparseRowMatRef::new(
        SymbolicSparseRowMatRef::new_checked(m, n, &a.pos, None, &a.crd),
        &val[..],
    );
    let mut outs: Vec<(String, Rc<RefCell<Vec<f64>>>)> = Vec::new();
    let mut comps: Vec<Competitor<'_>> = Vec::new();
    let (b, t) = (&b[..], &t);
    let mut out = |who: &str| {
        let c = Rc::new(RefCell::new(vec![0.0; m * k]));
        outs.push((who.to_string(), c.clone()));
        c
    };
    let bv = move || DenseView::new(black_box(b), [n, k]).expect("b");
    let c = out(SEQ);
    comps.push(Competitor::ours(SEQ, move || {
        let mut c = c.borrow_mut();
        kernels::spmm_f64(
            black_box(t),
            bv(),
            DenseViewMut::new(&mut c, [m, k]).expect("c"),
        )
        .expect("ok")
    }));
    let c = out(&par_label());
    comps.push(Competitor::ours(par_label(), move || {
        let mut c = c.borrow_mut();
        kernels::par_spmm_f64(
            black_box(t),
            bv(),
            DenseViewMut::new(&mut c, [m, k]).expect("c"),
        )
        .expect("ok")
    }));
    for (label, threads) in [
        ("faer 0.24 Par::Seq".to_string(), 1usize),
        (faer_par_label(), threads()),
    ] {
        let c = out(&label);
        comps.push(Competitor::peer(label, move || {
            let mut cb = c.borrow_mut();
            let cs: &mut [f64] = &mut cb;
            {
                // Row-major C and B, as ours: faer takes any strides.
                let dst = faer::MatMut::from_row_major_slice_mut(cs, m, k);
                let rhs = faer::MatRef::from_row_major_slice(black_box(b), n, k);
                let par = match NonZeroUsize::new(threads) {
                    Some(t) if threads > 1 => Par::Rayon(t),
                    _ => Par::Seq,
                };
                faer::sparse::linalg::matmul::sparse_dense_matmul(
                    dst,
                    Accum::Replace,
                    fr,
                    rhs,
                    1.0,
                    par,
                );
            }
        }));
    }
    let timings = measure_where_asked(comps, budget);
    check(name, &outs, &[&par_label()], 1e-12);
    table(
        &format!("SpMM f64 (C = A B, B and C row-major, {k} columns), {name}"),
        &timings,
        &Work {
            nnz: nnz * k,
            bytes: None,
        },
        None,
    );
    speedups(&timings, SEQ);
}

/// The triad `a = b + s c` over 3 × `n` f64 split into equal parts on a
/// 1- and a 2-thread pool, in the same interleaved rounds: the memory
/// bandwidth one and two threads reach, the ceiling of a memory-bound
/// kernel's speedup (see RESULTS.md, "extrapolating to more cores").
pub fn triad(n: usize, budget: &Budget) {
    use rayon::prelude::*;
    let b = crate::gen::dense(n, 1);
    let c = crate::gen::dense(n, 2);
    let (p1, pn) = (pool(1), pool(threads()));
    let mut comps: Vec<Competitor<'_>> = Vec::new();
    let many = format!("triad, {} threads", threads());
    for (label, p) in [("triad, 1 thread".to_string(), &p1), (many, &pn)] {
        let mut a = vec![0.0f64; n];
        let (b, c) = (&b, &c);
        comps.push(Competitor::reference(label, move || {
            let chunk = n.div_ceil(p.current_num_threads() * 4).max(1);
            p.install(|| {
                a.par_chunks_mut(chunk)
                    .zip(b.par_chunks(chunk).zip(c.par_chunks(chunk)))
                    .for_each(|(a, (b, c))| {
                        for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                            *a = b + black_box(3.0) * c;
                        }
                    })
            });
        }));
    }
    let t = measure(comps, budget);
    let bytes = 24.0 * n as f64;
    let gbs: Vec<String> = t
        .iter()
        .map(|r| format!("{} {:.2} GB/s", r.name, bytes / r.median / 1e9))
        .collect();
    println!(
        "\nParallel triad over 3 × {n} f64: {}; {} threads / 1 thread = **{:.2}×** (medians), {:.2}× (minima)",
        gbs.join(", "),
        threads(),
        t[0].median / t[1].median,
        t[0].min / t[1].min
    );
}

/// Which sparse-output kernel [`sparse_out`] times.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SparseOp {
    /// `C = A + B` (both CSR, the same shape).
    Add,
    /// `C = A B` (Gustavson, a workspace per chunk).
    Spgemm,
}

/// The sparse CSR output both the sequential and the parallel kernel
/// write, one each, reused across calls.
type Out = kernels::PCSR32Out<f64, Owned>;

fn sparse_output(m: usize, n: usize) -> Rc<RefCell<Out>> {
    Rc::new(RefCell::new(Out::with_dims([m, n]).expect("dims")))
}

/// An output's storage, values as bits: what must be equal bit for bit.
type Storage = (Vec<u32>, Vec<u32>, Vec<u64>);

fn storage(c: &Out) -> Storage {
    let v = c.view();
    let l = v.level(1);
    let vals = v.values().iter().map(|x| x.to_bits()).collect();
    (l.positions().to_vec(), l.coordinates().to_vec(), vals)
}

/// A `#[parallel]` kernel into a sparse CSR output (each chunk into an
/// output of its own, joined in row order) against the same kernel on one
/// thread, both into an `Owned` output reused across calls; the parallel
/// output must be the sequential one bit for bit.
pub fn sparse_out(op: SparseOp, name: &str, a: &Csr, b: &Csr, budget: &Budget) {
    let (m, n) = (a.rows, b.cols);
    let (av, bv) = (a.val_f64(), b.val_f64());
    let ta = kernels::PCSR32::<f64>::assemble(
        [a.rows, a.cols],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &av,
    )
    .expect("valid CSR");
    let tb = kernels::PCSR32::<f64>::assemble(
        [b.rows, b.cols],
        [Level::dense(), Level::compressed(&b.pos, &b.crd)],
        &bv,
    )
    .expect("valid CSR");
    let run =
        |par: bool, ta: &kernels::PCSR32<'_, f64>, tb: &kernels::PCSR32<'_, f64>, c: &mut Out| {
            match (op, par) {
                (SparseOp::Add, false) => kernels::seq_add_f64(ta, tb, c),
                (SparseOp::Add, true) => kernels::par_add_f64(ta, tb, c),
                (SparseOp::Spgemm, false) => kernels::seq_spgemm_f64(ta, tb, c),
                (SparseOp::Spgemm, true) => kernels::par_spgemm_f64(ta, tb, c),
            }
            .expect("ok")
        };
    let outs = [sparse_output(m, n), sparse_output(m, n)];
    let mut comps: Vec<Competitor<'_>> = Vec::new();
    for (par, c) in [false, true].into_iter().zip(&outs) {
        let label = if par { par_label() } else { SEQ.to_string() };
        let (c, ta, tb) = (c.clone(), &ta, &tb);
        comps.push(Competitor::ours(label, move || {
            run(par, black_box(ta), black_box(tb), &mut c.borrow_mut())
        }));
    }
    let timings = measure_where_asked(comps, budget);
    let (seq, par) = (storage(&outs[0].borrow()), storage(&outs[1].borrow()));
    assert!(
        seq == par,
        "{name}: the parallel output differs from the sequential one"
    );
    let nnz_out = seq.2.len();
    let (title, nnz) = match op {
        SparseOp::Add => (
            format!(
                "C = A + B into CSR, {name} ({} + {} nnz → {nnz_out} nnz)",
                a.nnz(),
                b.nnz()
            ),
            a.nnz() + b.nnz(),
        ),
        SparseOp::Spgemm => (
            format!("SpGEMM C = A B into CSR, {name} (→ {nnz_out} nnz; per A nonzero)"),
            a.nnz(),
        ),
    };
    table(&title, &timings, &Work { nnz, bytes: None }, None);
    speedups(&timings, SEQ);
}

/// SDDMM `C = S ⊙ (U Vᵀ)` (`K` columns in `U` and `V`) into a sparse CSR
/// output with `S`'s pattern, `#[parallel]` against the same kernel on one
/// thread, both into an `Owned` output reused across calls; the parallel
/// output must be the sequential one bit for bit (each entry's `k` sum
/// stays in one chunk).
pub fn sddmm(name: &str, s: &Csr, k: usize, budget: &Budget) {
    let (m, n) = (s.rows, s.cols);
    let u = crate::gen::dense(m * k, 21);
    let vt = crate::gen::dense(n * k, 22);
    let sv = s.val_f64();
    let ts = kernels::PCSR32::<f64>::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&s.pos, &s.crd)],
        &sv,
    )
    .expect("valid CSR");
    let du = DenseView::new(&u[..], [m, k]).expect("u");
    let dv = DenseView::new(&vt[..], [n, k]).expect("vt");
    let outs = [sparse_output(m, n), sparse_output(m, n)];
    let mut comps: Vec<Competitor<'_>> = Vec::new();
    for (par, c) in [false, true].into_iter().zip(&outs) {
        let label = if par { par_label() } else { SEQ.to_string() };
        let (c, ts) = (c.clone(), &ts);
        comps.push(Competitor::ours(label, move || {
            let c = &mut *c.borrow_mut();
            if par {
                kernels::par_sddmm_f64(black_box(ts), black_box(du), black_box(dv), c)
            } else {
                kernels::seq_sddmm_f64(black_box(ts), black_box(du), black_box(dv), c)
            }
            .expect("ok")
        }));
    }
    let timings = measure_where_asked(comps, budget);
    let (seq, par) = (storage(&outs[0].borrow()), storage(&outs[1].borrow()));
    assert!(
        seq == par,
        "{name}: the parallel SDDMM differs from the sequential one"
    );
    table(
        &format!(
            "SDDMM C = S ⊙ (U Vᵀ) into CSR, K = {k}, {name} ({} nnz)",
            s.nnz()
        ),
        &timings,
        &Work {
            nnz: s.nnz(),
            bytes: None,
        },
        None,
    );
    speedups(&timings, SEQ);
}
