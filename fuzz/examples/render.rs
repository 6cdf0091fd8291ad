//! Prints what `expand_grammar` makes of its inputs.
//!
//! - `cargo +nightly run --example render -- FILE`: the text an
//!   `expand_grammar` input (a crash or timeout artifact) expands, to turn
//!   it into a compiler test.
//! - `cargo +nightly run --example render -- [BLOCKS] [SHOW]`: renders
//!   BLOCKS generated blocks (default 300) from a fixed pseudo-random byte
//!   stream, prints the first SHOW (default 3) with their errors, and counts
//!   the blocks the checker accepts whole, to judge the generator's weights.

use std::str::FromStr;

use arbitrary::Unstructured;

fn main() {
    if let Some(path) = std::env::args()
        .nth(1)
        .filter(|a| a.parse::<usize>().is_err())
    {
        let data = std::fs::read(&path).expect("a readable input file");
        match sparse_fuzz::text(&data) {
            Some(text) => print!("{text}"),
            None => eprintln!("{path}: the input makes no text (the target returns early)"),
        }
        return;
    }
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let blocks = args.next().and_then(Result::ok).unwrap_or(300);
    let show = args.next().and_then(Result::ok).unwrap_or(3);
    let mut state = 12345u64;
    let (mut valid, mut lex_errors) = (0, 0);
    for n in 0..blocks {
        // A linear congruential generator: reproducible without a crate.
        let bytes: Vec<u8> = (0..400)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as u8
            })
            .collect();
        let text = sparse_fuzz::grammar::block(&mut Unstructured::new(&bytes))
            .expect("the generator reads zeros past the end");
        let Ok(tokens) = proc_macro2::TokenStream::from_str(&text) else {
            lex_errors += 1;
            println!("does not lex:\n{text}");
            continue;
        };
        let result = sparse_compiler::parse_and_check(tokens);
        if n < show {
            println!("{text}");
            for e in result.as_ref().err().into_iter().flatten() {
                println!("  error: {e}");
            }
            println!("----");
        }
        valid += usize::from(result.is_ok());
    }
    println!("{valid}/{blocks} blocks valid, {lex_errors} do not lex");
}
