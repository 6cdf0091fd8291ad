"""(c) Min-plus products through `reduce(binary(..))` (issue 10, items 2-3):

    c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |x, y| x + y,
                            left = none, right = none),
                     identity = f64::INFINITY, |acc, v| min(acc, v))

with a, b, c CSR, run through the MLIR sparsifier. Prints the output's
layout (pos, crd, values) and the dense variant.

    /work/.venv-mlir/bin/python tests/oracle/min_plus.py
"""
from common import CSR, arr, f64, i64, layout, oracle, show

SRC = """
CSR
#trait = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                   affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
func.func @min_plus(%A: tensor<MxKxf64, #CSR>, %B: tensor<KxNxf64, #CSR>, OUTARG) -> OUTTY {
  %inf = arith.constant 0x7FF0000000000000 : f64
  INIT
  %r = linalg.generic #trait ins(%A, %B : tensor<MxKxf64, #CSR>, tensor<KxNxf64, #CSR>)
                             outs(OUT : OUTTY) {
    ^bb0(%a: f64, %b: f64, %c: f64):
      %s = sparse_tensor.binary %a, %b : f64, f64 to f64
        overlap = {
          ^bb0(%x: f64, %y: f64):
            %t = arith.addf %x, %y : f64
            sparse_tensor.yield %t : f64
        }
        left = {}
        right = {}
      %m = sparse_tensor.reduce %c, %s, %inf : f64 {
        ^bb0(%acc: f64, %v: f64):
          %q = arith.minimumf %acc, %v : f64
          sparse_tensor.yield %q : f64
      }
      linalg.yield %m : f64
  } -> OUTTY
  return %r : OUTTY
}
"""


def source(m, k, n, sparse_out):
    s = SRC.replace("CSR\n", CSR + "\n", 1)
    if sparse_out:
        ty = f"tensor<{m}x{n}xf64, #CSR>"
        s = s.replace(", OUTARG", "").replace("INIT", f"%e = tensor.empty() : {ty}").replace("OUT :", "%e :")
    else:
        ty = f"tensor<{m}x{n}xf64>"
        s = s.replace("OUTARG", f"%C: {ty}").replace("INIT", "").replace("OUT :", "%C :")
    return s.replace("OUTTY", ty).replace("M", str(m)).replace("K", str(k)).replace("N", str(n))


def main():
    # a (3x3):           b (3x3):
    #   | 1 . 4 |          | . 3 . |
    #   | . 2 . |          | 5 . 0 |   (b[1, 2] an explicit zero)
    #   | . . . |          | . 1 2 |
    a = (i64(0, 2, 3, 3), i64(0, 2, 1), f64(1, 4, 2))
    b = (i64(0, 1, 3, 5), i64(1, 0, 2, 1, 2), f64(3, 5, 0, 1, 2))
    mod = oracle.compile(source(3, 3, 3, True))
    layout("min-plus 3x3 CSR x CSR -> CSR", *mod.call("min_plus", *a, *b))
    print("  (level 0 of the CSR output is dense: pos/crd/values above are level 1)")
    mod = oracle.compile(source(3, 3, 3, False))
    inf = float("inf")
    show("min-plus into dense (pre-filled with the identity)",
         arr(mod.call("min_plus", *a, *b, f64(*[inf] * 9).reshape(3, 3))))
    show("min-plus into dense (pre-filled 777)", arr(mod.call("min_plus", *a, *b, f64(*[777] * 9).reshape(3, 3))))

    # Rectangular: a 2x4, b 4x3; a[0] = {1: -1, 3: 2}, a[1] = {0: 0}
    # b[0] = {2: 7}, b[1] = {0: 1, 2: 4}, b[2] = {}, b[3] = {0: -5, 1: 3}
    a = (i64(0, 2, 3), i64(1, 3, 0), f64(-1, 2, 0))
    b = (i64(0, 1, 3, 3, 5), i64(2, 0, 2, 0, 1), f64(7, 1, 4, -5, 3))
    mod = oracle.compile(source(2, 4, 3, True))
    layout("min-plus 2x4 x 4x3 -> CSR", *mod.call("min_plus", *a, *b))


if __name__ == "__main__":
    main()
