//! Kernel codegen: the sparsifier's loop tree → one Rust `fn`.
//!
//! The generated function follows the plan node for node (see
//! `docs/ARCHITECTURE.md`, "Kernel codegen"):
//!
//! - a prologue (`signature.rs`) checks every size bound to an index
//!   variable and every static size, returning `KernelError` before any
//!   output is touched, then names the storage buffers the loops read;
//! - `dense.rs`: `For` → `for i in 0..n`, and dense levels of sparse
//!   operands get their position `parent * n + i`;
//! - `iterate.rs`: `Iterate` → a walk over the positions of one compressed,
//!   loose compressed or singleton level, with duplicate segments of
//!   non-unique COO levels walked as one coordinate;
//! - `coiterate.rs`: `CoIterate` → one `while` per phase over cursors, the
//!   minimum coordinate (or the next of the whole range), an `if` cascade
//!   of the cases, and the advance of the cursors that matched;
//! - leaves and expressions (`expr.rs`): loads into locals, the reduction
//!   scalarised in `__sk_acc`, stores with `=` or `+=` as the plan says;
//! - sparse outputs: `c.begin()` .. `c.finish("c")?` around the statement,
//!   `c.insert([level coordinates], v)` at `Insert` leaves (`insert.rs`),
//!   or the workspace of access-pattern expansion (`workspace.rs`);
//! - `names.rs`: loop variables, sizes and storage buffers, each local
//!   declared once after the prologue; `docs.rs`: the function's doc
//!   comment (the loop nest, its schedule, workspaces to pass).
//!
//! Every read and write inside the loops goes through sparse-core's
//! unchecked accessors; each one carries a `SAFETY:` doc line (kept by
//! `cargo expand`) naming the invariant of validated storage or the
//! prologue check that keeps it in range. Generated locals all start with
//! `__sk_`.

mod affine;
mod closures;
mod coiterate;
mod compiled;
mod convert;
mod dense;
mod docs;
mod dual_mac;
mod dual_mac_2_4;
mod expr;
mod gather_dot;
mod insert;
mod int_literals;
mod iterate;
mod levels;
mod linear_out;
mod loads;
mod lower;
mod names;
mod operators;
mod packed;
mod parallel;
mod partial_sums;
mod row_bound;
mod rows;
mod signature;
mod slices;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_affine;
#[cfg(test)]
mod tests_dual_mac;
#[cfg(test)]
mod tests_dual_mac_2_4;
#[cfg(test)]
mod tests_gather_dot;
#[cfg(test)]
mod tests_int_ops;
#[cfg(test)]
mod tests_linear_out;
#[cfg(test)]
mod tests_out;
#[cfg(test)]
mod tests_par;
#[cfg(test)]
mod tests_schedule;
#[cfg(test)]
mod tests_semiring;
#[cfg(test)]
mod tests_specialize;
#[cfg(test)]
mod tests_sum_first;
#[cfg(test)]
mod tests_window_skip;
mod two_way_merge;
mod vector_isa;
mod window_skip;
mod workspace;

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;

use crate::model::{ElemType, KernelDef};
use crate::plan::{KernelPlan, Kind, TensorInfo};
use crate::schedule::{Chunks, StmtSchedule};
use crate::sparsifier::{Kernel, Node, OutputStrategy, Plan, Stmt, StmtPlan, TensorId};

