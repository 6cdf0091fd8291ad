//! Shared helpers for the integration tests.

pub mod dense;
pub mod elements;
pub mod fixture;
pub mod fuzz_harness;
pub mod gen;
pub mod index_notation;
pub mod reference;
pub mod semiring;
pub mod sparse_out;

/// The README's examples, compiled and run as doctests
/// (`cargo test --workspace --doc`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}
