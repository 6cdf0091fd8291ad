//! One test per diagnostic: the message says what is wrong and the span
//! starts at the offending token.

use super::errors;

/// Asserts that `src` has an error containing `message` whose span starts
/// at the `nth` (0-based) occurrence of `token` in `src`.
#[track_caller]
fn assert_error_at(src: &str, token: &str, nth: usize, message: &str) {
    let offset = src
        .match_indices(token)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{token}` #{nth} not in the source"))
        .0;
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count();
    let found = errors(src);
    assert!(
        found
            .iter()
            .any(|(m, l, c)| m.contains(message) && (*l, *c) == (line, column)),
        "expected an error containing {message:?} at {line}:{column} (`{token}`), found {found:#?}"
    );
}

fn enc(map_and_fields: &str) -> String {
    format!("#E = #sparse_tensor.encoding<{{ {map_and_fields} }}>")
}

#[test]
fn unknown_level_format_lists_the_valid_ones() {
    let src = enc("map = (i, j) -> (i : dense, j : sparse)");
    assert_error_at(&src, "sparse)", 0, "unknown level format `sparse`; expected one of `dense`, `batch`, `compressed`, `loose_compressed`, `singleton`, `structured[n, m]`, `block2_4`");
    let src = enc("map = (i, j) -> (i : dense, j : compresed)");
    assert_error_at(&src, "compresed", 0, "did you mean `compressed`?");
}

#[test]
fn unknown_property() {
    let src = enc("map = (i) -> (i : compressed(nonuniqe))");
    assert_error_at(&src, "nonuniqe", 0, "unknown level property `nonuniqe`");
    assert_error_at(&src, "nonuniqe", 0, "did you mean `nonunique`?");
}

#[test]
fn property_not_valid_for_format() {
    let src = enc("map = (i, j) -> (i : compressed(soa), j : compressed)");
    assert_error_at(
        &src,
        "soa",
        0,
        "the property `soa` is not valid on a `compressed` level",
    );
    let src = enc("map = (i, j) -> (i : compressed(high), j : singleton)");
    assert_error_at(
        &src,
        "high",
        0,
        "the property `high` is not valid on a `compressed` level",
    );
    let src = enc("map = (i, j) -> (i : dense(nonunique), j : compressed)");
    assert_error_at(&src, "nonunique", 0, "not valid on a `dense` level");
    let src = enc("map = (i, j) -> (i : compressed(nonunique), j : singleton(high))");
    assert_error_at(&src, "high", 0, "not valid on a `singleton` level");
    let src = enc("map = (i) -> (i : compressed(nonunique, nonunique))");
    assert_error_at(
        &src,
        "nonunique",
        1,
        "the property `nonunique` is given twice",
    );
}

#[test]
fn structured_arguments() {
    let src = enc("map = (i) -> (i : structured[4, 2])");
    assert_error_at(
        &src,
        "[4",
        0,
        "`structured[4, 2]` is not supported: it needs 0 < n < m",
    );
    let src = enc("map = (i) -> (i : structured[2, 32])");
    assert_error_at(&src, "[2", 0, "m ≤ 31");
    let src = enc("map = (i) -> (i : structured)");
    assert_error_at(
        &src,
        "structured",
        0,
        "`structured` needs the group shape `[n, m]`",
    );
    let src = enc("map = (i) -> (i : compressed[2, 4])");
    assert_error_at(&src, "[2", 0, "`compressed` takes no `[...]` arguments");
}

#[test]
fn singleton_needs_a_coordinate_parent() {
    let src = enc("map = (i, j) -> (i : singleton, j : compressed)");
    assert_error_at(&src, "singleton", 0, "cannot be the first level");
    let src = enc("map = (i, j) -> (i : dense, j : singleton)");
    assert_error_at(&src, "singleton", 0, "but level 0 is `dense`");
}

#[test]
fn only_singletons_follow_a_singleton() {
    let src = enc("map = (i, j, k) -> (i : compressed(nonunique), j : singleton, k : dense)");
    assert_error_at(&src, "dense", 0, "level 2 follows the `singleton` level 1");
}

#[test]
fn singletons_of_a_region_agree_on_soa() {
    let src =
        enc("map = (i, j, k) -> (i : compressed(nonunique), j : singleton(soa), k : singleton)");
    assert_error_at(&src, "singleton)", 0, "must agree on `soa`");
}

#[test]
fn bad_widths() {
    let src = enc("map = (i) -> (i : compressed), posWidth = 12");
    assert_error_at(
        &src,
        "12",
        0,
        "`posWidth` must be 0 (native `usize`), 8, 16, 32 or 64, not 12",
    );
    let src = enc("map = (i) -> (i : compressed), crdWidth = 7");
    assert_error_at(&src, "7", 0, "`crdWidth` must be");
    let src = enc("map = (i) -> (i : compressed), posWidth = 2");
    assert_error_at(&src, "2", 0, "a 2-bit width is only for `crdWidth`");
}

#[test]
fn two_bit_coordinates_only_for_two_four_levels() {
    let src = enc(
        "map = (i, j) -> (i : compressed, j mod 4 : block2_4, j floordiv 4 : dense), crdWidth = 2",
    );
    assert_error_at(
        &src,
        "2 }",
        0,
        "level 0 (`compressed`) stores coordinates too",
    );
    let src = enc("map = (i, j) -> (i : dense, j : dense), crdWidth = 2");
    assert_error_at(&src, "2 }", 0, "only for encodings with `structured[2, 4]`");
}

#[test]
fn crd_width_too_narrow_for_a_static_size() {
    let src = "#CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>
type Ok = tensor<300x256xf32, #CSR8>;
type Big = tensor<3x300xf32, #CSR8>;";
    assert_error_at(
        src,
        "3x300xf32",
        0,
        "dimension 1 of size 300 needs coordinates up to 299, which do not fit the 8-bit \
         coordinates of `#CSR8` (at most 255); use `crdWidth = 16`",
    );
    assert_eq!(errors(src).len(), 1, "{:?}", errors(src));
    // Block levels store `j floordiv 3` < 100 and `j mod 3` < 3: fits.
    let src = "#B = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 3 : compressed, j mod 3 : dense), crdWidth = 8 }>
