//! Unit tests of the whole front end on `proc_macro2` tokens, outside rustc.

mod codegen;
mod constant_memory;
mod constants;
mod diagnostics;
mod elements;
mod hardening;
mod integer_ops;
mod kernel_diagnostics;
mod kernel_robustness;
mod kernels;
mod narrow;
mod robustness;
mod roundtrip;
mod seeds;
mod slices;
mod sparse_out_diagnostics;

use proc_macro2::TokenStream;

use crate::model::{Encoding, Model};

/// Parses and checks `src`, panicking with the messages if it has errors.
pub(crate) fn model(src: &str) -> Model {
    program(src).model
}

/// Parses, checks and plans `src`, panicking with the messages if it has
/// errors.
pub(crate) fn program(src: &str) -> crate::Program {
    let tokens: TokenStream = src.parse().expect("test input tokenizes");
    match crate::parse_and_check(tokens) {
        Ok(program) => program,
        Err(errors) => panic!(
            "unexpected errors: {:#?}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        ),
    }
}

/// The one encoding of `src`.
pub(crate) fn encoding(src: &str) -> Encoding {
    let model = model(src);
    assert_eq!(model.encodings.len(), 1, "{src}");
    model.encodings.into_iter().next().unwrap()
}

/// The errors of `src`, each message with the line and (0-based) column
/// where its span starts.
pub(crate) fn errors(src: &str) -> Vec<(String, usize, usize)> {
    let tokens: TokenStream = src.parse().expect("test input tokenizes");
    match crate::parse_and_check(tokens) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .into_iter()
            .flat_map(|e| e.into_iter())
            .map(|e| {
                let start = e.span().start();
                (e.to_string(), start.line, start.column)
            })
            .collect(),
    }
}
mod semiring;
