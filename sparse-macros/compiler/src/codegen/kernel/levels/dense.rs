//! Dense and batch levels: every coordinate of the level's size `n` under
//! each parent entry, stored at `parent * n + i` (MLIR's dense level
//! addressing). They are located, never walked by positions: the loop
//! over them is the dense `for` of `dense.rs`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::{LevelAt, LevelIterator, Parent};
use crate::codegen::kernel::Gen;

/// A `dense` or `batch` level.
pub(in crate::codegen::kernel) struct Dense;

impl LevelIterator for Dense {
    fn range(
        &self,
        _: &mut Gen<'_>,
        at: LevelAt,
        _: Parent<'_>,
        _: (&Ident, &Ident),
    ) -> Result<TokenStream, String> {
        Err(format!(
            "level {} ({}) is located by its coordinate, not walked by positions",
            at.l,
            at.lvl.ty.format.name()
        ))
    }

    fn coordinate(
        &self,
        _: &mut Gen<'_>,
        at: LevelAt,
        _: (&Ident, &str),
        _: &Ident,
    ) -> Result<TokenStream, String> {
        Err(format!(
            "level {} ({}) stores no coordinates: its coordinate is the loop's index",
            at.l,
            at.lvl.ty.format.name()
        ))
    }

    fn locate(
        &self,
        parent: Option<&Ident>,
        i: TokenStream,
        n: TokenStream,
    ) -> Option<TokenStream> {
        Some(match parent {
            None => i,
            Some(p) => quote!(#p * #n + #i),
        })
    }
}