type Ok = tensor<9999x300xf32, #B>;";
    assert!(errors(src).is_empty(), "{:?}", errors(src));
}

#[test]
fn dimension_not_recoverable() {
    let src = enc("map = (i, j) -> (i : dense)");
    assert_error_at(
        &src,
        "j)",
        0,
        "the map is not invertible: dimension `j` cannot be recovered",
    );
    let src = enc("map = (i) -> (i floordiv 2 : dense, i mod 3 : dense)");
    assert_error_at(&src, "i)", 0, "use different block sizes");
    let src = enc("map = (i) -> (i floordiv 2 : compressed)");
    assert_error_at(&src, "i)", 0, "needs a matching `i mod 2` level");
}

#[test]
fn a_level_that_fails_to_parse_is_the_only_error_of_its_map() {
    // Not also "dimension `j` cannot be recovered" (its level is the broken
    // one), nor a singleton without a parent, nor a level-variable count.
    for map in [
        "map = (i, j) -> (i : dense, j : 8)",
        "map = (i, j, k) -> (i : dense, j : 8, k : singleton)",
        "map = { a, b } (i, j) -> (a = i : dense, b = j : 8)",
    ] {
        let src = enc(map);
        assert_error_at(&src, "8", 0, "expected a level format such as `dense`");
        assert_eq!(errors(&src).len(), 1, "{map}: {:#?}", errors(&src));
    }
}

#[test]
fn dimension_stored_twice() {
    let src = enc("map = (i, j) -> (i : dense, i : compressed, j : compressed)");
    assert_error_at(
        &src,
        "i : compressed",
        0,
        "dimension `i` is stored by two levels (0 and 1)",
    );
}

#[test]
fn bad_constants() {
    let src = enc("map = (i) -> (i floordiv 0 : dense, i mod 0 : dense)");
    assert_error_at(
        &src,
        "0 :",
        0,
        "`i floordiv 0` divides by zero; the block size must be at least 1",
    );
    let src = enc("map = (i) -> (i floordiv 4096 : dense, i mod 4096 : dense)");
    assert_error_at(
        &src,
        "4096",
        0,
        "the constant 4096 is too large: at most 2047",
    );
}

#[test]
fn unsupported_level_expression_names_the_supported_forms() {
    let src = enc("map = (i, j) -> (i + j : dense, i : dense, j : compressed)");
    assert_error_at(&src, "i + j", 0, "unsupported level expression `i + j`; the supported forms are `d`, `d floordiv N`, `d mod N` and `c * N * d`");
}

#[test]
fn unknown_variable() {
    let src = enc("map = (i, j) -> (i : dense, k : compressed)");
    assert_error_at(
        &src,
        "k :",
        0,
        "unknown variable `k`; the dimensions of this map are (i, j)",
    );
}

