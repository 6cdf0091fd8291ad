//! One test per kernel diagnostic: the message says what is wrong and what
//! to write, and the span starts at the offending token.

use super::errors;
use super::kernels::ENCODINGS;

/// Asserts that `ENCODINGS` + `kernel` has an error containing `message`
/// whose span starts at the `nth` (0-based) occurrence of `token` in
/// `kernel`.
#[track_caller]
pub(super) fn assert_error_at(kernel: &str, token: &str, nth: usize, message: &str) {
    let src = format!("{ENCODINGS}\n{kernel}");
    let offset = ENCODINGS.len()
        + 1
        + kernel
            .match_indices(token)
            .nth(nth)
            .unwrap_or_else(|| panic!("`{token}` #{nth} not in the kernel"))
            .0;
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count();
    let found = errors(&src);
    assert!(
        found
            .iter()
            .any(|(m, l, c)| m.contains(message) && (*l, *c) == (line, column)),
        "expected an error containing {message:?} at {line}:{column} (`{token}` #{nth}), found {found:#?}"
    );
}

/// The number of errors of `ENCODINGS` + `kernel`.
pub(super) fn error_count(kernel: &str) -> usize {
    errors(&format!("{ENCODINGS}\n{kernel}")).len()
}

/// SpMV with `body` and the given parameter types.
fn spmv(a: &str, x: &str, y: &str, body: &str) -> String {
    format!("fn spmv(a: &{a}, x: &{x}, y: &mut {y}) {{ {body} }}")
}

const A: &str = "tensor<?x?xf64, #CSR>";
const X: &str = "tensor<?xf64>";

#[test]
fn a_cast_to_a_path_is_reported_at_the_path() {
    let k = spmv(
        A,
        X,
        X,
        "y[i] = sum(j, a[i, j] * x[j]) as std::primitive::f64;",
    );
    assert_error_at(
        &k,
        "std",
        0,
        "cast to a primitive type written by its name, e.g. `as f64`",
    );
}

#[test]
fn unknown_tensor_suggests_the_closest_parameter() {
    let k = spmv(A, X, X, "y[i] = aa[i, j] * x[j];");
    assert_error_at(
        &k,
        "aa[",
        0,
        "unknown tensor `aa` in kernel `spmv`: its tensor parameters are `a`, `x`, `y`; did you mean `a`?",
    );
    let k = spmv(A, X, X, "z[i] = a[i, j] * x[j];");
    assert_error_at(&k, "z[", 0, "unknown tensor `z`");
}

#[test]
fn rank_mismatch_is_at_the_access_and_gives_the_rank() {
    let k = spmv(A, X, X, "y[i] = a[i] * x[i];");
    assert_error_at(
        &k,
        "a[i]",
        0,
        "`a` has 2 dimension(s) but `a[i]` gives 1 index variable(s); write `a[i, j]`",
    );
    let k = spmv(A, X, X, "y[i, j] = a[i, j] * x[j];");
    assert_error_at(&k, "y[i, j]", 0, "`y` has 1 dimension(s)");
}

#[test]
fn static_sizes_of_one_index_must_agree() {
    let k = spmv(
        "tensor<64x300xf32, #DCSR>",
        "tensor<200xf32>",
        "tensor<64xf32>",
        "y[i] = a[i, j] * x[j];",
    );
    assert_error_at(
        &k,
        "j]",
        1,
        "index variable `j` ranges over 200 here (dimension 0 of `x`) but over 300 where it is first bound (dimension 1 of `a`)",
    );
    assert_error_at(&k, "j]", 0, "`j` is first bound to size 300 here");
    // `?` agrees with everything.
    let k = spmv(
        "tensor<64x?xf32, #DCSR>",
        "tensor<200xf32>",
        "tensor<64xf32>",
        "y[i] = a[i, j] * x[j];",
    );
    assert_eq!(error_count(&k), 0);
}

