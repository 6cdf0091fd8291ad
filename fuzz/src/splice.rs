//! Mutations of the seed corpus (`crate::SEEDS`, the `sparse_kernel!`
//! bodies of the test suite) at the token level: splice a prefix of one
//! seed onto a suffix of another, replace, drop or duplicate tokens, insert
//! words of the language. Working on tokens rather than bytes keeps the
//! result lexable, so the compiler, not the lexer, sees the mutation;
//! delimiters left open are closed at the end.

use std::str::FromStr;

use arbitrary::{Result, Unstructured};
use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Words inserted by mutations: the language's keywords and punctuation
/// (the same as `fuzz/dict/kernel.dict`).
const WORDS: &[&str] = &[
    "#",
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
    ";",
    "dense",
    "compressed",
    "singleton",
    "loose_compressed",
    "batch",
    "structured",
    "[2, 4]",
    "nonunique",
    "nonordered",
    "soa",
    "high",
    "floordiv",
    "mod",
    "posWidth",
    "crdWidth",
    "explicitVal",
    "implicitVal",
    "type",
    "tensor",
    "?x",
    "4x",
    "xf64",
    "f64",
    "f32",
    "i32",
    "i64",
    "i8",
    "ui8",
    "index",
    "i1",
    "fn",
    "pub",
    "&",
    "&mut",
    "i",
    "j",
    "k",
    "+",
    "-",
    "*",
    "/",
    "+=",
    "-=",
    "*=",
    "/=",
    "==",
    "!=",
    "<=",
    ">=",
    "&&",
    "||",
    "!",
    "as",
    "if",
    "else",
    "sum",
    "sqrt",
    "abs",
    "exp",
    "max",
    "min",
    "binary",
    "unary",
    "select",
    "reduce",
    "overlap",
    "left",
    "right",
    "present",
    "absent",
    "identity",
    "none",
    "|x|",
    "|x, y|",
    "||",
    "0",
    "1",
    "1.0",
    "0.5",
    "-1",
    "255",
    "65536",
    "a",
    "b",
    "c",
    "x",
    "y",
    "s",
    "#CSR",
    "///doc\n",
];

/// A seed's top-level items (encodings, type aliases, kernels with their
/// doc attributes), each as flat token texts (groups opened and closed by
/// their delimiter characters), and whether the item is a kernel.
fn items(src: &str) -> Vec<(bool, Vec<String>)> {
    let Ok(tokens) = TokenStream::from_str(src) else {
        return Vec::new();
    };
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<(bool, Vec<String>)> = Vec::new();
    let mut starts_item = true;
    for (n, tt) in trees.iter().enumerate() {
        // An item starts at `#NAME` (an encoding), `#[..]` (an attribute
        // of the next kernel), `type`, `pub` or `fn`, unless the previous
        // token already started it (`pub fn`, `#[doc] fn`).
        let start = match tt {
            TokenTree::Punct(p) if p.as_char() == '#' => true,
            TokenTree::Ident(i) => matches!(i.to_string().as_str(), "type" | "pub" | "fn"),
            _ => false,
        };
        if (start && !starts_item) || out.is_empty() {
            out.push((false, Vec::new()));
        }
        let item = out.last_mut().expect("pushed above");
        if matches!(tt, TokenTree::Ident(i) if i == "fn") {
            item.0 = true;
        }
        push(std::iter::once(tt.clone()).collect(), &mut item.1);
        // `#` and `pub` begin an item that continues; a group after `#`
        // (`#[doc]`) still belongs to the item the next token starts.
        starts_item = match tt {
            TokenTree::Punct(p) => p.as_char() == '#',
            TokenTree::Ident(i) => i == "pub",
            TokenTree::Group(g) => {
                g.delimiter() == Delimiter::Bracket
                    && matches!(trees.get(n.wrapping_sub(1)), Some(TokenTree::Punct(p)) if p.as_char() == '#')
            }
            TokenTree::Literal(_) => false,
        };
    }
    out
}

