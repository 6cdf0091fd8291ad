//! Outputs written at affine subscripts: `x[4 * i + j] = a[i, j]` (the
//! linearized subscript of a `collapse_shape`), `c[i + j] += a[i] * b[j]`
//! (a polynomial product), `y[2 * i] = x[i]`.
//!
//! Rule: a dense (or array) output may be written at an affine subscript of
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
//! Rule: a sparse output is written at plain index variables. Its entries
//! are appended in level order with unique coordinates, which an affine
//! subscript promises neither (`i + j` reaches a coordinate from several
//! points, `2 * i` skips, `n - i` runs backwards). `c[i + j] = ..` with `c`
//! sparse is an error at the subscript that says to write a dense output
//! and convert it.
//!
//! Rule: the output is not read (`x[4 * i + j] *= ..`, `= x[4 * i + j] *
//! ..`): an element reached from several points would be read once per
//! point. `-=` and `+=` accumulate and are fine.

use crate::errors::Errors;
use crate::syntax::{AccessSyntax, AssignSyntax, ExprSyntax, StmtSyntax};

/// Whether `lhs`'s subscripts may be written: plain, or affine on a dense
/// output. Reports the error otherwise.
pub(super) fn check_output_subscripts(
    lhs: &AccessSyntax,
    sparse: bool,
    errors: &mut Errors,
) -> bool {
    let Some((_, e)) = lhs.affine.first() else {
        return true;
    };
    if !sparse {
        return true;
    }
    let name = &lhs.tensor;
    errors.error_range(
        e.span(),
        e.last_span(),
        format!(
            "the sparse output `{name}` is written at plain index variables, one per \
             dimension: its entries are appended in level order with unique coordinates, and \
             the subscript `{e}` promises neither (it may reach a coordinate from several \
             points, or out of order); write a dense output at `{e}` and convert it with \
             `sparse_core::convert`, or move the subscript to the inputs (`{name}[i] = x[i + \
             1]` instead of `{name}[i - 1] = x[i]`)"
        ),
    );
    false
}

/// Rule: a statement writing an affine subscript does not read its output
/// and does not multiply or divide it. `x[2 * i] *= a[i]` is an error at
/// `*=`.
pub(super) fn check_scatter(stmt: &StmtSyntax, errors: &mut Errors) -> bool {
    let Some((_, e)) = stmt.lhs.affine.first() else {
        return true;
    };
    let lhs = stmt.lhs.text();
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
