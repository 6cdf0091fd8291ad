//! The kernel body compiled once per x86-64 vector extension (the
//! schedule's `vector_isa` rule): a closure, inlined into each of
//! sparse-core's `with_vector_isa` copies, receiving the token that says
//! which copy runs; the vector routines it calls take that token.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

/// The closure's parameter: the running copy's `VectorIsa`.
pub(super) fn isa_token() -> Ident {
    format_ident!("__sk_isa")
}

/// `body` (a function body ending in its `Ok(())`) run by
/// `with_vector_isa`. A `move` closure: the parameters are references or
/// copies, and the closure's `return`s return its result, which is the
/// function's.
pub(super) fn per_vector_isa(body: TokenStream) -> TokenStream {
    let isa = isa_token();
    quote! {
        ::sparse_core::__private::with_vector_isa(
            #[inline(always)]
            move |#isa: ::sparse_core::__private::VectorIsa|
                -> ::core::result::Result<(), ::sparse_core::__private::KernelError> {
                #body
            },
        )
    }
}