#[test]
fn reading_the_output_while_summing_into_it() {
    let k = spmv(A, X, X, "y[i] = y[i] + a[i, j] * x[j];");
    assert_error_at(
        &k,
        "y[i] +",
        0,
        "`y[i]` reads the output of this statement while `j` is summed over, so it would see partial sums",
    );
    assert_error_at(&k, "y[i] +", 0, "write `y[i] += ...`");
    let k = "fn t(c: &mut tensor<?x?xf64>) { c[i, j] = c[j, i]; }";
    assert_error_at(
        k,
        "c[j, i]",
        0,
        "`c[j, i]` reads the output `c` at other coordinates than `c[i, j]` writes",
    );
    // Same coordinates, nothing summed: an in-place update is fine.
    let k = "fn t(c: &mut tensor<?x?xf64>) { c[i, j] = c[i, j] * 2.0; }";
    assert_eq!(error_count(k), 0);
}

#[test]
fn writing_an_input_says_to_declare_it_mut() {
    let k = spmv(A, X, X, "x[i] = a[i, j];");
    assert_error_at(
        &k,
        "x[i]",
        0,
        "`x` is an input (`&tensor<...>`) and cannot be written; declare it `x: &mut tensor<...>`",
    );
    assert_error_at(&k, "x:", 0, "`x` is declared here");
    // The error and its note; no second error about a missing output.
    let k = "fn f(a: &tensor<?xf64, #SV>, y: &tensor<?xf64>) { y[i] = a[i]; }";
    assert_eq!(error_count(k), 2);
}

#[test]
fn statements_need_an_output() {
    let k = "fn f(a: &tensor<?xf64, #SV>, alpha: f64) { alpha[] = a[i]; }";
    assert_error_at(
        k,
        "alpha[]",
        0,
        "`alpha` is a scalar parameter, passed by value, and cannot be assigned",
    );
    assert_error_at(
        k,
        "f(",
        0,
        "kernel `f` has no output: declare the tensor it writes as `&mut tensor<...>`",
    );
    let k = "fn f(a: &tensor<?xf64, #SV>, alpha: f64, y: &mut tensor<f64>) { alpha = a[i]; }";
    assert_error_at(k, "alpha = ", 0, "`alpha` is a scalar parameter");
    let k = spmv(A, X, X, "a[i, j] * x[j];");
    assert_error_at(
        &k,
        "*",
        0,
        "expected `=`, `+=`, `-=`, `*=` or `/=` after `a[i, j]`; a statement writes one output element",
    );
    let k = "fn f(a: &tensor<?xf64, #SV>, s: &mut tensor<f64>) { s = a[i]; }";
    assert_error_at(
        k,
        "s = ",
        0,
        "write the element of `s` that the statement assigns: `s[]`, with one index variable \
         per dimension (`s` has rank 0)",
    );
    let k = "fn f(y: &mut tensor<?xf64>) {}";
    assert_error_at(k, "f(", 0, "kernel `f` has no statements");
}

#[test]
fn unsupported_expressions_list_what_is_supported() {
    let supported = "kernel expressions are built from tensor accesses `a[i, j]`";
    for (body, token, what) in [
        (
            "y[i] = a[i, j].abs() * x[j];",
            ".",
            "method calls are not supported; write `abs(x)` instead of `x.abs()`",
        ),
        (
            "y[i] = a[i, j] % x[j];",
            "%",
            "the remainder operator `%` is not supported",
        ),
        (
            "y[i] = (|v| v)(a[i, j]);",
            "|",
            "closures outside `binary`, `unary`, `select` and `reduce` are not supported",
        ),
        (
            "y[i] = a[i, j] = x[j];",
            "= x",
            "an assignment inside an expression is not supported",
        ),
        (
            "y[i] = f64::sqrt(a[i, j]);",
            "f64::",
            "paths are not supported",
        ),
        (
            "y[i] = match a[i, j] { _ => 1.0 };",
            "match",
            "`match` expressions are not supported",
        ),
        (
            "y[i] = a[i, j] * x[j floordiv 2];",
            "floordiv",
            "`floordiv`, `ceildiv` and `mod` belong in an encoding's map",
        ),
        ("y[i] = a[i, 0];", "0", "constant indices are not supported"),
        (
            "y[i] = a[i, r#j];",
            "r#j",
            "expected an index variable such as `i`",
        ),
        (
            "y[i] = a[i, _];",
            "_",
            "expected an index variable such as `i`",
        ),
        (
            "y[i] = \"a\";",
            "\"a\"",
            "only number literals are supported",
        ),
        (
            "y[i] = (a[i, j], x[j]);",
            ", x[j])",
            "tuples are not supported",
        ),
        (
            "y[i] = a[i, j] x[j];",
            "x[j]",
            "expected an operator (`+`, `-`, `*`, `/`, `as`) or `;` here",
        ),
    ] {
        let k = spmv(A, X, X, body);
        assert_error_at(&k, token, 0, what);
        if !matches!(
            token,
            "floordiv" | "0" | "r#j" | "_" | "x[j]" | "\"a\"" | "f64::" | "= x"
        ) {
            assert_error_at(&k, token, 0, supported);
        }
    }
    let k = spmv(A, X, X, "y[i] %= a[i, j] * x[j];");
    assert_error_at(
        &k,
        "%=",
        0,
        "`%=` is not supported; the compound assignments are `+=`, `-=`, `*=` and `/=`",
    );
}

