//! Checks of a kernel `fn`: its parameters, and its statements resolved to
//! the sparsifier's [`Kernel`] (tensors by parameter, index variables by
//! name, kernel-wide).
//!
//! One rule per function, each with a comment giving the rule and an
//! example. Element types are checked in [`super::kernel_types`], the
//! sparsifier's own limits (loop order, block levels) by the planner
//! ([`crate::plan`]), which places its errors with the statement spans
//! recorded here.

mod access;
mod affine;
mod attrs;
mod linear_out;
pub use attrs::{DEFAULT_MAX_ENTRIES, LIMIT_MAX_ENTRIES};
mod exprs;
mod narrow;
mod params;
mod ranges;
mod reductions;
mod semiring;
mod semiring_regions;
mod sparse_out;

use std::collections::HashMap;

use proc_macro2::Span;
use syn::Ident;

use super::kernel::{ClosureDef, KernelDef, StmtSpans};
use super::kernel_types::{self, Leaf};
use super::{Model, ValueType};
use crate::errors::Errors;
use crate::sparsifier::{Access, AssignOp, Expr, Kernel, LoopId, Stmt, TensorId};
use crate::suggest::did_you_mean;
use crate::syntax::{AssignSyntax, ExprSyntax, KernelSyntax, SemiringKind, StmtSyntax};
use access::{check_plain_uses, example_indices};
use attrs::flag_attr;
use exprs::check_output_read;

/// What a parameter name stands for inside the body.
#[derive(Clone, Debug)]
enum Binding {
    Tensor {
        id: TensorId,
        elem: ValueType,
        shape: Vec<Option<u64>>,
        mutable: bool,
        /// Declared with an encoding.
        sparse: bool,
    },
    Scalar {
        prim: Option<ValueType>,
    },
    /// A parameter whose type had errors: uses stay silent.
    Broken,
}

struct Checker<'a> {
    def: &'a KernelSyntax,
    /// Parameter name → (its name token, what it is).
    params: Vec<(Ident, Binding)>,
    kernel: Kernel,
    index_spans: Vec<Span>,
    /// Index variable → the static size it was first bound to, where, and
    /// which dimension of which tensor.
    sizes: HashMap<LoopId, (u64, Span, String)>,
    /// Sparse outputs written by earlier statements, at their first write.
    sparse_written: Vec<Ident>,
    /// Closures of semiring operations, by `FuncId`.
    closures: Vec<ClosureDef>,
    /// The diagonals of the access [`Checker::check_access`] just read:
    /// `(fresh, repeated)` for each repeated index variable it renamed.
    diagonals: Vec<(LoopId, LoopId)>,
    /// The index variables of the statement's left-hand side, which an
    /// affine subscript's driving variable avoids.
    lhs_loops: Vec<LoopId>,
    /// Whether [`Checker::check_access`] resolves a left-hand side, whose
    /// subscripts are written (never walked: `linear_out.rs`).
    writing: bool,
    /// Index variables `#[range(..)]` sizes (see `ranges.rs`).
    ranged: Vec<String>,
}

/// A kernel that failed its checks.
pub(super) enum Failed {
    /// Its parameters are fine: the stub, a [`KernelDef`] without
    /// statements, lets codegen emit the signature next to the errors.
    Stub(Box<KernelDef>),
    /// Its signature is broken too.
    Broken,
}

