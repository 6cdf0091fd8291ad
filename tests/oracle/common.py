"""Shared helpers for the oracle scripts: load ../shared/tools/mlir-oracle's
`oracle` module and print results the way the Rust tests write them."""

import os
import sys

import numpy as np

ORACLE_DIR = os.environ.get(
    "MLIR_ORACLE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "tools", "mlir-oracle"),
)
if not os.path.isdir(ORACLE_DIR):  # run from a git worktree next to /work/main
    ORACLE_DIR = "/work/shared/tools/mlir-oracle"
sys.path.insert(0, os.path.abspath(ORACLE_DIR))
import oracle  # noqa: E402,F401

CSR = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
CSC = "#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>"
DCSR = "#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>"
SV = "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"


def fmt(x):
    """A number as Rust writes it in the tests (`1.0`, `-0.5`, `f64::INFINITY`)."""
    x = float(x)
    if x == float("inf"):
        return "f64::INFINITY"
    if x == float("-inf"):
        return "f64::NEG_INFINITY"
    if x != x:
        return "f64::NAN"
    s = repr(x)
    return s if ("." in s or "e" in s) else s + ".0"


def arr(a, floats=True):
    a = np.asarray(a).ravel()
    return "[" + ", ".join(fmt(v) if floats else str(int(v)) for v in a) + "]"


def show(name, *parts):
    print(f"{name}: " + "  ".join(parts))


def layout(name, pos, crd, val):
    """A sparse vector / last level of a CSR output: pos, crd, values."""
    show(name, f"pos = {arr(pos, False)}", f"crd = {arr(crd, False)}", f"values = {arr(val)}")


def i64(*xs):
    return np.array(xs, dtype=np.int64)


def f64(*xs):
    return np.array(xs, dtype=np.float64)
