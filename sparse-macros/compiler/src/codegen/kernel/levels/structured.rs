//! Structured n:m levels (`structured[n, m]`): exactly `n` entries under
//! every parent entry, at positions `p * n .. p * n + n`, each with its
//! coordinate inside the group of `m` (`sparse_vocab::parent_range`'s
//! `Fixed { count: n }`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::{LevelAt, LevelIterator, Parent};
use crate::codegen::kernel::Gen;

/// A `structured[n, m]` level.
pub(in crate::codegen::kernel) struct Structured {
    /// Entries per parent entry.
    pub n: usize,
}

impl LevelIterator for Structured {
    fn range(
        &self,
        _: &mut Gen<'_>,
        at: LevelAt,
        parent: Parent<'_>,
        (lo, hi): (&Ident, &Ident),
    ) -> Result<TokenStream, String> {
        let n = Literal::usize_unsuffixed(self.n);
        match parent {
            Parent::Entry(p, _) => Ok(quote! {
                let #lo = #p * #n;
                let #hi = #lo + #n;
            }),
            Parent::Root | Parent::Segment(..) => Err(format!(
                "structured level {} walked without one parent entry",
                at.l
            )),
        }
    }

    fn fixed_count(&self) -> Option<usize> {
        Some(self.n)
    }
}
