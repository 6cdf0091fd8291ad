//! Rules for sparse outputs (`c: &mut tensor<..., #CSR>`): a kernel builds
//! them from nothing, in level order, once.
//!
//! A sparse output is a `SparseTensorOut` that the kernel clears and
//! appends to (`begin`, `insert`, `finish`), so nothing it held before the
//! call survives and nothing can be read back while it is being built.

use syn::Ident;

use super::{Binding, Checker};
use crate::errors::Errors;
use crate::syntax::{AssignSyntax, ExprSyntax, StmtSyntax};

impl Checker<'_> {
    fn is_sparse_output(&self, name: &Ident) -> bool {
        matches!(
            self.binding(name),
            Some(Binding::Tensor {
                mutable: true,
                sparse: true,
                ..
            })
        )
    }

    /// Every sparse-output rule of one statement.
    pub(super) fn check_sparse_output(&mut self, stmt: &StmtSyntax, errors: &mut Errors) {
        self.check_sparse_read(stmt, errors);
        let out = &stmt.lhs.tensor;
        if !self.is_sparse_output(out) {
            return;
        }
        check_sparse_accumulate(stmt, errors);
        // An in-place update (whether it keeps the sparsity is the
        // sparsifier's check) rewrites values and builds nothing.
        if !is_update(stmt) {
            self.check_written_once(out, errors);
        }
    }

    /// Rule: a sparse output is not read, in its own statement or any
    /// other: its storage is being rebuilt. `c[i, j] = c[i, j] * 2.0` is an
    /// error at the second `c[i, j]`, and so is `y[i] = c[i, j]` in a later
    /// statement.
    fn check_sparse_read(&self, stmt: &StmtSyntax, errors: &mut Errors) {
        let mut reads = Vec::new();
        stmt.rhs.visit(&mut |e| {
            if let ExprSyntax::Access(a) = e {
                // `c[i, j] = c[i, j] * 2.0`: an in-place update.
                let own = a.tensor == stmt.lhs.tensor && a.text() == stmt.lhs.text();
                if self.is_sparse_output(&a.tensor) && !own {
                    reads.push(a);
                }
            }
        });
        for read in reads {
            let name = &read.tensor;
            errors.error_range(
                name.span(),
                read.last_span(),
                format!(
                    "`{}` reads the sparse output `{name}`, which a kernel only builds: it is \
                     cleared when the kernel starts and filled in level order; read from a \
                     separate input tensor (e.g. `{name}.view()` passed to a second kernel)",
                    read.text()
                ),
            );
        }
    }

    /// Rule: one statement builds each sparse output, since building starts
    /// from an empty tensor. A second `c[i, j] = ...` is an error at its `c`.
    fn check_written_once(&mut self, out: &Ident, errors: &mut Errors) {
        if let Some(first) = self.sparse_written.iter().find(|w| *w == out) {
            errors.error_with_note(
                out.span(),
                format!(
                    "sparse output `{out}` is written by two statements, but each statement \
                     builds its output from nothing; compute it in one statement, or write the \
                     parts to separate outputs"
                ),
                first.span(),
                format!("`{out}` is first written here"),
            );
            return;
        }
        self.sparse_written.push(out.clone());
    }
}

/// Whether a statement reads its own output where it writes it (`c[i, j]
/// = c[i, j] * 2.0`, `c[i, j] *= 2.0`).
fn is_update(stmt: &StmtSyntax) -> bool {
    let mut own = matches!(stmt.op, AssignSyntax::MulAssign | AssignSyntax::DivAssign);
    stmt.rhs.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            own |= a.tensor == stmt.lhs.tensor && a.text() == stmt.lhs.text();
        }
    });
    own
}

/// Rule: `+=` into a sparse output would merge new entries into stored
/// ones, which appending in level order cannot do (`*=` and `/=` update the
/// stored values in place). `c[i, j] += a[i, j]` with `c` sparse is an
/// error at `+=`.
fn check_sparse_accumulate(stmt: &StmtSyntax, errors: &mut Errors) {
    if matches!(stmt.op, AssignSyntax::AddAssign | AssignSyntax::SubAssign) {
        let out = &stmt.lhs.tensor;
        let op = stmt.op.symbol();
        let binop = if stmt.op == AssignSyntax::AddAssign {
            "+"
        } else {
            "-"
        };
        let lhs = stmt.lhs.text();
        let old = lhs.replacen(&out.to_string(), "old", 1);
        errors.error(
            stmt.op_span,
            format!(
                "`{op}` into sparse output `{out}`: merge semantics into sparse outputs are not \
                 supported: pass the old values as an input `old: &tensor<...>` and write \
                 `{lhs} = {old} {binop} ...;` into a fresh output, or use a dense output"
            ),
        );
    }
}