#[test]
fn counting_symbol_not_declared() {
    let src = enc("map = (i, j) -> (c * 3 * i : dense, i : dense, j : compressed)");
    assert_error_at(&src, "c *", 0, "the counting symbol `c` is not declared");
}

#[test]
fn explicit_inverse_must_match() {
    let src = enc(
        "map = { ib, ii } ( i = ib * 3 + ii ) -> ( ib = i floordiv 2 : dense, ii = i mod 2 : dense)",
    );
    assert_error_at(
        &src,
        "ib * 3",
        0,
        "this inverse does not match the levels: the map implies `i = ib * 2 + ii`",
    );
    let src = enc("map = (i = ib * 2 + ii) -> (i floordiv 2 : dense, i mod 2 : dense)");
    assert_error_at(&src, "ib *", 0, "`ib` is not a declared level variable");
}

#[test]
fn too_many_dimensions() {
    let src = enc("map = (a, b, c, d, e, f, g, h, k) -> (a : dense, b : dense, c : dense, d : dense, e : dense, f : dense, g : dense, h : dense, k : dense)");
    assert_error_at(
        &src,
        "k)",
        0,
        "at most 8 dimensions are supported, this map has 9",
    );
    assert_error_at(
        &src,
        "k : dense",
        0,
        "at most 8 levels are supported, this map has 9",
    );
}

#[test]
fn values_of_the_wrong_kind() {
    let src = enc("map = (i) -> (i : compressed), explicitVal = 1 : f32");
    assert_error_at(
        &src,
        "1 :",
        0,
        "`1` is an integer but `f32` is a floating-point type; write `1.0 : f32`",
    );
    let src = enc("map = (i) -> (i : compressed), explicitVal = 1.5 : i64");
    assert_error_at(
        &src,
        "1.5",
        0,
        "floating-point literal but `i64` is an integer type",
    );
    let src = enc("map = (i) -> (i : compressed), explicitVal = 300 : i8");
    assert_error_at(&src, "300", 0, "300 does not fit the type `i8`");
    let src = enc("map = (i) -> (i : compressed), explicitVal = 1.0 : bf16");
    assert_error_at(
        &src,
        "bf16",
        0,
        "an `explicitVal` or `implicitVal` of type `bf16` is not supported; leave it out",
    );
}

#[test]
fn implicit_value_must_be_zero() {
    let src = enc("map = (i) -> (i : compressed), implicitVal = 1 : i64");
    assert_error_at(&src, "1 :", 0, "only 0 is supported as implicitVal");
}

#[test]
fn value_type_must_match_the_tensor_element_type() {
    let src = format!(
        "{}\ntype M = tensor<8x8xf64, #DCSC>;",
        super::seeds::DCSC_VALUES
    );
    assert_error_at(
        &src,
        "8x8xf64",
        0,
        "element type `f64` differs from the type of `#DCSC`'s explicitVal (`i64`)",
    );
}

#[test]
fn bad_slices() {
    let src = enc("map = (i : #sparse_tensor<slice(-1, 0, 0)>) -> (i : compressed)");
    assert_error_at(
        &src,
        "-1",
        0,
        "a slice offset must be at least 0 (or `?`), found -1",
    );
    assert_error_at(&src, "0, 0", 0, "a slice size must be at least 1");
    assert_error_at(&src, "0)", 0, "a slice stride must be at least 1");
    let src = enc("map = (i : #sparse_tensor<slice(0, 1)>) -> (i : compressed)");
    assert_error_at(&src, "(0, 1)", 0, "a slice has three parameters");
}

#[test]
fn duplicate_encoding_name_notes_the_first() {
    let src = "#A = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#A = #sparse_tensor.encoding<{ map = (i) -> (i : dense) }>";
    assert_error_at(src, "A", 1, "`#A` is defined twice in this block");
    assert_error_at(src, "A", 0, "`#A` is first defined here");
    let src = "#A = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
type A = tensor<4xf32, #A>;";
    assert_error_at(
        src,
        "A =",
        1,
        "`type A` and `#A` both define the Rust type `A`; rename one",
    );
}

#[test]
fn undefined_encoding() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
type A = tensor<4x4xf32, #CSX>;";
    assert_error_at(
        src,
        "CSX",
        0,
        "undefined encoding `#CSX`: this block defines `#CSR`; did you mean `#CSR`?",
    );
    // An encoding with errors of its own gives no second error.
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : sparse) }>
type A = tensor<4x4xf32, #CSR>;";
    assert_eq!(errors(src).len(), 1);
}

