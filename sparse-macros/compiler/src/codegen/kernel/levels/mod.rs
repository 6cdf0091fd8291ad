//! Per-level iterators: how generated code walks one storage level, one
//! module per level format, all behind one trait ([`LevelIterator`]), as
//! MLIR's `SparseTensorLevel` classes are.
//!
//! | module | formats | range under parent entry `p` | locate coordinate `i` |
//! | --- | --- | --- | --- |
//! | [`dense`] | `dense`, `batch` | `p * n .. p * n + n` | `p * n + i` |
//! | [`compressed`] | `compressed`, `loose_compressed` (any properties) | `pos[k p] .. pos[k p + 1]` | — |
//! | [`singleton`] | `singleton` | `p .. p + 1`, or the parent's duplicate segment | — |
//! | [`structured`] | `structured[n, m]` | `p * n .. p * n + n` | — |
//!
//! A level iterator knows its format and nothing of loops: the loop
//! emitter (`iterate.rs`, `coiterate.rs`, `dense.rs`) asks it for the
//! range under a parent entry, the coordinate of an entry, the end of a
//! duplicate segment, a fixed trip count and the position of a
//! coordinate, and wraps what it gets in the shape the
//! schedule chose (a walk, written-out copies, an unrolled walk, chunks, a
//! window). The storage rules behind each answer are `sparse_vocab`'s
//! (`parent_range`, `coordinate_slot`, `groups_duplicates`), written once.

mod compressed;
mod dense;
mod singleton;
mod structured;

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::iterate::private;
use super::Gen;
use crate::plan::Lvl;
use crate::sparsifier::TensorId;
use crate::vocab::LevelFormat;

/// One storage level of one operand, as the loops see it.
#[derive(Clone, Copy, Debug)]
pub(super) struct LevelAt {
    /// The operand.
    pub t: TensorId,
    /// The level's number.
    pub l: usize,
    /// Its type and where its coordinates are stored.
    pub lvl: Lvl,
}

/// What a level hangs below at a point of the loop nest.
#[derive(Clone, Copy, Debug)]
pub(super) enum Parent<'a> {
    /// Level 0: the single implicit entry 0.
    Root,
    /// One entry of the level above, and why it is one (for `SAFETY:`).
    Entry(&'a Ident, &'a str),
    /// A duplicate segment `[lo, hi)` of the non-unique level above.
    Segment(&'a Ident, &'a Ident),
}

/// How generated code walks one level format.
pub(super) trait LevelIterator {
    /// Statements binding `lo` and `hi` to the positions the level stores
    /// under `parent`, or why the level cannot be walked there (an
    /// internal error: the sparsifier plans no such walk).
    fn range(
        &self,
        g: &mut Gen<'_>,
        at: LevelAt,
        parent: Parent<'_>,
        range: (&Ident, &Ident),
    ) -> Result<TokenStream, String>;

    /// The number of entries under every parent entry, when the format
    /// fixes it (a singleton's 1, an n:m level's `n`): such a level is
    /// walked without a loop, or with one copy of the body per entry.
    fn fixed_count(&self) -> Option<usize> {
        None
    }

    /// The position of coordinate `i` under parent position `parent`
    /// (`None` at level 0) in a level of size `n`, for formats that can
    /// locate a coordinate without a search (MLIR's `locate`).
    fn locate(
        &self,
        parent: Option<&Ident>,
        i: TokenStream,
        n: TokenStream,
    ) -> Option<TokenStream> {
        let _ = (parent, i, n);
        None
    }

    /// `let into = coordinate of the entry at p`, `why` saying why `p` is
    /// an entry (for `SAFETY:`). Levels that store coordinates read them
    /// ([`stored_coordinate`]); a dense level has none to read (its
    /// coordinate is the loop's index).
    fn coordinate(
        &self,
        g: &mut Gen<'_>,
        at: LevelAt,
        (p, why): (&Ident, &str),
        into: &Ident,
    ) -> Result<TokenStream, String> {
        Ok(stored_coordinate(g, at, (p, why), into))
    }

    /// Binds `end` to the end of the duplicate segment of coordinate `c`
    /// starting at entry `p` (stopping at `hi`): the entries of a
    /// non-unique level that `sparse_vocab::groups_duplicates` walks as
    /// one coordinate (MLIR's `forward` over a segment).
    fn segment_end(
        &self,
        g: &mut Gen<'_>,
        at: LevelAt,
        (p, hi): (&Ident, &Ident),
        c: &Ident,
        end: &Ident,
    ) -> Result<TokenStream, String> {
        let next = g.tlocal(at.t, &format!("next{}", at.l));
        let why = format!("`{end}` < `{hi}`, the end of the walked range");
        let read = self.coordinate(g, at, (end, &why), &next)?;
        Ok(quote! {
            let mut #end = #p + 1;
            while #end < #hi {
                #read
                if #next != #c {
                    break;
                }
                #end += 1;
            }
        })
    }
}

