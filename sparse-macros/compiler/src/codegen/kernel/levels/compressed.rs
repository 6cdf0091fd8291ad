//! Compressed levels (`compressed`, `loose_compressed`, with any of the
//! `nonunique`, `nonordered`, `soa` properties): the entries under parent
//! entry `p` are `pos[k * p] .. pos[k * p + 1]`, with `k` positions per
//! parent entry (`sparse_vocab::parent_range`: 1 for `compressed`, whose
//! segments follow each other, 2 for `loose_compressed`'s lo/hi pairs).
//! Level 0 reads the fixed slots `pos[0] .. pos[1]`.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::{LevelAt, LevelIterator, Parent};
use crate::codegen::kernel::iterate::private;
use crate::codegen::kernel::Gen;
use crate::vocab::{LevelFormat, ParentRange};

/// A compressed or loose compressed level.
pub(in crate::codegen::kernel) struct Compressed {
    /// Which of the two.
    pub format: LevelFormat,
}

impl LevelIterator for Compressed {
    fn range(
        &self,
        g: &mut Gen<'_>,
        at: LevelAt,
        parent: Parent<'_>,
        (lo, hi): (&Ident, &Ident),
    ) -> Result<TokenStream, String> {
        let ParentRange::Positions { per_parent } = crate::vocab::parent_range(self.format, 0)
        else {
            return Err(format!("level {} stores no positions", at.l));
        };
        let l = at.l;
        let (at_lo, at_hi, why) = match parent {
            Parent::Root => (
                quote!(0),
                quote!(1),
                "the single entry above level 0".to_string(),
            ),
            Parent::Entry(p, why) if per_parent == 1 => {
                (quote!(#p), quote!(#p + 1), why.to_string())
            }
            Parent::Entry(p, why) => {
                let k = Literal::usize_unsuffixed(per_parent);
                (quote!(#k * #p), quote!(#k * #p + 1), why.to_string())
            }
            Parent::Segment(..) => {
                return Err(format!(
                    "{} level {l} below a duplicate segment",
                    self.format.name()
                ))
            }
        };
        let pos = g.positions(at.t, l);
        let doc = if per_parent == 1 {
            format!(
                " SAFETY: {why}, and compressed level {l} stores one position per parent \
                 entry plus one."
            )
        } else {
            format!(
                " SAFETY: {why}, and loose compressed level {l} stores a lo/hi pair per \
                 parent entry."
            )
        };
        let load = private("load_index");
        Ok(quote! {
            #[doc = #doc]
            let #lo = unsafe { #load(#pos, #at_lo) };
            #[doc = #doc]
            let #hi = unsafe { #load(#pos, #at_hi) };
        })
    }
}