#[test]
fn rank_mismatch() {
    let src = format!("{}\ntype A = tensor<10x10xf32, #BCOO>;", super::seeds::BCOO);
    assert_error_at(
        &src,
        "10x10xf32",
        0,
        "this tensor type has 2 dimension(s) but its encoding `#BCOO` has 3 (i, j, k)",
    );
}

#[test]
fn element_types() {
    let src = "type A = tensor<4xf8E4M3FN>;";
    assert_error_at(
        src,
        "4xf8E4M3FN",
        0,
        "the element type `f8E4M3FN` has no Rust type; use `f32` instead",
    );
    let src = "type A = tensor<4xf33>;";
    assert_error_at(src, "4xf33", 0, "unknown element type `f33`");
}

#[test]
fn duplicate_field_and_missing_map() {
    let src = enc("map = (i) -> (i : compressed), posWidth = 8, posWidth = 16");
    assert_error_at(
        &src,
        "posWidth",
        1,
        "duplicate field `posWidth` in encoding `#E`",
    );
    assert_error_at(&src, "posWidth", 0, "`posWidth` first given here");
    let src = enc("posWidth = 8");
    assert_error_at(&src, "E", 0, "encoding `#E` has no `map`");
}

#[test]
fn unknown_and_old_fields() {
    let src = enc("map = (i) -> (i : compressed), posWidht = 8");
    assert_error_at(&src, "posWidht", 0, "unknown encoding field `posWidht`; expected one of `map`, `posWidth`, `crdWidth`, `explicitVal`, `implicitVal`; did you mean `posWidth`?");
    let src = enc("lvlTypes = [ \"dense\", \"compressed\" ]");
    assert_error_at(&src, "lvlTypes", 0, "old MLIR encoding syntax");
}

#[test]
fn a_kernel_with_errors_does_not_hide_later_items() {
    let src = "fn spmv(a: CSR, x: Dense) { y[i] = a[i, j] * x[j]; }
#A = #sparse_tensor.encoding<{ map = (i) -> (i : sparse) }>";
    assert_error_at(src, "y[", 0, "unknown tensor `y` in kernel `spmv`");
    // Checking resumes after the kernel.
    assert_error_at(src, "sparse)", 0, "unknown level format");
}

#[test]
fn syntax_errors_point_at_the_token() {
    let src = enc("map = (i, j) (i : dense, j : compressed)");
    assert_error_at(
        &src,
        "(i :",
        0,
        "expected `->` between the dimension list and the level list",
    );
    let src = enc("map = (i, j) -> (i dense, j : compressed)");
    assert_error_at(&src, "dense", 0, "expected `:` and a level format");
    let src = "#A = #sparse_tensor.encodin<{ map = (i) -> (i : dense) }>";
    assert_error_at(
        src,
        "encodin",
        0,
        "expected `#sparse_tensor.encoding<{ ... }>`",
    );
    let src = "type A = tensor<4x4f32>;";
    assert_error_at(src, "4x4f32", 0, "expected `x` after a size");
    let src = "struct A;";
    assert_error_at(
        src,
        "struct",
        0,
        "expected an encoding `#NAME = #sparse_tensor.encoding<{ ... }>`, a tensor type",
    );
}

#[test]
fn every_error_of_a_block_is_reported() {
    let src =
        "#A = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : sparse), posWidth = 12 }>
#B = #sparse_tensor.encoding<{ map = (i, j) -> (i : singleton, j : compressed) }>
#C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
type T = tensor<4x4xf32, #D>;
type U = tensor<4x4xf80, #C>;";
    let found = errors(src);
    assert_eq!(found.len(), 5, "{found:#?}");
    assert_error_at(src, "sparse)", 0, "unknown level format");
    assert_error_at(src, "12", 0, "`posWidth` must be");
    assert_error_at(src, "singleton", 0, "cannot be the first level");
    assert_error_at(src, "D>", 0, "undefined encoding `#D`");
    assert_error_at(src, "4x4xf80", 0, "the element type `f80` has no Rust type");
}

#[test]
fn a_broken_field_does_not_hide_the_others() {
    let src = enc("map = (i) -> (i : compressed), posWidth = x, crdWidth = 12");
    let found = errors(&src);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_error_at(&src, "x,", 0, "expected a width in bits");
    assert_error_at(&src, "12", 0, "`crdWidth` must be");
}

