//! Semiring kernels and a pattern tensor on the microcontroller: a graph
//! stored as a pattern matrix (`explicitVal = 1`: positions and coordinates
//! in flash, no values array) runs SpMV and BFS frontier steps; a custom
//! `reduce` (row maxima, the implicit zeros made present with `unary`) and
//! a `select` run on the
//! 64x64 flash matrix. Each against a dense or plain computation.

use core::hint::black_box;

use sparse_core::Level;

use crate::checks::csr64;
use crate::data::{CSR_DENSE, N};
use crate::report::{expect_eq, fail, CheckResult, Msg, Report};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>
    // A graph: which edges exist, nothing else.
    #ADJ = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8,
        explicitVal = 1 : i32
    }>

    /// y = A x over the pattern: the sum of x over each row's edges.
    pub fn pattern_spmv(a: &tensor<8x8xi32, #ADJ>, x: &tensor<8xi32>, y: &mut tensor<8xi32>) {
        y[i] = a[i, j] * x[j];
    }

    /// One BFS step, pulled over the in-adjacency `at[j, i]` (edge i -> j):
    /// how many frontier vertices reach j.
    pub fn reach(at: &tensor<8x8xi32, #ADJ>, f: &tensor<8xi32>, r: &mut tensor<8xi32>) {
        r[j] = at[j, i] * f[i];
    }

    /// Row maxima of the dense matrix: `reduce` folds present values only
    /// (seed 000's custom reduce), so `unary` makes the implicit zeros
    /// present.
    pub fn row_max(a: &tensor<64x64xf32, #CSR>, m: &mut tensor<64xf32>) {
        m[i] = reduce(unary(a[i, j], present = identity, absent = || 0.0),
            identity = f32::MIN, |acc, v| max(acc, v));
    }

    /// The strictly lower triangle of the stored entries.
    pub fn lower(a: &tensor<64x64xf32, #CSR>, c: &mut tensor<64x64xf32>) {
        c[i, j] = select(a[i, j], |_| j < i);
    }
}

