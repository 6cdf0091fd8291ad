//! Reductions written directly, as a line-by-line translation of a
//! `linalg.generic` body reads them: `x[] = min(x[], a[i])`, `x[i] =
//! max(x[i], a[i, j])`, and the compound operators that would need one.
//!
//! Rule (MLIR's `linalg.generic` with a `"reduction"` iterator and an
//! `arith.minimumf`/`maximumf`/`minsi`/`maxsi`.. body): a statement `x[I]
//! = min(x[I], e)` (or `max`, either argument order) whose `e` uses index
//! variables that are not in `I` (outside any explicit `sum(..)`) is a
//! min (max) reduction *starting from the old value*: `x[I]` becomes the
//! minimum of its old value and of `e` at every point of the reduction
//! indices, **implicit zeros included** (the sparsifier keeps the dense
//! meaning: upstream's `sparse_reductions_min.mlir` gives 0 for a sparse
//! vector with no stored zero, `min2`). Where the reduction range is empty
//! the element keeps its old value. It runs as an accumulation into the
//! output (`+=` whose fold is `min`), over `unary(e, present = identity,
//! absent = || 0)`, which makes the implicit zeros present.
//! `reduce(e, identity = .., |acc, v| min(acc, v))` is the other reading,
//! MLIR's `sparse_tensor.reduce`: the stored entries only, from the
//! identity.
//!
//! The reduction is the statement's own: only a dense (or scalar) output,
//! and only `=` (`x[i] max= ..` has no spelling). A sparse output is an
//! error: the old value of an element it does not store is zero, and the
//! result would store every element some reduction point reaches.
//!
//! Rule: `*=` and `/=` meeting a reduction index are errors. MLIR reads
//! `x[] *= a[i]` (`arith.mulf %out, %a` under a reduction iterator) as the
//! product of the old value and every `a[i]`, implicit zeros included;
//! index notation (TACO) as the old value times the sum. The error names
//! both spellings: `reduce(a[i], identity = 1.0, |acc, v| acc * v)` (MLIR's
//! product reduction over the stored entries) and `x[] *= sum(i, a[i])`.

use syn::Ident;

use super::Checker;
use crate::codegen::elem::{elem_type, zero};
use crate::errors::Errors;
use crate::model::kernel::{ClosureBody, ClosureDef};
use crate::model::ValueType;
use crate::sparsifier::{Expr, LoopId, Reduce, Region, UnaryOp};
use crate::syntax::{AccessSyntax, AssignSyntax, ExprSyntax, StmtSyntax};

/// A recognized `x[I] = min(x[I], e)`.
pub(super) struct MinMax<'s> {
    /// `min` or `max`.
    pub name: &'s Ident,
    /// The value reduced, `e`.
    pub value: &'s ExprSyntax,
}

/// The index variables `e` uses outside every explicit `sum(..)` that
/// binds them (accesses, subscripts and values), in order of first use.
fn free_indices<'s>(e: &'s ExprSyntax, bound: &mut Vec<&'s Ident>, out: &mut Vec<&'s Ident>) {
    let mut add = |id: &'s Ident, bound: &Vec<&'s Ident>| {
        if !bound.contains(&id) && !out.contains(&id) {
            out.push(id);
        }
    };
    match e {
        ExprSyntax::Call { name, args, .. } if name == "sum" && args.len() >= 2 => {
            let (body, names) = args.split_last().unwrap_or((&args[0], &[]));
            let n = bound.len();
            bound.extend(names.iter().filter_map(|a| match a {
                ExprSyntax::Name(id) => Some(id),
                _ => None,
            }));
            free_indices(body, bound, out);
            bound.truncate(n);
        }
        ExprSyntax::Access(a) => a.vars().into_iter().for_each(|v| add(v, bound)),
        ExprSyntax::Name(n) => add(n, bound),
        ExprSyntax::Neg { operand: x, .. }
        | ExprSyntax::Not { operand: x, .. }
        | ExprSyntax::Cast { operand: x, .. }
        | ExprSyntax::Paren { inner: x, .. } => free_indices(x, bound, out),
        ExprSyntax::Binary { left, right, .. } => {
            free_indices(left, bound, out);
            free_indices(right, bound, out);
        }
        ExprSyntax::Call { args, .. } => args.iter().for_each(|a| free_indices(a, bound, out)),
        ExprSyntax::If {
            cond, then, els, ..
        } => {
            for x in [cond, then, els] {
                free_indices(x, bound, out);
            }
        }
        ExprSyntax::Semiring(op) => op.operands().for_each(|a| free_indices(a, bound, out)),
        ExprSyntax::Literal { .. } => {}
    }
}

