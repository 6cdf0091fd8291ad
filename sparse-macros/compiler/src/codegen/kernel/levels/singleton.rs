//! Singleton levels: one entry per parent entry, at the parent's position
//! (`p .. p + 1`); below a duplicate segment of a non-unique level (a COO
//! region), the segment's entries, each with its own coordinate.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::{LevelAt, LevelIterator, Parent};
use crate::codegen::kernel::Gen;

/// A `singleton` level.
pub(in crate::codegen::kernel) struct Singleton;

impl LevelIterator for Singleton {
    fn range(
        &self,
        _: &mut Gen<'_>,
        at: LevelAt,
        parent: Parent<'_>,
        (lo, hi): (&Ident, &Ident),
    ) -> Result<TokenStream, String> {
        match parent {
            Parent::Root => Err(format!("singleton level {} has no parent level", at.l)),
            Parent::Entry(p, _) => Ok(quote! {
                let #lo = #p;
                let #hi = #p + 1;
            }),
            Parent::Segment(s, e) => Ok(quote! {
                let #lo = #s;
                let #hi = #e;
            }),
        }
    }

    fn fixed_count(&self) -> Option<usize> {
        Some(1)
    }
}