/// Checks a kernel: its [`KernelDef`] and the spans of its statements, or
/// what is left of it with the errors recorded.
pub(super) fn check_kernel(
    def: &KernelSyntax,
    model: &Model,
    failed: &[String],
    errors: &mut Errors,
) -> Result<KernelDef, Failed> {
    let before = errors.len();
    let (attrs, ranges, ranged) = ranges::range_attr(&def.attrs, errors);
    let mut checker = Checker {
        def,
        params: Vec::new(),
        kernel: Kernel::new(),
        index_spans: Vec::new(),
        sizes: HashMap::new(),
        sparse_written: Vec::new(),
        closures: Vec::new(),
        diagonals: Vec::new(),
        lhs_loops: Vec::new(),
        writing: false,
        ranged,
    };
    let params = checker.check_params(model, failed, errors);
    let params_ok = errors.len() == before && !def.params_broken;
    check_has_output(def, &checker.params, errors);
    check_has_statements(def, errors);
    let mut spans = Vec::new();
    for stmt in &def.stmts {
        if let Some((stmt, stmt_spans)) = checker.check_stmt(stmt, errors) {
            checker.kernel.stmts.push(stmt);
            spans.push(stmt_spans);
        }
    }
    // A statement over a parameter whose type is broken is skipped without
    // an error of its own (the type's error says it all): such a kernel is
    // never complete, only a stub.
    let unresolved = params
        .iter()
        .any(|p| matches!(p.kind, crate::model::ParamKind::Unresolved { .. }));
    checker.bind_ranges(&ranges, errors);
    let ok = errors.len() == before && !def.broken && !unresolved;
    let (attrs, parallel) = flag_attr("parallel", &attrs, errors);
    let (attrs, fma) = flag_attr("fma", &attrs, errors);
    let (attrs, reassociate) = flag_attr("reassociate", &attrs, errors);
    checker.kernel.sum_first = reassociate.is_some() || integer_values(&params);
    let (attrs, unroll) = attrs::unroll_attr(&attrs, errors);
    let (attrs, specialize) = attrs::specialize_attr(&attrs, errors);
    let specialize = specialize.filter(|s| check_specialized_param(s, &params, errors));
    let ok = ok && errors.len() == before;
    let kernel_def = KernelDef {
        attrs,
        parallel,
        fma,
        reassociate,
        unroll,
        specialize,
        vis: def.vis.clone(),
        name: def.name.clone(),
        params,
        kernel: checker.kernel,
        index_spans: checker.index_spans,
        closures: checker.closures,
        stmt_spans: spans,
    };
    if ok {
        return Ok(kernel_def);
    }
    if !params_ok {
        return Err(Failed::Broken);
    }
    Err(Failed::Stub(Box::new(stub(kernel_def))))
}

