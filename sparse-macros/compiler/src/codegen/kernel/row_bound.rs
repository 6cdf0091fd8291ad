//! The lowering of the schedule's row bounds (`schedule/row_bound.rs`):
//! inside the segment of a sparse output's last level, `let mut row =
//! seg.row(bound);` with the bound summed from the walked levels' position
//! ranges, inserts through `row.push(j, v)`, and an exhaustion phase that
//! copies one operand's rest of the row as one `row.extend_from(crd, val)`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::{Gen, Scope};
use crate::sparsifier::{LoopId, Node, Phase, TensorId};

impl Gen<'_> {
    /// The row of output segment `seg` when the schedule bounds the rows
    /// of loop `l`: the statements computing the bound and opening the row,
    /// and the row's local (which takes the segment's place for inserts).
    pub(super) fn open_row(
        &mut self,
        seg: &Ident,
        l: LoopId,
        scope: &Scope,
        parent: Option<&[TokenStream]>,
    ) -> Option<(TokenStream, Ident)> {
        let rb = self.sched?.row_bound.as_ref()?;
        if rb.loop_id != l {
            return None;
        }
        let (spaces, t) = (rb.spaces.clone(), rb.output);
        // Every walked level's parent must be positioned here (a dense
        // parent may be located only inside the loop): else no bound.
        let positioned = spaces.iter().all(|s| {
            let lv = s.level.index();
            lv == 0 || scope.pos.contains_key(&(s.tensor, lv - 1))
        });
        if !positioned {
            return None;
        }
        let mut out = TokenStream::new();
        let mut bound = quote!(0usize);
        for s in &spaces {
            let (u, lv) = (s.tensor, s.level.index());
            let lo = self.tlocal(u, &format!("blo{lv}"));
            let hi = self.tlocal(u, &format!("bhi{lv}"));
            // The positions under the parent, before any window narrows
            // them: a bound all the same.
            out.extend(self.parent_range(u, lv, scope, &lo, &hi)?);
            bound = quote!(#bound.saturating_add(#hi.saturating_sub(#lo)));
        }
        let row = self.tlocal(t, "row");
        match parent {
            Some(coords) => {
                out.extend(quote!(let mut #row = #seg.row_at([#(#coords),*], #bound);));
            }
            None => out.extend(quote!(let mut #row = #seg.row(#bound);)),
        }
        Some((out, row))
    }

    /// The segment of a CSR/CSC output held across the rows of dense loop
    /// `l` (whose `body` holds the loop over the output's last level, with
    /// bounded rows): the statement opening it before the loop, and the
    /// output with the segment's local. A kernel then asks it for each
    /// row (`Segment::row_at`), and a run of rows writes each one into
    /// the next slots with one position, settling the output once.
    pub(super) fn hoist_segment(
        &mut self,
        l: LoopId,
        body: &[Node],
        scope: &Scope,
    ) -> Option<(TokenStream, (TensorId, Ident))> {
        if scope.hoisted.is_some() || scope.segment.is_some() {
            return None;
        }
        let sched = self.sched?;
        let (ls, t) = sched.segment_append?;
        let rb = sched.row_bound.as_ref()?;
        if rb.loop_id != ls || sched.window_skip(l).is_some() {
            return None;
        }
        let stmt = self.stmt?;
        let info = self.info(t);
        let [row_level, _] = info.levels.as_slice() else {
            return None;
        };
        if !row_level.ty.is_dense() || stmt.lhs.indices.get(row_level.dim) != Some(&l) {
            return None;
        }
        let holds = body.iter().any(|n| match n {
            Node::For { loop_id, .. }
            | Node::Iterate { loop_id, .. }
            | Node::CoIterate { loop_id, .. } => *loop_id == ls,
            _ => false,
        });
        if !holds {
            return None;
        }
        let c = info.ident.clone();
        let seg = self.tlocal(t, "seg");
        let open = quote!(let mut #seg = #c.segment([0usize; 2]););
        Some((open, (t, seg)))
    }

    /// The exhaustion phase `phase` of loop `l` as one bulk copy, when the
    /// schedule copies its level's rest of the row: the entries from
    /// cursor `p` to the row's end `hi`, coordinates and values.
    pub(super) fn tail_copy(
        &mut self,
        l: LoopId,
        phase: &Phase,
        (p, hi): (&Ident, &Ident),
        scope: &Scope,
    ) -> Option<TokenStream> {
        let rb = self.sched?.row_bound.as_ref()?;
        let [space] = phase.spaces.as_slice() else {
            return None;
        };
        if rb.loop_id != l || !rb.tails.contains(space) {
            return None;
        }
        let (row_t, row) = scope.segment.clone()?;
        if row_t != rb.output {
            return None;
        }
        let crd = self.coordinates(space.tensor, space.level.index());
        let val = self.values(space.tensor);
        if !scope.vouched {
            return Some(quote! {
                #row.extend_from(
                    #crd.get(#p..#hi).unwrap_or_default(),
                    #val.get(#p..#hi).unwrap_or_default(),
                );
            });
        }
        let doc = self.vouch_doc(rb.output);
        Some(quote! {
            #[doc = #doc]
            let () = unsafe {
                #row.extend_in_order(
                    #crd.get(#p..#hi).unwrap_or_default(),
                    #val.get(#p..#hi).unwrap_or_default(),
                )
            };
        })
    }

    /// The `SAFETY:` line of an insert into a row whose slots cover its
    /// bound (`RowBound::covered`, inside `holds_bound`'s branch).
    pub(super) fn reserved_doc(&self, output: TensorId) -> String {
        format!(
            "{} This row of `{}` held its bound (`holds_bound` before its first push), and this \
             loop inserts at most once per step past an entry of the rows the bound counts (the \
             rest of a row copied in one step), so at most the bound in all.",
            self.vouch_doc(output),
            self.info(output).name
        )
    }

    /// The `SAFETY:` line of an insert whose coordinate the schedule
    /// proves in order and in range (`RowBound::in_order`).
    pub(super) fn vouch_doc(&self, output: TensorId) -> String {
        format!(
            " SAFETY: the coordinates come from ordered, unique levels of validated inputs, \
             visited in increasing order by this loop (a walk or a merge), each larger than the \
             last one inserted into this row of `{}` and below the level size of that \
             dimension, which the prologue checked equal to the output's.",
            self.info(output).name
        )
    }
}
