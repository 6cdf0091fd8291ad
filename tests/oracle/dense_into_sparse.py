"""Statements that read only dense operands, written into a sparse output:
MLIR stores their nonzero results only (the dense result, converted), while
a statement with a sparse operand stores every coordinate it visits,
computed zeros included. Prints the CSR buffers tests/tests/semantics/
dense_into_sparse.rs hard-codes.

    /work/.venv-mlir/bin/python dense_into_sparse.py
"""
import numpy as np

from common import CSR, oracle

T1 = """{ indexing_maps = [affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>],
        iterator_types = ["parallel", "parallel"] }"""
T2 = """{ indexing_maps = [affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (i,j)>],
        iterator_types = ["parallel", "parallel"] }"""


def one_input(name, body):
    return f"""
func.func @{name}(%d: tensor<2x3xf64>) -> tensor<2x3xf64, #CSR> {{
  %e = tensor.empty() : tensor<2x3xf64, #CSR>
  %r = linalg.generic {T1} ins(%d : tensor<2x3xf64>) outs(%e : tensor<2x3xf64, #CSR>) {{
    ^bb0(%x: f64, %c: f64):
      {body}
  }} -> tensor<2x3xf64, #CSR>
  return %r : tensor<2x3xf64, #CSR>
}}"""


SRC = CSR + one_input("copy", "linalg.yield %x : f64") + one_input(
    "twice", "%c2 = arith.constant 2.0 : f64\n %s = arith.mulf %x, %c2 : f64\n linalg.yield %s : f64"
) + one_input(
    "plus_one", "%c1 = arith.constant 1.0 : f64\n %s = arith.addf %x, %c1 : f64\n linalg.yield %s : f64"
) + f"""
func.func @add(%a: tensor<2x3xf64, #CSR>, %d: tensor<2x3xf64>) -> tensor<2x3xf64, #CSR> {{
  %e = tensor.empty() : tensor<2x3xf64, #CSR>
  %r = linalg.generic {T2} ins(%a, %d : tensor<2x3xf64, #CSR>, tensor<2x3xf64>) outs(%e : tensor<2x3xf64, #CSR>) {{
    ^bb0(%x: f64, %y: f64, %c: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
  }} -> tensor<2x3xf64, #CSR>
  return %r : tensor<2x3xf64, #CSR>
}}
func.func @mul(%a: tensor<2x3xf64, #CSR>, %d: tensor<2x3xf64>) -> tensor<2x3xf64, #CSR> {{
  %e = tensor.empty() : tensor<2x3xf64, #CSR>
  %r = linalg.generic {T2} ins(%a, %d : tensor<2x3xf64, #CSR>, tensor<2x3xf64>) outs(%e : tensor<2x3xf64, #CSR>) {{
    ^bb0(%x: f64, %y: f64, %c: f64):
      %s = arith.mulf %x, %y : f64
      linalg.yield %s : f64
  }} -> tensor<2x3xf64, #CSR>
  return %r : tensor<2x3xf64, #CSR>
}}
"""

if __name__ == "__main__":
    mod = oracle.compile(SRC, backend="jit")
    # d = [[-1, 0, 2], [0, 0, 0]]; a = CSR [[1, ., .], [., ., .]]
    d = np.array([[-1.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    a = (np.array([0, 1, 1], dtype=np.int64), np.array([0], dtype=np.int64), np.array([1.0]))
    for name in ["copy", "twice", "plus_one"]:
        print(name, mod.call(name, d))
    for name in ["add", "mul"]:
        print(name, mod.call(name, *a, d))
