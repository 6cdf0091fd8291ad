"""Matrix Market writers shared by the gen_*.py scripts (plain Python, no numpy)."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write_coordinate(name, rows, cols, entries, comment, pattern=False):
    """entries: (i, j, v) with 0-based i, j; written 1-based, in row-major order."""
    entries = sorted(entries)
    kind = "pattern" if pattern else "real"
    with open(os.path.join(HERE, name), "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate {kind} general\n")
        f.write(f"% {comment}\n")
        f.write(f"{rows} {cols} {len(entries)}\n")
        for i, j, v in entries:
            if pattern:
                f.write(f"{i + 1} {j + 1}\n")
            else:
                f.write(f"{i + 1} {j + 1} {v!r}\n")


def write_array(name, m, comment, integer=False):
    """m: a list of rows (a vector is one column: [[x0], [x1], ...]); column-major."""
    rows, cols = len(m), len(m[0])
    kind = "integer" if integer else "real"
    with open(os.path.join(HERE, name), "w") as f:
        f.write(f"%%MatrixMarket matrix array {kind} general\n")
        f.write(f"% {comment}\n")
        f.write(f"{rows} {cols}\n")
        for j in range(cols):
            for i in range(rows):
                f.write(f"{m[i][j]!r}\n")


def column(v):
    return [[x] for x in v]


class Lcg:
    """Numerical Recipes' LCG, as in boards/qemu-mps2-an386/data/gen_csr64.py."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state >> 8

    def below(self, n):
        return self.next() % n

    def value(self, den, span):
        """A nonzero k / den with k in -span..span."""
        k = self.below(2 * span + 1) - span
        return (k if k != 0 else 1) / den


def write_vector_npy(name, v, integer=False):
    """A 1-D NumPy file (version 1.0, little-endian f4 or i4), without numpy:
    Matrix Market has no rank-1 form (its vectors are Nx1 matrices)."""
    import struct

    descr, fmt = ("<i4", "<i") if integer else ("<f4", "<f")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(v))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        for x in v:
            f.write(struct.pack(fmt, int(x) if integer else x))