/// `let into = crd[p]`, or the level's slot of entry `p`'s tuple in an
/// AoS COO buffer (`sparse_vocab::coordinate_slot`), relative to the
/// window an affine subscript reads (`affine.rs`).
pub(super) fn stored_coordinate(
    g: &mut Gen<'_>,
    LevelAt { t, l, lvl }: LevelAt,
    (p, why): (&Ident, &str),
    into: &Ident,
) -> TokenStream {
    let crd = g.coordinates(t, l);
    let at = if lvl.stride == 1 {
        quote!(#p)
    } else {
        let s = Literal::usize_unsuffixed(lvl.stride);
        if lvl.offset == 0 {
            quote!(#p * #s)
        } else {
            let o = Literal::usize_unsuffixed(lvl.offset);
            quote!(#p * #s + #o)
        }
    };
    let name = &g.info(t).name;
    let tuple = if lvl.stride == 1 {
        String::new()
    } else {
        format!(
            " (its COO buffer holds {} coordinates per entry)",
            lvl.stride
        )
    };
    let doc = format!(" SAFETY: {why}, so `{p}` is an entry of `{name}` level {l}{tuple}.");
    let load = private("load_index");
    let relative = g.window_offset(t, l).map(|off| quote!(.wrapping_sub(#off)));
    quote! {
        #[doc = #doc]
        let #into = unsafe { #load(#crd, #at) } #relative;
    }
}

/// The iterator of a level format.
pub(super) fn iterator(format: LevelFormat) -> Box<dyn LevelIterator> {
    match format {
        LevelFormat::Dense | LevelFormat::Batch => Box::new(dense::Dense),
        LevelFormat::Singleton => Box::new(singleton::Singleton),
        LevelFormat::Structured { n, .. } => Box::new(structured::Structured { n: n.into() }),
        format => Box::new(compressed::Compressed { format }),
    }
}

impl Gen<'_> {
    /// The storage level `l` of `t`, if it exists.
    pub(super) fn level_at(&self, t: TensorId, l: usize) -> Option<LevelAt> {
        let lvl = *self.info(t).levels.get(l)?;
        Some(LevelAt { t, l, lvl })
    }

    /// `let into = coordinate of the entry at p` for level `l` of `t`,
    /// from the level's iterator.
    pub(super) fn read_coordinate(
        &mut self,
        t: TensorId,
        l: usize,
        p: &Ident,
        why: &str,
        into: &Ident,
    ) -> TokenStream {
        let Some(at) = self.level_at(t, l) else {
            let name = self.info(t).name.clone();
            self.internal::<()>(t, format!("level {l} of `{name}` does not exist"));
            return TokenStream::new();
        };
        let read = iterator(at.lvl.ty.format).coordinate(self, at, (p, why), into);
        self.or_internal(t, read)
    }

    /// Binds `end` to the end of the duplicate segment of coordinate `c`
    /// starting at `p`, from the level's iterator.
    pub(super) fn segment_end(
        &mut self,
        t: TensorId,
        l: usize,
        p: &Ident,
        hi: &Ident,
        c: &Ident,
        end: &Ident,
    ) -> TokenStream {
        let Some(at) = self.level_at(t, l) else {
            let name = self.info(t).name.clone();
            self.internal::<()>(t, format!("level {l} of `{name}` does not exist"));
            return TokenStream::new();
        };
        let ends = iterator(at.lvl.ty.format).segment_end(self, at, (p, hi), c, end);
        self.or_internal(t, ends)
    }

    /// The tokens, or nothing with an internal error recorded.
    fn or_internal(&mut self, t: TensorId, r: Result<TokenStream, String>) -> TokenStream {
        r.unwrap_or_else(|why| {
            let name = self.info(t).name.clone();
            self.internal::<()>(t, format!("`{name}`: {why}"));
            TokenStream::new()
        })
    }

    /// Whether `t`'s coordinates are packed 2-bit ones (`crdWidth = 2`; no
    /// walk steps through them).
    pub(super) fn packed_coordinates(&self, t: TensorId) -> bool {
        self.kp.packed_coordinates(t)
    }

    /// Whether level `l` of `t` has a coordinate buffer of its own, which
    /// `sparse_core::__private::walk` can step through.
    pub(super) fn own_coordinates(&self, t: TensorId, l: usize) -> bool {
        self.info(t)
            .levels
            .get(l)
            .is_some_and(|x| x.own_coordinates())
    }
}
