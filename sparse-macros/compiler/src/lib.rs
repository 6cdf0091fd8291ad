//! The compiler behind `sparse_kernel!`, as an ordinary library.
//!
//! A pipeline of stages, one module each, each run once, data flowing one
//! way: [`syntax`] (tokens → tree with spans) → [`model`] (checked
//! meaning; for kernels, statements in index notation resolved to a
//! [`sparsifier::Kernel`]) → [`plan`] (reordered copies, then the
//! [`sparsifier`]'s loop trees, once per kernel) → [`codegen`] (Rust
//! tokens, from the plan alone). Errors are accumulated with spans in an
//! [`Errors`] collector and emitted together: the expansion holds every
//! `compile_error!` *and* the aliases of the items that were valid, so call
//! sites are not buried in follow-on errors. No stage panics on any input.
//!
//! [`expand`] is what the proc macro calls; [`parse_and_check`] runs every
//! stage but codegen, for tests, fuzzers and benchmarks.
#![deny(missing_docs)]

/// The encoding vocabulary, the same crate `sparse-core` re-exports.
pub use sparse_vocab as vocab;

pub mod codegen;
mod errors;
pub mod model;
pub mod plan;
pub mod schedule;
pub mod sparsifier;
mod suggest;
pub mod syntax;

#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;

pub use errors::Errors;
pub use model::Model;
pub use plan::Program;

/// Parses, checks and plans a block: the program, or every error found.
pub fn parse_and_check(input: TokenStream) -> Result<Program, Vec<syn::Error>> {
    let mut errors = Errors::new();
    let program = front_end(input, &mut errors);
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors.into_vec())
    }
}

/// Every stage before codegen.
fn front_end(input: TokenStream, errors: &mut Errors) -> Program {
    let block = syntax::parse(input, errors);
    let model = model::check(&block, errors);
    plan::plan(model, errors)
}

/// Expands the body of a `sparse_kernel! { ... }` block.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let program = front_end(input, &mut errors);
    let mut out = codegen::generate(&program, &mut errors);
    for error in errors.into_vec() {
        out.extend(error.to_compile_error());
    }
    out
}
