"""What MLIR's `sparse_tensor.reduce` folds (issue 10, item 2), and where a
reduction into a sparse output stores an entry (items 2 and 3).

    /work/.venv-mlir/bin/python tests/oracle/reduce.py

Each line is `case: result`; the Rust tests in tests/tests/semantics/
hard-code these values. Questions settled here:

(a) rows where nothing is present, reduced into a *sparse* vector: stored
    (holding the identity) or not?
(b) the same into a *dense* output pre-filled with 777: does a row become
    the identity or keep 777? And does a non-empty row fold from the
    identity or from the output's old value?
"""
from common import CSC, CSR, DCSR, SV, arr, f64, i64, layout, oracle, show

TRAIT = """
#trait = {
  indexing_maps = [affine_map<(i, j) -> (IDX)>, affine_map<(i, j) -> (OUT)>],
  iterator_types = [ITER]
}
"""


def rowfold(name, m, n, enc, out_ty, region, identity, idx="i, j", out="i", iters='"parallel", "reduction"'):
    """`x[out] = reduce(a[idx], identity, region)` with `a: m x n, enc`."""
    trait = TRAIT.replace("IDX", idx).replace("OUT", out).replace("ITER", iters)
    enc_name = enc.split()[0]
    init = "%e = tensor.empty() : OUTTY" if "#" in out_ty else ""
    outs = "%e" if "#" in out_ty else "%y"
    args = f"%A: tensor<{m}x{n}xf64, {enc_name}>" + ("" if "#" in out_ty else ", %y: OUTTY")
    return f"""
{enc}
{SV}
{trait}
func.func @{name}({args}) -> OUTTY {{
  %id = arith.constant {identity} : f64
  {init}
  %r = linalg.generic #trait ins(%A : tensor<{m}x{n}xf64, {enc_name}>) outs({outs} : OUTTY) {{
    ^bb0(%a: f64, %c: f64):
      %s = sparse_tensor.reduce %c, %a, %id : f64 {{
        ^bb0(%acc: f64, %v: f64):
          {region}
      }}
      linalg.yield %s : f64
  }} -> OUTTY
  return %r : OUTTY
}}
""".replace("OUTTY", out_ty)


PRODUCT = "%p = arith.mulf %acc, %v : f64\n          sparse_tensor.yield %p : f64"
CAPPED = """%p = arith.mulf %acc, %v : f64
          %c100 = arith.constant 100.0 : f64
          %cmp = arith.cmpf ogt, %p, %c100 : f64
          %q = arith.select %cmp, %c100, %p : f64
          sparse_tensor.yield %q : f64"""
HORNER = """%c2 = arith.constant 2.0 : f64
          %t = arith.mulf %acc, %c2 : f64
          %q = arith.addf %t, %v : f64
          sparse_tensor.yield %q : f64"""