#[test]
fn unknown_math_function_suggests_the_closest() {
    let k = spmv(A, X, X, "y[i] = sqr(a[i, j]) * x[j];");
    assert_error_at(
        &k,
        "sqr",
        0,
        "unknown function `sqr`; a kernel may call the math functions `sqrt`, `abs`, `exp`, `ln`, `sin`, `cos`, `tanh`, `powi`, `powf`, `max`, `min`, `tan`, `atan`, `exp2`, `expm1`, `log1p`, `log2`, `log10`, `erf`, `sigmoid`, `rsqrt`, `floor`, `ceil`, `round`, `trunc`, `copysign`, `clamp`, `conj`, `re`, `im`, `requantize`; did you mean `sqrt`?",
    );
}

#[test]
fn math_call_with_the_wrong_number_of_arguments() {
    let k = spmv(A, X, X, "y[i] = powi(a[i, j]) * x[j];");
    assert_error_at(
        &k,
        "powi",
        0,
        "`powi` takes 2 argument(s), found 1: write `powi(x, n)` with an `i32` exponent",
    );
    let k = spmv(A, X, X, "y[i] = max(a[i, j], x[j], 1.0);");
    assert_error_at(
        &k,
        "max",
        0,
        "`max` takes 2 argument(s), found 3: write `max(x, y)`",
    );
}

#[test]
fn undefined_encoding_in_a_parameter() {
    let k = spmv("tensor<?x?xf64, #CRS>", X, X, "y[i] = a[i, j] * x[j];");
    assert_error_at(&k, "CRS", 0, "undefined encoding `#CRS`");
    assert_error_at(&k, "CRS", 0, "did you mean `#CSR`?");
    // The parameter's other errors are the tensor type's.
    let k = spmv("tensor<?xf64, #CSR>", X, X, "y[i] = a[i, j] * x[j];");
    assert_error_at(
        &k,
        "?xf64, #CSR",
        0,
        "this tensor type has 1 dimension(s) but its encoding `#CSR` has 2",
    );
    let k = spmv(A, "tensor<?xf65>", X, "y[i] = a[i, j] * x[j];");
    assert_error_at(&k, "xf65", 0, "unknown element type `f65`");
}

#[test]
fn unsatisfiable_loop_order_is_at_the_conflicting_access() {
    // Block operands are planned in level space, where no input is read
    // through a reordered copy: the conflict stays an error.
    let k = "#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
    #BSC = #sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
    fn f(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #BSC>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }";
    assert_error_at(
        k,
        "b[i, j]",
        0,
        "no loop order visits both `a` and `b` in storage order: `a` has levels (i__blk, j__blk, i__in, j__in) but `b` has levels (j__blk, i__blk, i__in, j__in)",
    );
    assert_error_at(
        k,
        "b[i, j]",
        0,
        "or pass a copy in that order made with `sparse_core::convert::convert`",
    );
    assert_eq!(error_count(k), 1);
}

#[test]
fn a_conflicting_input_is_read_through_a_reordered_workspace() {
    let k = "fn f(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }";
    assert_eq!(error_count(k), 0);
    let def = super::kernels::kernel(k);
    let names: Vec<String> = def.params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["a", "b", "c", "b_reordered"]);
    // The copy stores `b` (CSC) in `a`'s order: CSR-ordered.
    let copy = &def.kernel.tensors[3];
    assert_eq!(copy.name, "b_reordered");
    let dims: Vec<usize> = copy.levels.iter().map(|(_, e)| e.dim()).collect();
    assert_eq!(dims, [0, 1]);
}

