"""App 4, a pruned int8 MLP with TFLite's int8 arithmetic:
logits_q = FC2(relu(FC1(quantize(x)))), then argmax.

A float network is drawn (a 32-bit LCG, deterministic) and quantized as
TFLite's post-training int8 quantization does:

- input x in [0, 1): scale 1/255, zero point -128 (`quantize` on the device);
- W1 (32x64): about 75% zeros, at most two nonzeros in every group of four
  columns (so the same file is CSR and 2:4), symmetric per-tensor int8
  (zero point 0, scale max|W1| / 127); bias int32 of scale s_x * s_w1;
- hidden: ReLU fused, int8 of scale max(h) / 255 and zero point -128 over
  the inputs' range (the activation range starts at the zero point);
- W2 (10x32): about 50% zeros, symmetric **per-channel** int8 (scale per
  output row), bias of scale s_h * s_w2[o];
- logits: int8, scale and zero point from their range.

Each layer's real factor (s_in * s_w / s_out, in double from the float32
scales, as TFLite) becomes a (multiplier, shift) pair by TFLite's
QuantizeMultiplier (frexp; round half away from zero), and the expected
outputs are computed in Python integers with TFLite's
MultiplyByQuantizedMultiplier (gemmlowp's SaturatingRoundingDoublingHighMul
with its nudge and a truncating division, then RoundingDivideByPOT,
halfway away from zero), the output offset and the clamp.

Writes mlp8_*.npy; run from data/: python3 gen_mlp_int8.py (numpy)."""

import math
import os

import numpy as np

from mtx import Lcg

HERE = os.path.dirname(os.path.abspath(__file__))
N, H, O, B = 64, 32, 10, 8
rng = Lcg(0x1A7E11)


def uniform(lo, hi):
    return lo + (hi - lo) * (rng.next() / float(1 << 24))


def quantize_multiplier(m):
    """TFLite's QuantizeMultiplier."""
    if m == 0.0:
        return 0, 0
    q, shift = math.frexp(m)
    fixed = int(math.floor(abs(q) * (1 << 31) + 0.5)) * (1 if q >= 0 else -1)
    if fixed == 1 << 31:
        fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if shift > 30:
        return (1 << 31) - 1, 30
    return fixed, shift


def mbqm(acc, mult, shift):
    """TFLite's MultiplyByQuantizedMultiplier."""
    left, right = max(shift, 0), max(-shift, 0)
    v = acc * (1 << left)
    assert -(1 << 31) <= v < (1 << 31)
    ab = v * mult
    num = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    high = abs(num) // (1 << 31) * (1 if num >= 0 else -1)
    q, r = divmod(abs(high), 1 << right)
    if 2 * r >= (1 << right):
        q += 1
    return q if high >= 0 else -q


def quantize(x, scale, zp):
    """TFLite's AffineQuantize: round(x / scale) in float32, halfway away."""
    v = float(np.float32(x) / np.float32(scale))
    r = math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)
    return min(max(int(r) + zp, -128), 127)


def f32(v):
    return float(np.float32(v))


# The float network.
w1 = np.zeros((H, N))
for i in range(H):
    for g in range(0, N, 8):
        # Two nonzeros in a pair of groups of four: 75% zeros, 2:4-valid.
        split = [(1, 1), (0, 2), (2, 0), (1, 1)][rng.below(4)]
        for h, k in enumerate(split):
            cols = list(range(g + 4 * h, g + 4 * h + 4))
            for _ in range(k):
                w1[i, cols.pop(rng.below(len(cols)))] = uniform(-1, 1)
w2 = np.array([[uniform(-1, 1) if rng.below(2) == 0 else 0.0 for _ in range(H)] for _ in range(O)])
b1 = np.array([uniform(-0.5, 0.5) for _ in range(H)])
b2 = np.array([uniform(-0.5, 0.5) for _ in range(O)])
xs = np.array([[f32(uniform(0, 1)) for _ in range(N)] for _ in range(B)], dtype=np.float32)

# Scales (float32, as TFLite stores them) and zero points.
s_x, zp_x = f32(1 / 255), -128
s_w1 = f32(np.abs(w1).max() / 127)
s_w2 = [f32(np.abs(w2[o]).max() / 127) for o in range(O)]
h_float = np.maximum(xs @ w1.T + b1, 0)
s_h, zp_h = f32(h_float.max() / 255), -128
y_float = np.maximum(h_float, 0) @ w2.T + b2
lo, hi = min(y_float.min(), 0.0), max(y_float.max(), 0.0)
s_y = f32((hi - lo) / 255)
zp_y = int(min(max(round(-128 - lo / s_y), -128), 127))

w1q = np.clip(np.round(w1 / s_w1), -127, 127).astype(np.int64)
w2q = np.array([np.clip(np.round(w2[o] / s_w2[o]), -127, 127) for o in range(O)]).astype(np.int64)
b1q = np.round(b1 / (s_x * s_w1)).astype(np.int64)
b2q = np.array([round(b2[o] / (s_h * s_w2[o])) for o in range(O)], dtype=np.int64)
m1, sh1 = quantize_multiplier(s_x * s_w1 / s_h)
m2 = [quantize_multiplier(s_h * s_w2[o] / s_y) for o in range(O)]

# TFLite's integer pipeline.
xq = np.array([[quantize(v, s_x, zp_x) for v in x] for x in xs], dtype=np.int64)
hq = np.zeros((B, H), dtype=np.int64)
yq = np.zeros((B, O), dtype=np.int64)
for n in range(B):
    for i in range(H):
        acc = int(b1q[i] + w1q[i] @ (xq[n] - zp_x))
        hq[n, i] = min(max(mbqm(acc, m1, sh1) + zp_h, zp_h), 127)
    for o in range(O):
        acc = int(b2q[o] + w2q[o] @ (hq[n] - zp_h))
        yq[n, o] = min(max(mbqm(acc, *m2[o]) + zp_y, -128), 127)
classes = [int(np.argmax(y)) for y in yq]  # the first maximum


def save(name, a, dtype):
    np.save(os.path.join(HERE, f"mlp8_{name}.npy"), np.asarray(a).astype(dtype))


save("w1", w1q, "i1")
save("w2", w2q, "i1")
save("b1", b1q, "<i4")
save("b2", b2q, "<i4")
save("x", xs, "<f4")
save("xq", xq, "i1")
# Layer 1: input offset, multiplier, shift, output offset, activation min;
# layer 2: input offset, output offset.
save("params", [-zp_x, m1, sh1, zp_h, zp_h, -zp_h, zp_y], "<i4")
save("mult2", [m for m, _ in m2], "<i4")
save("shift2", [s for _, s in m2], "<i4")
# Input scale, hidden scale, W1 scale, logits scale, W2 scales.
save("scales", [s_x, s_h, s_w1, s_y] + s_w2, "<f4")
save("logits", yq, "i1")
save("class", classes, "<i4")
print("mlp8: W1 nnz", int(np.count_nonzero(w1q)), "W2 nnz", int(np.count_nonzero(w2q)),
      "layer 1 (mult, shift)", (m1, sh1), "classes", classes)
print("hidden at the ReLU bound:", int((hq == zp_h).sum()), "of", hq.size,
      "logits at the clamp:", int(((yq == -128) | (yq == 127)).sum()), "of", yq.size)