def main():
    # The example: rows {1, 2} and {3} of a 2x3 CSR matrix.
    mod = oracle.compile(rowfold("p", 2, 3, CSR, "tensor<2xf64>", PRODUCT, "1.0"))
    show("issue example, dense out from ones", arr(mod.call("p", i64(0, 2, 3), i64(0, 2, 1), f64(1, 2, 3), f64(1, 1))))

    # (a)/(b): a 4x3 CSR matrix, row 1 empty, row 3 one explicit zero.
    #   | 2 3 . |
    #   | . . . |
    #   | . 5 . |
    #   | . 0 . |
    pos, crd, val = i64(0, 2, 2, 3, 4), i64(0, 1, 1, 1), f64(2, 3, 5, 0)
    mod = oracle.compile(rowfold("p", 4, 3, CSR, "tensor<4xf64>", PRODUCT, "1.0"))
    show("(b) product, dense out pre-filled with 777", arr(mod.call("p", pos, crd, val, f64(777, 777, 777, 777))))
    show("(b) product, dense out pre-filled with 1", arr(mod.call("p", pos, crd, val, f64(1, 1, 1, 1))))
    mod = oracle.compile(rowfold("p", 4, 3, CSR, "tensor<4xf64, #SV>", PRODUCT, "1.0"))
    layout("(a) product into a sparse vector", *mod.call("p", pos, crd, val))
    # The same through DCSR (the empty row has no coordinate at level 0).
    mod = oracle.compile(rowfold("p", 4, 3, DCSR, "tensor<4xf64, #SV>", PRODUCT, "1.0"))
    layout("(a) DCSR product into a sparse vector", *mod.call("p", i64(0, 3), i64(0, 2, 3), i64(0, 2, 3, 4), crd, val))

    # Seed 000's capped product: every row of a 7x3 DCSR matrix.
    rows = [[2, 3, 4], [5, None, None], [None, None, None], [10, 20, 0.5], [-10, -20, 2],
            [-200, 1, 1], [None, 0.0, None]]
    p0, c0, p1, c1, v = [0], [], [0], [], []
    for i, r in enumerate(rows):
        js = [j for j, x in enumerate(r) if x is not None]
        if js:
            c0.append(i)
            c1 += js
            v += [r[j] for j in js]
            p1.append(len(c1))
    p0.append(len(c0))
    bufs = (i64(*p0), i64(*c0), i64(*p1), i64(*c1), f64(*v))
    mod = oracle.compile(rowfold("p", 7, 3, DCSR, "tensor<7xf64, #SV>", CAPPED, "1.0"))
    layout("seed capped product, DCSR into a sparse vector", *mod.call("p", *bufs))
    mod = oracle.compile(rowfold("p", 7, 3, DCSR, "tensor<7xf64>", CAPPED, "1.0"))
    show("seed capped product, DCSR into dense (pre-filled 777)", arr(mod.call("p", *bufs, f64(*[777] * 7))))
    show("seed capped product, DCSR into dense (pre-filled with the identity 1)",
         arr(mod.call("p", *bufs, f64(*[1] * 7))))

    # Order of the fold: row [1, ., 3] from identity 0 by acc * 2 + v:
    # (0*2+1)*2+3 = 5 (stored values only; 7 if the implicit zero were folded).
    mod = oracle.compile(rowfold("p", 1, 3, CSR, "tensor<1xf64>", HORNER, "0.0"))
    show("horner over [1, ., 3] from 0", arr(mod.call("p", i64(0, 2), i64(0, 2), f64(1, 3), f64(0))))

    # Row products of a CSC matrix into a sparse vector (item 3).
    #   | 2 . . 3 |
    #   | . . . . |
    #   | . -1 0.5 . |
    #   | . 0 . . |
    # CSC: columns 0..3: col0 {0: 2}, col1 {2: -1, 3: 0}, col2 {2: 0.5}, col3 {0: 3}
    cpos, ccrd, cval = i64(0, 1, 3, 4, 5), i64(0, 2, 3, 2, 0), f64(2, -1, 0, 0.5, 3)
    mod = oracle.compile(rowfold("p", 4, 4, CSC, "tensor<4xf64, #SV>", PRODUCT, "1.0"))
    layout("row products of CSC into a sparse vector", *mod.call("p", cpos, ccrd, cval))
    mod = oracle.compile(rowfold("p", 4, 4, CSC, "tensor<4xf64>", PRODUCT, "1.0"))
    show("row products of CSC into dense (pre-filled 777)", arr(mod.call("p", cpos, ccrd, cval, f64(777, 777, 777, 777))))
    show("row products of CSC into dense (pre-filled with the identity 1)",
         arr(mod.call("p", cpos, ccrd, cval, f64(1, 1, 1, 1))))
    # Column products of the same matrix (j is the output index).
    mod = oracle.compile(rowfold("p", 4, 4, CSC, "tensor<4xf64, #SV>", PRODUCT, "1.0", out="j"))
    layout("column products of CSC into a sparse vector", *mod.call("p", cpos, ccrd, cval))


if __name__ == "__main__":
    main()