/// Generates the kernel `def` as one `fn` item following `plan` (the
/// sparsifier's plan of `def.kernel`). What codegen cannot lower (only an
/// inconsistent input) becomes a `compile_error!` spanned on the
/// parameter, inside an otherwise well-formed function, so call sites
/// still check.
pub fn generate_kernel(kp: &KernelPlan) -> TokenStream {
    let (def, plan) = (&kp.def, &kp.loops);
    let k = kp.kernel();
    let mut g = Gen::new(kp, k);
    let params = g.params();
    let generics = g.generics();
    let rebind = g.rebind_outputs();
    let mut body = g.body(plan);
    if kp.schedule.vector_isa {
        body = vector_isa::per_vector_isa(body);
    }
    let mut doc = docs::doc_lines(kp, k);
    let par = g.parallel_docs();
    doc.extend(quote!(#(#[doc = #par])*));
    let attrs = &def.attrs;
    let vis = &def.vis;
    let name = &def.name;
    quote! {
        #(#attrs)*
        #doc
        #[allow(
            unused_doc_comments,
            unused_mut,
            unused_variables,
            clippy::too_many_arguments,
            clippy::needless_range_loop,
            clippy::identity_op,
            clippy::erasing_op,
            // Semiring closures are the user's tokens, called where the
            // value is needed so rustc checks them in place.
            clippy::redundant_closure_call,
            clippy::blocks_in_conditions,
            non_snake_case,
        )]
        #vis fn #name #generics (#(#params),*) -> ::core::result::Result<(), ::sparse_core::__private::KernelError> {
            #rebind
            #body
        }
    }
}

/// What a storage level's position is at a point of the loop nest.
#[derive(Clone, Debug)]
enum Pos {
    /// One entry.
    At(Ident),
    /// The entries `[lo, hi)` of a duplicate segment of a non-unique level
    /// (all with the same coordinate).
    Segment(Ident, Ident),
}

/// What is known inside a loop body: bound index variables and positioned
/// levels.
#[derive(Clone, Debug, Default)]
struct Scope {
    bound: Vec<bool>,
    pos: BTreeMap<(TensorId, usize), Pos>,
    /// Sparse tensors whose value at the current last-level entry a walk
    /// already read (`walk_values`), and the local holding it.
    walked: BTreeMap<TensorId, Ident>,
    /// The sparse output whose last-level segment is open here, and the
    /// `Segment` local (see `insert.rs`).
    segment: Option<(TensorId, Ident)>,
    /// That local is a `Row` whose coordinates the schedule proves in
    /// order and in range (`RowBound::in_order`): inserts vouch for them.
    vouched: bool,
    /// Inside the copy of the segment loop taken when the row's slots
    /// cover its bound (`RowBound::covered`): inserts take no slot test.
    reserved: bool,
    /// The sparse output whose segment is held across the rows of an
    /// enclosing loop, and that `Segment` local: each row is asked of it
    /// (`row_at`) instead of a segment of its own (see `row_bound.rs`).
    hoisted: Option<(TensorId, Ident)>,
    /// Row cursors of compressed levels walked one row per iteration of
    /// the enclosing dense loop (see `rows.rs`).
    rows: BTreeMap<(TensorId, usize), Ident>,
    /// Dense outputs written through a `slots` cursor (see `rows.rs`).
    slots: BTreeMap<TensorId, Ident>,
    /// Inside a chunk of the loop `#[parallel]` splits: the chunk's output
    /// holds its rows from the chunk's first row on, so the output's row
    /// offsets (dense) or row coordinates (sparse) are relative to it
    /// (see `parallel.rs`).
    chunk: Option<Chunks>,
    /// Under `#[specialize]`: the position of each level of the constant
    /// a compiled loop fixed here (see `compiled.rs`).
    known: BTreeMap<(TensorId, usize), u64>,
    /// Inside the probe of a window skip: the gate's walk becomes one
    /// search for the next nonempty window (see `window_skip.rs`).
    probe: Option<window_skip::Probe>,
    /// Inside one lane of partial sums: the scoped sum whose adds go to
    /// the lane's own partial sum, and that local (see `partial_sums.rs`).
    lane: Option<(u32, Ident)>,
}

