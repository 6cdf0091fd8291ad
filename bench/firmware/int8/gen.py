#!/usr/bin/env python3
"""Weights, inputs and expected outputs of the int8 fully connected benchmark
(`run.sh int8`), deterministic, numpy only.

usage: gen.py ZEROS OUT_DIR       (ZEROS: 75 or 90)

Two layers, 64x256 and 128x512 (rows = outputs), as the CMSIS-NN harness of
the project's measuring notes builds them: a 32-bit LCG, int8 weights in
-127..127 without 0, and

- ZEROS=75: exactly 75% zeros, at most two nonzeros in every group of four
  columns (each pair of groups holds two, split 1+1, 0+2 or 2+0), so the
  same weights are exactly 2:4;
- ZEROS=90: (cols + 5) // 10 nonzeros per row at random columns, at most two
  per group of four.

Inputs are random int8, biases in -10000..10000. The quantization is
TFLite's: input zero point -128 (input offset 128), output zero point
`OUT_OFF`, per-tensor multiplier and shift (scale about 4.6e-4 and 3.4e-4,
outputs spread over about +-100, none at the clamp bounds: checked).

Writes, per layer `lR` (R = rows), for the sparse_kernel! constants
(`.npy`): `lR_w` (dense int8 weights), `lR_x`, `lR_bias`, `lR_params`
(multiplier, shift, input offset, output offset), `lR_y` (expected output)
and the exact pass `lR_bias_exact`, `lR_y_exact` (requantization scale 1.0:
multiplier 2^30, shift 1, and a bias that makes every output small, so any
accumulator error shows). For the hand-written C kernels (`.bin`, raw
little-endian, their formats in c/kernels.h): `lR_csr_seg` (u16),
`lR_csr_col` (u8), `lR_csr_val`, `lR_m24`, `lR_v24`, and the biases with
the input offset folded in, `lR_bias_folded`, `lR_bias_exact_folded` (i32).

The expected outputs are computed here from TFLite's formulas in Python
integers (gemmlowp's SaturatingRoundingDoublingHighMul with its nudge and a
truncating division, then RoundingDivideByPOT as an exact rounding of a
quotient, halfway away from zero), independently of the kernels' C and
Rust code.
"""
import os
import sys

import numpy as np