fn push(tokens: TokenStream, out: &mut Vec<String>) {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                out.push(open.into());
                push(g.stream(), out);
                out.push(close.into());
            }
            TokenTree::Punct(p) => {
                // Keep `->`, `+=`, `==` together: a joint punct glues to
                // the next token.
                let mut s = p.as_char().to_string();
                if p.spacing() == proc_macro2::Spacing::Joint {
                    s.push('\u{0}');
                }
                out.push(s);
            }
            other => out.push(other.to_string()),
        }
    }
}

/// Joins token texts with spaces, except after a joint punct; closes the
/// delimiters left open and drops closers without an opener.
fn join(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut open = Vec::new();
    for t in tokens {
        match t.as_str() {
            "(" => open.push(')'),
            "[" => open.push(']'),
            "{" => open.push('}'),
            ")" | "]" | "}" => {
                if open.last().map(|c| c.to_string()) == Some(t.clone()) {
                    open.pop();
                } else {
                    continue;
                }
            }
            _ => {}
        }
        if let Some(joint) = t.strip_suffix('\u{0}') {
            out.push_str(joint);
        } else {
            out.push_str(t);
            out.push(' ');
        }
    }
    out.extend(open.iter().rev());
    out
}

/// A mutated seed, or `None` if there are no seeds.
///
/// A test file's block holds many kernels, and expanding them all makes
/// each run slow; so the start is a seed's encodings and type aliases with
/// one or two of its kernels (sometimes a kernel of another seed), and the
/// token mutations apply to that.
pub fn mutate(u: &mut Unstructured<'_>, seeds: &[&str]) -> Result<Option<String>> {
    if seeds.is_empty() {
        return Ok(None);
    }
    let seed = items(seeds[u.choose_index(seeds.len())?]);
    let kernels: Vec<&Vec<String>> = seed.iter().filter(|i| i.0).map(|i| &i.1).collect();
    let mut tokens: Vec<String> = seed
        .iter()
        .filter(|i| !i.0)
        .flat_map(|i| i.1.iter().cloned())
        .collect();
    for _ in 0..u.int_in_range(1..=2)? {
        if u.ratio(1, 8)? {
            let other = items(seeds[u.choose_index(seeds.len())?]);
            let other: Vec<&Vec<String>> = other.iter().filter(|i| i.0).map(|i| &i.1).collect();
            if !other.is_empty() {
                tokens.extend(other[u.choose_index(other.len())?].iter().cloned());
            }
        } else if !kernels.is_empty() {
            tokens.extend(kernels[u.choose_index(kernels.len())?].iter().cloned());
        }
    }
    let rounds = u.int_in_range(0..=4)?;
    for _ in 0..rounds {
        let at = if tokens.is_empty() {
            0
        } else {
            u.choose_index(tokens.len() + 1)?
        };
        match u.int_in_range(0..=5)? {
            // Splice: this seed up to `at`, another seed from a point on.
            0 => {
                let other: Vec<String> = items(seeds[u.choose_index(seeds.len())?])
                    .into_iter()
                    .flat_map(|i| i.1)
                    .collect();
                let from = if other.is_empty() {
                    0
                } else {
                    u.choose_index(other.len())?
                };
                tokens.truncate(at);
                tokens.extend_from_slice(&other[from..]);
            }
            // Replace a token with a word of the language.
            1 if at < tokens.len() => tokens[at] = u.choose(WORDS)?.to_string(),
            // Insert a word.
            2 => tokens.insert(at, u.choose(WORDS)?.to_string()),
            // Drop a run of tokens.
            3 if at < tokens.len() => {
                let n = u.int_in_range(1..=8)?.min(tokens.len() - at);
                tokens.drain(at..at + n);
            }
            // Duplicate a run of tokens (bounded, see `caps`).
            4 if at < tokens.len() => {
                let n = u.int_in_range(1..=16)?.min(tokens.len() - at);
                let run: Vec<String> = tokens[at..at + n].to_vec();
                for (k, t) in run.into_iter().enumerate() {
                    tokens.insert(at + n + k, t);
                }
            }
            // Swap two tokens.
            _ if !tokens.is_empty() => {
                let other = u.choose_index(tokens.len())?;
                let at = at.min(tokens.len() - 1);
                tokens.swap(at, other);
            }
            _ => {}
        }
    }
    Ok(Some(join(&tokens)))
}
