//! The lowering of the schedule's two-way merges
//! (`schedule/two_way_merge.rs`): the phase of a co-iteration that merges
//! both levels becomes
//!
//! ```text
//! while a_p < a_hi && b_p < b_hi {
//!     let a_c = ..; let b_c = ..;
//!     if a_c < b_c { let j = a_c; <a's case>; a_p += 1; }
//!     else if b_c < a_c { let j = b_c; <b's case>; b_p += 1; }
//!     else { let j = a_c; <both's case>; a_p += 1; b_p += 1; }
//! }
//! ```
//!
//! Each arm's case is the one the general cascade would pick for that
//! outcome: the first (most specific) whose present levels all sit on the
//! coordinate.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::coiterate::Cursor;
use super::{Gen, Pos, Scope};
use crate::sparsifier::Phase;

impl Gen<'_> {
    /// The merging phase `phase` over `a` and `b`, coordinate local `var`,
    /// in `bound` (the scope with the loop's index bound).
    pub(super) fn two_way_phase(
        &mut self,
        var: &Ident,
        phase: &Phase,
        (a, b): (&Cursor, &Cursor),
        bound: &Scope,
    ) -> TokenStream {
        let mut reads = TokenStream::new();
        for s in [a, b] {
            let why = format!("`{}` < `{}`, the end of the merged range", s.p, s.hi);
            reads.extend(self.read_coordinate(
                s.space.tensor,
                s.space.level.index(),
                &s.p,
                &why,
                &s.c,
            ));
        }
        let only_a = self.arm(phase, &[a], bound);
        let only_b = self.arm(phase, &[b], bound);
        let both = self.arm(phase, &[a, b], bound);
        let (pa, ha, ca) = (&a.p, &a.hi, &a.c);
        let (pb, hb, cb) = (&b.p, &b.hi, &b.c);
        // The coordinate is bound only in an arm that does something (an
        // intersection's one-sided arms only advance).
        let at = |c: &Ident, body: &TokenStream| {
            (!body.is_empty()).then(|| quote!(let #var = #c; #body))
        };
        let (only_a, only_b, both) = (at(ca, &only_a), at(cb, &only_b), at(ca, &both));
        quote! {
            while #pa < #ha && #pb < #hb {
                #reads
                if #ca < #cb {
                    #only_a
                    #pa += 1;
                } else if #cb < #ca {
                    #only_b
                    #pb += 1;
                } else {
                    #both
                    #pa += 1;
                    #pb += 1;
                }
            }
        }
    }

    /// The body of the first case of `phase` whose present levels are all
    /// among `on` (the levels sitting on the coordinate), with their
    /// positions; nothing when no case applies.
    fn arm(&mut self, phase: &Phase, on: &[&Cursor], bound: &Scope) -> TokenStream {
        let Some(case) = phase
            .cases
            .iter()
            .find(|c| c.present.iter().all(|s| on.iter().any(|o| o.space == *s)))
        else {
            return TokenStream::new();
        };
        let mut inner = bound.clone();
        for s in on {
            if case.present.contains(&s.space) {
                inner.pos.insert(
                    (s.space.tensor, s.space.level.index()),
                    Pos::At(s.p.clone()),
                );
            }
        }
        let positions = self.bind_dense(&mut inner);
        let body = self.nodes(&case.body, &inner);
        quote!({ #positions #body })
    }
}
