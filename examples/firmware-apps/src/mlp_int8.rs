//! App 4: a pruned int8 MLP with TFLite's int8 arithmetic, as TFLite Micro
//! with CMSIS-NN would run it: the float input quantized on the device
//! (`sparse_core::quant::quantize`), a fully connected layer over W1 (75%
//! zeros; CSR and, the same file, 2:4) with per-tensor requantization and
//! a fused ReLU, a second one over W2 (CSR) with **per-channel**
//! requantization, argmax. Every int8 value is checked bit for bit against
//! `data/gen_mlp_int8.py` (numpy, TFLite's formulas), and so are the
//! (multiplier, shift) pairs `quantize_multiplier` derives on the device
//! from the float scales.

use cortex_m_semihosting::hprintln;
use sparse_core::quant::{dequantize, quantize, quantize_multiplier};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>
    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>

    /// Layer 1 weights (int8, symmetric per-tensor), CSR.
    pub static W1: tensor<32x64xi8, #CSR> = file("data/mlp8_w1.npy");
    /// The same weights, 2:4 (at most two nonzeros per group of four).
    pub static W1_24: tensor<32x64xi8, #NV24> = file("data/mlp8_w1.npy");
    /// Layer 2 weights (int8, symmetric per output channel), CSR.
    pub static W2: tensor<10x32xi8, #CSR> = file("data/mlp8_w2.npy");
    pub static B1: tensor<32xi32> = file("data/mlp8_b1.npy");
    pub static B2: tensor<10xi32> = file("data/mlp8_b2.npy");
    /// Layer 2's per-channel multipliers and shifts.
    pub static MULT2: tensor<10xi32> = file("data/mlp8_mult2.npy");
    pub static SHIFT2: tensor<10xi32> = file("data/mlp8_shift2.npy");
    /// Layer 1: input offset, multiplier, shift, output offset, activation
    /// min; layer 2: input offset, output offset.
    pub static PARAMS: tensor<7xi32> = file("data/mlp8_params.npy");
    /// Scales: input, hidden, W1, logits, then W2's ten.
    pub static SCALES: tensor<14xf32> = file("data/mlp8_scales.npy");
    /// Eight float inputs, and the desktop's quantized inputs, logits and
    /// classes.
    pub static X: tensor<8x64xf32> = file("data/mlp8_x.npy");
    pub static XQ: tensor<8x64xi8> = file("data/mlp8_xq.npy");
    pub static LOGITS: tensor<8x10xi8> = file("data/mlp8_logits.npy");
    pub static CLASS: tensor<8xi32> = file("data/mlp8_class.npy");

    /// Layer 1 over CSR: `acc = b1 + W1 (x + in_off)`, requantized,
    /// output offset, clamped to `[act_min, 127]` (the fused ReLU).
    pub fn hidden(w1: &tensor<32x64xi8, #CSR>, x: &tensor<64xi8>, b1: &tensor<32xi32>,
                  acc: &mut tensor<32xi32>, h: &mut tensor<32xi8>,
                  in_off: i32, mult: i32, shift: i32, out_off: i32, act_min: i32) {
        acc[i] = w1[i, j] as i32 * (x[j] as i32 + in_off) + b1[i];
        h[i] = clamp(requantize(acc[i], mult, shift) + out_off, act_min, 127) as i8;
    }

    /// Layer 1 over 2:4.
    pub fn hidden_24(w1: &tensor<32x64xi8, #NV24>, x: &tensor<64xi8>, b1: &tensor<32xi32>,
                     acc: &mut tensor<32xi32>, h: &mut tensor<32xi8>,
                     in_off: i32, mult: i32, shift: i32, out_off: i32, act_min: i32) {
        acc[i] = w1[i, j] as i32 * (x[j] as i32 + in_off) + b1[i];
        h[i] = clamp(requantize(acc[i], mult, shift) + out_off, act_min, 127) as i8;
    }

    /// Layer 2: per-channel requantization, a multiplier and shift per
    /// output row.
    pub fn logits(w2: &tensor<10x32xi8, #CSR>, h: &tensor<32xi8>, b2: &tensor<10xi32>,
                  mult: &tensor<10xi32>, shift: &tensor<10xi32>,
                  acc: &mut tensor<10xi32>, y: &mut tensor<10xi8>, in_off: i32, out_off: i32) {
        acc[o] = w2[o, k] as i32 * (h[k] as i32 + in_off) + b2[o];
        y[o] = clamp(requantize(acc[o], mult[o], shift[o]) + out_off, -128, 127) as i8;
    }
}

