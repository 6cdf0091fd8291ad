//! Right-hand sides: names, casts and calls resolved to the sparsifier's
//! [`Expr`], and the rule on reading the output.

use syn::Ident;

use super::{example_indices, Binding, Checker};
use crate::errors::Errors;
use crate::model::kernel_types;
use crate::model::ValueType;
use crate::sparsifier::{Expr, LoopId};
use crate::suggest::{backquoted, did_you_mean};
use crate::syntax::{ArithOp, AssignSyntax, ExprSyntax, StmtSyntax, MATH_FUNCTIONS};

impl Checker<'_> {
    /// Resolves a right-hand side; every problem is recorded.
    pub(super) fn resolve(
        &mut self,
        e: &ExprSyntax,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<Expr> {
        Some(match e {
            ExprSyntax::Access(a) => {
                let access = Expr::Access(self.check_access(a, errors)?);
                // `a[i, i]` reads the diagonal: `sum(d, if d == i { a[i, d] }
                // else { 0 })`, a walk over the row that keeps one entry.
                std::mem::take(&mut self.diagonals).into_iter().fold(
                    access,
                    |e, (fresh, repeated)| {
                        let on_diagonal = Expr::Call(
                            "eq".to_string(),
                            vec![Expr::Index(fresh), Expr::Index(repeated)],
                        );
                        Expr::Sum(
                            vec![fresh],
                            Box::new(Expr::Call(
                                "choose".to_string(),
                                vec![on_diagonal, e, Expr::Zero],
                            )),
                        )
                    },
                )
            }
            ExprSyntax::Name(n) => self.resolve_name(n, local, errors)?,
            ExprSyntax::Literal { text, .. } => Expr::Literal(text.clone()),
            ExprSyntax::Neg { operand, .. } => {
                Expr::Neg(Box::new(self.resolve(operand, local, errors)?))
            }
            ExprSyntax::Paren { inner, .. } => self.resolve(inner, local, errors)?,
            ExprSyntax::Binary {
                op, left, right, ..
            } => {
                let l = self.resolve(left, local, errors);
                let r = self.resolve(right, local, errors);
                let (l, r) = (Box::new(l?), Box::new(r?));
                // An operand of literals only, compared with a typed one,
                // gets its type written out (`b[i] < (-1.0) as f64`): where
                // `b` is absent the comparison reads the zero of that type.
                let (l, r) = if op.is_comparison() {
                    let leaf = |e: &ExprSyntax| self.leaf(e, local);
                    let lt = kernel_types::infer_type(left, &leaf);
                    let rt = kernel_types::infer_type(right, &leaf);
                    let typed = |e: Box<Expr>, t: Option<ValueType>| match t {
                        Some(t) => Box::new(Expr::Cast(e, t.rust_name().to_string())),
                        None => e,
                    };
                    (
                        typed(l, rt.filter(|_| lt.is_none())),
                        typed(r, lt.filter(|_| rt.is_none())),
                    )
                } else {
                    (l, r)
                };
                let named = |name: &str| Expr::Call(name.to_string(), vec![*l.clone(), *r.clone()]);
                match op {
                    ArithOp::Add => Expr::Add(l, r),
                    ArithOp::Sub => Expr::Sub(l, r),
                    ArithOp::Mul => Expr::Mul(l, r),
                    ArithOp::Div => Expr::Div(l, r),
                    ArithOp::Eq => named("eq"),
                    ArithOp::Ne => named("ne"),
                    ArithOp::Lt => named("lt"),
                    ArithOp::Le => named("le"),
                    ArithOp::Gt => named("gt"),
                    ArithOp::Ge => named("ge"),
                    ArithOp::And => named("and"),
                    ArithOp::Or => named("or"),
                    ArithOp::Shl => named("shl"),
                    ArithOp::Shr => named("shr"),
                    ArithOp::BitAnd => named("bitand"),
                    ArithOp::BitOr => named("bitor"),
                    ArithOp::BitXor => named("bitxor"),
                }
            }
            ExprSyntax::Not { operand, .. } => {
                // `!` of an integer is its bitwise not (MLIR's `xori` with
                // -1), which is not zero where the operand is.
                let leaf = |e: &ExprSyntax| self.leaf(e, local);
                let name = if kernel_types::integer_valued(operand, &leaf) {
                    "bitnot"
                } else {
                    "not"
                };
                Expr::Call(
                    name.to_string(),
                    vec![self.resolve(operand, local, errors)?],
                )
            }
            ExprSyntax::If {
                cond, then, els, ..
            } => {
                let c = self.resolve(cond, local, errors);
                let t = self.resolve(then, local, errors);
                let e = self.resolve(els, local, errors);
                Expr::Call("choose".to_string(), vec![c?, t?, e?])
            }
            ExprSyntax::Cast { operand, ty } => {
                let inner = self.resolve(operand, local, errors);
                check_cast_target(ty, errors)?;
                Expr::Cast(Box::new(inner?), ty.to_string())
            }
            ExprSyntax::Semiring(op) => {
                self.misplaced_semiring(op, errors);
                return None;
            }
            ExprSyntax::Call { name, args, .. } if name == "sum" => {
                self.resolve_sum(e, args, local, errors)?
            }
            ExprSyntax::Call { name, args, .. } => {
                let resolved: Vec<Option<Expr>> = args
                    .iter()
                    .map(|a| self.resolve(a, local, errors))
                    .collect();
                check_call(e, name, args.len(), errors)?;
                Expr::Call(
                    name.to_string(),
                    resolved.into_iter().collect::<Option<_>>()?,
                )
            }
        })
    }

    /// Rule: `sum(j, e)` (or `sum(j, k, e)`) names index variables of the
    /// statement, then the expression summed over them. `sum(a[i], ..)` is
    /// an error at `a[i]`; `sum(j)` at the call.
    fn resolve_sum(
        &mut self,
        call: &ExprSyntax,
        args: &[ExprSyntax],
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<Expr> {
        let Some((body, names)) = args.split_last().filter(|(_, n)| !n.is_empty()) else {
            let (first, last) = call.span_range();
            errors.error_range(
                first,
                last,
                "`sum` takes the index variables to sum over, then the expression: \
                 `sum(j, a[i, j] * x[j])`",
            );
            return None;
        };
        let mut loops = Vec::new();
        for n in names {
            let found = match n {
                ExprSyntax::Name(id) => local.iter().find(|(l, _)| id == l).map(|(_, l)| *l),
                _ => None,
            };
            match found {
                Some(l) if !loops.contains(&l) => loops.push(l),
                _ => {
                    let (first, last) = n.span_range();
                    errors.error_range(
                        first,
                        last,
                        format!(
                            "`{}` is not an index variable of this statement; `sum` takes the \
                             index variables to sum over (each once), then the expression: \
                             `sum(j, a[i, j] * x[j])`",
                            n.text()
                        ),
                    );
                }
            }
        }
        let body = self.resolve(body, local, errors)?;
        (loops.len() == names.len()).then(|| Expr::Sum(loops, Box::new(body)))
    }

    /// Rule: a bare name is an index variable of the statement or a scalar
    /// parameter. `y[i] = a[i] * k` with neither a `k` in brackets nor a
    /// parameter `k` is an error at `k`.
    fn resolve_name(
        &self,
        name: &Ident,
        local: &[(String, LoopId)],
        errors: &mut Errors,
    ) -> Option<Expr> {
        if let Some((_, id)) = local.iter().find(|(l, _)| name == l) {
            return Some(Expr::Index(*id));
        }
        match self.binding(name) {
            Some(Binding::Scalar { .. }) => return Some(Expr::Literal(name.to_string())),
            Some(Binding::Broken) => return None,
            Some(Binding::Tensor { shape, .. }) => {
                errors.error(
                    name.span(),
                    format!(
                        "`{name}` is a tensor; read one of its elements with one index variable \
                         per dimension: `{name}[{}]`",
                        example_indices(shape.len())
                    ),
                );
                return None;
            }
            None => {}
        }
        if self.kernel.loops.iter().any(|l| name == l) {
            errors.error(
                name.span(),
                format!(
                    "index variable `{name}` indexes no tensor in this statement, so its range \
                     is unknown here; use it in an access of this statement, e.g. `a[{name}]`"
                ),
            );
            return None;
        }
        if self.def.broken {
            return None;
        }
        let mut candidates: Vec<String> = local.iter().map(|(l, _)| l.clone()).collect();
        candidates.extend(
            self.params
                .iter()
                .filter(|(_, b)| matches!(b, Binding::Scalar { .. }))
                .map(|(n, _)| n.to_string()),
        );
        let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
        errors.error(
            name.span(),
            format!(
                "unknown name `{name}`: a name in an expression is an index variable of the \
                 statement (one used in brackets, e.g. `a[i, {name}]`) or a scalar parameter \
                 (e.g. `{name}: f32`){}",
                did_you_mean(&name.to_string(), &refs)
            ),
        );
        None
    }
}

/// Rule: reading the output in its own statement must not see values the
/// statement is still computing. `y[i] = y[i] + a[i, j] * x[j]` is an error
/// at the second `y[i]` (it would read partial sums over `j`), and so is
/// `c[i, j] = c[j, i]` (elements already overwritten).
pub(super) fn check_output_read(
    stmt: &StmtSyntax,
    local: &[(String, LoopId)],
    errors: &mut Errors,
) {
    let written: Vec<String> = stmt.lhs.vars().into_iter().map(Ident::to_string).collect();
    let summed: Vec<&str> = local
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !written.iter().any(|w| w == n))
        .collect();
    let mut reads = Vec::new();
    stmt.rhs.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            if a.tensor == stmt.lhs.tensor {
                reads.push(a);
            }
        }
    });
    for read in reads {
        let same = read.affine.is_empty()
            && read
                .indices
                .iter()
                .map(Ident::to_string)
                .eq(written.iter().cloned());
        let out = &stmt.lhs.tensor;
        let message = if !same {
            format!(
                "`{}` reads the output `{out}` at other coordinates than `{}` writes, so it \
                 would see elements this statement has already overwritten; read from a \
                 separate input tensor instead",
                read.text(),
                stmt.lhs.text()
            )
        } else if !summed.is_empty() {
            let fix = if stmt.op == AssignSyntax::Assign {
                format!(
                    "; to add to (subtract from) the old values write `{0} += ...` \
                     (`{0} -= ...`)",
                    stmt.lhs.text()
                )
            } else {
                String::new()
            };
            format!(
                "`{}` reads the output of this statement while `{}` is summed over, so it \
                 would see partial sums rather than the old values; read the old values from \
                 a separate input tensor{fix}",
                read.text(),
                summed.join("`, `")
            )
        } else {
            continue;
        };
        errors.error_range(read.tensor.span(), read.last_span(), message);
    }
}