/// Whether every value the kernel reads or writes is an integer (tensor
/// elements and scalar parameters): then regrouping a sum changes no bit.
fn integer_values(params: &[crate::model::Param]) -> bool {
    use crate::model::{ParamKind, ValueType};
    params.iter().all(|p| match &p.kind {
        ParamKind::Sparse { elem, .. }
        | ParamKind::Dense { elem, .. }
        | ParamKind::Reordered { elem, .. } => !elem.is_float(),
        ParamKind::Scalar { ty } => {
            let name = quote::quote!(#ty).to_string();
            ValueType::from_name(&name).is_some_and(|t| !t.is_float())
        }
        ParamKind::Unresolved { .. } => false,
    })
}

/// Rule: the operand `#[specialize(w = W)]` names is a sparse input
/// parameter of the kernel (`w: &tensor<..., #ENC>`): an output, a dense
/// operand or an unknown name is an error at the name.
fn check_specialized_param(
    s: &crate::model::Specialize,
    params: &[crate::model::Param],
    errors: &mut Errors,
) -> bool {
    use crate::model::ParamKind;
    let Some(p) = params.iter().find(|p| p.name == s.param) else {
        let names: Vec<String> = params.iter().map(|p| p.name.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        errors.error(
            s.param.span(),
            format!(
                "`#[specialize]`: this kernel has no parameter `{}`{}",
                s.param,
                did_you_mean(&s.param.to_string(), &names)
            ),
        );
        return false;
    };
    match &p.kind {
        ParamKind::Sparse { mutable: false, .. } => true,
        // Its own error was reported.
        ParamKind::Unresolved { .. } => false,
        _ => {
            errors.error(
                s.param.span(),
                format!(
                    "`#[specialize]` compiles a sparse input into the code; `{}` is not one \
                     (declare it `{}: &tensor<..., #ENC>`, the type of the constant)",
                    s.param, s.param
                ),
            );
            false
        }
    }
}

/// A compound assignment as `=` or `+=`: `y -= e` adds `-e`; `y *= e` and
/// `y /= e` assign `y * e` and `y / e`, `e` a value of its own: its sums
/// scoped inside it (the old element is read once, outside them).
fn compound(kernel: &Kernel, op: AssignSyntax, lhs: &Access, rhs: Expr) -> (AssignOp, Expr) {
    let old = || Box::new(Expr::Access(lhs.clone()));
    let operand = |e: Expr| Box::new(crate::sparsifier::scope::scoped_operand(kernel, lhs, e));
    match op {
        AssignSyntax::Assign => (AssignOp::Assign, rhs),
        AssignSyntax::AddAssign => (AssignOp::AddAssign, rhs),
        AssignSyntax::SubAssign => (AssignOp::AddAssign, Expr::Neg(Box::new(rhs))),
        AssignSyntax::MulAssign => (AssignOp::Assign, Expr::Mul(old(), operand(rhs))),
        AssignSyntax::DivAssign => (AssignOp::Assign, Expr::Div(old(), operand(rhs))),
    }
}

/// The `sum(..)` calls wrapping the whole right-hand side (outermost
/// first, each by its index names) and the expression inside them.
fn peel_sums(e: &ExprSyntax) -> (Vec<Vec<&Ident>>, &ExprSyntax) {
    let mut sums = Vec::new();
    let mut e = e;
    loop {
        match e {
            ExprSyntax::Paren { inner, .. } => e = inner,
            ExprSyntax::Call { name, args, .. } if name == "sum" && args.len() >= 2 => {
                let (body, names) = args.split_last().unwrap_or((&args[0], &[]));
                let names: Vec<&Ident> = names
                    .iter()
                    .filter_map(|n| match n {
                        ExprSyntax::Name(id) => Some(id),
                        _ => None,
                    })
                    .collect();
                if names.len() + 1 != args.len() {
                    return (sums, e);
                }
                sums.push(names);
                e = body;
            }
            _ => return (sums, e),
        }
    }
}

/// The stub of a kernel whose statements were rejected: its signature
/// only.
pub fn stub(mut def: KernelDef) -> KernelDef {
    def.kernel.stmts.clear();
    def.kernel.loops.clear();
    def.kernel.funcs.clear();
    def.closures.clear();
    def.index_spans.clear();
    def.stmt_spans.clear();
    def
}

/// Rule: a kernel writes something. `fn f(a: &tensor<?xf64>) { ... }` is
/// an error at `f`: no parameter is `&mut tensor<...>`.
/// A statement writing an input tensor gets its own error, which says
/// what to change; this one is for kernels that name no output at all.
fn check_has_output(def: &KernelSyntax, params: &[(Ident, Binding)], errors: &mut Errors) {
    let has_output = params.iter().any(|(_, b)| match b {
        Binding::Tensor { mutable, .. } => *mutable,
        Binding::Scalar { .. } => false,
        Binding::Broken => true,
    });
    let writes_input = def.stmts.iter().any(|s| {
        params
            .iter()
            .any(|(n, b)| *n == s.lhs.tensor && matches!(b, Binding::Tensor { .. }))
    });
    if !has_output && !writes_input && !def.broken {
        errors.error(
            def.name.span(),
            format!(
                "kernel `{}` has no output: declare the tensor it writes as \
                 `&mut tensor<...>`, e.g. `y: &mut tensor<?xf64>` (or `s: &mut tensor<f64>` \
                 for a single value)",
                def.name
            ),
        );
    }
}

/// Rule: a kernel has at least one statement. `fn f(...) {}` is an error
/// at `f`.
fn check_has_statements(def: &KernelSyntax, errors: &mut Errors) {
    if def.stmts.is_empty() && !def.broken {
        errors.error(
            def.name.span(),
            format!(
                "kernel `{}` has no statements; write at least one, e.g. \
                 `y[i] = a[i, j] * x[j];`",
                def.name
            ),
        );
    }
}

/// Rule: a reduction adds with `+`, which `bool` (`i1`) values do not have.
/// `y[i] = a[i, j];` with `y: &mut tensor<?xi1>` sums over `j` and is an
/// error at the first use of `j`; `y[i] += a[i];` is an error at `+=`.
fn check_bool_reduction(stmt: &StmtSyntax, elem: ValueType, errors: &mut Errors) {
    if elem != ValueType::Bool {
        return;
    }
    let output = &stmt.lhs.tensor;
    let mut reduced: Option<&Ident> = None;
    stmt.rhs.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            for index in a.vars() {
                if reduced.is_none() && !stmt.lhs.vars().contains(&index) {
                    reduced = Some(index);
                }
            }
        }
    });
    // The integer route, with a cast of the first operand as the example.
    let mut first: Option<String> = None;
    stmt.rhs.visit(&mut |e| {
        if let ExprSyntax::Access(a) = e {
            first.get_or_insert_with(|| a.text());
        }
    });
    let cast = first.as_deref().unwrap_or("a[..]");
    let integer = format!("make `{output}` an integer tensor and cast (`{cast} as i32`)");
    if stmt.op.reads_output() {
        let op = stmt.op.symbol();
        // `=` is a way out only where the statement sums over nothing:
        // with a reduction it needs `+` just the same.
        let fix = match reduced {
            Some(_) => integer,
            None => format!("use `=`, or {integer}"),
        };
        errors.error(
            stmt.op_span,
            format!(
                "`{op}` combines with the old value of `{output}`, but its elements are `bool` \
                 (`i1`), which has no arithmetic; {fix}"
            ),
        );
        return;
    }
    if let Some(index) = reduced {
        errors.error(
            index.span(),
            format!(
                "`{index}` appears only on the right-hand side, so the statement sums over it, \
                 but `{output}` holds `bool` (`i1`) values, which have no `+`; {integer}"
            ),
        );
    }
}