#[test]
fn operand_types_must_match_the_output() {
    let k = spmv(A, "tensor<?xf32>", X, "y[i] = a[i, j] * x[j];");
    assert_error_at(
        &k,
        "x[j]",
        0,
        "`x[j]` has type `f32` where `f64` (the element type of the output `y`) is expected; convert it with `as`: `(x[j] as f64)`",
    );
    let k = spmv(A, X, X, "y[i] = a[i, j] * j;");
    assert_error_at(&k, "j;", 0, "`j` has type `usize` where `f64`");
    let k = spmv(A, X, X, "y[i] = a[i, j] * 2;");
    assert_error_at(&k, "2;", 0, "integer literal `2` where `f64` (the element type of the output `y`) is expected; write `2.0`");
    let k = "fn f(a: &tensor<?xi32, #SV>, b: &tensor<?xf32>, y: &mut tensor<?xf64>) { y[i] = (a[i] + b[i]) as f64; }";
    assert_error_at(
        k,
        "b[i]",
        0,
        "`b[i]` has type `f32` where `i32` (the type of the other operands) is expected",
    );
    let k = "fn f(a: &tensor<?xi32, #SV>, y: &mut tensor<?xi32>) { y[i] = sqrt(a[i]); }";
    assert_error_at(
        k,
        "sqrt",
        0,
        "`sqrt` is defined on floating-point and complex numbers, but its arguments here are `i32`",
    );
    let k = "fn f(a: &tensor<?xui8, #SV>, y: &mut tensor<?xui8>) { y[i] = -a[i]; }";
    assert_error_at(k, "-a", 0, "`u8` values cannot be negated");
    let k = spmv(A, X, X, "y[i] = a[i, j] * x[j] as f32;");
    assert_error_at(&k, "x[j] as", 0, "`x[j] as f32` has type `f32` where `f64`");
    let k = spmv(A, X, X, "y[i] = a[i, j] as f80;");
    assert_error_at(&k, "f80", 0, "cannot cast to `f80` in a kernel");
    // The suggestion keeps the kind: a float for `f80`, not an integer.
    assert_error_at(&k, "f80", 0, "; did you mean `f32`?");
    let k = spmv(A, X, X, "y[i] = (a[i, j] as i128) as f64;");
    assert_error_at(&k, "i128", 0, "; did you mean `i8`?");
    // Correct casts are accepted.
    let k = spmv(
        A,
        "tensor<?xf32>",
        X,
        "y[i] = a[i, j] * (x[j] as f64) + (j as f64) * 2.0;",
    );
    assert_eq!(error_count(&k), 0);
}

#[test]
fn names_in_expressions() {
    let k = spmv(A, X, X, "y[i] = a[i, j] * x[j] * beta;");
    assert_error_at(
        &k,
        "beta",
        0,
        "unknown name `beta`: a name in an expression is an index variable of the statement",
    );
    let k = spmv(A, X, X, "y[i] = a[i, j] * x;");
    assert_error_at(
        &k,
        "x;",
        0,
        "`x` is a tensor; read one of its elements with one index variable per dimension: `x[i]`",
    );
    let k = spmv(A, X, X, "y[i] = a[i, j] * x[j]; y[i] += (j as f64);");
    assert_error_at(
        &k,
        "j as",
        0,
        "index variable `j` indexes no tensor in this statement",
    );
    let k = spmv(A, X, X, "y[a] = a[a, j] * x[j];");
    assert_error_at(
        &k,
        "a]",
        0,
        "`a` is a parameter of `spmv` and cannot also be an index variable",
    );
    let k = "fn f(alpha: f64, y: &mut tensor<?xf64>) { y[i] = alpha[i]; }";
    assert_error_at(
        k,
        "alpha[i]",
        0,
        "`alpha` is a scalar parameter, not a tensor; use it without brackets",
    );
}

