//! Outputs written at affine subscripts: `x[4 * i + j] = a[i, j]` (the
//! linearized subscript of a `collapse_shape`), `c[i + j] += a[i] * b[j]`
//! (a polynomial product), `y[2 * i] = x[i]`.
//!
//! Rule: an output may be written at an affine subscript of
//! index variables, as MLIR's `linalg.generic` allows any affine output
//! map. Every variable of the subscript is an output variable (a parallel
//! loop), so `x[4 * i + j] = a[i, j] * v[j]` reduces over nothing. The
//! statement *scatters*: each point of its loops adds its value to the
//! element its subscript reaches, so an element reached from several
//! points gets their sum, and `=` first zeroes the whole output (elements
//! no point reaches are zero, as with MLIR's sparsifier, which zeroes a
//! dense output it overwrites). For a subscript that reaches each element
//! at most once (`4 * i + j` with `j < 4`) this is MLIR's value; where
//! points overlap MLIR's stores keep whichever point its loops visit last,
//! an order this language does not promise, so the sum is the defined
//! meaning (`c[i + j] = a[i] * b[j]` is the product of two polynomials).
//! Before the loops the kernel checks that the subscript stays inside the
//! dimension over the whole iteration space (`KernelError::SubscriptRange`,
//! a compile error when every size is static), like any affine subscript.
//!
//! A sparse output at an affine subscript is written the same way: its
//! entries cannot be appended in level order with unique coordinates
//! (`i + j` reaches a coordinate from several points, `n - 1 - i` runs
//! backwards), so every point's value is staged with `insert_unordered`
//! in the output's workspace and `finish_unordered` sorts them and sums
//! the ones at one coordinate (MLIR's `sparse_tensor.insert` in any order,
//! then `load hasInserts`). It stores the coordinates some point reaches,
//! computed zeros included. Rule: such a statement is not a `reduce(..)`,
//! whose combiner is not the sum the staging applies.
//!
//! Rule: the output is not read (`x[4 * i + j] *= ..`, `= x[4 * i + j] *
//! ..`): an element reached from several points would be read once per
//! point. `-=` and `+=` accumulate and are fine.

use crate::errors::Errors;
use crate::syntax::{AssignSyntax, ExprSyntax, SemiringKind, StmtSyntax};

/// Rule: a statement writing an affine subscript does not read its output
/// and does not multiply or divide it. `x[2 * i] *= a[i]` is an error at
/// `*=`.
pub(super) fn check_scatter(stmt: &StmtSyntax, root: &ExprSyntax, errors: &mut Errors) -> bool {
    let Some((_, e)) = stmt.lhs.affine.first() else {
        return true;
    };
    let lhs = stmt.lhs.text();
    if let ExprSyntax::Semiring(op) = root {
        if op.kind == SemiringKind::Reduce {
            errors.error_range(
                op.name.span(),
                op.parens,
                format!(
                    "`reduce` into `{lhs}`, an output written at the affine subscript `{e}`: \
                     such an output gathers the values of its points by adding them (`=` \
                     zeroes it first), which is not the combiner's fold; reduce into an output \
                     written at plain index variables"
                ),
            );
            return false;
        }
    }
    if matches!(stmt.op, AssignSyntax::MulAssign | AssignSyntax::DivAssign) {
        errors.error(
            stmt.op_span,
            format!(
                "`{}` reads the old value of `{lhs}`, which the subscript `{e}` may reach from \
                 several points; scale the output in a statement of its own over plain index \
                 variables (`{}[k] *= ..`)",
                stmt.op.symbol(),
                stmt.lhs.tensor
            ),
        );
        return false;
    }
    let mut read = None;
    stmt.rhs.visit(&mut |x| {
        if let ExprSyntax::Access(a) = x {
            if a.tensor == stmt.lhs.tensor && read.is_none() {
                read = Some(a);
            }
        }
    });
    if let Some(a) = read {
        errors.error_range(
            a.tensor.span(),
            a.last_span(),
            format!(
                "`{}` reads the output of a statement that writes it at the subscript `{e}`, \
                 which may reach an element from several points; read the old values from a \
                 separate input tensor, or accumulate with `{lhs} += ..`",
                a.text()
            ),
        );
        return false;
    }
    true
}
