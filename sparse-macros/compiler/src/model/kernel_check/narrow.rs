//! Rule: a sum of products is not accumulated in a narrow integer type.
//!
//! Integer arithmetic in kernels wraps (MLIR's `arith` semantics), which is
//! what a user asking for `i8` arithmetic gets; but a *sum of products* of
//! `i8`/`ui8`/`i16`/`ui16` values stored into an output of that type is
//! almost always an int8 layer whose accumulator was meant to be wider:
//! `y[i] = w[i, j] * x[j]` with `i8` everywhere gives 64 for a true 40000,
//! silently. Such a statement is refused at the product, naming the fix
//! (widen the factors, `w[i, j] as i32 * x[j] as i32`, into an `i32`
//! output).
//!
//! Wrapping on purpose stays possible, spelt out: a cast of the summed
//! product to its own type, `y[i] = (w[i, j] * x[j]) as i8` (or
//! `sum(j, w[i, j] * x[j]) as i8`), computes exactly what the statement
//! without the cast computed. Only such an *identity* cast marks the
//! wrapping as meant: `(w[i, j] * x[j]) as i16` with `i8` factors still
//! sums in `i8` and is refused.
//!
//! Which products are summed follows the sum scope of TACO (and of
//! [`crate::sparsifier::scope`]): an index on the right-hand side only
//! sums over the smallest subexpression holding all its uses, so in
//! `y[i] = w[i, j] * x[j] * s` the product `w[i, j] * x[j]` is summed and
//! the product by `s` is not; everything inside an explicit `sum(j, ..)` is
//! summed. Narrow arithmetic that is not summed (`y[i] = a[i] * b[i]`, a
//! sum of plain values `s[] += a[i, j]`) stays as it is.

use syn::Ident;

use crate::errors::Errors;
use crate::model::kernel_types::{infer_type, Leaf};
use crate::model::ValueType;
use crate::syntax::{ArithOp, ExprSyntax, StmtSyntax};

/// The narrow integer types whose sums of products are refused.
fn is_narrow(t: ValueType) -> bool {
    matches!(
        t,
        ValueType::I8 | ValueType::U8 | ValueType::I16 | ValueType::U16
    )
}

/// The accumulator type to suggest: one that holds a product of two
/// values of `t` and sums of many of them (`i32` for 8-bit factors and
/// `i16`; a `ui16` product needs 32 bits unsigned already, so `i64`).
fn wide_type(t: ValueType) -> &'static str {
    match t {
        ValueType::U16 => "i64",
        _ => "i32",
    }
}

/// Checks one statement whose output holds `elem` values; `leaf` types the
/// leaves of its right-hand side.
pub(super) fn check_narrow_accumulation(
    stmt: &StmtSyntax,
    elem: ValueType,
    leaf: &dyn Fn(&ExprSyntax) -> Leaf,
    errors: &mut Errors,
) {
    if !is_narrow(elem) {
        return;
    }
    // The index variables the statement sums over without a `sum(..)`:
    // used on the right-hand side, absent from the left.
    let mut summed: Vec<&Ident> = Vec::new();
    stmt.rhs.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            for index in a.vars() {
                if !stmt.lhs.vars().contains(&index) && !summed.contains(&index) {
                    summed.push(index);
                }
            }
        }
    });
    let walk = Walk {
        leaf,
        summed: &summed,
        all_uses: summed.iter().map(|j| uses(&stmt.rhs, j)).collect(),
    };
    if let Some((product, t, over)) = walk.find(&stmt.rhs, false) {
        report(stmt, product, t, &over, errors);
    }
}

/// How many accesses of `e` use `index` (in a plain or affine subscript).
fn uses(e: &ExprSyntax, index: &Ident) -> usize {
    let mut n = 0;
    e.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            n += a.vars().iter().filter(|v| **v == index).count();
        }
    });
    n
}

struct Walk<'a> {
    leaf: &'a dyn Fn(&ExprSyntax) -> Leaf,
    summed: &'a [&'a Ident],
    /// Per summed index, its uses in the whole right-hand side.
    all_uses: Vec<usize>,
}

