"""Sum scope (issue 10, item 1): `y[i] = w[i, j] * x[j] + b[i]`.

TACO's rule sums `j` over the smallest subexpression holding every use of
it: `y = (sum_j w*x) + b`. In MLIR that is two `linalg.generic`s (the sum
into a temporary, then the addition); one generic whose body is
`w*x + b` with `j` a reduction adds `b` once per `j` instead, which is
printed too, to show the difference the Rust tests must see. (That one
generic is run with a dense `w`: with a CSR `w` MLIR 20's sparsifier
crashes on it, a segmentation fault inside `oracle.compile`.)

    /work/.venv-mlir/bin/python tests/oracle/sum_scope.py
"""
from common import CSR, arr, f64, i64, oracle, show

TWO = """
CSR
#spmv = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#add = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}
func.func @taco(%W: tensor<MxNxf64, #CSR>, %x: tensor<Nxf64>, %b: tensor<Mxf64>, %y: tensor<Mxf64>) -> tensor<Mxf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<Mxf64>
  %t0 = linalg.fill ins(%z : f64) outs(%e : tensor<Mxf64>) -> tensor<Mxf64>
  %t = linalg.generic #spmv ins(%W, %x : tensor<MxNxf64, #CSR>, tensor<Nxf64>) outs(%t0 : tensor<Mxf64>) {
    ^bb0(%w: f64, %xv: f64, %acc: f64):
      %p = arith.mulf %w, %xv : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
  } -> tensor<Mxf64>
  %r = linalg.generic #add ins(%t, %b : tensor<Mxf64>, tensor<Mxf64>) outs(%y : tensor<Mxf64>) {
    ^bb0(%tv: f64, %bv: f64, %o: f64):
      %s = arith.addf %tv, %bv : f64
      linalg.yield %s : f64
  } -> tensor<Mxf64>
  return %r : tensor<Mxf64>
}
"""

ONE = """
CSR
#trait = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>,
                   affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
func.func @one(%W: tensor<MxNxf64, #CSR>, %x: tensor<Nxf64>, %b: tensor<Mxf64>, %y: tensor<Mxf64>) -> tensor<Mxf64> {
  %r = linalg.generic #trait ins(%W, %x, %b : tensor<MxNxf64, #CSR>, tensor<Nxf64>, tensor<Mxf64>) outs(%y : tensor<Mxf64>) {
    ^bb0(%w: f64, %xv: f64, %bv: f64, %acc: f64):
      %p = arith.mulf %w, %xv : f64
      %q = arith.addf %p, %bv : f64
      %s = arith.addf %acc, %q : f64
      linalg.yield %s : f64
  } -> tensor<Mxf64>
  return %r : tensor<Mxf64>
}
"""


def src(t, m, n):
    return t.replace("CSR\n", CSR + "\n", 1).replace("M", str(m)).replace("N", str(n))


def main():
    # The 2x3 example: w all ones (stored), x = 1, b = [10, 20].
    w = (i64(0, 3, 6), i64(0, 1, 2, 0, 1, 2), f64(1, 1, 1, 1, 1, 1))
    args = (*w, f64(1, 1, 1), f64(10, 20), f64(0, 0))
    show("y = (sum_j w*x) + b, two generics (TACO)", arr(oracle.compile(src(TWO, 2, 3)).call("taco", *args)))
    dense_w = f64(1, 1, 1, 1, 1, 1).reshape(2, 3)
    one = oracle.compile(src(ONE, 2, 3).replace(", #CSR>", ">"))
    show("one generic (dense w), b inside the reduction", arr(one.call("one", dense_w, *args[3:])))
    # A sparse w with an empty row:  | 1 . 2 |  x = [1, 2, 3], b = [10, 20]
    #                                | . . . |
    w = (i64(0, 2, 2), i64(0, 2), f64(1, 2))
    args = (*w, f64(1, 2, 3), f64(10, 20), f64(0, 0))
    show("sparse w with an empty row, two generics", arr(oracle.compile(src(TWO, 2, 3)).call("taco", *args)))
    dense_w = f64(1, 0, 2, 0, 0, 0).reshape(2, 3)
    show("the same w dense, one generic", arr(one.call("one", dense_w, *args[3:])))


if __name__ == "__main__":
    main()
