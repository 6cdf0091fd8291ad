//! Co-iteration (`CoIterate`): the merge of several sparse levels, and
//! possibly the whole range, by their coordinates.
//!
//! Each merged level gets a cursor over its position range. Each phase of
//! the plan is one `while` loop that runs while all of the phase's cursors
//! have entries (and, for a loop that must visit every coordinate, while
//! the range has coordinates left); its coordinate is the smallest under
//! the cursors (or the next coordinate of the range), its cases are an
//! `if` cascade, most specific first, and the cursors sitting on the
//! coordinate advance. The later phases are the exhaustion loops that
//! finish the levels left when one runs out; a final phase without levels
//! is a plain `for` over the rest of the range.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::{Gen, Pos, Scope};
use crate::sparsifier::{LoopId, Phase, Space};

/// The locals of one merged level.
pub(super) struct Cursor {
    pub(super) space: Space,
    /// The position of the current entry.
    pub(super) p: Ident,
    /// The end of the range.
    pub(super) hi: Ident,
    /// The current entry's coordinate.
    pub(super) c: Ident,
    /// The end of its duplicate segment, for segmented levels.
    e: Option<Ident>,
}

impl Gen<'_> {
    /// Whether the schedule merges loop `l`'s two levels by comparison.
    fn two_way(&self, l: LoopId) -> bool {
        self.sched.is_some_and(|s| s.two_way_merges.contains(&l))
    }

    pub(super) fn coiterate(
        &mut self,
        l: LoopId,
        spaces: &[Space],
        universal: bool,
        phases: &[Phase],
        scope: &Scope,
    ) -> TokenStream {
        let var = self.var(l);
        // Split into chunks of rows (`#[parallel]`): each chunk merges the
        // entries whose coordinates are its rows, `row0..hi`.
        let par = self.chunks().filter(|c| c.loop_id == l);
        let (start, n) = match par {
            Some(par) => {
                let (row0, hi) = self.chunk_rows(par);
                (quote!(#row0), hi)
            }
            None => (quote!(0), self.size(l)),
        };
        let u = format_ident!("__sk_u_{}", self.loop_name(l));
        let mut out = TokenStream::new();
        let mut cursors = Vec::new();
        for s in spaces {
            let (t, lv) = (s.tensor, s.level.index());
            let lo = self.tlocal(t, &format!("lo{lv}"));
            let hi = self.tlocal(t, &format!("hi{lv}"));
            let Some(mut range) = self.range(t, lv, scope, &lo, &hi) else {
                return TokenStream::new();
            };
            if let Some(par) = par {
                range.extend(self.narrow_to_rows(par, t, lv, (&lo, &hi)));
            }
            let p = self.tlocal(t, &format!("p{lv}"));
            out.extend(quote! {
                #range
                let mut #p = #lo;
            });
            cursors.push(Cursor {
                space: *s,
                p,
                hi,
                c: self.tlocal(t, &format!("c{lv}")),
                e: self
                    .segmented(t, lv)
                    .then(|| self.tlocal(t, &format!("e{lv}"))),
            });
        }
        if universal {
            out.extend(quote!(let mut #u: ::core::primitive::usize = #start;));
        }
        let mut chunk_scope;
        let scope = match par {
            Some(_) => {
                chunk_scope = scope.clone();
                chunk_scope.chunk = par;
                &chunk_scope
            }
            None => scope,
        };
        for phase in phases {
            out.extend(self.phase(l, &var, (&start, &n), &u, universal, phase, &cursors, scope));
        }
        match par {
            // Balanced by rows: the merged levels' entries are not counted
            // per row.
            Some(par) => {
                let weights = super::parallel::no_weights();
                self.parallel_rows(par, weights, out)
            }
            // Its own block: the cursors end with the loop.
            None => quote!({ #out }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn phase(
        &mut self,
        l: LoopId,
        var: &Ident,
        (start, n): (&TokenStream, &Ident),
        u: &Ident,
        universal: bool,
        phase: &Phase,
        cursors: &[Cursor],
        scope: &Scope,
    ) -> TokenStream {
        let mine: Vec<&Cursor> = cursors
            .iter()
            .filter(|c| phase.spaces.contains(&c.space))
            .collect();
        let mut bound = scope.clone();
        if let Some(b) = bound.bound.get_mut(l.index()) {
            *b = true;
        }
        if mine.is_empty() {
            // Only the range is left: visit the rest of it.
            let Some(case) = phase.cases.iter().find(|c| c.present.is_empty()) else {
                return TokenStream::new();
            };
            let mut inner = bound.clone();
            let positions = self.bind_dense(&mut inner);
            let body = self.nodes(&case.body, &inner);
            let start = if universal { quote!(#u) } else { start.clone() };
            return quote! {
                for #var in #start..#n {
                    #positions
                    #body
                }
            };
        }
        if let [c] = mine.as_slice() {
            if let Some(copy) = self.tail_copy(l, phase, (&c.p, &c.hi), scope) {
                return copy;
            }
        }
        // Two levels merged by comparison (`two_way_merge.rs`).
        if let ([a, b], false, true) = (mine.as_slice(), universal, self.two_way(l)) {
            if a.e.is_none() && b.e.is_none() {
                return self.two_way_phase(var, phase, (a, b), &bound);
            }
        }
        let mut conds: Vec<TokenStream> = mine
            .iter()
            .map(|c| {
                let (p, hi) = (&c.p, &c.hi);
                quote!(#p < #hi)
            })
            .collect();
        if universal {
            conds.push(quote!(#u < #n));
        }
        let mut reads = TokenStream::new();
        for c in &mine {
            let why = format!("`{}` < `{}`, the end of the merged range", c.p, c.hi);
            reads.extend(self.read_coordinate(
                c.space.tensor,
                c.space.level.index(),
                &c.p,
                &why,
                &c.c,
            ));
        }
        let coordinate = if universal {
            quote!(#u)
        } else {
            let mut it = mine.iter().rev().map(|c| {
                let c = &c.c;
                quote!(#c)
            });
            let last = it.next().unwrap_or_default();
            it.fold(last, |acc, c| quote!(::core::cmp::min(#c, #acc)))
        };
        let mut ends = TokenStream::new();
        for c in &mine {
            if let Some(e) = &c.e {
                ends.extend(self.segment_end(
                    c.space.tensor,
                    c.space.level.index(),
                    &c.p,
                    &c.hi,
                    &c.c,
                    e,
                ));
            }
        }
        // With one cursor and no range, the coordinate is that cursor's.
        let trivial = !universal && mine.len() == 1;
        let mut cascade = TokenStream::new();
        for (n_case, case) in phase.cases.iter().enumerate() {
            let mut inner = bound.clone();
            let mut tests = Vec::new();
            for c in &mine {
                if case.present.contains(&c.space) {
                    let pos = match &c.e {
                        Some(e) => Pos::Segment(c.p.clone(), e.clone()),
                        None => Pos::At(c.p.clone()),
                    };
                    inner
                        .pos
                        .insert((c.space.tensor, c.space.level.index()), pos);
                    if !trivial {
                        let cc = &c.c;
                        tests.push(quote!(#cc == #var));
                    }
                }
            }
            let positions = self.bind_dense(&mut inner);
            let body = self.nodes(&case.body, &inner);
            let block = quote!({ #positions #body });
            let prefix = if n_case == 0 { quote!() } else { quote!(else) };
            if tests.is_empty() {
                cascade.extend(if n_case == 0 {
                    block
                } else {
                    quote!(else #block)
                });
                break;
            }
            cascade.extend(quote!(#prefix if #(#tests)&&* #block));
        }
        let mut advance = TokenStream::new();
        for c in &mine {
            let p = &c.p;
            let next = match &c.e {
                Some(e) => quote!(#p = #e;),
                None => quote!(#p += 1;),
            };
            if trivial {
                advance.extend(next);
            } else {
                let cc = &c.c;
                advance.extend(quote!(if #cc == #var { #next }));
            }
        }
        let step = universal.then(|| quote!(#u = #var + 1;));
        quote! {
            while #(#conds)&&* {
                #reads
                let #var = #coordinate;
                #ends
                #cascade
                #advance
                #step
            }
        }
    }
}
