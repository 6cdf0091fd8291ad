//! `#[specialize(w = W)]` through the whole expansion: the signature loses
//! `w`, the loops over `W`'s levels become one block per stored entry with
//! constant coordinates and values, and the schedule in the doc comment
//! says which loops were written out or why none was.

use super::tests::{has, snapshot, COO, CSR};

fn expand(src: &str) -> String {
    super::tests::expand_pretty(src)
}

const W: &str = "
    /// Three entries.
    pub static W: tensor<3x4xf32, #CSR> = sparse<[[0, 1], [0, 3], [2, 0]], [1.5, -2.0, 0.25]>;
";

#[test]
fn a_csr_constant_is_written_out_entry_by_entry() {
    let out = expand(&format!(
        "{CSR}\n{W}\n
        /// y = W x
        #[specialize(w = W)]
        pub fn spmv(w: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {{
            y[i] = w[i, j] * x[j];
        }}"
    ));
    let kernel = &out[out.find("/// y = W x").expect("the kernel")..];
    snapshot("spmv_csr_specialized", kernel);
    assert!(
        has(
            kernel,
            "pub fn spmv(x: &[::core::primitive::f32; 4], y: &mut [::core::primitive::f32; 3],)"
        ),
        "{kernel}"
    );
    assert!(has(kernel, "let w = &W;"), "{kernel}");
    // One block per row, one per entry in rows 0 and 2, none in row 1.
    for (row, entries) in [
        (0, vec![(0, 1, "1.5"), (1, 3, "-2.0")]),
        (2, vec![(2, 0, "0.25")]),
    ] {
        assert!(
            has(kernel, &format!("let __sk_i = {row}usize;")),
            "{kernel}"
        );
        for (p, j, v) in entries {
            assert!(
                has(
                    kernel,
                    &format!(
                        "let __sk_j = {j}usize; let __sk_w_p1 = {p}usize; \
                     let __sk_w_w1: ::core::primitive::f32 = {v};"
                    )
                ),
                "entry {p}: {kernel}"
            );
        }
    }
    assert!(has(kernel, "let __sk_i = 1usize;"), "{kernel}");
    assert!(
        !kernel.contains("walk"),
        "no walk over W's entries: {kernel}"
    );
    assert!(
        !kernel.contains("for __sk_i"),
        "no loop over rows: {kernel}"
    );
    assert!(
        has(
            kernel,
            "i, j: written out over the 3 stored entries of `W` (statement 1)"
        ),
        "{kernel}"
    );
}

#[test]
fn over_the_budget_or_with_duplicates_the_loops_stay() {
    let out = expand(&format!(
        "{CSR}\n{COO}\n{W}\n
        pub static C: tensor<3x4xf32, #COO> = sparse<[[0, 1], [2, 0]], [1.5, 0.25]>;
        #[specialize(w = W, max_entries = 2)]
        pub fn budget(w: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {{
            y[i] = w[i, j] * x[j];
        }}
        #[specialize(c = C)]
        pub fn coo(c: &tensor<3x4xf32, #COO>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {{
            y[i] = c[i, j] * x[j];
        }}"
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        has(&out, "pub fn budget(x: &[::core::primitive::f32; 4],"),
        "{out}"
    );
    assert!(
        has(
            &out,
            "statement 1: reads `W` through its loops, not written out: `W` stores 3 entries, \
             more than `max_entries = 2`"
        ),
        "{out}"
    );
    assert!(
        has(
            &out,
            "statement 1: reads `C` through its loops, not written out: level 0 is non-unique"
        ),
        "{out}"
    );
    // Both keep their walks, reading the constants' arrays (`W`'s rows
    // through a row cursor).
    assert!(
        has(&out, "for (__sk_w_p1, __sk_j, __sk_w_w1) in __sk_w_walk1"),
        "{out}"
    );
    assert!(out.contains("let c = &C;"), "{out}");
}

#[test]
fn a_tall_constant_with_few_entries_keeps_its_loops() {
    let out = expand(&format!(
        "{CSR}\n
        pub static T: tensor<10000x4xf32, #CSR> = sparse<[[0, 1], [9999, 3]], [1.5, -2.0]>;
        #[specialize(w = T)]
        pub fn tall(w: &tensor<10000x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<10000xf32>) {{
            y[i] = w[i, j] * x[j];
        }}"
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        has(
            &out,
            "not written out: its levels would be written out as 10002 blocks (dense levels count \
             every position), more than twice `max_entries = 2048`"
        ),
        "{out}"
    );
}

#[test]
fn an_input_offset_is_added_once_per_row() {
    let out = expand(&format!(
        "{CSR}\n
        pub static Q: tensor<2x4xi8, #CSR> = sparse<[[0, 1], [0, 3], [1, 2]], [5, -3, 7]>;
        #[specialize(q = Q)]
        pub fn layer(q: &tensor<2x4xi8, #CSR>, x: &tensor<4xi8>, acc: &mut tensor<2xi32>, off: i32) {{
            acc[i] = q[i, j] as i32 * (x[j] as i32 + off);
        }}"
    ));
    assert!(!out.contains("compile_error"), "{out}");
    // Row 0: 5 - 3 = 2; row 1: 7. No `off` inside the entries.
    assert!(
        has(&out, "::core::primitive::i32::wrapping_mul(off, 2i32)"),
        "{out}"
    );
    assert!(
        has(&out, "::core::primitive::i32::wrapping_mul(off, 7i32)"),
        "{out}"
    );
    assert_eq!(out.matches("wrapping_mul(off").count(), 2, "{out}");
    assert!(
        has(&out, "statement 1: `+ off` added once per row, times the row's weights summed at expansion time"),
        "{out}"
    );
}

#[test]
fn over_the_budget_an_int8_walk_reads_a_packed_stream() {
    let out = expand(&format!(
        "{CSR}\n
        #W16 = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 16 }}>
        pub static Q: tensor<3x300xi8, #W16> = sparse<
            [[0, 1], [0, 7], [0, 299], [2, 0], [2, 2], [2, 3], [2, 4], [2, 5]],
            [5, 127, -3, -128, 1, 2, 3, 4]>;
        pub static N: tensor<2x8xi8, #CSR> = sparse<[[0, 1], [0, 3], [1, 2]], [5, -3, 7]>;
        /// packed, wide
        #[specialize(q = Q, max_entries = 1)]
        pub fn wide(q: &tensor<3x300xi8, #W16>, x: &tensor<300xi8>, acc: &mut tensor<3xi32>, off: i32) {{
            acc[i] = q[i, j] as i32 * (x[j] as i32 + off);
        }}
        /// packed, narrow
        #[specialize(n = N, max_entries = 2)]
        pub fn narrow(n: &tensor<2x8xi8, #CSR>, x: &tensor<8xi8>, acc: &mut tensor<2xi32>) {{
            acc[i] = n[i, j] as i32 * x[j] as i32;
        }}"
    ));
    assert!(!out.contains("compile_error"), "{out}");
    let wide = &out[out.find("/// packed, wide").expect("wide")
        ..out.find("/// packed, narrow").expect("narrow")];
    let narrow = &out[out.find("/// packed, narrow").expect("narrow")..];
    // Row 0: coordinates 1, 7 | 299, 0 (padding) as u16 pairs, weights
    // 5, 127, -3, 0 as `i16` lanes of entries 0 and 2, then 1 and 3 (the
    // stream, 48 bytes, is within the 900 of the dense matrix); row 1
    // empty; row 2: 0, 2 | 3, 4 with -128, 1, 2, 3, then 5, 0 | 0, 0 with
    // 4, 0, 0, 0.
    let words = [
        1 | 7 << 16,
        299,
        5 | 0xfffd << 16,
        127,
        2 << 16,
        3 | 4 << 16,
        0xff80 | 2 << 16,
        1 | 3 << 16,
        5,
        0,
        4,
        0,
    ];
    let words: Vec<String> = words.iter().map(|w: &u32| format!("{w}u32")).collect();
    assert!(
        has(
            wide,
            &format!(
                "static STREAM: [::core::primitive::u32; 12] = [{},];",
                words.join(", ")
            )
        ),
        "{wide}"
    );
    assert!(
        has(
            wide,
            "static START: [::core::primitive::u16; 4] = [0u16, 4u16, 4u16, 12u16];"
        ),
        "{wide}"
    );
    // The rows' weights summed, times the offset: 129, 0, -118.
    assert!(
        has(
            wide,
            "static SUMS: [::core::primitive::i32; 3] = [129i32, 0i32, -118i32,];"
        ),
        "{wide}"
    );
    assert!(has(wide, "dot_s8_packed::<true, true,>("), "{wide}");
    // No array of `Q` is read: no positions, coordinates or values.
    assert!(!wide.contains("q.level(1)"), "{wide}");
    assert!(!wide.contains("q.values()"), "{wide}");
    assert!(
        has(
            wide,
            "j: one call to `dot_s8_packed` over `Q`'s 8 entries packed at expansion time \
             (statement 1): 12 words of groups of four (`u16` coordinates, `i16` pair weights), 68 bytes \
             of data with the row table and the rows' weights summed (the input offset folded); \
             not written out: `Q` stores 8 entries, more than `max_entries = 1`"
        ),
        "{wide}"
    );
    // Narrow: one word of four `u8` coordinates per group, one of `i8`
    // weights (pairs would take 24 bytes, more than the dense 16); no
    // offset, no sums.
    assert!(
        has(
            narrow,
            &format!(
                "static STREAM: [::core::primitive::u32; 4] = [{}u32, {}u32, {}u32, {}u32,];",
                1 | 3 << 8,
                5 | 0xfd << 8,
                2,
                7
            )
        ),
        "{narrow}"
    );
    assert!(has(narrow, "dot_s8_packed::<false, false,>("), "{narrow}");
    assert!(!narrow.contains("SUMS"), "{narrow}");
    assert!(!narrow.contains("dot_s8("), "{narrow}");
}
