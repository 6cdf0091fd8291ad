//! App 1: a pruned 2-layer MLP, `logits = W2 relu(W1 x + b1) + b2`, then
//! argmax. W1 is one file stored three ways (CSR, BSR 2x2, 2:4); each
//! variant must give the desktop reference's logits and class.

use cortex_m_semihosting::hprintln;

use crate::check::Check;

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                         i mod 2 : dense, j mod 2 : dense),
        posWidth = 8,
        crdWidth = 8
    }>
    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 8
    }>

    /// Layer 1 weights, pruned 2:4 (`data/mlp_w1.mtx`), as CSR.
    pub static W1: tensor<32x16xf32, #CSR> = file("data/mlp_w1.mtx");
    /// The same weights in 2x2 blocks.
    pub static W1_BSR: tensor<32x16xf32, #BSR> = file("data/mlp_w1.mtx");
    /// The same weights as 2:4 structured sparsity.
    pub static W1_24: tensor<32x16xf32, #NV24> = file("data/mlp_w1.mtx");
    /// Layer 2 weights.
    pub static W2: tensor<10x32xf32, #CSR> = file("data/mlp_w2.mtx");
    pub static B1: tensor<32xf32> = file("data/mlp_b1.npy");
    pub static B2: tensor<10xf32> = file("data/mlp_b2.npy");
    /// Four input vectors, one per row.
    pub static X: tensor<4x16xf32> = file("data/mlp_x.mtx");
    /// The desktop reference: logits and class per input.
    pub static LOGITS: tensor<4x10xf32> = file("data/mlp_logits.mtx");
    pub static CLASS: tensor<4xi32> = file("data/mlp_class.npy");

    /// The whole network with CSR layers: hidden layer, ReLU, output layer.
    pub fn mlp_csr(w1: &tensor<32x16xf32, #CSR>, b1: &tensor<32xf32>,
                   w2: &tensor<10x32xf32, #CSR>, b2: &tensor<10xf32>,
                   x: &tensor<16xf32>, h: &mut tensor<32xf32>, y: &mut tensor<10xf32>) {
        h[i] = w1[i, j] * x[j] + b1[i];
        h[i] = max(h[i], 0.0);
        y[o] = w2[o, k] * h[k] + b2[o];
    }

    /// Hidden layer with BSR 2x2 weights.
    pub fn hidden_bsr(w1: &tensor<32x16xf32, #BSR>, b1: &tensor<32xf32>,
                      x: &tensor<16xf32>, h: &mut tensor<32xf32>) {
        h[i] = w1[i, j] * x[j] + b1[i];
        h[i] = max(h[i], 0.0);
    }

    /// Hidden layer with 2:4 weights.
    pub fn hidden_24(w1: &tensor<32x16xf32, #NV24>, b1: &tensor<32xf32>,
                     x: &tensor<16xf32>, h: &mut tensor<32xf32>) {
        h[i] = w1[i, j] * x[j] + b1[i];
        h[i] = max(h[i], 0.0);
    }

    /// Output layer (after `hidden_bsr` / `hidden_24`).
    pub fn output(w2: &tensor<10x32xf32, #CSR>, b2: &tensor<10xf32>,
                  h: &tensor<32xf32>, y: &mut tensor<10xf32>) {
        y[o] = w2[o, k] * h[k] + b2[o];
    }
}

/// First index of the largest logit.
fn argmax(y: &[f32]) -> usize {
    let mut best = 0;
    for (k, v) in y.iter().enumerate() {
        if *v > y[best] {
            best = k;
        }
    }
    best
}

/// The reference logits of input `n` (one flipped by `inject-failure`).
fn expected(n: usize) -> [f32; 10] {
    #[allow(unused_mut)]
    let mut e = LOGITS[n];
    #[cfg(feature = "inject-failure")]
    if n == 0 {
        e[0] += 1.0;
    }
    e
}

/// Runs every input through one weight format; checks logits and class.
/// Returns the classes found.
fn variant(name: &str, out: &mut Check, run: impl Fn(&[f32; 16], &mut [f32; 10])) -> [u8; 4] {
    let mut classes = [0u8; 4];
    for (n, x) in X.iter().enumerate() {
        let mut y = [0.0f32; 10];
        run(x, &mut y);
        out.close(&y, &expected(n), 1.0);
        let class = argmax(&y);
        if class as i32 != CLASS[n] {
            hprintln!(
                "  mlp {}: input {}: class {}, expected {}",
                name,
                n,
                class,
                CLASS[n]
            );
            out.mismatches += 1;
        }
        classes[n] = class as u8;
    }
    classes
}

/// The three weight formats on the four inputs.
pub fn run() -> bool {
    let mut out = Check::new(1e-5);
    let classes = variant("csr", &mut out, |x, y| {
        let mut h = [0.0f32; 32];
        mlp_csr(&W1, &B1, &W2, &B2, x, &mut h, y).unwrap();
    });
    variant("bsr", &mut out, |x, y| {
        let mut h = [0.0f32; 32];
        hidden_bsr(&W1_BSR, &B1, x, &mut h).unwrap();
        output(&W2, &B2, &h, y).unwrap();
    });
    variant("2:4", &mut out, |x, y| {
        let mut h = [0.0f32; 32];
        hidden_24(&W1_24, &B1, x, &mut h).unwrap();
        output(&W2, &B2, &h, y).unwrap();
    });
    out.report(format_args!(
        "mlp 32x16 (2:4, {} nnz; CSR, BSR 2x2, 2:4) -> relu -> 10x32 CSR ({} nnz), {} inputs x 3 formats: classes {:?}",
        W1.number_of_entries(),
        W2.number_of_entries(),
        X.len(),
        classes
    ))
}
