"""Slices (issue 16, item 2): SpMV over `tensor.extract_slice` of a CSR
tensor, run through the MLIR sparsifier (which walks the slice in place),
against numpy's slicing of the dense matrix: coordinate `c` of a sliced
dimension is `offset + c * stride` of the tensor. `tests/tests/formats/
slices.rs` tests the kernels of `sparse_kernel!` against the same rule.

    /work/.venv-mlir/bin/python tests/oracle/slices.py
"""
import numpy as np

from common import CSR, arr, oracle, show

SRC = """
CSR
#CSR_SLICE = #sparse_tensor.encoding<{
  map = (i : #sparse_tensor<slice(1, 3, 2)>, j : #sparse_tensor<slice(0, 3, 2)>) -> (i : dense, j : compressed)
}>
#trait = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
func.func @spmv(%A: tensor<6x6xf64, #CSR>, %x: tensor<3xf64>, %y: tensor<3xf64>) -> tensor<3xf64> {
  %s = tensor.extract_slice %A[1, 0][3, 3][2, 2] : tensor<6x6xf64, #CSR> to tensor<3x3xf64, #CSR_SLICE>
  %r = linalg.generic #trait ins(%s, %x : tensor<3x3xf64, #CSR_SLICE>, tensor<3xf64>) outs(%y : tensor<3xf64>) {
    ^bb0(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %t = arith.addf %c, %m : f64
      linalg.yield %t : f64
  } -> tensor<3xf64>
  return %r : tensor<3xf64>
}
""".replace("CSR\n", CSR + "\n", 1)

rng = np.random.default_rng(16)
dense = np.where(rng.random((6, 6)) < 0.5, rng.integers(-8, 9, (6, 6)) / 4.0, 0.0)
pos = np.zeros(7, dtype=np.int64)
crd, val = [], []
for i in range(6):
    for j in range(6):
        if dense[i, j] != 0.0:
            crd.append(j)
            val.append(dense[i, j])
    pos[i + 1] = len(crd)
x = np.array([1.0, 2.0, -0.5])
mod = oracle.compile(SRC)
y = mod.call("spmv", pos, np.array(crd, dtype=np.int64), np.array(val), x, np.zeros(3))
want = dense[1::2, 0::2][:3, :3] @ x
show("spmv over slice(1, 3, 2) x slice(0, 3, 2)", f"mlir = {arr(y)}", f"numpy = {arr(want)}")
assert np.array_equal(y, want), (y, want)
print("ok")
