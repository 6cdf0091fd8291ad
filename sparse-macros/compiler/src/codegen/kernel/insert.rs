//! Sparse outputs built by direct insertion (the `SparseInsert` strategy):
//! `c.begin()`, one `c.insert([level coordinates], v)` per `Insert` leaf,
//! `c.finish("c")?`.
//!
//! The sparsifier only plans insertion when every loop over an output
//! index is a parallel loop enclosing all reductions, in the output's level
//! order, so the leaves run in strictly increasing lexicographic order of
//! level coordinates, which is what `SparseTensorOut::insert` requires
//! (MLIR's `lexInsert`). A reduction is scalarised in `__sk_acc` and
//! inserted once per output coordinate. The runtime writes nothing past a
//! full buffer and `finish` reports the first overflow as
//! `KernelError::Capacity`, leaving the output a valid empty tensor.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, Kind, Scope};
use crate::sparsifier::{Access, Expr, Node, OutputStrategy, TensorId, Value};

impl Gen<'_> {
    /// Starts building sparse output `t`: clears it, and when the
    /// statement bounds its entries (see [`Gen::entries_bound`]) reserves
    /// that many, so an `Owned` output fills without reallocating.
    pub(super) fn sparse_begin(&self, t: TensorId) -> TokenStream {
        let c = &self.info(t).ident;
        let reserve = self.stmt.and_then(|s| {
            if s.op != crate::sparsifier::AssignOp::Assign || s.lhs.tensor != t {
                return None;
            }
            let bound = self.entries_bound(&s.rhs, &s.lhs)?;
            let counts = bound.iter().map(|&u| {
                let x = &self.info(u).ident;
                quote!(#x.number_of_entries())
            });
            Some(quote!(#c.reserve_entries(#(#counts)+*);))
        });
        quote!(#c.begin(); #reserve)
    }

    /// The sparse inputs whose entries together bound the entries of
    /// `lhs = e`: `e` built from `+`, `-`, `*` and negation of sparse
    /// inputs indexed exactly as `lhs` (a product may also have factors
    /// without tensors: literals, scalars); `None` for anything else.
    fn entries_bound(&self, e: &Expr, lhs: &Access) -> Option<Vec<TensorId>> {
        let no_tensors = |x: &Expr| x.accesses().is_empty();
        match e {
            Expr::Access(a) => {
                let ok = a.tensor != lhs.tensor
                    && a.indices == lhs.indices
                    && self.info(a.tensor).kind == Kind::Sparse;
                ok.then(|| vec![a.tensor])
            }
            Expr::Neg(x) => self.entries_bound(x, lhs),
            Expr::Add(x, y) | Expr::Sub(x, y) => {
                let mut v = self.entries_bound(x, lhs)?;
                v.extend(self.entries_bound(y, lhs)?);
                Some(v)
            }
            Expr::Mul(x, y) if no_tensors(x) => self.entries_bound(y, lhs),
            Expr::Mul(x, y) if no_tensors(y) => self.entries_bound(x, lhs),
            Expr::Mul(x, y) => {
                // An intersection: either side bounds it; the smaller
                // expression is taken (fewer terms).
                let (a, b) = (self.entries_bound(x, lhs), self.entries_bound(y, lhs));
                match (a, b) {
                    (Some(a), Some(b)) => Some(if a.len() <= b.len() { a } else { b }),
                    (Some(a), None) | (None, Some(a)) => Some(a),
                    (None, None) => None,
                }
            }
            _ => None,
        }
    }

    /// Finishes sparse output `t`: its positions are completed, or the
    /// capacity error is returned with the output left empty.
    pub(super) fn sparse_finish(&self, t: TensorId) -> TokenStream {
        let c = &self.info(t).ident;
        let name = &self.info(t).name;
        quote!(#c.finish(#name)?;)
    }

    /// An in-place update: the statement's own block opens the output
    /// (`c.in_place()`: its levels and writable values) and declares what
    /// the walk reads from it there, so the borrow ends with the statement.
    pub(super) fn in_place_statement(
        &mut self,
        sp: &crate::sparsifier::StmtPlan,
        t: TensorId,
        scope: &Scope,
        text: String,
    ) -> TokenStream {
        let outer = std::mem::take(&mut self.decls);
        let body = self.nodes(&sp.tree, scope);
        let local = std::mem::replace(&mut self.decls, outer);
        let decls: Vec<&TokenStream> = local.values().collect();
        let c = &self.info(t).ident;
        let parts = self.tlocal(t, "ip");
        quote! {
            #[doc = #text]
            {
                let #parts = #c.in_place();
                #(#decls)*
                #body
            }
        }
    }

    /// `update c[i, j] = v`: the value of the walked entry, overwritten.
    pub(super) fn update(
        &mut self,
        access: &Access,
        value: &crate::sparsifier::Value,
        scope: &Scope,
    ) -> TokenStream {
        let t = access.tensor;
        let last = self.info(t).levels.len().saturating_sub(1);
        let Some(super::Pos::At(p)) = scope.pos.get(&(t, last)).cloned() else {
            let msg = "the updated entry has no position".to_string();
            return self.internal::<TokenStream>(t, msg).unwrap_or_default();
        };
        let val = self.values(t);
        let slot = super::iterate::private("slot");
        let out = self.tlocal(t, "out");
        let doc = format!(
            " SAFETY: `{p}` is an entry of `{}`'s last level, and a valid tensor stores one \
             value per entry.",
            self.info(t).name
        );
        self.with_value(value, scope, |_, v| {
            quote! {
                #[doc = #doc]
                let #out = unsafe { #slot(#val, #p) };
                *#out = #v;
            }
        })
    }

    /// The level coordinates of output element `access`, from the loop
    /// variables through the output's dim→lvl permutation.
    ///
    /// Inside a chunk of a `#[parallel]` loop writing a sparse output, the
    /// output is the chunk's, whose row 0 is the chunk's first row: the
    /// row coordinate is `i - row0`.
    pub(super) fn level_coords(&self, access: &Access, scope: &Scope) -> Vec<TokenStream> {
        let chunk = scope
            .chunk
            .filter(|c| c.sparse && c.output == access.tensor)
            .map(|c| self.chunk_row(c));
        self.info(access.tensor)
            .levels
            .iter()
            .map(|lvl| match (access.indices.get(lvl.dim), &chunk) {
                // Parenthesised: clippy's `possible_missing_comma` reads
                // `[i - row0, ..]` in a macro expansion as a missing comma.
                (Some(&l), Some(row0)) if lvl.dim == 0 => {
                    let v = self.var(l);
                    quote!((#v - #row0))
                }
                (Some(&l), _) => {
                    let v = self.var(l);
                    quote!(#v)
                }
                (None, _) => quote!(0),
            })
            .collect()
    }

    /// `c.insert([i, j], v)` at an `Insert` leaf, or `seg.push(j, v)`
    /// inside an open segment.
    ///
    /// A statement that reads no sparse input (only dense operands,
    /// literals, index values) inserts only its nonzero results, as MLIR
    /// does (its result is the dense one, converted): `c[i, j] = d[i, j]`
    /// from a dense `d` stores `d`'s nonzeros. Statements with a sparse
    /// input store every coordinate the loops visit, computed zeros
    /// included.
    pub(super) fn insert(&mut self, access: &Access, value: &Value, scope: &Scope) -> TokenStream {
        if self
            .sp
            .is_some_and(|sp| sp.output.strategy == OutputStrategy::SparseUnordered)
        {
            return self.insert_unordered(access, value, scope);
        }
        let c = self.info(access.tensor).ident.clone();
        let mut coords = self.level_coords(access, scope);
        let nonzero_only = self.reads_no_sparse_input();
        let zero = super::zero(self.info(access.tensor).elem);
        // The store of value `v`, behind `v != 0` for a dense-only statement.
        let guarded = move |v: TokenStream, store: &dyn Fn(TokenStream) -> TokenStream| {
            if !nonzero_only {
                return store(v);
            }
            let stored = store(quote!(__sk_new));
            quote! {
                let __sk_new = #v;
                if __sk_new != #zero {
                    #stored
                }
            }
        };
        match &scope.segment {
            // Vouched coordinates; inside `holds_bound`'s branch also no
            // slot test (`RowBound::covered`).
            Some((t, seg)) if *t == access.tensor && scope.vouched => {
                let seg = seg.clone();
                let last = coords.pop();
                let (push, doc) = if scope.reserved {
                    (quote!(push_reserved), self.reserved_doc(access.tensor))
                } else {
                    (quote!(push_in_order), self.vouch_doc(access.tensor))
                };
                self.with_value(value, scope, |_, v| {
                    guarded(v, &|v| {
                        quote! {
                            #[doc = #doc]
                            let () = unsafe { #seg.#push(#last, #v) };
                        }
                    })
                })
            }
            Some((t, seg)) if *t == access.tensor => {
                let seg = seg.clone();
                let last = coords.pop();
                self.with_value(value, scope, |_, v| {
                    guarded(v, &|v| quote!(#seg.push(#last, #v);))
                })
            }
            _ => self.with_value(value, scope, |_, v| {
                guarded(v, &|v| quote!(#c.insert([#(#coords),*], #v);))
            }),
        }
    }

    /// Whether the statement being generated reads no sparse tensor other
    /// than its output and is plain arithmetic: no semiring region
    /// (`binary`, `unary`, `select`, a custom `reduce`), whose results are
    /// present values and are stored whatever they are.
    pub(super) fn reads_no_sparse_input(&self) -> bool {
        let Some(stmt) = self.stmt else {
            return false;
        };
        let sparse_input = stmt
            .rhs
            .accesses()
            .iter()
            .any(|a| a.tensor != stmt.lhs.tensor && self.info(a.tensor).kind == Kind::Sparse);
        !sparse_input && stmt.reduce.is_none() && !has_region(&stmt.rhs)
    }

    /// Wraps the loop over the output's last level (the schedule's
    /// `segment_append`) in a block that opens the
    /// segment: `let mut seg = c.segment([i, 0]);`, and the segment's row
    /// when the schedule bounds it (`row_bound.rs`). The segment settles the
    /// output's lengths when the block ends.
    pub(super) fn open_segment(&mut self, n: &Node, scope: &Scope) -> Option<TokenStream> {
        let (l, t) = self.sched?.segment_append?;
        let loop_id = match n {
            Node::For { loop_id, .. }
            | Node::Iterate { loop_id, .. }
            | Node::CoIterate { loop_id, .. } => *loop_id,
            _ => return None,
        };
        if loop_id != l || scope.segment.is_some() {
            return None;
        }
        let stmt = self.stmt?;
        let c = self.info(t).ident.clone();
        let mut coords = self.level_coords(&stmt.lhs, scope);
        if let Some(last) = coords.last_mut() {
            *last = quote!(0);
        }
        // A segment held across the rows (`row_bound.rs`): each row is
        // asked of it.
        let hoisted = scope
            .hoisted
            .as_ref()
            .filter(|h| h.0 == t)
            .map(|h| h.1.clone());
        let seg = hoisted.clone().unwrap_or_else(|| self.tlocal(t, "seg"));
        let mut inner = scope.clone();
        inner.segment = Some((t, seg.clone()));
        // A bounded row (`row_bound.rs`) takes the segment's place.
        let parent = hoisted.is_some().then(|| coords.clone());
        let row = self.open_row(&seg, loop_id, scope, parent.as_deref());
        if let Some((_, row)) = &row {
            inner.segment = Some((t, row.clone()));
            inner.vouched = self
                .sched
                .and_then(|s| s.row_bound.as_ref())
                .is_some_and(|rb| rb.in_order);
        }
        let covered = inner.vouched
            && self
                .sched
                .and_then(|s| s.row_bound.as_ref())
                .is_some_and(|rb| rb.covered);
        let body = self.node(n, &inner);
        // A second copy of the loop without slot tests, taken when the
        // row's slots cover its bound (`holds_bound` is false on targets
        // narrower than 64 bits, where the copy is dead code and dropped).
        let body = match &row {
            Some((_, r)) if covered => {
                let mut reserved = inner.clone();
                reserved.reserved = true;
                let fast = self.node(n, &reserved);
                quote! {
                    if #r.holds_bound() {
                        #fast
                    } else {
                        #body
                    }
                }
            }
            _ => body,
        };
        let opened = row.map(|r| r.0);
        if hoisted.is_some() {
            // Without a row, the held segment moves to this parent.
            let opened = opened.unwrap_or_else(|| quote!(#seg.enter([#(#coords),*]);));
            return Some(quote! {
                {
                    #opened
                    #body
                }
            });
        }
        Some(quote! {
            {
                let mut #seg = #c.segment([#(#coords),*]);
                #opened
                #body
            }
        })
    }
}

/// Whether `e` holds a semiring region (`binary`, `unary`, `select`, or a
/// closure applied to values).
fn has_region(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        found |= matches!(
            x,
            Expr::Binary(_) | Expr::Unary(_) | Expr::Select(..) | Expr::Apply(..)
        );
    });
    found
}
