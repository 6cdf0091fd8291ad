"""What MLIR's sparsifier computes for a min/max (and product) reduction
written directly in a `linalg.generic` body (issue 29, item 10):
`x[] = min(x[], a[i])` is `arith.minsi %a, %out` under a reduction
iterator.

    /work/.venv-mlir/bin/python tests/oracle/min_max.py

Settled here (the Rust tests in tests/tests/semantics/min_max.rs follow):
(a) implicit zeros take part (a sparse vector of positive entries gives 0),
(b) the fold starts from the output's old value (999),
(c) a vector with no stored entry still holds 8 implicit zeros (min 0),
(d) `arith.muli` under a reduction iterator is the product of every
    element, implicit zeros included: the reading `*=` would need, which
    is why `x[] *= a[i]` is a compile error naming both spellings.
"""
import numpy as np

from common import SV, i64, oracle, show

SRC = """
{sv}
#trait = {{ indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"] }}
func.func @k(%a: tensor<8xi32, #SV>, %x: tensor<i32>) -> tensor<i32> {{
  %0 = linalg.generic #trait ins(%a : tensor<8xi32, #SV>) outs(%x : tensor<i32>) {{
    ^bb(%v: i32, %out: i32):
      %m = {op} %v, %out : i32
      linalg.yield %m : i32
  }} -> tensor<i32>
  return %0 : tensor<i32>
}}
"""

CASES = [
    ("two entries", [1, 4], [3, 5]),
    ("empty", [], []),
    ("full", list(range(8)), [3, 4, 5, 6, 7, 8, 9, 10]),
    ("explicit zero", [2], [0]),
]

for op in ["arith.minsi", "arith.maxsi", "arith.muli"]:
    mod = oracle.compile(SRC.format(sv=SV, op=op), backend="jit")
    for name, crd, val in CASES:
        pos = i64(0, len(crd))
        got = mod.call("k", pos, np.array(crd, dtype=np.int64), np.array(val, dtype=np.int32), np.array(999, dtype=np.int32))
        show(f"{op} {name}", f"x = {int(got)}")
