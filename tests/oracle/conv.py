"""Affine subscripts (issue 16): a 1-D convolution `y[i] = x[i + k] * f[k]`
with a sparse `x`, into a dense and into a sparse output, through the
upstream sparsifier (linalg.generic with the indexing map `(i, k) -> (i +
k)`), then the same with a sparse filter, and 2-D ones (a CSR image with a
dense filter; a dense image with a CSR filter). Prints the dense result and
the sparse outputs' buffers, which tests/tests/semantics/affine.rs
hard-codes in `mlir_layouts`: an output stores what some term with every
sparse factor stored reaches (computed zeros included); a filter read at
plain indices over a dense image gives every element.

    /work/.venv-mlir/bin/python conv.py
"""
import numpy as np

from common import CSR, SV, arr, oracle

T = """{ indexing_maps = [affine_map<(i,k) -> (i + k)>, affine_map<(i,k) -> (k)>, affine_map<(i,k) -> (i)>],
        iterator_types = ["parallel", "reduction"] }"""

T2 = """{ indexing_maps = [affine_map<(i,j,k,l) -> (i + k, j + l)>, affine_map<(i,j,k,l) -> (k, l)>, affine_map<(i,j,k,l) -> (i, j)>],
        iterator_types = ["parallel", "parallel", "reduction", "reduction"] }"""
BODY = """^bb0(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %s = arith.addf %c, %m : f64
      linalg.yield %s : f64"""

SRC = SV + "\n" + CSR + f"""
func.func @dense_out(%x: tensor<8xf64, #SV>, %f: tensor<3xf64>) -> tensor<6xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<6xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %r = linalg.generic {T} ins(%x, %f : tensor<8xf64, #SV>, tensor<3xf64>) outs(%y : tensor<6xf64>) {{
    ^bb0(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %s = arith.addf %c, %m : f64
      linalg.yield %s : f64
  }} -> tensor<6xf64>
  return %r : tensor<6xf64>
}}
func.func @sparse_out(%x: tensor<8xf64, #SV>, %f: tensor<3xf64>) -> tensor<6xf64, #SV> {{
  %e = tensor.empty() : tensor<6xf64, #SV>
  %r = linalg.generic {T} ins(%x, %f : tensor<8xf64, #SV>, tensor<3xf64>) outs(%e : tensor<6xf64, #SV>) {{
    ^bb0(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %s = arith.addf %c, %m : f64
      linalg.yield %s : f64
  }} -> tensor<6xf64, #SV>
  return %r : tensor<6xf64, #SV>
}}
func.func @both(%x: tensor<8xf64, #SV>, %f: tensor<3xf64, #SV>) -> tensor<6xf64, #SV> {{
  %e = tensor.empty() : tensor<6xf64, #SV>
  %r = linalg.generic {T} ins(%x, %f : tensor<8xf64, #SV>, tensor<3xf64, #SV>) outs(%e : tensor<6xf64, #SV>) {{
    {BODY}
  }} -> tensor<6xf64, #SV>
  return %r : tensor<6xf64, #SV>
}}
func.func @csr_image(%A: tensor<4x4xf64, #CSR>, %f: tensor<2x2xf64>) -> tensor<3x3xf64, #CSR> {{
  %e = tensor.empty() : tensor<3x3xf64, #CSR>
  %r = linalg.generic {T2} ins(%A, %f : tensor<4x4xf64, #CSR>, tensor<2x2xf64>) outs(%e : tensor<3x3xf64, #CSR>) {{
    {BODY}
  }} -> tensor<3x3xf64, #CSR>
  return %r : tensor<3x3xf64, #CSR>
}}
func.func @csr_filter(%A: tensor<4x4xf64>, %f: tensor<2x2xf64, #CSR>) -> tensor<3x3xf64, #CSR> {{
  %e = tensor.empty() : tensor<3x3xf64, #CSR>
  %r = linalg.generic {T2} ins(%A, %f : tensor<4x4xf64>, tensor<2x2xf64, #CSR>) outs(%e : tensor<3x3xf64, #CSR>) {{
    {BODY}
  }} -> tensor<3x3xf64, #CSR>
  return %r : tensor<3x3xf64, #CSR>
}}
"""

if __name__ == "__main__":
    mod = oracle.compile(SRC, backend="jit")
    # x = [., 2, ., ., ., ., ., 5] (entries at 1 and 7), f = [1, 0, 10]
    x = (np.array([0, 2], dtype=np.int64), np.array([1, 7], dtype=np.int64), np.array([2.0, 5.0]))
    f = np.array([1.0, 0.0, 10.0])
    print("dense_out", arr(mod.call("dense_out", *x, f)))
    print("sparse_out (pos, crd, values)", mod.call("sparse_out", *x, f))
    fs = (np.array([0, 1], dtype=np.int64), np.array([2], dtype=np.int64), np.array([10.0]))
    print("both", mod.call("both", *x, *fs))
    # A 4x4 CSR with (0, 0) = 1 and (3, 3) = 2, the 2x2 identity filter.
    a = (np.array([0, 1, 1, 1, 2], dtype=np.int64), np.array([0, 3], dtype=np.int64), np.array([1.0, 2.0]))
    print("csr_image", mod.call("csr_image", *a, np.array([[1.0, 0.0], [0.0, 1.0]])))
    # A dense image with a[0, 0] = 1, a CSR filter holding (0, 0) = 3.
    image = np.zeros((4, 4))
    image[0, 0] = 1.0
    f2 = (np.array([0, 1, 1], dtype=np.int64), np.array([0], dtype=np.int64), np.array([3.0]))
    print("csr_filter", mod.call("csr_filter", image, *f2))
