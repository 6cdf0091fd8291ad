"""Writes the NumPy and Matrix Market files of the pruning and shared-level
constant tests (tests/tests/formats/constants/pruning.rs, shared.rs),
without NumPy: `python3 tests/data/constants/make_pruning.py`."""
import struct
from pathlib import Path

HERE = Path(__file__).parent


def npy(name, descr, shape, values, fmt):
    # NumPy's own spelling of the shape: `()`, `(4,)`, `(2, 8)`.
    dims = "(%d,)" % shape[0] if len(shape) == 1 else "(%s)" % ", ".join("%d" % n for n in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, dims)
    total = 10 + len(header) + 1
    header += " " * (-total % 64) + "\n"
    data = b"".join(struct.pack("<" + fmt, v) for v in values)
    (HERE / name).write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)


# prune_2_4: the literal of PRUNED in formats.rs.
P24 = [[1.0, -3.0, 3.0, 2.0, 0.5, 0.5, 0.5, 0.5], [0.0, 0.0, 0.0, 0.0, -1.0, 7.0, -7.0, 2.0]]
npy("prune24.npy", "<f4", (2, 8), [v for row in P24 for v in row], "f")

# prune_blocks: 4x6 in 2x2 blocks, squared norms 5, 10, 8 | 0, 16, 16.
B = [
    [1, 2, 0, 3, 2, 0],
    [0, 0, -1, 0, 0, 2],
    [0, 0, 4, 0, 0, 0],
    [0, 0, 0, 0, 0, -4],
]
npy("blocks.npy", "<f4", (4, 6), [float(v) for row in B for v in row], "f")
npy("blocks_i8.npy", "|i1", (4, 6), [v for row in B for v in row], "b")
entries = [(i, j, v) for i, row in enumerate(B) for j, v in enumerate(row) if v]
(HERE / "blocks.mtx").write_text(
    "%%MatrixMarket matrix coordinate integer general\n"
    + "4 6 %d\n" % len(entries)
    + "".join("%d %d %d\n" % (i + 1, j + 1, v) for i, j, v in entries)
)

# levels_of: an int8 copy of a.mtx (3x4: 1 at (0,0), 2 at (0,3), 3 at
# (2,1), 4 at (2,2)), quantized by 10, and one that stores a value where
# the f32 layer has none.
npy("a_i8.npy", "|i1", (3, 4), [10, 0, 0, 20, 0, 0, 0, 0, 0, 30, 40, 0], "b")

# Scalars: a 0-d, a 1-element and a 1x1 array.
npy("scalar0.npy", "<f4", (), [2.5], "f")
npy("scalar1.npy", "<f4", (1,), [2.5], "f")
npy("scalar11.npy", "<i4", (1, 1), [-7], "i")
(HERE / "scalar.mtx").write_text("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -0.25\n")
