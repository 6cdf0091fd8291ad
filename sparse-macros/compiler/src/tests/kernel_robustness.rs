//! No stage panics on any kernel: every prefix of valid kernels (closed up
//! so it still tokenizes), and random token soup inside a kernel's
//! parameter list and body.

use proc_macro2::TokenStream;
use proptest::prelude::*;

use super::kernels::ENCODINGS;

const KERNELS: &[&str] = &[
    "/// y = A x
     pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }",
    "pub fn scale(a: &tensor<64x200xf32, #CSC>, alpha: f32, x: &tensor<200xf32>, y: &mut tensor<64xf32>) { y[i] += alpha * a[i, j] * x[j]; }",
    "pub fn total(a: &tensor<?x?xf64, #COO>, s: &mut tensor<f64>) { s[] += a[i, j]; }",
    "fn mttkrp(b: &tensor<?x?x?xf64, #CSF>, c: &tensor<?x?xf64>, d: &tensor<?x?xf64>, a: &mut tensor<?x?xf64>) { a[i, j] = b[i, k, l] * c[k, j] * d[l, j]; }",
    "fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, n: usize, c: &mut tensor<?xf64>) {
         c[i] = -a[i] * (i as f64) - 2.5 / (n as f64) + sqrt(abs(b[i])) * powi(b[i], 2) + max(b[i], 0.0);
         c[i] += a[i] + b[i];
     }",
    "fn bad(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] + b[j, i] % c[i]; }",
    "fn conv(a: &tensor<?x?xf64, #CSR>, f: &tensor<3x3xf64>, o: &mut tensor<?x?xf64, #CSR>) { o[i, j] = a[i + k, 2 * j + l - 1] * f[k, l]; }",
    "fn shifts(x: &tensor<?xf64, #SV>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = x[i - k + 2] * f[k] + x[(i) + 3 * k] - f[-k + 2]; }",
];

const WORDS: &[&str] = &[
    "a", "b", "x", "y", "s", "i", "j", "k", "alpha", "[", "]", "(", ")", "{", "}", ",", ";", "=",
    "+=", "-=", "+", "-", "*", "/", "%", "as", "f64", "f32", "u8", "usize", "2", "2.0", "1e-3",
    "3u8", "true", "sqrt", "powi", "max", "sqr", ".", "abs", "|", "&", "&mut", "mut", "tensor",
    "<", ">", "?x", "?xf64", "4x4xf64", "#CSR", "#CSC", "#COO", "#NOPE", ":", "::", "->", "fn",
    "pub", "let", "if", "!", "?", "\"s\"", "'c'", "_", "self", "i + k", "2 * i", "floordiv", "mod",
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
    if let Ok(tokens) = format!("{ENCODINGS}\n{src}").parse::<TokenStream>() {
        let _ = crate::expand(tokens.clone());
        let _ = crate::parse_and_check(tokens);
    }
}

#[test]
fn every_prefix_of_every_kernel_is_handled() {
    for src in KERNELS {
        for (end, _) in src.char_indices() {
            run(&close(&src[..end]));
        }
        run(src);
    }
}

fn soup(words: &[usize]) -> String {
    words
        .iter()
        .map(|&w| WORDS[w])
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn soup_in_a_kernel_body_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..30)) {
        run(&close(&format!(
            "fn f(a: &tensor<?x?xf64, #CSR>, alpha: f64, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {{ {} }}",
            soup(&words)
        )));
    }

    #[test]
    fn soup_in_a_statement_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..20)) {
        run(&close(&format!(
            "fn f(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {{ y[i] = a[i, j] * {}; }}",
            soup(&words)
        )));
    }

    #[test]
    fn soup_in_a_parameter_list_does_not_panic(words in proptest::collection::vec(0..WORDS.len(), 0..20)) {
        run(&close(&format!("fn f({}) {{ y[i] = a[i, j] * x[j]; }}", soup(&words))));
    }
}