/// The generator of one kernel.
struct Gen<'a> {
    kp: &'a KernelPlan,
    def: &'a KernelDef,
    k: &'a Kernel,
    tensors: Vec<TensorInfo>,
    /// Locals declared after the prologue, on first use: name → `let`.
    decls: BTreeMap<String, TokenStream>,
    /// `compile_error!`s for what cannot be generated.
    errors: Vec<TokenStream>,
    /// The statement being generated.
    stmt: Option<&'a Stmt>,
    /// What [`Gen::info`] gives for an id without a parameter.
    fallback: TensorInfo,
    /// Whether the current reduction local carries the `__sk_produced` flag
    /// (see [`crate::sparsifier::loop_tree::Value::LocalIfProduced`]).
    produced: bool,
    /// The element types of the scoped sums' locals, by number.
    sum_types: BTreeMap<u32, ElemType>,
    /// Statements planned as conversions next to a level-space kernel:
    /// written in dimensions over tensors the level space reshaped, so
    /// their accesses bind no index size (the conversion checks its own).
    unbound_stmts: Vec<usize>,
    /// How the current statement's loops run (its schedule).
    sched: Option<&'a StmtSchedule>,
    /// The current statement's loop tree.
    sp: Option<&'a StmtPlan>,
}

impl<'a> Gen<'a> {
    fn new(kp: &'a KernelPlan, k: &'a Kernel) -> Gen<'a> {
        let def = &kp.def;
        let tensors = kp.tensors.clone();
        let mut g = Gen {
            kp,
            def,
            k,
            tensors: Vec::new(),
            decls: BTreeMap::new(),
            errors: Vec::new(),
            stmt: None,
            produced: false,
            sum_types: BTreeMap::new(),
            fallback: TensorInfo::missing("?".to_string(), format_ident!("__sk_missing")),
            unbound_stmts: Vec::new(),
            sched: None,
            sp: None,
        };
        for (n, t) in tensors.into_iter().enumerate() {
            match t {
                Some(t) => g.tensors.push(t),
                None => {
                    let name = k.tensor_name(TensorId(n as u32)).to_string();
                    g.error(
                        def.name.span(),
                        format!("internal: tensor `{name}` of the kernel has no parameter"),
                    );
                    g.tensors.push(TensorInfo::missing(
                        name,
                        format_ident!("__sk_missing_{}", n),
                    ));
                }
            }
        }
        g
    }

    /// The sparse output the current statement updates in place, if it
    /// does (its plan's `InPlace` strategy): its storage is the opened
    /// `c.in_place()`, and its walks read no values.
    fn in_place(&self) -> Option<TensorId> {
        let in_place = self.sp?.output.strategy == OutputStrategy::InPlace;
        in_place.then_some(self.stmt?.lhs.tensor)
    }

    /// The loop of the current statement that runs in chunks, if the
    /// schedule splits one (`#[parallel]`, see `parallel.rs`).
    fn chunks(&self) -> Option<Chunks> {
        self.sched.and_then(StmtSchedule::chunks)
    }

    /// Whether the current statement zeroes `t`, the output its chunks
    /// own, first: each chunk then zeroes its own rows (in parallel).
    fn chunk_zeroes(&self, t: TensorId) -> bool {
        let zeroes = self.sp.is_some_and(|sp| {
            sp.tree
                .iter()
                .any(|n| matches!(n, Node::Zero { tensor } if *tensor == t))
        });
        zeroes && self.chunks().is_some_and(|c| c.output == t)
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        let message = message.into();
        self.errors
            .push(quote_spanned!(span=> ::core::compile_error!(#message);));
    }

    fn info(&self, t: TensorId) -> &TensorInfo {
        // Every id of a sparsified kernel has an entry (`new` fills gaps);
        // the fallback only keeps an inconsistent input from panicking.
        self.tensors.get(t.index()).unwrap_or(&self.fallback)
    }

    /// The span of the parameter of tensor `t`, for messages.
    fn span_of(&self, t: TensorId) -> Span {
        self.tensors
            .get(t.index())
            .map_or(self.def.name.span(), |i| i.ident.span())
    }

    /// The whole function body: prologue, one block per statement, `Ok`.
    fn body(&mut self, plan: &'a Plan) -> TokenStream {
        self.check_consistent(plan);
        if plan.level_space.is_some() {
            self.unbound_stmts = plan
                .stmts
                .iter()
                .filter(|sp| matches!(sp.output.strategy, OutputStrategy::Convert { .. }))
                .map(|sp| sp.stmt)
                .collect();
        }
        if !self.errors.is_empty() {
            let errors = &self.errors;
            return quote!(#(#errors)*);
        }
        let mut stmts = TokenStream::new();
        for (n, sp) in plan.stmts.iter().enumerate() {
            self.sched = self.kp.schedule.stmts.get(n);
            stmts.extend(self.statement(sp));
        }
        // The prologue belongs to no statement (nothing is in place there).
        self.sp = None;
        // `#[specialize(w = W)]`: the operand is the constant.
        let bound = self.kp.specialized.as_ref().map(|s| {
            let (w, c) = (&s.param, &s.constant.name);
            quote!(let #w = &#c;)
        });
        let mut checks = match self.def.parallel {
            // Nothing with sparse-core's `rayon` feature, a compile error
            // at the attribute without it.
            Some(span) => quote_spanned!(span=> ::sparse_core::__private::require_rayon!();),
            None => TokenStream::new(),
        };
        checks.extend(self.prologue());
        checks.extend(self.hoist_output_dims());
        let reorders = self.reorders();
        let decls: Vec<&TokenStream> = self.decls.values().collect();
        let errors = &self.errors;
        quote! {
            #(#errors)*
            #bound
            #checks
            #reorders
            #(#decls)*
            #stmts
            ::core::result::Result::Ok(())
        }
    }

    /// What the parameters and the plan disagree on (only on inconsistent
    /// input: the front end and the sparsifier agree by construction).
    fn check_consistent(&mut self, plan: &Plan) {
        for sp in &plan.stmts {
            let Some(stmt) = sp.part.as_ref().or_else(|| self.k.stmts.get(sp.stmt)) else {
                continue;
            };
            let t = stmt.lhs.tensor;
            let sparse_strategy = matches!(
                sp.output.strategy,
                OutputStrategy::SparseInsert
                    | OutputStrategy::SparseUnordered
                    | OutputStrategy::SparseExpand { .. }
                    | OutputStrategy::InPlace
                    | OutputStrategy::Convert { .. }
            );
            let sparse_out = self.info(t).kind == Kind::Sparse && self.info(t).mutable;
            if sparse_strategy != sparse_out {
                let msg = format!(
                    "internal: `{}` is written with output strategy `{}`, which does not match \
                     its parameter type",
                    self.info(t).name,
                    sp.output.reason
                );
                self.error(self.span_of(t), msg);
            }
        }
        for info in &self.tensors {
            if let Some(enc) = &info.encoding {
                if self.kp.encoding_named(enc).is_none() {
                    let msg = format!("no encoding `#{enc}` is defined in this block");
                    self.errors
                        .push(quote_spanned!(enc.span()=> ::core::compile_error!(#msg);));
                }
            }
        }
    }

    /// One statement in its own block, so its locals do not meet the next
    /// statement's.
    fn statement(&mut self, sp: &'a StmtPlan) -> TokenStream {
        let Some(stmt) = sp.part.as_ref().or_else(|| self.k.stmts.get(sp.stmt)) else {
            return TokenStream::new();
        };
        self.stmt = Some(stmt);
        self.sp = Some(sp);
        let scope = Scope {
            bound: vec![false; self.k.loops.len()],
            pos: BTreeMap::new(),
            walked: BTreeMap::new(),
            segment: None,
            ..Scope::default()
        };
        let text = format!(" {}", self.k.show_stmt(stmt));
        if sp.output.strategy == OutputStrategy::InPlace {
            return self.in_place_statement(sp, stmt.lhs.tensor, &scope, text);
        }
        if let OutputStrategy::Convert { source, perm } = sp.output.strategy {
            let body = self.convert_statement(stmt.lhs.tensor, source, &perm);
            return quote! {
                #[doc = #text]
                {
                    #body
                }
            };
        }
        let mut body = self.nodes(&sp.tree, &scope);
        if sp.output.strategy == OutputStrategy::SparseUnordered {
            let t = stmt.lhs.tensor;
            let (begin, finish) = self.unordered_begin_finish(t);
            body = quote!(#begin #body #finish);
        } else if let OutputStrategy::SparseInsert | OutputStrategy::SparseExpand { .. } =
            sp.output.strategy
        {
            let t = stmt.lhs.tensor;
            let begin = self.sparse_begin(t);
            let finish = self.sparse_finish(t);
            let setup = match sp.output.strategy {
                OutputStrategy::SparseExpand { level } => {
                    self.workspace_setup(crate::sparsifier::TensorLevel { tensor: t, level })
                }
                _ => TokenStream::new(),
            };
            body = quote!(#begin #setup #body #finish);
        }
        quote! {
            #[doc = #text]
            {
                #body
            }
        }
    }

    fn nodes(&mut self, nodes: &[Node], scope: &Scope) -> TokenStream {
        let mut out = TokenStream::new();
        for n in nodes {
            out.extend(self.node(n, scope));
        }
        out
    }

    fn node(&mut self, n: &Node, scope: &Scope) -> TokenStream {
        if let Some(opened) = self.open_segment(n, scope) {
            return opened;
        }
        match n {
            Node::Iterate { loop_id, .. } | Node::CoIterate { loop_id, .. }
                if scope
                    .probe
                    .as_ref()
                    .is_some_and(|p| p.skip.gate == *loop_id) =>
            {
                self.window_probe(scope)
            }
            Node::For { loop_id, body, .. } | Node::Iterate { loop_id, body, .. }
                if self.sched.is_some_and(|s| s.is_compiled(*loop_id)) =>
            {
                self.compiled_loop(*loop_id, body, scope)
            }
            Node::For { loop_id, body, .. }
                if self.sched.and_then(|s| s.partial_sums(*loop_id)).is_some() =>
            {
                match self.sched.and_then(|s| s.partial_sums(*loop_id)) {
                    Some(ps) => self.partial_sum_loop(ps, body, scope),
                    None => TokenStream::new(),
                }
            }
            // Zeroed by each chunk (see `parallel.rs`).
            Node::Zero { tensor } if self.chunk_zeroes(*tensor) => TokenStream::new(),
            Node::Zero { tensor } => self.zero(*tensor),
            Node::Local { init, produced } => self.local(init.as_ref(), *produced, scope),
            Node::Accumulate { value } => self.accumulate(value, scope),
            Node::SumLocal { local, body } => self.sum_local(*local, body),
            Node::SumAdd { local, value } => self.sum_add(*local, value, scope),
            Node::Store { access, op, value } => self.store(access, *op, value, scope),
            Node::For { loop_id, body, .. } => self.for_loop(*loop_id, body, scope),
            Node::Iterate {
                loop_id,
                space,
                body,
                ..
            } => self.iterate(*loop_id, space, body, scope),
            Node::CoIterate {
                loop_id,
                spaces,
                universe,
                phases,
                ..
            } => self.coiterate(*loop_id, spaces, universe.is_some(), phases, scope),
            Node::Insert { access, value } => self.insert(access, value, scope),
            Node::Update { access, value } => self.update(access, value, scope),
            Node::Expand { level } => self.expand(*level),
            Node::WorkspaceAdd { index, value } => self.workspace_add(*index, value, scope),
            Node::Compress { level } => self.compress(*level, scope),
        }
    }
}

/// The Rust type of an element type, hygienically (`codegen/elem.rs`).
fn elem_type(elem: ElemType) -> TokenStream {
    crate::codegen::elem::elem_type(elem)
}

/// The zero of an element type as a constant of that type.
fn zero(elem: ElemType) -> TokenStream {
    crate::codegen::elem::zero(elem)
}