impl Walk<'_> {
    /// The first narrow product that is summed: the product, its type and
    /// what it is summed over (an index name, or `sum(..)`).
    fn find<'e>(
        &self,
        e: &'e ExprSyntax,
        in_sum: bool,
    ) -> Option<(&'e ExprSyntax, ValueType, String)> {
        match e {
            // Semiring regions are Rust closures, with Rust's rules.
            ExprSyntax::Semiring(_) => None,
            // The explicit spelling of wrapping: a cast to the type the
            // operand already has.
            ExprSyntax::Cast { operand, ty }
                if infer_type(operand, self.leaf).map(ValueType::rust_name)
                    == Some(ty.to_string().as_str()) =>
            {
                None
            }
            ExprSyntax::Call { name, args, .. } if name == "sum" => {
                args.last().and_then(|body| self.find(body, true))
            }
            ExprSyntax::Binary {
                op: ArithOp::Mul,
                left,
                right,
                ..
            } => {
                if let Some(t) = infer_type(e, self.leaf).filter(|t| is_narrow(*t)) {
                    let over = if in_sum {
                        Some("sum(..)".to_string())
                    } else {
                        self.summed_over(e, left, right)
                    };
                    if let Some(over) = over {
                        return Some((e, t, over));
                    }
                }
                self.find(left, in_sum).or_else(|| self.find(right, in_sum))
            }
            _ => children(e)
                .into_iter()
                .find_map(|child| self.find(child, in_sum)),
        }
    }

    /// The index the product `e = left * right` is summed over, if any: it
    /// uses the index, and it holds only some of its uses (it lies inside
    /// the index's scope) or it is the smallest subexpression holding them
    /// all (neither factor holds them all).
    fn summed_over(&self, e: &ExprSyntax, left: &ExprSyntax, right: &ExprSyntax) -> Option<String> {
        self.summed.iter().zip(&self.all_uses).find_map(|(j, all)| {
            let here = uses(e, j);
            let inside = here > 0 && here < *all;
            let smallest = here == *all && uses(left, j) < *all && uses(right, j) < *all;
            (inside || smallest).then(|| j.to_string())
        })
    }
}

fn report(stmt: &StmtSyntax, product: &ExprSyntax, t: ValueType, over: &str, errors: &mut Errors) {
    let ty = t.rust_name();
    let wide = wide_type(t);
    let output = &stmt.lhs.tensor;
    let text = product.text();
    let widened = match product {
        ExprSyntax::Binary { left, right, .. } => {
            format!(
                "{} as {wide} * {} as {wide}",
                cast_operand(left),
                cast_operand(right)
            )
        }
        _ => format!("({text}) as {wide}"),
    };
    let summed = if over == "sum(..)" {
        "summed by `sum(..)`".to_string()
    } else {
        format!("summed over `{over}`")
    };
    let (first, last) = product.span_range();
    errors.error_range(
        first,
        last,
        format!(
            "`{text}` multiplies `{ty}` values and is {summed} in `{ty}`, the element type of \
             the output `{output}`: the sum wraps silently past the range of `{ty}`; \
             accumulate in `{wide}`: make `{output}` an `{wide}` tensor and widen the factors, \
             `{widened}`; to wrap in `{ty}` on purpose, cast the summed product to its own \
             type: `({text}) as {ty}`"
        ),
    );
}

/// A factor as the left operand of `as`: an access, name or parenthesised
/// expression as written, anything else in parentheses.
fn cast_operand(e: &ExprSyntax) -> String {
    match e {
        ExprSyntax::Access(_)
        | ExprSyntax::Name(_)
        | ExprSyntax::Paren { .. }
        | ExprSyntax::Call { .. } => e.text(),
        _ => format!("({})", e.text()),
    }
}

/// The direct subexpressions of `e`.
fn children(e: &ExprSyntax) -> Vec<&ExprSyntax> {
    match e {
        ExprSyntax::Access(_)
        | ExprSyntax::Name(_)
        | ExprSyntax::Literal { .. }
        | ExprSyntax::Semiring(_) => Vec::new(),
        ExprSyntax::Neg { operand: x, .. }
        | ExprSyntax::Not { operand: x, .. }
        | ExprSyntax::Cast { operand: x, .. }
        | ExprSyntax::Paren { inner: x, .. } => vec![x.as_ref()],
        ExprSyntax::Binary { left, right, .. } => vec![left.as_ref(), right.as_ref()],
        ExprSyntax::Call { args, .. } => args.iter().collect(),
        ExprSyntax::If {
            cond, then, els, ..
        } => vec![cond.as_ref(), then.as_ref(), els.as_ref()],
    }
}
