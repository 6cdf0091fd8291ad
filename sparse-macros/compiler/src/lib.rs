//! The compiler behind `sparse_kernel!`, as an ordinary library.
//!
//! A pipeline of stages, one module each, data flowing one way:
//! [`syntax`] (tokens → tree with spans) → [`model`] (checked meaning; for
//! kernels, statements in index notation resolved to a
//! [`sparsifier::Kernel`]) → [`sparsifier`] (loop trees) → [`codegen`]
//! (Rust tokens). The model runs the sparsifier on each statement to put
//! its errors on the access or parameter they are about. Errors are accumulated with spans in an
//! [`Errors`] collector and emitted together: the expansion holds every
//! `compile_error!` *and* the aliases of the items that were valid, so call
//! sites are not buried in follow-on errors. No stage panics on any input.
//!
//! [`expand`] is what the proc macro calls; [`parse_and_check`] runs the
//! front end alone, for tests, fuzzers and benchmarks.
#![deny(missing_docs)]

/// The encoding vocabulary, the same crate `sparse-core` re-exports.
pub use sparse_vocab as vocab;

pub mod codegen;
mod errors;
pub mod model;
pub mod sparsifier;
mod suggest;
pub mod syntax;

#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;

pub use errors::Errors;
pub use model::Model;

/// Parses and checks a block: the model, or every error found.
pub fn parse_and_check(input: TokenStream) -> Result<Model, Vec<syn::Error>> {
    let mut errors = Errors::new();
    let block = syntax::parse(input, &mut errors);
    let model = model::check(&block, &mut errors);
    if errors.is_empty() {
        Ok(model)
    } else {
        Err(errors.into_vec())
    }
}

/// Expands the body of a `sparse_kernel! { ... }` block.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let block = syntax::parse(input, &mut errors);
    let model = model::check(&block, &mut errors);
    let mut out = codegen::generate(&model, &mut errors);
    out.extend(kernels(&model, &mut errors));
    for error in errors.into_vec() {
        out.extend(error.to_compile_error());
    }
    out
}

/// The kernels of a checked model. The model keeps only kernels whose every
/// statement the sparsifier accepted (its errors are spanned there), so an
/// error here means the model and the sparsifier disagree; it is still
/// reported, at the kernel's name, rather than panicking. Stubs (kernels
/// whose statements had errors) get their signature and an empty body,
/// which never runs: the block does not compile.
fn kernels(model: &Model, errors: &mut Errors) -> TokenStream {
    let mut out = TokenStream::new();
    for def in &model.kernels {
        match sparsifier::sparsify(&def.kernel) {
            Ok(plan) => out.extend(codegen::kernel::generate_kernel(model, def, &plan)),
            Err(found) => {
                for error in found {
                    errors.error(def.name.span(), error);
                }
            }
        }
    }
    let empty = sparsifier::Plan {
        stmts: Vec::new(),
        level_space: None,
    };
    for stub in &model.stubs {
        out.extend(codegen::kernel::generate_kernel(model, stub, &empty));
    }
    out
}