#[test]
fn variables_are_declared_once() {
    let src = enc("map = (i, i) -> (i : dense)");
    assert_error_at(
        &src,
        "i)",
        0,
        "the variable `i` is declared twice in this map",
    );
    let src = enc("map = [i](i) -> (i : compressed)");
    assert_error_at(&src, "i](", 0, "declared twice");
    assert_eq!(errors(&src).len(), 1);
}

#[test]
fn maps_need_dimensions_and_levels() {
    let src = enc("map = () -> (i : dense)");
    assert_error_at(&src, "()", 0, "a map needs at least one of its dimensions");
    let src = enc("map = (i) -> ()");
    assert_error_at(&src, "()", 0, "a map needs at least one of its levels");
}

#[test]
fn symbols_and_level_variables_in_the_wrong_place() {
    let src = enc("map = [c](i) -> (c : dense, i : compressed)");
    assert_error_at(
        &src,
        "c :",
        0,
        "the counting symbol `c` must appear as `c * N * d`",
    );
    let src = enc("map = { a } (i = a) -> (a = a : compressed)");
    assert_error_at(
        &src,
        "a :",
        0,
        "`a` is a level variable; a level expression reads dimension variables",
    );
    let src = enc("map = [c](i, j) -> (c * 0 * i : dense, i : dense, j : compressed)");
    assert_error_at(&src, "0 *", 0, "a counting level needs at least 1 slice");
}

#[test]
fn level_variables_follow_their_declaration() {
    let src = enc("map = { a, b } (i, j) -> (b = i : dense, a = j : compressed)");
    assert_error_at(&src, "b = i", 0, "this level is the level variable `a`");
    let src = enc("map = { a } (i, j) -> (i : dense, j : compressed)");
    assert_error_at(
        &src,
        "(i : dense",
        0,
        "1 level variables are declared in `{...}` but the map has 2 levels",
    );
    let src = enc("map = (i, j) -> (a = i : dense, j : compressed)");
    assert_error_at(&src, "a =", 0, "the level variable `a` is not declared");
}

#[test]
fn unsupported_inverse() {
    let src = enc("map = { a } (i = a * a) -> (a = i : compressed)");
    assert_error_at(&src, "a * a", 0, "unsupported inverse `i = a * a`");
}

#[test]
fn nonordered_and_loose_compressed_are_accepted() {
    let e = super::encoding(&enc(
        "map = (i, j) -> (i : loose_compressed(nonunique, nonordered), j : singleton(nonordered))",
    ));
    assert!(!e.levels[0].ty.is_ordered() && !e.levels[0].ty.is_unique());
    assert!(!e.levels[1].ty.is_ordered());
    let src = enc("map = (i) -> (i : structured[2, 4](nonordered))");
    assert_error_at(&src, "nonordered", 0, "not valid on a `structured` level");
}

#[test]
fn tensor_type_syntax() {
    let src = "type A = tensor<4x4xf32 #CSR>;";
    assert_error_at(src, "#CSR", 0, "unexpected token in a tensor shape");
    let src = "type A = tensor<4x4xf32>";
    assert!(errors(src)[0]
        .0
        .contains("expected `;` after the tensor type"));
    let src = "type A = vector<4xf32>;";
    assert_error_at(
        src,
        "vector",
        0,
        "expected a tensor type such as `tensor<64x200xf32, #CSR>`",
    );
}

#[test]
fn parallel_takes_no_arguments_and_is_written_once() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>\n\
               #[parallel(threads = 2)]\n\
               fn f(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }\n\
               #[parallel]\n\
               #[parallel]\n\
               fn g(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }";
    assert_error_at(
        src,
        "parallel",
        0,
        "`#[parallel]` takes no arguments: write `#[parallel]`",
    );
    assert_error_at(
        src,
        "parallel",
        2,
        "`#[parallel]` is written twice on this kernel",
    );
}

#[test]
fn reassociate_takes_no_arguments_and_is_written_once() {
    let src = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>\n\
               #[reassociate(lanes = 8)]\n\
               fn f(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }\n\
               #[reassociate]\n\
               #[reassociate]\n\
               fn g(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }";
    assert_error_at(
        src,
        "reassociate",
        0,
        "`#[reassociate]` takes no arguments: write `#[reassociate]`",
    );
    assert_error_at(
        src,
        "reassociate",
        2,
        "`#[reassociate]` is written twice on this kernel",
    );
}