/// The index variables `stmt` reduces over implicitly: used on the right
/// (outside an explicit `sum(..)`), not on the left. Names that are not
/// index variables of the statement (scalar parameters) are left out.
pub(super) fn implicit_reductions<'s>(
    stmt: &'s StmtSyntax,
    local: &[(String, LoopId)],
) -> Vec<&'s Ident> {
    let mut free = Vec::new();
    free_indices(&stmt.rhs, &mut Vec::new(), &mut free);
    let written = stmt.lhs.vars();
    free.retain(|v| local.iter().any(|(n, _)| *v == n) && !written.contains(v));
    free
}

/// Whether `e` (through parentheses) reads the element `lhs` writes.
fn is_own_element(e: &ExprSyntax, lhs: &AccessSyntax) -> bool {
    match e {
        ExprSyntax::Paren { inner, .. } => is_own_element(inner, lhs),
        ExprSyntax::Access(a) => {
            a.tensor == lhs.tensor && a.affine.is_empty() && a.indices == lhs.indices
        }
        _ => false,
    }
}

/// `x[I] = min(x[I], e)` / `max(e, x[I])` with a reduction index: the
/// function and `e`.
pub(super) fn min_max<'s>(stmt: &'s StmtSyntax, local: &[(String, LoopId)]) -> Option<MinMax<'s>> {
    let mut root = &stmt.rhs;
    while let ExprSyntax::Paren { inner, .. } = root {
        root = inner;
    }
    let ExprSyntax::Call { name, args, .. } = root else {
        return None;
    };
    if (name != "min" && name != "max") || args.len() != 2 {
        return None;
    }
    let value = match (
        is_own_element(&args[0], &stmt.lhs),
        is_own_element(&args[1], &stmt.lhs),
    ) {
        (true, false) => &args[1],
        (false, true) => &args[0],
        _ => return None,
    };
    if stmt.op != AssignSyntax::Assign || implicit_reductions(stmt, local).is_empty() {
        return None;
    }
    Some(MinMax { name, value })
}

