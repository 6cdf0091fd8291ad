"""What MLIR's sparsifier computes for a dense output written at an affine
subscript (issue 29, item 3): `x[4 * i + j] = a[i, j]` is a
`linalg.generic` whose output map is `(i, j) -> (i * 4 + j)`.

    /work/.venv-mlir/bin/python tests/oracle/linear_out.py

Settled here (tests/tests/semantics/linear_out.rs follows):
(a) `linalg.yield %a` (overwrite) zeroes the whole output first: elements
    no point reaches are 0, not the old 100;
(b) where points overlap (`i * 3 + j` with 4 columns, `i + j`), MLIR's
    overwrite keeps the point its loops store last, which is why `=` sums
    the points here (a defined meaning, equal to MLIR's wherever each
    element is reached once);
(c) `arith.addf %out, %a` (`+=`) adds every point into the old values.
"""
import numpy as np

from common import CSR, arr, i64, oracle, show

SRC = """
{csr}
#trait = {{ indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ({omap})>], iterator_types = ["parallel", "parallel"] }}
func.func @k(%a: tensor<3x4xf64, #CSR>, %y: tensor<{n}xf64>) -> tensor<{n}xf64> {{
  %r = linalg.generic #trait ins(%a : tensor<3x4xf64, #CSR>) outs(%y : tensor<{n}xf64>) {{
    ^bb0(%v: f64, %out: f64):
      {body}
  }} -> tensor<{n}xf64>
  return %r : tensor<{n}xf64>
}}
"""
ASSIGN = "linalg.yield %v : f64"
ACCUMULATE = "%s = arith.addf %out, %v : f64\n      linalg.yield %s : f64"

# | 1 . . 2 |
# | . . . . |
# | . 3 4 . |
POS, CRD, VAL = i64(0, 2, 2, 4), i64(0, 3, 1, 2), np.array([1.0, 2.0, 3.0, 4.0])

for name, omap, n, body in [
    ("x[4 * i + j] = a", "i * 4 + j", 12, ASSIGN),
    ("x[5 * i + j] = a", "i * 5 + j", 15, ASSIGN),
    ("x[3 * i + j] = a (overlap)", "i * 3 + j", 12, ASSIGN),
    ("x[i + j] = a (overlap)", "i + j", 6, ASSIGN),
    ("x[i + j] += a", "i + j", 6, ACCUMULATE),
]:
    mod = oracle.compile(SRC.format(csr=CSR, omap=omap, n=n, body=body), backend="jit")
    got = mod.call("k", POS, CRD, VAL, np.full(n, 100.0))
    show(name, f"x = {arr(got)}")
