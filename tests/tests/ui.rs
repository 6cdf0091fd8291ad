//! Compile-fail tests: one per diagnostic class of `sparse_kernel!`, with the
//! expected message and span in the `.stderr` next to each `.rs`. The
//! `.stderr` files are pinned to Rust 1.95.0 (see `tests/README.md`);
//! regenerate them with `TRYBUILD=overwrite cargo test -p sparse-tests --test ui`.

#[test]
#[cfg_attr(
    feature = "rayon",
    ignore = "pinned to the default features: `#[parallel]` without `rayon` is one of the errors"
)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/**/*.rs");
}
