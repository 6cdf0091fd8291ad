//! Codegen of the integer operators: shifts through `math::shl`/`shr`
//! (the amount taken modulo the width), bitwise operators in place, and
//! the literals of such expressions typed by their context so every
//! operation above a shift wraps. The snapshot is compiled and run by
//! `tests/tests/kernels/codegen_snapshots.rs`.

use super::generate_kernel;
use super::tests::{has, snapshot, SV};

/// The one kernel of `src`, generated and pretty-printed.
fn generate(src: &str) -> String {
    let program = crate::tests::program(src);
    let planned = program.kernels.first().expect("one kernel");
    let tokens = generate_kernel(planned);
    let file: syn::File = syn::parse2(tokens).unwrap_or_else(|e| panic!("{e}"));
    prettyplease::unparse(&file)
}

#[test]
fn shifts_and_masks_of_a_sparse_vector() {
    let text = generate(&format!(
        "{SV}
        pub fn shift_mask_sv(a: &tensor<?xi32, #SV>, n: &tensor<?xui8>, y: &mut tensor<?xi32>) {{
            y[i] = (a[i] << n[i]) - 1 & 0xFF ^ !a[i];
        }}"
    ));
    // Where `a` stores an entry the shift runs; elsewhere it is zero
    // (`(0 << n) - 1 & 0xFF ^ !0`, folded by rustc), for every element:
    // `!0` is not zero.
    assert!(
        has(
            &text,
            "::sparse_core::__private::math::shl(__sk_a_v, __sk_n_v)"
        ),
        "{text}"
    );
    // `- 1` wraps: the literal took `i32` from the shift.
    assert!(
        has(&text, "::core::primitive::i32::wrapping_sub("),
        "{text}"
    );
    assert!(has(&text, "1i32"), "{text}");
    snapshot("shift_mask_sv", &text);
}

#[test]
fn a_literal_shifted_by_a_parameter_is_typed_by_its_context() {
    let text = generate(
        "pub fn round_mask(d: &tensor<?xi32>, r: i32, y: &mut tensor<?xi32>) {
            y[i] = ((1 << r) - 1 & d[i]) + (1 << 30 >> 31);
        }",
    );
    assert!(
        has(&text, "::sparse_core::__private::math::shl(1i32, r)"),
        "{text}"
    );
    assert!(
        has(&text, "::core::primitive::i32::wrapping_sub("),
        "{text}"
    );
    // A constant shift of literals stays a constant expression of the type.
    assert!(
        has(&text, "::sparse_core::__private::math::shl(1i32, 30)"),
        "{text}"
    );
}
