//! Conjugate gradient on a Matrix Market file, every operation a generated
//! kernel: reads the SPD matrix shipped in `examples/data/` (or the file
//! given as the first argument) as COO, converts it to CSR in
//! caller-provided buffers (`sparse_core::convert`, no allocator involved),
//! solves `A x = b` with CG whose SpMV, dot products and vector updates are
//! `sparse_kernel!` kernels, and checks the result against the same CG run
//! on `sprs` (which reads the file itself): the same CSR arrays, the same
//! iterates to rounding, and a small residual `‖b − A x‖ / ‖b‖` computed
//! with sprs' product. Exits with an error (status 1) if any check fails.
//!
//! ```text
//! cargo run -p sparse-examples --bin cg [-- path/to/spd.mtx]
//! ```
//!
//! The shipped matrix, `examples/data/diffusion2d_20x20.mtx`, is made by
//! `examples/data/diffusion2d.py` (a 400-unknown diffusion problem).

use std::fs::File;
use std::io::BufReader;

use sparse_core::convert::convert;
use sparse_core::io::read_matrix_market;
use sparse_core::{sparse_kernel, Owned, SliceBuffer, Slices};

sparse_kernel! {
    /// Sorted COO (what the file is read into), native widths.
    #COO = #sparse_tensor.encoding<{
        map = (i, j) -> (i : compressed(nonunique), j : singleton)
    }>

    /// Compressed sparse row with 16-bit positions and coordinates.
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 16
    }>

    /// y = A x.
    pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }

    /// s = x · y.
    pub fn dot(x: &tensor<?xf64>, y: &tensor<?xf64>, s: &mut tensor<f64>) {
        s[] = x[i] * y[i];
    }

    /// y = y + alpha x.
    pub fn axpy(alpha: &tensor<f64>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] += alpha[] * x[i];
    }

    /// y = x + beta y (CG's new search direction).
    pub fn xpby(x: &tensor<?xf64>, beta: &tensor<f64>, y: &mut tensor<?xf64>) {
        y[i] = x[i] + beta[] * y[i];
    }
}

type Error = Box<dyn std::error::Error>;

/// Stop when `‖r‖ ≤ TOL ‖b‖`, or after `MAX_ITER` iterations.
const TOL: f64 = 1e-10;
const MAX_ITER: usize = 2000;

/// What a CG run returns: the solution, the iterations and `‖r‖` per
/// iteration (the recurrence's, as CG computes it).
struct Solve {
    x: Vec<f64>,
    iterations: usize,
    history: Vec<f64>,
}

/// CG with the generated kernels; the matrix is our CSR tensor.
fn cg_ours(a: &CSR<'_, f64>, b: &[f64]) -> Result<Solve, Error> {
    let n = b.len();
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let mut p = r.clone();
    let mut ap = vec![0.0; n];
    let (mut rr, mut bb, mut pap) = (0.0, 0.0, 0.0);
    dot(&r, &r, &mut rr)?;
    dot(b, b, &mut bb)?;
    let stop = TOL * bb.sqrt();
    let mut history = vec![rr.sqrt()];
    let mut iterations = 0;
    while iterations < MAX_ITER && rr.sqrt() > stop {
        spmv(a, &p, &mut ap)?;
        dot(&p, &ap, &mut pap)?;
        let alpha = rr / pap;
        axpy(&alpha, &p, &mut x)?;
        axpy(&-alpha, &ap, &mut r)?;
        let mut rr_next = 0.0;
        dot(&r, &r, &mut rr_next)?;
        xpby(&r, &(rr_next / rr), &mut p)?;
        rr = rr_next;
        history.push(rr.sqrt());
        iterations += 1;
    }
    Ok(Solve {
        x,
        iterations,
        history,
    })
}

