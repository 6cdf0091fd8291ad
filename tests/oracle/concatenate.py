"""sparse_tensor.concatenate of CSR operands that store explicit zeros:
MLIR stores the nonzero elements of the result only (the zeros stored by
an operand are not copied), along either dimension. Prints the CSR buffers
tests/tests/mlir_runtime/concat.rs hard-codes (`oracle_explicit_zeros`).

    /work/.venv-mlir/bin/python concatenate.py
"""
import numpy as np

from common import CSR, oracle

SRC = CSR + """
func.func @rows(%a: tensor<2x3xf64, #CSR>, %b: tensor<2x3xf64, #CSR>) -> tensor<4x3xf64, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
     : tensor<2x3xf64, #CSR>, tensor<2x3xf64, #CSR> to tensor<4x3xf64, #CSR>
  return %0 : tensor<4x3xf64, #CSR>
}
func.func @cols(%a: tensor<2x3xf64, #CSR>, %b: tensor<2x3xf64, #CSR>) -> tensor<2x6xf64, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 1 : index}
     : tensor<2x3xf64, #CSR>, tensor<2x3xf64, #CSR> to tensor<2x6xf64, #CSR>
  return %0 : tensor<2x6xf64, #CSR>
}
"""

if __name__ == "__main__":
    mod = oracle.compile(SRC)
    i64 = np.int64
    # a: (0, 1) = 0.0 stored, (0, 2) = 5; b: (1, 0) = 0.0 stored, (1, 1) = 7.
    a = (np.array([0, 2, 2], dtype=i64), np.array([1, 2], dtype=i64), np.array([0.0, 5.0]))
    b = (np.array([0, 0, 2], dtype=i64), np.array([0, 1], dtype=i64), np.array([0.0, 7.0]))
    for name in ("rows", "cols"):
        pos, crd, val = mod.call(name, *a, *b)
        print(name, "pos", [int(x) for x in pos], "crd", [int(x) for x in crd], "values", [float(x) for x in val])
