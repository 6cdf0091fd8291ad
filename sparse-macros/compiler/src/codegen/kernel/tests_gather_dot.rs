//! The schedule's `gather_dot` rule through the whole expansion: under
//! `#[reassociate]` a float row walk summing `a * x[j]` becomes one
//! `dot_gather` call; without the attribute, or with anything else in the
//! walk, the walk stays in order.

use super::tests::{has, snapshot, CSR, DCSR, LOOSE};

fn expand(src: &str) -> String {
    super::tests::expand_pretty(&format!("{CSR}\n{DCSR}\n{LOOSE}\n{src}"))
}

#[test]
fn a_reassociated_spmv_sums_each_row_with_one_call() {
    let out = expand(
        "/// SpMV in partial sums.
        #[reassociate]
        pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }",
    );
    let kernel = &out[out.find("/// SpMV in partial sums").expect("the kernel")..];
    snapshot("spmv_gather_dot", kernel);
    assert!(
        has(
            kernel,
            "let __sk_a_dot = unsafe { ::sparse_core::__private::dot_gather_increasing(__sk_isa, \
             __sk_a_crd1, __sk_a_val, __sk_a_lo1, __sk_a_hi1, __sk_x_data,) };"
        ),
        "{kernel}"
    );
    // The body is compiled once per vector extension, the token passed in.
    assert!(
        has(
            kernel,
            "::sparse_core::__private::with_vector_isa(#[inline(always)] move |__sk_isa: \
             ::sparse_core::__private::VectorIsa,| -> ::core::result::Result<(), \
             ::sparse_core::__private::KernelError> {"
        ),
        "{kernel}"
    );
    assert!(
        has(
            kernel,
            "kernel: compiled for AVX-512, for AVX2 and as written"
        ),
        "{kernel}"
    );
    assert!(!kernel.contains("walk"), "{kernel}");
    assert!(has(kernel, "j: one call to `dot_gather`"), "{kernel}");
}

#[test]
fn every_float_format_and_factor_order_takes_the_call() {
    for (enc, ty, stmt) in [
        ("#CSR", "f32", "y[i] = a[i, j] * x[j];"),
        ("#CSR", "f64", "y[i] = x[j] * a[i, j];"),
        ("#CSR", "f64", "y[i] += a[i, j] * x[j];"),
        ("#DCSR", "f64", "y[i] = a[i, j] * x[j];"),
        ("#LOOSE", "f32", "y[i] = a[i, j] * x[j];"),
        // A sum scoped inside the statement.
        ("#CSR", "f64", "y[i] = max(sum(j, a[i, j] * x[j]), b[i]);"),
    ] {
        let out = expand(&format!(
            "#[reassociate] pub fn k(a: &tensor<?x?x{ty}, {enc}>, x: &tensor<?x{ty}>, \
             b: &tensor<?x{ty}>, y: &mut tensor<?x{ty}>) {{ {stmt} }}"
        ));
        // Ordered, unique levels: coordinates strictly increase.
        assert_eq!(
            out.matches("dot_gather_increasing(").count(),
            1,
            "{enc} {stmt}\n{out}"
        );
    }
    // A nonordered level's row may revisit columns: the call that tests
    // every step.
    let out = expand(
        "#UNORD = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed(nonordered)) }>
        #[reassociate] pub fn k(a: &tensor<?x?xf64, #UNORD>, x: &tensor<?xf64>, \
         y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }",
    );
    assert_eq!(out.matches("dot_gather(").count(), 1, "{out}");
    assert!(!out.contains("dot_gather_increasing"), "{out}");
}

/// Only a kernel that calls a vector routine is compiled per extension.
#[test]
fn a_kernel_without_the_call_is_compiled_once() {
    let out = expand(
        "/// In order.
        pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }",
    );
    assert!(!out.contains("with_vector_isa"), "{out}");
    assert!(!out.contains("__sk_isa"), "{out}");
}

#[test]
fn without_reassociate_or_other_shapes_the_walk_stays() {
    for (attrs, params, stmt) in [
        // In order unless asked.
        (
            "",
            "a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>",
            "y[i] = a[i, j] * x[j];",
        ),
        // Fused multiply-adds round once per entry.
        (
            "#[reassociate] #[fma]",
            "a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>",
            "y[i] = a[i, j] * x[j];",
        ),
        // Integers, a product of three, the input at another index.
        (
            "#[reassociate]",
            "a: &tensor<?x?xi32, #CSR>, x: &tensor<?xi32>, y: &mut tensor<?xi32>",
            "y[i] = a[i, j] * x[j];",
        ),
        (
            "#[reassociate]",
            "a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>",
            "y[i] = a[i, j] * x[j] * x[j];",
        ),
        (
            "#[reassociate]",
            "a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>",
            "y[i] = a[i, j] * x[i];",
        ),
        // A custom reduction.
        (
            "#[reassociate]",
            "a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>",
            "y[i] = reduce(a[i, j] * x[j], identity = 0.0, |p, q| max(p, q));",
        ),
    ] {
        let out = expand(&format!("{attrs} pub fn k({params}) {{ {stmt} }}"));
        assert!(!out.contains("dot_gather"), "{attrs} {stmt}\n{out}");
    }
}
