//! No stage panics on any input: random token soup, and every prefix of
//! every valid example (closed up so it still tokenizes).

use proc_macro2::TokenStream;
use proptest::prelude::*;

use super::seeds;
use crate::expand;

const WORDS: &[&str] = &[
    "#",
    "CSR",
    "=",
    "#sparse_tensor",
    ".",
    "encoding",
    "<",
    ">",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "map",
    "->",
    ":",
    ",",
    "dense",
    "compressed",
    "singleton",
    "structured",
    "block2_4",
    "floordiv",
    "mod",
    "i",
    "j",
    "c",
    "0",
    "2",
    "4",
    "99999999999999999999999",
    "?",
    "type",
    "tensor",
    "64x200xf32",
    "?x",
    "xf32",
    "fn",
    "posWidth",
    "crdWidth",
    "explicitVal",
    "implicitVal",
    "1.0",
    "-",
    "*",
    "+",
    "slice",
    "soa",
    "nonunique",
    "high",
    ";",
    "///doc\n",
    "#[doc = \"x\"]",
    "pub",
    "i64",
    "f16",
    "static",
    "W",
    "sparse",
    "file",
    "prune_2_4",
    "\"a.mtx\"",
    "\"a.npy\"",
    "0x7FC00000",
    "true",
    "300",
    "-1",
    "1e400",
    "2.5",
    "tensor<3x4xf32, #CSR>",
    "tensor<?x?xi8>",
    "tensor<2x8xf32, #CSR>",
];

/// Closes the delimiters `prefix` leaves open, so it tokenizes.
fn close(prefix: &str) -> String {
    let mut open = Vec::new();
    for c in prefix.chars() {
        match c {
            '(' => open.push(')'),
            '[' => open.push(']'),
            '{' => open.push('}'),
            ')' | ']' | '}' => {
                open.pop();
            }
            _ => {}
        }
    }
    let mut out = prefix.to_string();
    out.extend(open.iter().rev());
    out
}

fn run(src: &str) {
    if let Ok(tokens) = src.parse::<TokenStream>() {
        let _ = expand(tokens.clone());
        let _ = crate::parse_and_check(tokens);
    }
}

#[test]
fn every_prefix_of_every_example_is_handled() {
    let mut all: Vec<String> = seeds::ALL.iter().map(|s| s.to_string()).collect();
    all.push("#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>\ntype A = tensor<4x?x8xf32, #C>; type B = tensor<4x8xi32>;".into());
    all.push(
        "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4) }>\n\
         /// doc\npub static W: tensor<2x8xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, -5.0]>;\n\
         static X: tensor<?x8xf32, #CSR> = prune_2_4(dense<[[1.0, 0x7FC00000, 3.0, 4.0, 0.0, 0.0, 0.0, 1.0]]>);\n\
         static Y: tensor<4xi1> = dense<[true, false, 1, 0]>; static Z: tensor<3xf32, #CSR> = file(\"no.mtx\");"
            .into(),
    );
    for src in &all {
        for (end, _) in src.char_indices() {
            run(&close(&src[..end]));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn random_token_soup_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..40)) {
        let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        run(&close(&text.join(" ")));
    }

    #[test]
    fn soup_as_a_constant_value_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..30)) {
        let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        run(&close(&format!(
            "#CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }}>\n\
             static W: tensor<3x4xf32, #CSR> = {};",
            text.join(" ")
        )));
    }

    #[test]
    fn soup_inside_an_encoding_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..30)) {
        let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        run(&close(&format!("#E = #sparse_tensor.encoding<{{ map = {} }}>", text.join(" "))));
    }
}
