//! Inputs that used to make the compiler hang, blow up or overflow its
//! stack: each gives a result or a spanned error, and the work it does is
//! bounded (asserted as counts of lattice points, never as time).

use proc_macro2::TokenStream;

use super::kernels::ENCODINGS;
use crate::sparsifier::merger::lattice;
use crate::sparsifier::LoopId;
use crate::syntax::{MAX_HEIGHT, MAX_NESTING};

/// Expands `src` (after the test encodings) on a thread with a quarter of
/// the stack rustc gives a proc macro, in this unoptimised build: what
/// passes here has room to spare inside rustc.
fn expand(src: &str) -> String {
    let src = format!("{ENCODINGS}\n{src}");
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let tokens: TokenStream = src.parse().expect("tokenizes");
            crate::expand(tokens).to_string()
        })
        .expect("thread starts")
        .join()
        .expect("the expansion does not panic")
}

/// The `compile_error!` messages of an expansion.
fn messages(expansion: &str) -> Vec<String> {
    expansion
        .split("compile_error ! {")
        .skip(1)
        .map(|rest| rest.split(" }").next().unwrap_or("").trim().to_string())
        .collect()
}

fn chain(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

fn nest(n: usize, inner: &str) -> String {
    format!("{}{inner}{}", "(".repeat(n), ")".repeat(n))
}

const DENSE: &str = "x: &tensor<?xf64>, y: &mut tensor<?xf64>";
const SPARSE: &str = "x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>";
const SPARSE_OUT: &str = "x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>";

/// The number of lattice points of the only statement's right-hand side,
/// for its outermost loop.
fn points(params: &str, rhs: &str) -> usize {
    let program = super::program(&format!("{ENCODINGS}\nfn f({params}) {{ y[i] = {rhs}; }}"));
    let kernel = &program.kernels[0].def.kernel;
    lattice(kernel, &kernel.stmts[0].rhs, LoopId(0))
        .points
        .len()
}

#[test]
fn sums_of_dense_operands_literals_and_repeats_build_one_point() {
    // Each of these used to build 3^(n-1) points before simplifying.
    assert_eq!(points(DENSE, &chain("x[i]", " + ", 40)), 1);
    assert_eq!(points(DENSE, &chain("2.0", " + ", 40)), 1);
    assert_eq!(points(DENSE, &chain("x[i] - 2.0", " + ", 40)), 1);
    assert_eq!(points(SPARSE, &chain("x[i]", " + ", 40)), 1);
    assert_eq!(points(SPARSE, &chain("(x[i] * 2.0 + 1.0)", " * ", 40)), 2);
}

#[test]
fn distinct_sparse_operands_give_every_nonempty_subset_once() {
    // Seven: eight co-iterated levels need more than `MAX_CASES` cases.
    let names = ["a", "b", "c", "d", "e", "f", "g"];
    let params: Vec<String> = names
        .iter()
        .map(|n| format!("{n}: &tensor<?xf64, #SV>"))
        .collect();
    let params = format!("{}, y: &mut tensor<?xf64>", params.join(", "));
    let sum: Vec<String> = names.iter().map(|n| format!("{n}[i]")).collect();
    // A union of 7 levels: 2^7 - 1 conjunctions, and the same with every
    // operand repeated.
    assert_eq!(points(&params, &sum.join(" + ")), 127);
    let twice = format!("{} + {}", sum.join(" + "), sum.join(" + "));
    assert_eq!(points(&params, &twice), 127);
}

#[test]
fn long_sums_expand_or_stop_at_the_documented_height() {
    for params in [DENSE, SPARSE, SPARSE_OUT] {
        let at_limit = expand(&format!(
            "fn f({params}) {{ y[i] = {}; }}",
            chain("x[i]", " + ", MAX_HEIGHT)
        ));
        assert!(messages(&at_limit).is_empty(), "{:?}", messages(&at_limit));
    }
    for (op, term) in [
        (" + ", "x[i]"),
        (" * ", "x[i]"),
        (" + ", "2.0"),
        (" - ", "x[i]"),
    ] {
        let over = expand(&format!(
            "fn f({SPARSE}) {{ y[i] = {}; }}",
            chain(term, op, 3000)
        ));
        let found = messages(&over);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains(&format!("more than {MAX_HEIGHT} operations deep")),
            "{found:?}"
        );
    }
}

#[test]
fn deep_nesting_stops_at_the_documented_level() {
    let ok = [
        nest(MAX_NESTING - 1, "x[i]"),
        format!("{}x[i]", "- ".repeat(MAX_NESTING - 1)),
        (0..MAX_NESTING - 2).fold("x[i]".to_string(), |e, _| format!("sqrt({e})")),
    ];
    for rhs in ok {
        let out = expand(&format!("fn f({SPARSE}) {{ y[i] = {rhs}; }}"));
        assert!(messages(&out).is_empty(), "{:?}", messages(&out));
    }
    let choices = (0..1000).fold("x[i]".to_string(), |e, _| {
        format!("if x[i] > 0.0 {{ x[i] }} else if x[i] < 1.0 {{ {e} }} else {{ 2.0 }}")
    });
    let else_ifs = format!(
        "{} {{ 1.0 }}",
        (0..2000)
            .map(|_| "if x[i] > 0.0 { x[i] } else")
            .collect::<Vec<_>>()
            .join(" ")
    );
    let too_deep = [
        nest(2000, "x[i]"),
        format!("{}x[i]", "- ".repeat(3000)),
        format!("{}x[i]", "!".repeat(3000)),
        (0..1000).fold("x[i]".to_string(), |e, _| format!("sqrt({e})")),
        choices,
        else_ifs,
    ];
    for rhs in too_deep {
        let out = expand(&format!("fn f({SPARSE}) {{ y[i] = {rhs}; }}"));
        let found = messages(&out);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains(&format!("nests more than {MAX_NESTING} levels")),
            "{found:?}"
        );
    }
}