/// First index of the largest logit.
fn argmax(y: &[i8]) -> usize {
    let mut best = 0;
    for (k, v) in y.iter().enumerate() {
        if *v > y[best] {
            best = k;
        }
    }
    best
}

/// The reference logits of input `n` (one flipped by `inject-failure`).
fn expected(n: usize) -> [i8; 10] {
    #[allow(unused_mut)]
    let mut e = LOGITS[n];
    #[cfg(feature = "inject-failure")]
    if n == 0 {
        e[0] = e[0].wrapping_add(1);
    }
    e
}

/// Counts the (multiplier, shift) pairs that `quantize_multiplier` does
/// not reproduce from the float32 scales, in double as TFLite does.
fn multiplier_mismatches() -> u32 {
    let s = |k: usize| f64::from(SCALES[k]);
    let mut bad = 0;
    if quantize_multiplier(s(0) * s(2) / s(1)) != Ok((PARAMS[1], PARAMS[2])) {
        bad += 1;
    }
    for o in 0..10 {
        if quantize_multiplier(s(1) * s(4 + o) / s(3)) != Ok((MULT2[o], SHIFT2[o])) {
            bad += 1;
        }
    }
    bad
}

/// Quantizes, runs both layer-1 formats and layer 2 on the eight inputs;
/// checks every int8 value and class.
pub fn run() -> bool {
    let [in_off, mult1, shift1, zp_h, act_min, in_off2, zp_y] = PARAMS;
    let mut mismatches = multiplier_mismatches();
    let mut classes = [0u8; 8];
    let mut failed = false;
    for (n, x) in X.iter().enumerate() {
        let mut xq = [0i8; 64];
        for (q, &v) in xq.iter_mut().zip(x) {
            *q = quantize(v, SCALES[0], -in_off);
        }
        mismatches += xq.iter().zip(&XQ[n]).filter(|(a, b)| a != b).count() as u32;
        let want = expected(n);
        for format in ["csr", "2:4"] {
            let (mut acc1, mut h) = ([0i32; 32], [0i8; 32]);
            let (mut acc2, mut y) = ([0i32; 10], [0i8; 10]);
            let ran = match format {
                "csr" => hidden(
                    &W1, &xq, &B1, &mut acc1, &mut h, in_off, mult1, shift1, zp_h, act_min,
                ),
                _ => hidden_24(
                    &W1_24, &xq, &B1, &mut acc1, &mut h, in_off, mult1, shift1, zp_h, act_min,
                ),
            }
            .and_then(|()| {
                logits(
                    &W2, &h, &B2, &MULT2, &SHIFT2, &mut acc2, &mut y, in_off2, zp_y,
                )
            });
            failed |= ran.is_err();
            let bad = y.iter().zip(&want).filter(|(a, b)| a != b).count() as u32;
            if bad != 0 {
                hprintln!(
                    "  mlp_int8 {}: input {}: logits {:?}, expected {:?}",
                    format,
                    n,
                    y,
                    want
                );
            }
            mismatches += bad;
            let class = argmax(&y);
            mismatches += u32::from(class as i32 != CLASS[n]);
            classes[n] = class as u8;
        }
    }
    let ok = mismatches == 0 && !failed;
    let top = LOGITS[0][CLASS[0] as usize];
    hprintln!(
        "{} mlp_int8 64 -> 32x64 int8 (75% zeros; CSR, 2:4) -> relu -> 10x32 int8 CSR ({} nnz, per-channel), 8 inputs: classes {:?}, input 0 logit {} = {} | bit-exact with TFLite's arithmetic: {} mismatches",
        if ok { "ok  " } else { "FAIL" },
        W2.number_of_entries(),
        classes,
        top,
        dequantize(top, SCALES[3], zp_y),
        mismatches
    );
    ok
}
