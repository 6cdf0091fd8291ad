//! Arbitrary bytes → UTF-8 → tokens → `sparse_compiler::expand`: no input
//! may panic, overflow the stack or hang.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use proc_macro2::TokenStream;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(tokens) = TokenStream::from_str(text) else {
        return;
    };
    if !sparse_fuzz::caps::within(&tokens) {
        return;
    }
    // `parse_and_check` is the first two stages of `expand`: calling it as
    // well would only halve the executions per second.
    let _ = sparse_compiler::expand(tokens);
});