/// A directed graph on 8 vertices: edges i -> j as (row i, column j).
const EDGES: [(usize, usize); 11] = [
    (0, 1),
    (0, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (3, 5),
    (4, 5),
    (5, 6),
    (6, 1),
    (7, 0),
    (7, 6),
];
const V: usize = 8;

/// The out-adjacency as CSR arrays (rows of `EDGES`, already sorted).
pub static OUT_POS: [u8; V + 1] = [0, 2, 3, 5, 6, 7, 8, 9, 11];
pub static OUT_CRD: [u8; 11] = [1, 2, 3, 3, 4, 5, 5, 6, 1, 0, 6];
/// The in-adjacency (the transpose): row j lists the i with i -> j.
static IN_POS: [u8; V + 1] = [0, 1, 3, 4, 6, 7, 9, 11, 11];
static IN_CRD: [u8; 11] = [7, 0, 6, 0, 1, 2, 2, 3, 4, 5, 7];

pub fn graph(pos: &'static [u8], crd: &'static [u8]) -> Result<ADJ<'static, i32>, Msg> {
    // No values array: every stored entry is the encoding's 1.
    match ADJ::<i32>::assemble([V, V], [Level::dense(), Level::compressed(pos, crd)], &[]) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

/// BFS levels from `source` by frontier steps through `reach`.
fn bfs_kernel(source: usize) -> Result<[i32; V], Msg> {
    let at = graph(&IN_POS, &IN_CRD)?;
    let mut level = [-1i32; V];
    let mut frontier = [0i32; V];
    level[source] = 0;
    frontier[source] = 1;
    for depth in 1..=V as i32 {
        let mut r = [0i32; V];
        if let Err(e) = reach(black_box(&at), &frontier, &mut r) {
            fail!("kernel error: {}", e);
        }
        frontier = [0; V];
        for v in 0..V {
            if r[v] > 0 && level[v] < 0 {
                level[v] = depth;
                frontier[v] = 1;
            }
        }
    }
    Ok(level)
}

/// Plain BFS over the edge list.
fn bfs_plain(source: usize) -> [i32; V] {
    let mut level = [-1i32; V];
    let mut queue = [0usize; V];
    let (mut head, mut tail) = (0, 1);
    level[source] = 0;
    queue[0] = source;
    while head < tail {
        let u = queue[head];
        head += 1;
        for &(a, b) in &EDGES {
            if a == u && level[b] < 0 {
                level[b] = level[u] + 1;
                queue[tail] = b;
                tail += 1;
            }
        }
    }
    level
}

fn adjacency_matches_edges() -> CheckResult {
    let a = graph(&OUT_POS, &OUT_CRD)?;
    let mut n = 0;
    let mut bad = None;
    a.for_each(|[i, j], v| {
        n += 1;
        if *v != 1 || !EDGES.contains(&(i, j)) {
            bad = Some((i, j, *v));
        }
    });
    if let Some((i, j, v)) = bad {
        fail!("entry ({}, {}) = {} is not an edge worth 1", i, j, v);
    }
    expect_eq!("edges", n, EDGES.len());
    Ok(())
}

/// Runs the checks.
pub fn run_all(r: &mut Report) {
    r.run(
        "pattern ADJ (explicitVal = 1, no values array) == edge list",
        adjacency_matches_edges,
    );
    r.run("kernel pattern_spmv == sum of x over out-edges", || {
        let a = graph(&OUT_POS, &OUT_CRD)?;
        let x = [3, -1, 4, 1, -5, 9, 2, -6];
        let mut y = [i32::MIN; V];
        if let Err(e) = pattern_spmv(black_box(&a), black_box(&x), &mut y) {
            fail!("kernel error: {}", e);
        }
        let mut want = [0i32; V];
        for &(i, j) in &EDGES {
            want[i] += x[j];
        }
        expect_eq!("y", y, want);
        Ok(())
    });
    r.run(
        "BFS by frontier steps (pattern kernel) == plain BFS",
        || {
            for source in 0..V {
                let got = bfs_kernel(source)?;
                let want = bfs_plain(source);
                if got != want {
                    fail!("from {}: levels {:?}, plain BFS {:?}", source, got, want);
                }
            }
            Ok(())
        },
    );
    r.run(
        "kernel row_max (reduce over unary, implicit zeros present) == dense row maxima",
        || {
            let a = csr64()?;
            let mut m = [f32::NAN; N];
            if let Err(e) = row_max(black_box(&a), &mut m) {
                fail!("kernel error: {}", e);
            }
            for (i, row) in CSR_DENSE.iter().enumerate() {
                let want = row.iter().fold(f32::MIN, |acc, &v| acc.max(v));
                if m[i] != want {
                    fail!("row {}: {} but the dense maximum is {}", i, m[i], want);
                }
            }
            Ok(())
        },
    );
    // The dense 64x64 output alone is 16 KiB, all the RAM of the M0's
    // QEMU machine (microbit): that check runs on the other cores only.
    #[cfg(small_ram)]
    r.skip(
        "kernel lower (select j < i) == dense lower triangle",
        "its 16 KiB dense output does not fit this machine's 16 KiB of RAM",
    );
    #[cfg(not(small_ram))]
    r.run(
        "kernel lower (select j < i) == dense lower triangle",
        || {
            let a = csr64()?;
            let mut c = [[f32::NAN; N]; N];
            if let Err(e) = lower(black_box(&a), &mut c) {
                fail!("kernel error: {}", e);
            }
            for (i, row) in CSR_DENSE.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    let want = if j < i { v } else { 0.0 };
                    if c[i][j] != want {
                        fail!("c[{}][{}] = {}, expected {}", i, j, c[i][j], want);
                    }
                }
            }
            Ok(())
        },
    );
}