/// The same CG with sprs' CSR product and plain loops for the vectors.
fn cg_sprs(a: &sprs::CsMat<f64>, b: &[f64]) -> Solve {
    let n = b.len();
    let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let mut p = r.clone();
    let mut ap = vec![0.0; n];
    let mut rr = dot(&r, &r);
    let stop = TOL * dot(b, b).sqrt();
    let mut history = vec![rr.sqrt()];
    let mut iterations = 0;
    while iterations < MAX_ITER && rr.sqrt() > stop {
        ap.fill(0.0);
        sprs::prod::mul_acc_mat_vec_csr(a.view(), &p[..], &mut ap[..]);
        let alpha = rr / dot(&p, &ap);
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        let rr_next = dot(&r, &r);
        let beta = rr_next / rr;
        for i in 0..n {
            p[i] = r[i] + beta * p[i];
        }
        rr = rr_next;
        history.push(rr.sqrt());
        iterations += 1;
    }
    Solve {
        x,
        iterations,
        history,
    }
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// `max_i |u_i - v_i| / max_i |v_i|`.
fn rel_diff(u: &[f64], v: &[f64]) -> f64 {
    let scale = v
        .iter()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    u.iter()
        .zip(v)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        / scale
}

/// Fails the example (exit status 1) with `what` unless `ok`.
fn check(ok: bool, what: &str) -> Result<(), Error> {
    if ok {
        println!("ok: {what}");
        Ok(())
    } else {
        Err(format!("check failed: {what}").into())
    }
}

fn main() -> Result<(), Error> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/diffusion2d_20x20.mtx").to_string()
    });

    // Read: the file's lower triangle, expanded and sorted by rows, as COO.
    let coo: COOOut<f64, Owned> = read_matrix_market(BufReader::new(File::open(&path)?))?;
    let coo = coo.view();
    let [m, n] = coo.dim_sizes();
    let nnz = coo.number_of_entries();
    println!("{path}: {m} x {n}, {nnz} stored entries (COO as read)");
    check(m == n, "the matrix is square")?;

    // Convert: COO -> CSR into buffers of exactly the result's size.
    let mut pos = vec![0u16; m + 1];
    let mut crd = vec![0u16; nnz];
    let mut val = vec![0.0f64; nnz];
    let mut csr = CSROut::<f64, Slices<'_>>::new(
        [m, n],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )?;
    convert(&coo, &mut csr)?;
    let a = csr.view();

    // The reference: sprs reads the same file itself and builds its CSR.
    let tri: sprs::TriMat<f64> = sprs::io::read_matrix_market(&path)?;
    let sa: sprs::CsMat<f64> = tri.to_csr();
    let ours_pos: Vec<usize> = a.level(1).positions().iter().map(|&p| p.into()).collect();
    let ours_crd: Vec<usize> = a.level(1).coordinates().iter().map(|&c| c.into()).collect();
    check(
        ours_pos == sa.indptr().raw_storage()
            && ours_crd == sa.indices()
            && a.values() == sa.data(),
        "COO -> CSR conversion gives sprs' CSR arrays",
    )?;

    // b = A x_true for a known x_true, with the generated SpMV.
    let x_true: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64 / 8.0).collect();
    let mut b = vec![0.0; m];
    spmv(&a, &x_true, &mut b)?;

    let ours = cg_ours(&a, &b)?;
    let theirs = cg_sprs(&sa, &b);
    println!(
        "CG: {} iterations (sprs: {}), ‖r‖ {:.3e} -> {:.3e}",
        ours.iterations,
        theirs.iterations,
        ours.history.first().copied().unwrap_or(0.0),
        ours.history.last().copied().unwrap_or(0.0),
    );

    // The true residual, with sprs' product (independent of our kernels).
    let mut ax = vec![0.0; m];
    sprs::prod::mul_acc_mat_vec_csr(sa.view(), &ours.x[..], &mut ax[..]);
    let residual: Vec<f64> = b.iter().zip(&ax).map(|(b, y)| b - y).collect();
    let rel_residual = norm(&residual) / norm(&b);
    println!("‖b − A x‖ / ‖b‖ = {rel_residual:.3e}");

    check(ours.iterations < MAX_ITER, "CG converged")?;
    check(
        ours.iterations.abs_diff(theirs.iterations) <= 1,
        "as many iterations as sprs' CG (±1)",
    )?;
    check(rel_residual < 1e-9, "residual ‖b − A x‖ / ‖b‖ < 1e-9")?;
    let vs_sprs = rel_diff(&ours.x, &theirs.x);
    println!("max |x − x_sprs| / max |x_sprs| = {vs_sprs:.3e}");
    check(vs_sprs < 1e-9, "solution equals sprs' CG solution")?;
    let vs_true = rel_diff(&ours.x, &x_true);
    println!("max |x − x_true| / max |x_true| = {vs_true:.3e}");
    check(vs_true < 1e-8, "solution equals the x that made b")?;
    println!("all checks passed");
    Ok(())
}
