//! Codegen of the semiring operations, from kernel source through the whole
//! front end: closures called in place with their parameter and result
//! types, index variables bound around them, a `select` guarding its
//! store, and a custom reduction starting from its identity. The snapshots
//! are compiled and run by `tests/tests/kernels/codegen_snapshots.rs` (and Miri).

use super::generate_kernel;
use super::tests::{has, snapshot, CSR, DCSR, SV};

/// The one kernel of `encodings` + `src`, generated and pretty-printed.
fn generate(encodings: &[&str], src: &str) -> String {
    let program = crate::tests::program(&format!("{}\n{src}", encodings.join("\n")));
    let planned = program.kernels.first().expect("one kernel");
    let tokens = generate_kernel(planned);
    let file: syn::File = syn::parse2(tokens).unwrap_or_else(|e| panic!("{e}"));
    prettyplease::unparse(&file)
}

#[test]
fn set_difference_calls_no_closure_and_skips_the_overlap() {
    let text = generate(
        &[SV],
        "pub fn set_difference(a: &tensor<?xf64, #SV>, b: &tensor<?xi32, #SV>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = none);
        }",
    );
    assert!(has(&text, "__sk_c_data.fill(0.0_f64);"), "{text}");
    snapshot("set_difference", &text);
}

#[test]
fn binary_closures_get_the_operand_and_output_types() {
    let text = generate(
        &[CSR],
        "pub fn triangles(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j],
                overlap = |x, y| if j >= i { x + y } else { x - y },
                left = identity,
                right = |y| if j >= i { y } else { -y });
        }",
    );
    assert!(
        has(
            &text,
            "x: ::core::primitive::f64, y: ::core::primitive::f64,"
        ) && has(&text, "| -> ::core::primitive::f64 {"),
        "{text}"
    );
    assert!(
        has(&text, "let j: ::core::primitive::usize = __sk_j;"),
        "{text}"
    );
    snapshot("binary_triangles", &text);
}

#[test]
fn structural_inversion_walks_the_whole_range() {
    let text = generate(
        &[SV],
        "pub fn invert(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }",
    );
    snapshot("structural_inversion", &text);
}

#[test]
fn select_guards_the_store() {
    let text = generate(
        &[CSR],
        "pub fn select_lower(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }",
    );
    assert!(has(&text, "let __sk_sel = __sk_a_v;"), "{text}");
    snapshot("select_lower", &text);
}

#[test]
fn custom_reduce_starts_from_its_identity_and_folds_present_values() {
    let text = generate(
        &[DCSR],
        "pub fn row_product(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| min(acc * v, 100.0));
        }",
    );
    assert!(
        has(
            &text,
            "use ::sparse_core::__private::math::{Real as _, min};"
        ),
        "{text}"
    );
    snapshot("reduce_row_product", &text);
}