/// Rule: the index variables of a `sum(j, ..)` are its own: not on the
/// left-hand side, and not used outside it. `y[i] = sum(i, a[i])` is an
/// error at the summed `i`; so is the second `j` of
/// `y[i] = sum(j, a[i, j]) * b[i, j]`.
pub(super) fn check_sum_scopes(stmt: &StmtSyntax, errors: &mut Errors) {
    fn walk<'a>(e: &'a ExprSyntax, bound: &mut Vec<&'a Ident>, out: &mut Vec<(&'a Ident, bool)>) {
        match e {
            ExprSyntax::Call { name, args, .. } if name == "sum" && args.len() >= 2 => {
                let (body, names) = args.split_last().unwrap_or((&args[0], &[]));
                let n = bound.len();
                for a in names {
                    if let ExprSyntax::Name(id) = a {
                        out.push((id, true));
                        bound.push(id);
                    }
                }
                walk(body, bound, out);
                bound.truncate(n);
            }
            ExprSyntax::Access(a) => {
                for index in a.vars() {
                    if !bound.contains(&index) {
                        out.push((index, false));
                    }
                }
            }
            _ => {
                let mut kids = Vec::new();
                match e {
                    ExprSyntax::Neg { operand: x, .. }
                    | ExprSyntax::Not { operand: x, .. }
                    | ExprSyntax::Cast { operand: x, .. }
                    | ExprSyntax::Paren { inner: x, .. } => kids.push(x.as_ref()),
                    ExprSyntax::Binary { left, right, .. } => {
                        kids.push(left.as_ref());
                        kids.push(right.as_ref());
                    }
                    ExprSyntax::Call { args, .. } => kids.extend(args.iter()),
                    ExprSyntax::If {
                        cond, then, els, ..
                    } => kids.extend([cond.as_ref(), then.as_ref(), els.as_ref()]),
                    ExprSyntax::Semiring(op) => kids.extend(op.operands()),
                    _ => {}
                }
                for k in kids {
                    walk(k, bound, out);
                }
            }
        }
    }
    let mut uses = Vec::new();
    walk(&stmt.rhs, &mut Vec::new(), &mut uses);
    for (id, is_sum) in &uses {
        if !is_sum {
            continue;
        }
        if stmt.lhs.vars().contains(id) {
            errors.error(
                id.span(),
                format!(
                    "`{id}` indexes the output `{}`, so it cannot be summed over; a sum runs over \
                     an index variable that is not on the left-hand side",
                    stmt.lhs.text()
                ),
            );
        } else if let Some((outside, _)) = uses.iter().find(|(u, s)| !s && u == id) {
            errors.error(
                outside.span(),
                format!(
                    "`{id}` is summed by `sum({id}, ..)` but also used outside it; a summed index \
                     belongs to its sum: use another name here, or move this use inside the sum"
                ),
            );
        }
    }
}