IN_OFF = 128
OUT_OFF = 5
# (rows, cols, seed, multiplier, shift)
LAYERS = [(64, 256, 12345, 2018634629, -11), (128, 512, 67890, 1460288881, -11)]


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def rnd(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state >> 8

    def nonzero(self):
        v = self.rnd() % 254 - 127
        return v + 1 if v >= 0 else v


def weights(rows, cols, zeros, rng):
    w = np.zeros((rows, cols), dtype=np.int64)
    if zeros == 75:
        pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        split = [(1, 1), (0, 2), (2, 0), (1, 1)]
        for i in range(rows):
            for g in range(0, cols // 4, 2):
                s = split[rng.rnd() % 4]
                for h in range(2):
                    base = 4 * (g + h)
                    if s[h] == 1:
                        at = rng.rnd() % 4
                        w[i, base + at] = rng.nonzero()
                    elif s[h] == 2:
                        p = pairs[rng.rnd() % 6]
                        w[i, base + p[0]] = rng.nonzero()
                        w[i, base + p[1]] = rng.nonzero()
    elif zeros == 90:
        per_row = (cols + 5) // 10
        for i in range(rows):
            k = 0
            while k < per_row:
                j = rng.rnd() % cols
                g = j & ~3
                if w[i, j] != 0 or np.count_nonzero(w[i, g:g + 4]) >= 2:
                    continue
                w[i, j] = rng.nonzero()
                k += 1
    else:
        sys.exit("ZEROS must be 75 or 90")
    return w


def requantize(acc, mult, shift):
    """TFLite's MultiplyByQuantizedMultiplier, from its formulas."""
    left, right = max(shift, 0), max(-shift, 0)
    v = acc * (1 << left)
    assert -(1 << 31) <= v < (1 << 31)
    ab = v * mult
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    num = ab + nudge
    # C's division truncates toward zero.
    high = abs(num) // (1 << 31) * (1 if num >= 0 else -1)
    assert -(1 << 31) <= high < (1 << 31)
    q, r = divmod(abs(high), 1 << right)
    if 2 * r >= (1 << right):
        q += 1
    return q if high >= 0 else -q


def outputs(w, x, bias, mult, shift):
    acc = bias.astype(np.int64) + w @ (x.astype(np.int64) + IN_OFF)
    y = [min(max(requantize(int(a), mult, shift) + OUT_OFF, -128), 127) for a in acc]
    return np.array(y, dtype=np.int8)


def pack_csr(w):
    """CSR in panels of 256 columns: u16 segment starts, u8 columns."""
    rows, cols = w.shape
    seg, col, val = [], [], []
    for i in range(rows):
        for p in range(0, cols, 256):
            seg.append(len(col))
            for j in range(p, min(p + 256, cols)):
                if w[i, j] != 0:
                    col.append(j - p)
                    val.append(w[i, j])
    seg.append(len(col))
    return np.array(seg, "<u2"), np.array(col, "u1"), np.array(val, "i1")


def pack_24(w):
    """2:4: two values per group of four, their positions in a nibble."""
    rows, cols = w.shape
    meta = np.zeros(rows * cols // 8, "u1")
    vals = np.zeros(rows * cols // 2, "i1")
    g24 = 0
    for i in range(rows):
        for g in range(cols // 4):
            grp = w[i, 4 * g:4 * g + 4]
            idx = [int(t) for t in np.nonzero(grp)[0]]
            assert len(idx) <= 2
            if not idx:
                idx = [0, 1]
            elif len(idx) == 1:
                idx = [2, 3] if idx[0] == 3 else [idx[0], idx[0] + 1]
            vals[2 * g24], vals[2 * g24 + 1] = grp[idx[0]], grp[idx[1]]
            nib = idx[0] | (idx[1] << 2)
            meta[g24 // 2] |= nib << (4 * (g24 & 1))
            g24 += 1
    return meta, vals


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    zeros, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for rows, cols, seed, mult, shift in LAYERS:
        rng = Lcg(seed)
        w = weights(rows, cols, zeros, rng)
        x = np.array([(rng.rnd() & 0xFF) for _ in range(cols)], dtype=np.int64)
        x = np.where(x >= 128, x - 256, x)
        bias = np.array([rng.rnd() % 20001 - 10000 for _ in range(rows)], dtype=np.int64)
        y = outputs(w, x, bias, mult, shift)
        assert not np.any((y == -128) | (y == 127)), "an output at the clamp bounds"
        acc = w @ (x + IN_OFF)
        bias_exact = np.array([rng.rnd() % 201 - 100 for _ in range(rows)], dtype=np.int64) - acc
        y_exact = outputs(w, x, bias_exact, 1 << 30, 1)
        rowsum = w.sum(axis=1)
        name = f"{out}/l{rows}"
        np.save(f"{name}_w.npy", w.astype("i1"))
        np.save(f"{name}_x.npy", x.astype("i1"))
        np.save(f"{name}_bias.npy", bias.astype("<i4"))
        np.save(f"{name}_params.npy", np.array([mult, shift, IN_OFF, OUT_OFF], "<i4"))
        np.save(f"{name}_y.npy", y)
        np.save(f"{name}_bias_exact.npy", bias_exact.astype("<i4"))
        np.save(f"{name}_y_exact.npy", y_exact)
        seg, col, val = pack_csr(w)
        meta, v24 = pack_24(w)
        for suffix, arr in [("csr_seg", seg), ("csr_col", col), ("csr_val", val), ("m24", meta),
                            ("v24", v24), ("bias_folded", (bias + IN_OFF * rowsum).astype("<i4")),
                            ("bias_exact_folded", (bias_exact + IN_OFF * rowsum).astype("<i4"))]:
            arr.tofile(f"{name}_{suffix}.bin")
        nnz = int(np.count_nonzero(w))
        print(f"l{rows}: {rows}x{cols}, {nnz} nonzeros ({100 - 100 * nnz / (rows * cols):.1f}% zeros)")


if __name__ == "__main__":
    main()
