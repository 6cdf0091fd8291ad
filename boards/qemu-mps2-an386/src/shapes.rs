//! Kernel shapes the other modules do not run: SpGEMM through the
//! workspace (expand, then compress each row), a conversion (the transpose
//! `c[j, i] = a[i, j]`, counted and scattered into the output) and SpMV over
//! 2:4 structured sparsity from a flash constant. Each is compared with a
//! dense computation; every value is a multiple of 1/4, so every product
//! and sum is exact and the comparisons are bit for bit.

use core::hint::black_box;

use sparse_core::output::Fixed;
use sparse_core::Level;

use crate::report::{expect_eq, fail, CheckResult, Msg, Report};

sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8
    }>
    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 8
    }>

    /// C = A B (Gustavson): each row of C is expanded into the output's
    /// workspace, then compressed (sorted) into the row.
    pub fn spgemm(a: &tensor<8x8xf32, #CSR8>, b: &tensor<8x8xf32, #CSR8>,
                  c: &mut tensor<8x8xf32, #CSR8>) {
        c[i, j] = a[i, k] * b[k, j];
    }

    /// C = Aᵀ, CSR in and out: a conversion (count, then scatter).
    pub fn transpose(a: &tensor<8x8xf32, #CSR8>, c: &mut tensor<8x8xf32, #CSR8>) {
        c[j, i] = a[i, j];
    }

    /// y = A x over 2:4 weights (two values and their 2-bit positions per
    /// group of four columns).
    pub fn spmv24(a: &tensor<4x8xf32, #NV24>, x: &tensor<8xf32>, y: &mut tensor<4xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// 2:4 weights as a compile-time constant in flash (at most two
    /// nonzeros in every group of four columns).
    pub static W24: tensor<4x8xf32, #NV24> = dense<[
        [1.5, 0.0, -2.0, 0.0, 0.0, 0.5, 0.0, 0.25],
        [0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, -1.0],
        [0.75, -0.5, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0],
        [0.0, 1.0, 0.0, 4.0, -0.25, 0.0, 0.0, 1.25]
    ]>;
}

/// `W24` as a dense array: the reference.
pub const W24_DENSE: [[f32; 8]; 4] = [
    [1.5, 0.0, -2.0, 0.0, 0.0, 0.5, 0.0, 0.25],
    [0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, -1.0],
    [0.75, -0.5, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0],
    [0.0, 1.0, 0.0, 4.0, -0.25, 0.0, 0.0, 1.25],
];

/// An 8x8 CSR matrix in flash (a weighted graph: the edges of the
/// semiring module's graph, weights in quarters, no explicit zeros).
static W_POS: [u8; 9] = [0, 2, 3, 5, 6, 7, 8, 9, 11];
static W_CRD: [u8; 11] = [1, 2, 3, 3, 4, 5, 5, 6, 1, 0, 6];
static W_VAL: [f32; 11] = [0.5, -1.0, 1.5, 2.0, -0.25, 0.75, 1.0, -1.5, 0.25, 2.5, -0.5];
const M: usize = 8;

/// Room for every output of this module (positions, entries, workspace).
pub const CAP8: usize = 64;

pub fn w() -> Result<CSR8<'static, f32>, Msg> {
    match CSR8::assemble(
        [M, M],
        [Level::dense(), Level::compressed(&W_POS, &W_CRD)],
        &W_VAL,
    ) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

/// `W` as a dense array, from its CSR arrays.
fn w_dense() -> [[f32; M]; M] {
    let mut d = [[0.0f32; M]; M];
    for (i, row) in d.iter_mut().enumerate() {
        for p in usize::from(W_POS[i])..usize::from(W_POS[i + 1]) {
            row[usize::from(W_CRD[p])] = W_VAL[p];
        }
    }
    d
}

/// `c` against the dense `want` and the stored set `stores`: each entry
/// once, in range, stored exactly where `stores` says, equal to `want`;
/// and the storage assembles again through the validating constructor.
fn same_as(c: &CSR8<'_, f32>, stores: &[[bool; M]; M], want: &[[f32; M]; M]) -> CheckResult {
    let mut seen = [[false; M]; M];
    let mut problem: Option<([usize; 2], Option<f32>)> = None;
    c.for_each(|[i, j]: [usize; 2], v: &f32| {
        if problem.is_some() {
            return;
        }
        match seen.get_mut(i).and_then(|row| row.get_mut(j)) {
            Some(s) if !*s => {
                *s = true;
                if *v != want[i][j] {
                    problem = Some(([i, j], Some(*v)));
                }
            }
            _ => problem = Some(([i, j], None)),
        }
    });
    match problem {
        Some(([i, j], Some(v))) => fail!("({}, {}) = {}, dense gives {}", i, j, v, want[i][j]),
        Some((at, None)) => fail!("{:?} stored twice or outside 8x8", at),
        None => {}
    }
    expect_eq!("stored entries", seen, *stores);
    let (dims, levels, values) = c.disassemble();
    if let Err(e) = CSR8::<f32>::assemble(dims, levels, values) {
        fail!("the output's storage does not assemble: {}", e);
    }
    Ok(())
}

/// Runs the checks.
pub fn run_all(r: &mut Report) {
    r.run(
        "kernel spgemm (CSR x CSR -> CSR through the workspace) == dense product",
        || {
            let a = w()?;
            let mut c = match CSR8Out::<f32, Fixed<CAP8>>::with_dims([M, M]) {
                Ok(c) => c,
                Err(e) => fail!("with_dims: {}", e),
            };
            if let Err(e) = spgemm(black_box(&a), black_box(&a), &mut c) {
                fail!("kernel error: {}", e);
            }
            let d = w_dense();
            let mut stores = [[false; M]; M];
            let mut want = [[0.0f32; M]; M];
            for (i, di) in d.iter().enumerate() {
                for j in 0..M {
                    for (&dik, dk) in di.iter().zip(&d) {
                        if dik != 0.0 && dk[j] != 0.0 {
                            stores[i][j] = true;
                            want[i][j] += dik * dk[j];
                        }
                    }
                }
            }
            same_as(&c.view(), &stores, &want)
        },
    );
    r.run(
        "kernel transpose (CSR -> CSR, a conversion) == dense transpose",
        || {
            let a = w()?;
            let mut c = match CSR8Out::<f32, Fixed<CAP8>>::with_dims([M, M]) {
                Ok(c) => c,
                Err(e) => fail!("with_dims: {}", e),
            };
            if let Err(e) = transpose(black_box(&a), &mut c) {
                fail!("kernel error: {}", e);
            }
            let d = w_dense();
            let mut stores = [[false; M]; M];
            let mut want = [[0.0f32; M]; M];
            for i in 0..M {
                for j in 0..M {
                    stores[i][j] = d[j][i] != 0.0;
                    want[i][j] = d[j][i];
                }
            }
            same_as(&c.view(), &stores, &want)
        },
    );
    r.run(
        "kernel spmv24 (2:4 constant from flash) == dense matvec",
        || {
            let x = [1.0, -2.0, 0.5, 4.0, 0.25, -1.0, 2.0, -0.5];
            let mut y = [f32::NAN; 4];
            if let Err(e) = spmv24(black_box(&W24), black_box(&x), &mut y) {
                fail!("kernel error: {}", e);
            }
            let mut want = [0.0f32; 4];
            for (wi, row) in want.iter_mut().zip(&W24_DENSE) {
                *wi = row.iter().zip(&x).fold(0.0, |s, (&a, &b)| s + a * b);
            }
            expect_eq!("y", y, want);
            expect_eq!("stored values", W24.number_of_entries(), 16);
            Ok(())
        },
    );
}
