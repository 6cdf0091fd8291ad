//! The compile errors of `sparse_kernel!`: the trybuild UI suite (`ui`,
//! one `.rs`/`.stderr` pair per diagnostic class under `tests/ui/`) and
//! the diagnostics catalogue of the crate docs, generated from it
//! (`catalogue`).
//!
//! One test binary (a tier) of its own: the UI suite runs rustc on every
//! case and is pinned to one toolchain (see `tests/README.md`).

mod diagnostics {
    mod catalogue;
    mod ui;
}