#[test]
fn parameter_list_errors() {
    let k = "fn f(a: &tensor<?xf64, #SV>, a: &mut tensor<?xf64>) { a[i] = a[i]; }";
    assert_error_at(k, "a: &mut", 0, "parameter `a` is declared twice");
    let k = "fn f(a: tensor<?xf64, #SV>, y: &mut tensor<?xf64>) { y[i] = a[i]; }";
    assert_error_at(k, "tensor", 0, "tensor parameters are passed by reference");
    // Recovery: the second parameter's error is reported too.
    let k = "fn f(a: tensor<?xf64, #SV>, y: &mut tensor<?xf65>) { y[i] = a[i]; }";
    assert_error_at(k, "xf65", 0, "unknown element type `f65`");
    assert_eq!(error_count(k), 2, "no follow-on errors about `a`");
    let k = "fn f<T>(y: &mut tensor<?xf64>) { y[i] = 1.0; }";
    assert_error_at(k, "<T>", 0, "generic kernels are not supported");
    let k = "fn f(y: &mut tensor<?xf64>) -> f64 { y[i] = 1.0; }";
    assert_error_at(k, "->", 0, "a kernel declares no return type");
}

#[test]
fn statement_errors_do_not_hide_each_other() {
    let k = spmv(
        A,
        X,
        X,
        "y[i] = a[i, j] % x[j]; y[i] += sqr(x[i]); y[i] += a[i, j] * x[j]",
    );
    assert_error_at(&k, "%", 0, "`%` is not supported");
    assert_error_at(&k, "sqr", 0, "unknown function `sqr`");
    assert_error_at(&k, "[j]", 1, "expected `;` after the statement");
}

#[test]
fn sparsifier_limits_are_spanned() {
    let k = "fn f(a: &tensor<?xf64>, b: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) { y[i] = a[i] / b[i]; }";
    assert_error_at(k, "b[i]", 0, "division by sparse tensor `b`");
    let k = "fn f(a: &tensor<?xf64>, c: &mut tensor<?x?xf64>) { c[i, i] = a[i]; }";
    assert_error_at(
        k,
        "c[i, i]",
        0,
        "`c[i, i]` uses `i` for two dimensions of the output; a statement writes each output \
         element through distinct index variables",
    );
    // A counting level (ELL) is not walked: the kernel reads a CSR copy
    // (a workspace parameter), so there is nothing to report.
    let ell = "#ELL = #sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed) }>
fn f(a: &tensor<?x?xf64, #ELL>, y: &mut tensor<?xf64>) { y[i] = a[i, j]; y[i] += a[i, j]; }";
    assert_eq!(error_count(ell), 0);
    // A block operand sharing an index with a non-block sparse one.
    let mixed = "#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
fn f(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * b[i, j]; }";
    assert_error_at(
        mixed,
        "b[i, j]",
        0,
        "sparse tensor `b` shares an index variable with block operand `a`",
    );
}

#[test]
fn reductions_into_bool_outputs_have_no_plus() {
    let k = "fn any(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi1>) { y[i] = a[i, j]; }";
    assert_error_at(
        k,
        "j]",
        0,
        "`j` appears only on the right-hand side, so the statement sums over it, but `y` holds `bool` (`i1`) values",
    );
    let k = "fn acc(a: &tensor<?xi1, #SV>, y: &mut tensor<?xi1>) { y[i] += a[i]; }";
    assert_error_at(
        k,
        "+=",
        0,
        "`+=` combines with the old value of `y`, but its elements are `bool` (`i1`), which has no arithmetic",
    );
    // With a reduction `=` is no way out (it sums just the same): the hint
    // names the integer route only, and following it compiles.
    let k = "fn sub(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi1>) { y[i] -= a[i, j]; }";
    assert_error_at(
        k,
        "-=",
        0,
        "which has no arithmetic; make `y` an integer tensor and cast (`a[i, j] as i32`)",
    );
    let k = "fn sub(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?xi32>) { y[i] -= (a[i, j] as i32); }";
    assert_eq!(error_count(k), 0);
    // Without a reduction a bool kernel is fine.
    let k = "fn copy(a: &tensor<?x?xi1, #CSR>, y: &mut tensor<?x?xi1>) { y[i, j] = a[i, j]; }";
    assert_eq!(error_count(k), 0);
}
