//! Issue 10: kernels mean what TACO and MLIR mean by them.
//!
//! - `sum_scope`: a reduction index sums over the smallest subexpression
//!   holding every use of it (TACO's rule), against the independent dense
//!   evaluator of `sparse_tests::index_notation`, over CSR, CSC, DCSR, COO
//!   (duplicates summed), CSF and dense operands.
//! - `reduce`: a custom `reduce` folds present values only (stored entries,
//!   explicit zeros included, and what an inner region produced) and gives
//!   its identity where none is present (dense outputs) or stores nothing
//!   there (sparse outputs), as MLIR's `sparse_tensor.reduce`; implicit
//!   zeros count only when made present with `unary(.., absent = || 0.0)`.
//!   Reductions into sparse outputs whose reduction loop encloses an output
//!   loop (min-plus CSR x CSR, row products of a CSC matrix).
//! - `choice`: comparisons, `&&`/`||`/`!` and `if c { a } else { b }` with
//!   MLIR's sparsity rules (a comparison of two sparse operands is `false`
//!   where neither stores an entry).
//! - `in_place`: sparse outputs updated in place (`c[i, j] *= d[i]`,
//!   `c[i, j] = c[i, j] * c[i, j]`), pattern kept, values rewritten.
//! - `diagonal`: `a[i, i]` reads the diagonal in every format.
//! - `compound`: `-=`, `*=`, `/=` on dense outputs (vectors, matrices,
//!   scalars): `y -= e` adds `-e`, `y *= e` is `y * E` with `e`'s sums
//!   inside `E` and the old element read once (a row with no entries
//!   zeroes `y[i]`), against the evaluator's compound assignments.
//! - `linear_out`: outputs written at affine subscripts (`x[4 * i + j] =
//!   a[i, j]`, `c[i + j] = a[i] * b[j]`, `y[7 - i] = a[i]`): dense outputs
//!   zeroed and scattered into, sparse ones staged in any order and sorted
//!   and summed, over CSR, CSC, DCSR, COO, CSF and dense inputs, against a
//!   dense scatter; caller-buffer workspaces and their capacity error.
//! - `min_max`: `x[i] = max(x[i], a[i, j])` and `min` as MLIR reads them:
//!   the old value folded with every element, implicit zeros included, over
//!   CSR, CSC, DCSR, COO, CSF and dense operands; upstream's
//!   `sparse_reductions_min.mlir` with its CHECK values.
//! - `scopes`: `sum(j, e)` written out (`sum(j, abs(..))` against
//!   `abs(..)`, `sum(j, select(..))` against `select(..)`, two indices,
//!   nested sums), and statements computed one term at a time because a
//!   CSC, DCSC or CSF operand orders the summed loop outside the output's.
//! - `sparse_sums`: sparse outputs of statements with a scoped sum
//!   (`c[i] = a[i, j] * x[j] + b[i]`, `a` CSR/DCSR/COO, `b` and `c` sparse
//!   vectors; CSF into DCSR): the stored rows are the points of the output
//!   loop's lattice (every row for CSR, the stored rows of DCSR/COO, `b`'s
//!   entries), computed zeros included.
//! - `conformance`: seed 000's `binary`/`unary`/`select`/`reduce` examples
//!   and the cases above with hand-computed layouts (pos/crd/values),
//!   checked against the upstream MLIR sparsifier by `tests/oracle/*.py`.
//! - `affine`: affine subscripts (`x[i + k]`, `a[2 * i + k, j + l]`):
//!   1-D and 2-D convolutions over sparse inputs, sparse filters or both,
//!   into dense and sparse outputs, against a dense convolution.
//! - `pooling`: windows sized by `#[range(k = n)]` (sum, average and max
//!   pooling over every format; MLIR's `sparse_pooling_nhwc.mlir`).
//! - `bounded_walks`, `bounded_windows`: walks bounded by what is stored,
//!   over sizes up to `usize::MAX` (a regression hangs).

mod semantics {
    mod affine;
    mod bounded_walks;
    mod bounded_windows;
    mod choice;
    mod common;
    mod compound;
    mod conformance;
    mod dense_into_sparse;
    mod diagonal;
    mod in_place;
    mod integers;
    mod linear_out;
    mod min_max;
    mod pooling;
    mod reduce;
    mod scopes;
    mod sparse_sums;
    mod sum_scope;
}
