//! The schedule's `dual_mac` rule through the whole expansion: an int8
//! row walk summing `w as i32 * (x as i32 [+ off])` into an `i32` becomes
//! one `dot_s8` call; anything else keeps its walk.

use super::tests::{has, snapshot, CSR};

fn expand(src: &str) -> String {
    super::tests::expand_pretty(&format!("{CSR}\n{src}"))
}

#[test]
fn an_int8_layer_sums_each_row_with_one_call() {
    let out = expand(
        "/// CMSIS-NN's accumulation.
        pub fn fc(w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                  acc: &mut tensor<?xi32>, in_off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        }",
    );
    let kernel = &out[out.find("/// CMSIS-NN").expect("the kernel")..];
    snapshot("fc_s8_dual_mac", kernel);
    assert!(
        has(kernel, "let __sk_w_off: ::core::primitive::i32 = in_off;"),
        "{kernel}"
    );
    assert!(
        has(
            kernel,
            "let __sk_w_dot = unsafe { ::sparse_core::__private::dot_s8(__sk_w_crd1, __sk_w_val, \
             __sk_w_lo1, __sk_w_hi1, __sk_x_data, __sk_w_off,) };"
        ),
        "{kernel}"
    );
    assert!(!kernel.contains("walk"), "{kernel}");
    assert!(has(kernel, "j: one call to `dot_s8`"), "{kernel}");
}

#[test]
fn without_offset_or_offset_first_the_call_is_the_same() {
    for stmt in [
        "y[i] = w[i, j] as i32 * x[j] as i32;",
        "y[i] = (x[j] as i32) * (w[i, j] as i32);",
        "y[i] = w[i, j] as i32 * (128 + x[j] as i32);",
        "y[i] += w[i, j] as i32 * (x[j] as i32 - 3);",
    ] {
        let out = expand(&format!(
            "pub fn k(w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi32>) {{ {stmt} }}"
        ));
        let calls = out.matches("dot_s8(").count();
        // `x - 3` is not `x + off`: it keeps its walk.
        let want = usize::from(!stmt.contains("- 3"));
        assert_eq!(calls, want, "{stmt}\n{out}");
    }
}

#[test]
fn other_types_and_shapes_keep_their_walks() {
    for (params, stmt) in [
        // i16 weights, f32 products, an i64 sum, a custom reduction.
        (
            "w: &tensor<?x?xi16, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[j] as i32;",
        ),
        (
            "w: &tensor<?x?xi8, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>",
            "y[i] = w[i, j] as f32 * x[j];",
        ),
        (
            "w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi64>",
            "y[i] = w[i, j] as i64 * x[j] as i64;",
        ),
        (
            "w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = reduce(w[i, j] as i32 * x[j] as i32, identity = 0, |a, b| max(a, b));",
        ),
        // The input read at a coordinate other than the walk's.
        (
            "w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[i] as i32;",
        ),
    ] {
        let out = expand(&format!("pub fn k({params}) {{ {stmt} }}"));
        assert!(!out.contains("compile_error"), "{stmt}\n{out}");
        assert!(!out.contains("dot_s8("), "{stmt}\n{out}");
    }
}
