//! Arbitrary buffers → `assemble` in several encodings → every read path
//! and generated kernels against a dense reference. The harness is
//! `sparse_tests::fuzz_harness::run`, shared with the replay test.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sparse_tests::fuzz_harness::run(data);
});
