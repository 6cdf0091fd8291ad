//! App 2: the covariance prediction of a Kalman filter, `P <- F P Fᵀ + Q`,
//! with a sparse transition matrix `F` (CSR, in flash) and dense `P`, `Q`,
//! as two kernels: `T = F P`, then `P = T Fᵀ + Q` (`F` read transposed).

use crate::check::Check;

/// Prediction steps (as in `data/gen_kalman.py`).
const STEPS: usize = 4;

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8
    }>

    /// Constant-acceleration transition of two axes, dt = 1/8.
    pub static F: tensor<8x8xf32, #CSR> = file("data/kalman_f.mtx");
    pub static P0: tensor<8x8xf32> = file("data/kalman_p0.mtx");
    pub static Q: tensor<8x8xf32> = file("data/kalman_q.mtx");
    /// The desktop reference: P after `STEPS` predictions.
    pub static P_REF: tensor<8x8xf32> = file("data/kalman_p.mtx");

    /// `T = F P`.
    pub fn propagate(f: &tensor<8x8xf32, #CSR>, p: &tensor<8x8xf32>, t: &mut tensor<8x8xf32>) {
        t[i, j] = f[i, k] * p[k, j];
    }

    /// `P' = T Fᵀ + Q`: the CSR `F` read as `f[j, k]`.
    pub fn covariance(t: &tensor<8x8xf32>, f: &tensor<8x8xf32, #CSR>, q: &tensor<8x8xf32>,
                      p: &mut tensor<8x8xf32>) {
        p[i, j] = t[i, k] * f[j, k] + q[i, j];
    }
}

pub fn run() -> bool {
    let mut p = P0;
    let mut t = [[0.0f32; 8]; 8];
    for _ in 0..STEPS {
        propagate(&F, &p, &mut t).unwrap();
        covariance(&t, &F, &Q, &mut p).unwrap();
    }
    let mut out = Check::new(1e-5);
    for (got, want) in p.iter().zip(P_REF.iter()) {
        out.close(got, want, 1.0);
    }
    // The prediction keeps P symmetric.
    for (i, row) in p.iter().enumerate() {
        for (j, v) in row.iter().enumerate().take(i) {
            if *v != p[j][i] {
                out.mismatches += 1;
            }
        }
    }
    out.report(format_args!(
        "kalman P <- F P F^T + Q, F 8x8 CSR ({} nnz), {} steps: trace {}",
        F.number_of_entries(),
        STEPS,
        (0..8).map(|i| p[i][i]).sum::<f32>()
    ))
}
