//! The schedule's `dual_mac_2_4` rule through the whole expansion: the
//! loop over a 2:4 int8 row's groups summing `w as i32 * (x as i32 [+
//! off])` into an `i32` becomes one `dot_s8_2_4` call; anything else keeps
//! its loops (the group's two entries written out).

use super::tests::{has, snapshot};

const NV24: &str = "#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, \
    j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>\n\
    #NV24B = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, \
    j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 8 }>\n\
    #V24 = #sparse_tensor.encoding<{ map = (j) -> (j floordiv 4 : dense, \
    j mod 4 : block2_4), crdWidth = 2 }>\n\
    #NV14 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, \
    j floordiv 4 : dense, j mod 4 : structured[1, 4]), crdWidth = 8 }>\n";

fn expand(src: &str) -> String {
    super::tests::expand_pretty(&format!("{NV24}\n{src}"))
}

#[test]
fn an_int8_2_4_layer_sums_each_row_with_one_call() {
    let out = expand(
        "/// CMSIS-NN's accumulation over 2:4 weights.
        pub fn fc(w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, bias: &tensor<?xi32>,
                  acc: &mut tensor<?xi32>, in_off: i32) {
            acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        }",
    );
    let kernel = &out[out.find("/// CMSIS-NN").expect("the kernel")..];
    snapshot("fc_s8_2_4_dual_mac", kernel);
    // The row's groups start at its entry of the dense level 0 times the
    // groups per row.
    assert!(
        has(kernel, "let __sk_w_first2 = __sk_w_p0 * __sk_n_j__blk;"),
        "{kernel}"
    );
    assert!(
        has(
            kernel,
            "let __sk_w_dot = unsafe { ::sparse_core::__private::dot_s8_2_4(__sk_w_crd2, \
             __sk_w_val, __sk_w_first2, __sk_n_j__blk, __sk_x_data, __sk_w_off,) };"
        ),
        "{kernel}"
    );
    assert!(
        has(
            kernel,
            "__sk_acc1 = ::core::primitive::i32::wrapping_add(__sk_acc1, __sk_w_dot);"
        ),
        "{kernel}"
    );
    // No loop over the groups, no pair of coordinates read in the kernel.
    assert!(!kernel.contains("for __sk_j__blk"), "{kernel}");
    assert!(!kernel.contains("load_pair2"), "{kernel}");
    assert!(has(kernel, "j__blk: one call to `dot_s8_2_4`"), "{kernel}");
    assert!(!kernel.contains("written out"), "{kernel}");
}

#[test]
fn byte_coordinates_a_vector_and_a_scoped_sum_take_the_call_too() {
    for (params, stmt, first) in [
        // One byte per coordinate: the same call (sparse-core picks its
        // plain loop for them).
        (
            "w: &tensor<?x?xi8, #NV24B>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[j] as i32;",
            "let __sk_w_first2 = __sk_w_p0 * __sk_n_j__blk;",
        ),
        // A 2:4 vector: the groups have no parent, the first is 0.
        (
            "w: &tensor<?xi8, #V24>, x: &tensor<?xi8>, y: &mut tensor<i32>",
            "y[] = w[j] as i32 * (x[j] as i32 + 128);",
            "let __sk_w_first1: ::core::primitive::usize = 0;",
        ),
        // A sum scoped inside the statement, requantized.
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi8>",
            "y[i] = clamp(requantize(sum(j, w[i, j] as i32 * (x[j] as i32 + 5)), 1073741824, 1), -128, 127) as i8;",
            "let __sk_w_first2 = __sk_w_p0 * __sk_n_j__blk;",
        ),
    ] {
        let out = expand(&format!("pub fn k({params}) {{ {stmt} }}"));
        assert!(!out.contains("compile_error"), "{stmt}\n{out}");
        assert_eq!(out.matches("dot_s8_2_4(").count(), 1, "{stmt}\n{out}");
        assert!(has(&out, first), "{stmt}\n{out}");
    }
}

#[test]
fn other_types_patterns_and_formats_keep_their_loops() {
    for (params, stmt) in [
        // i16 weights, f32 products, an i64 sum, a custom reduction.
        (
            "w: &tensor<?x?xi16, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[j] as i32;",
        ),
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xf32>, y: &mut tensor<?xf32>",
            "y[i] = w[i, j] as f32 * x[j];",
        ),
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi64>",
            "y[i] = w[i, j] as i64 * x[j] as i64;",
        ),
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = reduce(w[i, j] as i32 * x[j] as i32, identity = 0, |a, b| max(a, b));",
        ),
        // Not `x + off`; the input read at another coordinate; a 2-D input.
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * (x[j] as i32 - 3);",
        ),
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[i] as i32;",
        ),
        (
            "w: &tensor<?x?xi8, #NV24>, x: &tensor<?x?xi8>, y: &mut tensor<?x?xi32>",
            "y[i, k] = w[i, j] as i32 * x[j, k] as i32;",
        ),
        // One stored value per group (1:4).
        (
            "w: &tensor<?x?xi8, #NV14>, x: &tensor<?xi8>, y: &mut tensor<?xi32>",
            "y[i] = w[i, j] as i32 * x[j] as i32;",
        ),
    ] {
        let out = expand(&format!("pub fn k({params}) {{ {stmt} }}"));
        assert!(!out.contains("compile_error"), "{stmt}\n{out}");
        assert!(!out.contains("dot_s8_2_4("), "{params}: {stmt}\n{out}");
    }
}