/// The value a min (max) reduction over `ty` starts from where it has no
/// old value: the largest (smallest) value of the type.
fn extreme(ty: ValueType, min: bool) -> proc_macro2::TokenStream {
    let t = elem_type(ty);
    match (ty.is_float(), min) {
        (true, true) => quote::quote!(<#t>::INFINITY),
        (true, false) => quote::quote!(<#t>::NEG_INFINITY),
        (false, true) => quote::quote!(<#t>::MAX),
        (false, false) => quote::quote!(<#t>::MIN),
    }
}

/// [`extreme`] as a user writes it: `f64::INFINITY`, `i32::MIN`.
fn extreme_text(ty: ValueType, min: bool) -> String {
    let c = match (ty.is_float(), min) {
        (true, true) => "INFINITY",
        (true, false) => "NEG_INFINITY",
        (false, true) => "MAX",
        (false, false) => "MIN",
    };
    format!("{}::{c}", ty.rust_name())
}

impl Checker<'_> {
    /// The right-hand side and the fold of a recognized min/max reduction
    /// into a dense output of `out` values: `unary(e, present = identity,
    /// absent = || 0)`, folded by `|acc, v| min(acc, v)`. The statement
    /// becomes an accumulation (`+=`) into the output, so the fold starts
    /// from the old value.
    pub(super) fn resolve_min_max(
        &mut self,
        mm: &MinMax<'_>,
        stmt: &StmtSyntax,
        out: ValueType,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<(Expr, Reduce)> {
        if let Some(super::Binding::Tensor { sparse: true, .. }) = self.binding(&stmt.lhs.tensor) {
            let reduced: Vec<String> = implicit_reductions(stmt, local)
                .iter()
                .map(|v| v.to_string())
                .collect();
            errors.error_range(
                stmt.lhs.tensor.span(),
                stmt.lhs.last_span(),
                format!(
                    "`{lhs} = {f}({lhs}, ..)` is a {f} reduction over `{r}` starting from the old \
                     values of `{x}`, implicit zeros included (as MLIR reads a `linalg.generic` \
                     whose body takes the {f} with the output), but `{x}` is sparse: the elements it does not store would \
                     start from zero and all become entries; reduce into a dense output, or fold \
                     the stored entries only into a fresh sparse output with `{lhs} = reduce({v}, \
                     identity = {id}, |acc, v| {f}(acc, v))`",
                    lhs = stmt.lhs.text(),
                    f = mm.name,
                    r = reduced.join("`, `"),
                    x = stmt.lhs.tensor,
                    v = mm.value.text(),
                    id = extreme_text(out, mm.name == "min"),
                ),
            );
            return None;
        }
        let value = self.resolve(mm.value, local, errors)?;
        let f = mm.name.to_string();
        let zero_fn = self.record(
            "|| 0".to_string(),
            ClosureDef {
                body: ClosureBody::Value(zero(out)),
                params: Vec::new(),
                result: out,
                indices: Vec::new(),
            },
            0,
        );
        let identity = self.record(
            extreme_text(out, f == "min"),
            ClosureDef {
                body: ClosureBody::Value(extreme(out, f == "min")),
                params: Vec::new(),
                result: out,
                indices: Vec::new(),
            },
            0,
        );
        let name = mm.name;
        let closure: syn::ExprClosure = syn::parse_quote!(|__sk_m, __sk_v| #name(__sk_m, __sk_v));
        let combiner = self.record(
            format!("|acc, v| {f}(acc, v)"),
            ClosureDef {
                body: ClosureBody::Closure(Box::new(closure)),
                params: vec![Some(out), Some(out)],
                result: out,
                indices: Vec::new(),
            },
            2,
        );
        let rhs = Expr::Unary(Box::new(UnaryOp {
            x: value,
            present: Region::Identity,
            absent: Region::Func(zero_fn),
        }));
        Some((rhs, Reduce { identity, combiner }))
    }
}

/// Rule: `*=` and `/=` do not meet an implicit reduction index (see the
/// module comment). `x[] *= a[i]` is an error at `*=`.
/// `summed` is the right-hand side with its sums written out, as `*=`
/// reads it today.
pub(super) fn check_compound_reduction(
    stmt: &StmtSyntax,
    local: &[(String, LoopId)],
    out: ValueType,
    summed: &dyn Fn() -> String,
    errors: &mut Errors,
) -> Option<()> {
    if !matches!(stmt.op, AssignSyntax::MulAssign | AssignSyntax::DivAssign) {
        return Some(());
    }
    // `reduce(..)` with `*=` has its own error.
    if matches!(stmt.rhs, ExprSyntax::Semiring(_)) {
        return Some(());
    }
    let reduced = implicit_reductions(stmt, local);
    if reduced.is_empty() {
        return Some(());
    }
    let names: Vec<String> = reduced.iter().map(|v| v.to_string()).collect();
    let lhs = stmt.lhs.text();
    let op = stmt.op.symbol();
    let rhs = stmt.rhs.text();
    let one = if out.is_float() { "1.0" } else { "1" };
    let sum = summed();
    let (mlir, fix) = if stmt.op == AssignSyntax::MulAssign {
        (
            "MLIR's `linalg.generic` multiplies it by every value (implicit zeros included), \
             index notation by their sum",
            format!(
                "write the product as MLIR's product reduction, `{lhs} = reduce({rhs}, identity \
                 = {one}, |acc, v| acc * v)` (the stored values only; multiply the old values in \
                 by another statement), or the old value times the sum as `{sum}`"
            ),
        )
    } else {
        (
            "MLIR's `linalg.generic` divides it by every value in turn, index notation by their \
             sum",
            format!(
                "write the divisor out: the sum, `{sum}`, or the product of the stored \
                 values, `reduce({rhs}, identity = {one}, |acc, v| acc * v)` into an output of \
                 its own, divided by in another statement"
            ),
        )
    };
    errors.error(
        stmt.op_span,
        format!(
            "`{op}` combines each element of `{}` with a value reduced over `{}`, which has two \
             readings: {mlir}; {fix}",
            stmt.lhs.tensor,
            names.join("`, `"),
        ),
    );
    None
}