#[test]
fn closures_are_bounded_before_syn_parses_them() {
    let closure = |body: &str| {
        expand(&format!(
            "fn f({SPARSE_OUT}) {{ y[i] = unary(x[i], present = |v| {body}, absent = none); }}"
        ))
    };
    for body in [nest(MAX_NESTING - 4, "v"), chain("v", " * ", 250)] {
        let out = closure(&body);
        assert!(messages(&out).is_empty(), "{:?}", messages(&out));
    }
    let deep = messages(&closure(&nest(1000, "v")));
    assert_eq!(deep.len(), 1, "{deep:?}");
    assert!(deep[0].contains("nests more than"), "{deep:?}");
    let long = messages(&closure(&chain("v", " * ", 3000)));
    assert_eq!(long.len(), 1, "{long:?}");
    assert!(long[0].contains("more than 512 tokens"), "{long:?}");
}

#[test]
fn a_misspelt_encoding_gives_one_error_at_the_typo_and_a_callable_stub() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compresed) }>
        pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }";
    let tokens: TokenStream = src.parse().expect("tokenizes");
    let out = crate::expand(tokens).to_string();
    let found = messages(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("unknown level format `compresed`"),
        "{found:?}"
    );
    // The stub keeps the signature, the broken parameter as `&impl Sized`,
    // and a body that type-checks.
    assert!(out.contains("pub fn spmv"), "{out}");
    assert!(
        out.contains("a : & impl :: core :: marker :: Sized"),
        "{out}"
    );
    assert!(
        out.contains(":: core :: result :: Result :: Ok (())"),
        "{out}"
    );
}

#[test]
fn a_name_clashing_with_an_output_alias_is_an_error_at_that_name() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSROut = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>";
    let found = super::errors(src);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0]
            .0
            .contains("`#CSROut` defines the Rust type `CSROut`"),
        "{found:?}"
    );
    assert_eq!((found[0].1, found[0].2), (2, 9), "{found:?}");
    assert!(
        found[1]
            .0
            .contains("`#CSR` defines `CSR`, `CSROut` and `IsCSROut`"),
        "{found:?}"
    );
    // Either order, and a type alias too.
    let src = "type CSROut = tensor<4xf64>;
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>";
    let found = super::errors(src);
    assert!(
        found[0]
            .0
            .contains("`type CSROut` defines the Rust type `CSROut`"),
        "{found:?}"
    );
    assert_eq!((found[0].1, found[0].2), (1, 5), "{found:?}");
}

#[test]
fn huge_number_literals_are_refused_at_the_token_without_evaluating_them() {
    let digits = "9".repeat(100_000);
    for src in [
        format!("fn f({DENSE}) {{ y[i] = x[i] * {digits}.0; }}"),
        format!("fn f(x: &tensor<?xi64>, y: &mut tensor<?xi64>) {{ y[i] = x[i] * {digits}; }}"),
        format!("#E = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed), posWidth = {digits} }}>"),
        format!("type T = tensor<{digits}xf64>;"),
    ] {
        let tokens: TokenStream = src.parse().expect("tokenizes");
        let out = crate::expand(tokens).to_string();
        let found = messages(&out);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("characters; at most 128 are read"),
            "{found:?}"
        );
    }
    // A long but reasonable literal is read.
    let pi = "3.14159265358979323846264338327950288419716939937510582097494459";
    let out = expand(&format!("fn f({DENSE}) {{ y[i] = x[i] * {pi}; }}"));
    assert!(messages(&out).is_empty(), "{:?}", messages(&out));
}

#[test]
fn nested_choices_comparisons_and_logic_stay_small() {
    // Found by the fuzzer before lattices merged equal sparse sets: each
    // nesting level multiplied the work by about 5.
    let mut nested = "a[i]".to_string();
    for _ in 0..12 {
        nested = format!("if a[i] > 0.0 {{ {nested} }} else {{ a[i] }}");
    }
    let or_chain: Vec<String> = (0..12).map(|k| format!("a[i] > {k}.0")).collect();
    let or_chain = format!("if {} {{ 1.0 }} else {{ 0.0 }}", or_chain.join(" || "));
    let mut negations = "a[i] >= 1.0".to_string();
    for _ in 0..10 {
        negations = format!("!(if !({negations}) {{ a[i] > 0.0 }} else {{ a[i] < 2.0 }})");
    }
    let sv = "a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>";
    for rhs in [&nested, &or_chain] {
        assert!(points(sv, rhs) <= 2, "{rhs}");
        let out = expand(&format!("fn f({sv}) {{ y[i] = {rhs}; }}"));
        assert!(messages(&out).is_empty(), "{:?}", messages(&out));
    }
    let bools = "a: &tensor<?xf64, #SV>, y: &mut tensor<?xi1>";
    assert!(points(bools, &negations) <= 2);
    let out = expand(&format!("fn f({bools}) {{ y[i] = {negations}; }}"));
    assert!(messages(&out).is_empty(), "{:?}", messages(&out));
}