impl Checker<'_> {
    fn binding(&self, name: &Ident) -> Option<&Binding> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, b)| b)
    }

    fn tensor_names(&self) -> Vec<String> {
        self.params
            .iter()
            .filter(|(_, b)| !matches!(b, Binding::Scalar { .. }))
            .map(|(n, _)| n.to_string())
            .collect()
    }

    fn check_stmt(&mut self, stmt: &StmtSyntax, errors: &mut Errors) -> Option<(Stmt, StmtSpans)> {
        let before = errors.len();
        let mut accesses = vec![&stmt.lhs];
        stmt.rhs.visit(&mut |e| {
            if let ExprSyntax::Access(a) = e {
                accesses.push(a);
            }
        });
        // This statement's index variables, in order of first use.
        let mut local: Vec<(String, LoopId)> = Vec::new();
        for access in &accesses {
            for index in access.vars() {
                if let Some(id) = self.index_variable(index, errors) {
                    if !local.iter().any(|(n, _)| index == n) {
                        local.push((index.to_string(), id));
                    }
                }
            }
        }
        self.lhs_loops = stmt
            .lhs
            .vars()
            .into_iter()
            .filter_map(|i| local.iter().find(|(n, _)| i == n).map(|(_, l)| *l))
            .collect();
        check_plain_uses(&accesses, &self.ranged, errors);
        let lhs = self.check_lhs(&stmt.lhs, errors);
        // `sum(j, select(..))`: a semiring operation summed over the whole
        // right-hand side is still the statement's value.
        let (sums, root) = peel_sums(&stmt.rhs);
        // `x[i] = max(x[i], a[i, j])`: a max reduction from the old value.
        let min_max = reductions::min_max(stmt, &local).filter(|_| sums.is_empty());
        let resolved = match (root, &lhs) {
            (_, Some((_, elem))) if min_max.is_some() => {
                let mm = min_max.as_ref()?;
                self.resolve_min_max(mm, stmt, *elem, &local, errors)
                    .map(|(e, reduce)| (e, Some(reduce)))
            }
            (ExprSyntax::Semiring(op), Some((_, elem)))
                if sums.is_empty() || op.kind != SemiringKind::Reduce =>
            {
                self.resolve_semiring_stmt(op, stmt, *elem, &local, errors)
                    .map(|(e, reduce)| {
                        let e = sums.iter().rev().fold(e, |e, names| {
                            let loops = names
                                .iter()
                                .filter_map(|n| {
                                    local.iter().find(|(l, _)| *n == l).map(|(_, l)| *l)
                                })
                                .collect();
                            Expr::Sum(loops, Box::new(e))
                        });
                        (e, reduce)
                    })
            }
            (ExprSyntax::Semiring(_), None) => None,
            (_, _) => self.resolve(&stmt.rhs, &local, errors).map(|e| (e, None)),
        };
        let (Some((lhs, elem)), Some((rhs, reduce))) = (lhs, resolved) else {
            return None;
        };
        if errors.len() > before {
            return None;
        }
        self.check_sparse_output(stmt, errors);
        if errors.len() > before {
            return None;
        }
        if !linear_out::check_scatter(stmt, root, errors) {
            return None;
        }
        if min_max.is_none() {
            check_output_read(stmt, &local, errors);
        }
        exprs::check_sum_scopes(stmt, errors);
        check_bool_reduction(stmt, elem, errors);
        let output = stmt.lhs.tensor.to_string();
        let leaf = |e: &ExprSyntax| self.leaf(e, &local);
        kernel_types::check_rhs(&stmt.rhs, &leaf, &output, elem, errors);
        if errors.len() > before {
            return None;
        }
        // A min/max reduction adds nothing up.
        if min_max.is_none() {
            narrow::check_narrow_accumulation(stmt, elem, &leaf, errors);
        }
        if errors.len() > before {
            return None;
        }
        let spans = StmtSpans {
            accesses: accesses
                .iter()
                .map(|a| {
                    (
                        a.tensor.to_string(),
                        a.text(),
                        a.tensor.span(),
                        a.last_span(),
                    )
                })
                .collect(),
            range: (stmt.lhs.tensor.span(), stmt.rhs.span_range().1),
        };
        if stmt.op != AssignSyntax::Assign
            && stmt.op != AssignSyntax::AddAssign
            && matches!(root, ExprSyntax::Semiring(_))
        {
            errors.error(
                stmt.op_span,
                format!(
                    "`{}` with a semiring operation: where it produces no value there is nothing \
                     to combine the old value with; assign it with `=` or `+=`, or compute the \
                     combination in its closures",
                    stmt.op.symbol()
                ),
            );
            return None;
        }
        let summed = || {
            let scoped = crate::sparsifier::scope::scoped_operand(&self.kernel, &lhs, rhs.clone());
            format!(
                "{} {} {}",
                self.kernel.show_access(&lhs),
                stmt.op.symbol(),
                self.kernel.show(&scoped)
            )
        };
        reductions::check_compound_reduction(stmt, &local, elem, &summed, errors)?;
        let (op, rhs) = match min_max {
            // The fold starts from the old value: an accumulation.
            Some(_) => (AssignOp::AddAssign, rhs),
            None => compound(&self.kernel, stmt.op, &lhs, rhs),
        };
        Some((
            Stmt {
                lhs,
                op,
                rhs,
                reduce,
            },
            spans,
        ))
    }

    /// What a leaf of an expression is, for the type check.
    pub(super) fn leaf(&self, e: &ExprSyntax, local: &[(String, LoopId)]) -> Leaf {
        match e {
            ExprSyntax::Access(a) => match self.binding(&a.tensor) {
                Some(Binding::Tensor { elem, .. }) => Leaf::Typed(*elem),
                _ => Leaf::Untyped,
            },
            ExprSyntax::Name(n) if local.iter().any(|(l, _)| *n == l) => Leaf::Index,
            ExprSyntax::Name(n) => match self.binding(n) {
                Some(Binding::Scalar { prim: Some(p) }) => Leaf::Typed(*p),
                _ => Leaf::Untyped,
            },
            _ => Leaf::Untyped,
        }
    }
}