/// The Rust number types a kernel may cast to.
pub(super) const CAST_TYPES: [&str; 13] = [
    "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "f16", "bf16",
];

/// Rule: casts convert to a Rust number type (`f16`/`bf16` included).
/// `a[i] as f80` is an error at `f80`.
fn check_cast_target(ty: &Ident, errors: &mut Errors) -> Option<()> {
    if CAST_TYPES.contains(&ty.to_string().as_str()) {
        return Some(());
    }
    errors.error(
        ty.span(),
        format!(
            "cannot cast to `{ty}` in a kernel; cast to one of {}{}",
            CAST_TYPES.map(|t| format!("`{t}`")).join(", "),
            cast_suggestion(&ty.to_string())
        ),
    );
    None
}

/// The closest cast target of the same kind (`f16` → `f32`, not `i16`):
/// the first letter says float, signed or unsigned.
fn cast_suggestion(ty: &str) -> String {
    let same_kind: Vec<&str> = CAST_TYPES
        .iter()
        .copied()
        .filter(|t| t.get(..1) == ty.get(..1))
        .collect();
    match did_you_mean(ty, &same_kind) {
        hint if hint.is_empty() => did_you_mean(ty, &CAST_TYPES),
        hint => hint,
    }
}

/// Rule: calls name a math function with its number of arguments.
/// `sqr(a[i])` is an error at `sqr` (did you mean `sqrt`?); `powi(a[i])`
/// is an error at the call (`powi` takes two arguments).
fn check_call(call: &ExprSyntax, name: &Ident, count: usize, errors: &mut Errors) -> Option<()> {
    let names: Vec<&str> = MATH_FUNCTIONS.iter().map(|(n, _)| *n).collect();
    let Some(&(_, arity)) = MATH_FUNCTIONS.iter().find(|(n, _)| name == n) else {
        errors.error(
            name.span(),
            format!(
                "unknown function `{name}`; a kernel may call the math functions {}{}",
                backquoted(&names),
                did_you_mean(&name.to_string(), &names)
            ),
        );
        return None;
    };
    if count != arity {
        let (first, last) = call.span_range();
        let usage = match arity {
            1 => format!("`{name}(x)`"),
            _ if *name == "powi" => "`powi(x, n)` with an `i32` exponent".to_string(),
            _ if *name == "requantize" => {
                "`requantize(acc, multiplier, shift)` of `i32` values".to_string()
            }
            _ => format!("`{name}(x, y)`"),
        };
        errors.error_range(
            first,
            last,
            format!("`{name}` takes {arity} argument(s), found {count}: write {usage}"),
        );
        return None;
    }
    Some(())
}
