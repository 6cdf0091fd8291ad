"""Compile-time constants (issue 13): what MLIR stores when a `dense<>` or
`sparse<>` constant is converted to a sparse tensor. Each case runs in its
own process, since MLIR aborts on some (duplicates).

    /work/.venv-mlir/bin/python constants.py
"""

import subprocess
import sys

from common import CSR

COO_SOA = "#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>"

CASES = {
    # A dense constant keeps its nonzeros only (-0.0 is zero).
    "dense_to_csr": (CSR, "CSR", "dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, -0.0, 0.0]]>"),
    # A sparse constant keeps every listed entry, explicit zeros included.
    "sparse_zero_to_csr": (CSR, "CSR", "sparse<[[0, 0], [1, 2], [2, 3]], [1.0, 0.0, 5.0]>"),
    # Repeated coordinates: unique and nonunique storage.
    "sparse_dup_to_csr": (CSR, "CSR", "sparse<[[0, 1], [2, 3], [0, 1]], [1.0, 7.0, 2.0]>"),
    "sparse_dup_to_coo": (COO_SOA, "COO", "sparse<[[0, 1], [2, 3], [0, 1]], [1.0, 7.0, 2.0]>"),
}


def run(name):
    enc, alias, value = CASES[name]
    src = f"""
{enc}
func.func @{name}() -> tensor<3x4xf64, #{alias}> {{
  %c = arith.constant {value} : tensor<3x4xf64>
  %s = sparse_tensor.convert %c : tensor<3x4xf64> to tensor<3x4xf64, #{alias}>
  return %s : tensor<3x4xf64, #{alias}>
}}
"""
    import oracle  # noqa: F401  (common put it on the path)

    mod = oracle.compile(src, backend="jit")
    print(name, [[x.item() for x in b] for b in mod.call(name)])


if __name__ == "__main__":
    if len(sys.argv) == 2:
        run(sys.argv[1])
    else:
        for name in CASES:
            done = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, timeout=300)
            err = " ".join(done.stderr.split())[-60:]
            out = done.stdout.strip() or f"{name}: MLIR failed (exit {done.returncode}) {err}"
            print(out)
