//! App 3: PageRank by power iteration on a 32-page link graph stored as a
//! pattern matrix (`explicitVal = 1.0`: positions and coordinates only).

use crate::check::Check;

/// Pages, iterations and damping (as in `data/gen_pagerank.py`).
const N: usize = 32;
const ITERS: usize = 20;

sparse_core::sparse_kernel! {
    #PAT = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8,
        explicitVal = 1.0 : f32
    }>

    /// `A[i, j] = 1`: page `j` links to page `i`.
    pub static A: tensor<32x32xf32, #PAT> = file("data/pagerank_a.mtx");
    /// The desktop reference: out-degrees and the ranks after `ITERS` steps.
    pub static OUTDEG_REF: tensor<32xf32> = file("data/pagerank_outdeg.npy");
    pub static RANK_REF: tensor<32xf32> = file("data/pagerank_r.npy");

    /// Out-links of each page: the column sums of `A`.
    pub fn out_degree(a: &tensor<32x32xf32, #PAT>, deg: &mut tensor<32xf32>) {
        deg[j] = a[i, j];
    }

    /// One power step, damping 0.85: `r' = 0.85 A (r / deg) + 0.15 / 32`.
    pub fn step(a: &tensor<32x32xf32, #PAT>, r: &tensor<32xf32>, inv_deg: &tensor<32xf32>,
                w: &mut tensor<32xf32>, next: &mut tensor<32xf32>) {
        w[j] = r[j] * inv_deg[j];
        next[i] = a[i, j] * w[j] * 0.85 + 0.0046875;
    }
}

pub fn run() -> bool {
    let mut out = Check::new(1e-4);
    let mut deg = [0.0f32; N];
    out_degree(&A, &mut deg).unwrap();
    out.close(&deg, &OUTDEG_REF, 1.0);
    let mut inv_deg = [0.0f32; N];
    for (v, d) in inv_deg.iter_mut().zip(deg.iter()) {
        *v = if *d > 0.0 { 1.0 / d } else { 0.0 };
    }
    let mut r = [1.0 / N as f32; N];
    let mut next = [0.0f32; N];
    let mut w = [0.0f32; N];
    for _ in 0..ITERS {
        step(&A, &r, &inv_deg, &mut w, &mut next).unwrap();
        r = next;
    }
    out.close(&r, &RANK_REF, 1.0 / N as f32);
    let mut top = 0;
    for k in 0..N {
        if r[k] > r[top] {
            top = k;
        }
    }
    out.report(format_args!(
        "pagerank 32 pages, {} links (pattern CSR), {} iterations: top page {} rank {}",
        A.number_of_entries(),
        ITERS,
        top,
        r[top]
    ))
}
