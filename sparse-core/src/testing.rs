//! Test support: property tests whose case count under Miri is their own.
//!
//! The Miri steps of the full suite set `PROPTEST_CASES=4`, and `proptest!`
//! lets that variable override a test's own configuration, so a
//! `cfg!(miri)` count written inside `proptest!` is never seen there. A
//! test that costs Miri much per case and whose `unsafe` paths other tests
//! also reach runs through [`check`] instead, which calls proptest's
//! runner directly: natively its full count (or `PROPTEST_CASES`), under
//! Miri the count it names, whatever the variable says.

use core::fmt::Debug;
use proptest::strategy::Strategy;
use proptest::test_runner::{contextualize_config, Config, TestCaseError, TestRunner};

/// Runs `test` on values of `strategy` as `proptest!` would: `native` cases
/// (or `PROPTEST_CASES` when set), failures persisted next to the caller's
/// file and shrunk; under Miri exactly `miri` cases.
#[track_caller]
pub(crate) fn check<S: Strategy>(
    native: u32,
    miri: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let mut config = contextualize_config(Config {
        // Where `proptest!` keeps the regression seeds: next to the test's
        // source file.
        source_file: Some(core::panic::Location::caller().file()),
        ..Config::with_cases(native)
    });
    if cfg!(miri) {
        config.cases = miri;
    }
    if let Err(e) = TestRunner::new(config).run(&strategy, test) {
        panic!("{e}");
    }
}
