//! Integer operators in kernel expressions: how they parse (Rust's
//! precedence), what they lower to, and the spanned errors for misuse.

use super::errors;
use super::kernels::kernel;

/// The right-hand side of the one statement of `src`, as the sparsifier
/// prints it.
fn rhs(src: &str) -> String {
    let def = kernel(src);
    def.kernel.show(&def.kernel.stmts[0].rhs).to_string()
}

const VECTORS: &str = "a: &tensor<?xi32, #SV>, b: &tensor<?xi32>, c: &tensor<?xi32>, \
                       n: &tensor<?xu8>, y: &mut tensor<?xi32>";

#[test]
fn operators_bind_as_in_rust() {
    let f = |body: &str| rhs(&format!("fn f({VECTORS}) {{ {body} }}"));
    assert_eq!(
        f("y[i] = a[i] + 1 << 2 & b[i] | c[i] ^ b[i];"),
        // Calls print parenthesised; `+` inside binds tighter, as in Rust.
        "(((a[i] + 1 << 2) & b[i]) | (c[i] ^ b[i]))"
    );
    assert_eq!(f("y[i] = a[i] >> n[i] << 1;"), "((a[i] >> n[i]) << 1)");
    assert_eq!(f("y[i] = a[i] * 2 >> 1;"), "(a[i] * 2 >> 1)");
    assert_eq!(
        f("y[i] = if a[i] & 1 == 1 { b[i] } else { !c[i] };"),
        "(if ((a[i] & 1) == 1 as i32) { b[i] } else { !c[i] })"
    );
    assert_eq!(
        f("y[i] = (a[i] as i64 * b[i] as i64 >> 31) as i32;"),
        "(a[i] as i64 * b[i] as i64 >> 31) as i32"
    );
    assert_eq!(
        f("y[i] = clamp(a[i], -128, 127);"),
        "clamp(a[i], -128, 127)"
    );
}

#[test]
fn not_is_bitwise_on_integers_and_logical_on_bools() {
    let def = kernel(&format!("fn f({VECTORS}) {{ y[i] = !a[i]; }}"));
    let crate::sparsifier::Expr::Call(name, _) = &def.kernel.stmts[0].rhs else {
        panic!("a call");
    };
    assert_eq!(name, "bitnot");
    let def = kernel(&format!(
        "fn f({VECTORS}) {{ y[i] = if !(a[i] > 0) {{ 1 }} else {{ 0 }}; }}"
    ));
    let text = def.kernel.show(&def.kernel.stmts[0].rhs).to_string();
    let crate::sparsifier::Expr::Call(_, args) = &def.kernel.stmts[0].rhs else {
        panic!("a choice: {text}");
    };
    let crate::sparsifier::Expr::Call(name, _) = &args[0] else {
        panic!("a negated condition: {text}");
    };
    assert_eq!(name, "not", "{text}");
}

/// The errors of kernel `f` with parameters `params` and body `body`, each
/// with the text at its span.
fn errors_at(params: &str, body: &str) -> Vec<(String, String)> {
    let src = format!("{}\nfn f({params}) {{ {body} }}", super::kernels::ENCODINGS);
    let lines: Vec<&str> = src.lines().collect();
    errors(&src)
        .into_iter()
        .map(|(message, line, column)| {
            let text = lines[line - 1][column..].to_string();
            (message, text)
        })
        .collect()
}

fn assert_one_error(params: &str, body: &str, at: &str, message: &str) {
    let found = errors_at(params, body);
    assert!(
        found
            .iter()
            .any(|(m, text)| m.contains(message) && text.starts_with(at)),
        "expected `{message}` at `{at}` for `{body}`, found {found:#?}"
    );
}

#[test]
fn misuse_is_an_error_at_the_operator_or_the_amount() {
    let floats = "a: &tensor<?xf32, #SV>, s: f32, k: i32, y: &mut tensor<?xf32>";
    assert_one_error(
        floats,
        "y[i] = a[i] << 2;",
        "<<",
        "`<<` shifts integers, but `a[i]` is `f32`; multiply or divide by a power of two",
    );
    assert_one_error(
        floats,
        "y[i] = a[i] & s;",
        "&",
        "`&` is defined on integers and `bool`s, but its operands here are `f32`",
    );
    assert_one_error(
        floats,
        "y[i] = !a[i];",
        "!",
        "`!` is defined on `bool` (logical not) and integers (bitwise not), but `a[i]` is `f32`",
    );
    let ints = "a: &tensor<?xi32, #SV>, s: f32, y: &mut tensor<?xi32>";
    assert_one_error(
        ints,
        "y[i] = a[i] >> s;",
        "s;",
        "the shift amount `s` is `f32`; a shift amount is an integer (of any integer type)",
    );
    assert_one_error(
        ints,
        "y[i] = a[i] >> 1.5;",
        "1.5",
        "the shift amount `1.5` is a float literal",
    );
    assert_one_error(
        ints,
        "y[i] = a[i] << 32;",
        "32",
        "shifting `a[i]` by 32: at or above the width of `i32` (32 bits), which MLIR leaves \
         undefined; a constant amount is 0..=31 for `i32`",
    );
    assert_one_error(
        ints,
        "y[i] = a[i] << -(1);",
        "-(1)",
        "shifting `a[i]` by -1: a negative amount",
    );
    assert_one_error(
        ints,
        "y[i] = (a[i] as i8 >> 8) as i32;",
        "8)",
        "at or above the width of `i8` (8 bits)",
    );
    assert_one_error(
        ints,
        "y[i] = a[i] <<= 2;",
        "<<=",
        "an assignment inside an expression is not supported",
    );
    // In range: no error.
    assert!(errors_at(
        ints,
        "y[i] = (a[i] as i64 << 63 >> 62) as i32 | a[i] << 31;"
    )
    .is_empty());
}

/// SDDMM through the whole macro: an all-integer kernel sums over `k` first
/// (the same bits), a float one only under `#[reassociate]`, which also
/// sums in partial sums; a float scalar parameter makes a kernel float.
#[test]
fn integer_and_reassociated_sddmm_sum_first() {
    let kernel = |attr: &str, ty: &str, extra: &str| {
        let src = format!(
            "#CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed) }}>\n\
             {attr} pub fn f(s: &tensor<?x?x{ty}, #CSR>, u: &tensor<?x?x{ty}>, vt: &tensor<?x?x{ty}>, \
             c: &mut tensor<?x?x{ty}>{extra}) {{ c[i, j] = s[i, j] * (u[i, k] * vt[j, k]); }}"
        );
        crate::expand(src.parse().expect("tokenizes")).to_string()
    };
    let scoped = "scoped c[i, j] = s[i, j] * sum(k, u[i, k] * vt[j, k])";
    let int = kernel("", "i32", "");
    assert!(int.contains(scoped), "{int}");
    assert!(!int.contains("partial sums"));
    let float = kernel("", "f64", "");
    assert!(!float.contains(scoped), "{float}");
    let reassociated = kernel("#[reassociate]", "f64", "");
    assert!(reassociated.contains(scoped), "{reassociated}");
    assert!(reassociated.contains("k: summed in 8 partial sums added at the end"));
    let float_scalar = kernel("", "i32", ", alpha: f64");
    assert!(!float_scalar.contains(scoped), "{float_scalar}");
}
