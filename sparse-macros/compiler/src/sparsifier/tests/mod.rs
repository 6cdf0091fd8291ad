//! Tests of the sparsifier on hand-built kernels: loop-tree text for the
//! classic kernels, lattices in MergerTest style, error values, and an
//! interpreter that runs plans on small tensors against a dense reference.

mod errors;
mod interp;
mod lattices;
mod plans;
mod reorder;
mod scope;
mod semantics;
mod walks;

use super::*;
use crate::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType};

pub(super) const D: LevelType = LevelType::new(LevelFormat::Dense);
pub(super) const C: LevelType = LevelType::new(LevelFormat::Compressed);
pub(super) const S: LevelType = LevelType::new(LevelFormat::Singleton);

/// `compressed(nonunique)`, the head of COO.
pub(super) fn cnu() -> LevelType {
    C.with(LevelProps::NONUNIQUE)
}

/// A tensor with `types` stored in dimension order `perm`.
pub(super) fn enc(name: &str, types: &[LevelType], perm: &[u8]) -> TensorDesc {
    let levels: Vec<_> = types
        .iter()
        .zip(perm)
        .map(|(&t, &d)| (t, LevelExpr::Dim(d)))
        .collect();
    TensorDesc::sparse(name, types.len(), &levels)
}

pub(super) fn csr(name: &str) -> TensorDesc {
    enc(name, &[D, C], &[0, 1])
}
pub(super) fn csc(name: &str) -> TensorDesc {
    enc(name, &[D, C], &[1, 0])
}
pub(super) fn dcsr(name: &str) -> TensorDesc {
    enc(name, &[C, C], &[0, 1])
}
pub(super) fn dcsc(name: &str) -> TensorDesc {
    enc(name, &[C, C], &[1, 0])
}
pub(super) fn coo(name: &str) -> TensorDesc {
    enc(name, &[cnu(), S], &[0, 1])
}
pub(super) fn sv(name: &str) -> TensorDesc {
    enc(name, &[C], &[0])
}
pub(super) fn csf3(name: &str) -> TensorDesc {
    enc(name, &[C, C, C], &[0, 1, 2])
}

/// The text of a kernel's plan, or its errors one per line.
pub(super) fn plan_text(k: &Kernel) -> String {
    match sparsify(k) {
        Ok(plan) => plan.text(k),
        Err(errors) => errors.iter().map(|e| format!("error: {e}\n")).collect(),
    }
}

/// Compares with a readable diff on failure.
#[track_caller]
pub(super) fn assert_text(actual: &str, expected: &str) {
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    assert!(
        actual == expected,
        "text differs\n--- expected\n{expected}\n--- actual\n{actual}"
    );
}

/// `y[i] = a[i, j] * x[j]` with `a` as given.
pub(super) fn spmv(a: TensorDesc, op: AssignOp) -> Kernel {
    let mut k = Kernel::new();
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let a = k.tensor(a);
    let x = k.tensor(TensorDesc::dense("x", 1));
    let (i, j) = (k.index("i"), k.index("j"));
    let rhs = Expr::at(a, &[i, j]) * Expr::at(x, &[j]);
    match op {
        AssignOp::Assign => k.assign(y, &[i], rhs),
        AssignOp::AddAssign => k.add_assign(y, &[i], rhs),
    }
    k
}
