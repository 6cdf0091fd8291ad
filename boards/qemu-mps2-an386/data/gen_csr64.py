"""Writes csr64.mtx: the 64x64 test matrix of src/data.rs (`generate()`),
from the same LCG, as Matrix Market text. The firmware reads it as a
compile-time constant and compares it with the const fn's dense matrix, so
the two constructions check each other.  Run: python3 data/gen_csr64.py"""

N = 64
state = 0x2545F491


def lcg(s):
    return (s * 1664525 + 1013904223) & 0xFFFFFFFF


entries = []
for i in range(N):
    for j in range(N):
        state = lcg(state)
        if i == j or (state >> 8) % 9 == 0:
            state = lcg(state)
            k = ((state >> 16) % 512) - 256
            if k == 0:
                k = 1
            entries.append((i, j, k / 64))

with open(__file__.replace("gen_csr64.py", "csr64.mtx"), "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n")
    f.write("% The 64x64 test matrix of src/data.rs, written by data/gen_csr64.py.\n")
    f.write(f"{N} {N} {len(entries)}\n")
    for i, j, v in entries:
        f.write(f"{i + 1} {j + 1} {v!r}\n")
