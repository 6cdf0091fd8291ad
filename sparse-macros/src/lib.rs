//! The `sparse_kernel!` macro. The compiler itself lives in the
//! `sparse-compiler` library so it can be tested, fuzzed and benchmarked
//! outside rustc; this crate only hands it the tokens.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Compiles MLIR sparse tensor encodings (and, later, kernels in tensor index
/// notation) into Rust types and loops. See the `sparse-core` documentation.
#[proc_macro]
pub fn sparse_kernel(input: TokenStream) -> TokenStream {
    sparse_compiler::expand(input.into()).into()
}
