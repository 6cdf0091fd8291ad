//! Grammar-aware compiler fuzzing: the first byte picks a mode,
//!
//! - even: the bytes drive a generator of structured blocks (encodings, tensor types,
//!   kernels with statements in index notation, see `sparse_fuzz::grammar`)
//!   rendered to text;
//! - odd: a seed from the test suite, spliced and mutated at the token level
//!   (`sparse_fuzz::splice`);
//!
//! (`sparse_fuzz::text`, which `examples/render.rs` uses to show an input's
//! text)
//! and the text goes through `sparse_compiler::expand`, which must not
//! panic, overflow the stack or hang.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use proc_macro2::TokenStream;
use sparse_fuzz::caps;

fuzz_target!(|data: &[u8]| {
    let Some(text) = sparse_fuzz::text(data) else {
        return;
    };
    let Ok(tokens) = TokenStream::from_str(&text) else {
        return;
    };
    if !caps::within(&tokens) {
        return;
    }
    let _ = sparse_compiler::expand(tokens);
});
