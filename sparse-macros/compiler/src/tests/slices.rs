//! Sliced operands through the front end: which statements read a compact
//! copy of the slice, the loop tree of a sliced SpGEMM, the prologue's
//! checks, and the errors.

use crate::model::ParamKind;
use crate::sparsifier::sparsify;

const SLICES: &str = "
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #CSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(0, 4, 1)>, j : #sparse_tensor<slice(0, 8, ?)>) -> (i : dense, j : compressed)
    }>
    #CSC_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (j : dense, i : compressed)
    }>
    #CSR_UNIT = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #sparse_tensor<slice(2, ?, 1)>) -> (i : dense, j : compressed)
    }>
    #BSR_SLICE = #sparse_tensor.encoding<{
        map = (i : #sparse_tensor<slice(?, ?, ?)>, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
";

/// `actual` equals `expected` without its leading newline.
fn assert_text(actual: &str, expected: &str) {
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    assert!(
        actual == expected,
        "text differs\n--- expected\n{expected}\n--- actual\n{actual}"
    );
}

fn kernel(src: &str) -> crate::model::KernelDef {
    let program = super::program(&format!("{SLICES}\n{src}"));
    assert_eq!(program.kernels.len(), 1, "{src}");
    program.kernels.into_iter().next().unwrap().def
}

/// The workspace parameters: (name, the tensor it copies).
fn workspaces(def: &crate::model::KernelDef) -> Vec<(String, String)> {
    def.params
        .iter()
        .filter_map(|p| match &p.kind {
            ParamKind::Reordered { source, .. } => Some((
                p.name.to_string(),
                def.kernel.tensor_name(*source).to_string(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn sliced_spgemm_reads_a_compact_copy_of_the_slice() {
    let def = kernel(
        "pub fn spgemm(a: &tensor<4x8xf64, #CSR_SLICE>, b: &tensor<8x?xf64, #CSR>, c: &mut tensor<4x?xf64, #CSR>) {
             c[i, j] = a[i, k] * b[k, j];
         }",
    );
    assert_eq!(
        workspaces(&def),
        [("a_sliced".to_string(), "a".to_string())]
    );
    let plan = sparsify(&def.kernel).expect("plans");
    assert_text(
        &plan.text(&def.kernel),
        "
c[i, j] = a_sliced[i, k] * b[k, j]
order i (parallel), k (reduction), j (parallel)
output c: sparse, expanded into a workspace over c.lvl1: reduction k encloses parallel loop j
for i in 0..c.dim0  // parallel
  workspace w = expand c.lvl1
  iterate k in a_sliced.lvl1 compressed  // reduction
    iterate j in b.lvl1 compressed  // parallel
      w[j] += a_sliced[i, k] * b[k, j]
  compress w into c.lvl1
",
    );
}

#[test]
fn a_slice_read_in_another_order_is_copied_once_in_that_order() {
    // `a` is CSC-ordered; the sum of `a` and a CSR `b` needs one order: the
    // reordered copy is made from the slice itself, and no `a_sliced`.
    let def = kernel(
        "pub fn add(a: &tensor<?x?xf64, #CSC_SLICE>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
             c[i, j] = a[i, j] + b[i, j];
         }",
    );
    assert_eq!(
        workspaces(&def),
        [("a_reordered".to_string(), "a".to_string())]
    );
    // The statement reads only the copy.
    let stmt = &def.kernel.stmts[0];
    let read: Vec<&str> = stmt
        .rhs
        .accesses()
        .iter()
        .map(|x| def.kernel.tensor_name(x.tensor))
        .collect();
    assert_eq!(read, ["a_reordered", "b"]);
}

#[test]
fn copies_of_a_slice_into_sparse_outputs_convert_it() {
    // CSR slice into CSC: a conversion, straight from the slice view.
    let def = kernel(
        "pub fn f(a: &tensor<4x8xf64, #CSR_SLICE>, c: &mut tensor<4x8xf64, #CSC>) { c[i, j] = a[i, j]; }",
    );
    assert!(workspaces(&def).is_empty());
    let out = expand(
        "pub fn f(a: &tensor<4x8xf64, #CSR_SLICE>, c: &mut tensor<4x8xf64, #CSC>) { c[i, j] = a[i, j]; }",
    );
    assert!(
        out.contains("convert_slice_into (a , [0 , 1] , c , \"c\""),
        "{out}"
    );
    // Into CSR, the same order: the loops copy the compact copy.
    let def = kernel(
        "pub fn f(a: &tensor<4x8xf64, #CSR_SLICE>, c: &mut tensor<4x8xf64, #CSR>) { c[i, j] = a[i, j]; }",
    );
    assert_eq!(
        workspaces(&def),
        [("a_sliced".to_string(), "a".to_string())]
    );
}

fn expand(src: &str) -> String {
    crate::expand(format!("{SLICES}\n{src}").parse().expect("tokenizes")).to_string()
}

#[test]
fn the_prologue_checks_static_slice_parameters_only() {
    let out = expand(
        "pub fn spmv(a: &tensor<4x?xf64, #CSR_SLICE>, x: &tensor<?xf64>, y: &mut tensor<4xf64>) {
             y[i] = a[i, j] * x[j];
         }",
    );
    assert!(!out.contains("compile_error"), "{out}");
    // offset 0 and stride 1 of `i`, offset 0 and size 8 of `j` (its type
    // says `?`); not `j`'s `?` stride, nor `i`'s size (the type's 4).
    assert_eq!(out.matches("slice_mismatch").count(), 4, "{out}");
    assert!(out.contains("SliceParam :: Size"), "{out}");
    assert_eq!(out.matches("SliceParam :: Stride").count(), 1, "{out}");
    assert!(
        out.contains("reorder_slice (a , a_sliced , \"a_sliced\""),
        "{out}"
    );
    // The alias is the view type.
    assert!(
        out.contains("pub type CSR_SLICE < 'a , V > = :: sparse_core :: __private :: SliceView")
    );
}

#[test]
fn sliced_outputs_blocks_and_sizes_are_spanned_errors() {
    let errors = |src: &str| -> Vec<String> {
        super::errors(&format!("{SLICES}\n{src}"))
            .into_iter()
            .map(|e| e.0)
            .collect()
    };
    let e = errors(
        "pub fn f(a: &tensor<4x8xf64, #CSR>, c: &mut tensor<4x8xf64, #CSR_SLICE>) { c[i, j] = a[i, j]; }",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("kernels cannot write the sliced output `c`"),
        "{e:?}"
    );
    let e = errors(
        "pub fn f(a: &tensor<4x4xf64, #BSR_SLICE>, y: &mut tensor<4xf64>) { y[i] = a[i, j]; }",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("whose levels are not plain dimensions"),
        "{e:?}"
    );
    let e = errors("type T = tensor<5x8xf64, #CSR_SLICE>;");
    assert_eq!(
        e,
        [
            "dimension 0 has size 5, but `#CSR_SLICE` slices it to 4 coordinates \
          (`slice(.., 4, ..)`): a sliced tensor's size is its slice's; write 4 (or `?`)"
        ]
    );
    let e = errors("static W: tensor<4x8xf64, #CSR_SLICE> = sparse<[[0, 0]], [1.0]>;");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("a constant is a whole tensor"), "{e:?}");
}

#[test]
fn a_stride_1_slice_is_walked_in_place() {
    let def = kernel(
        "pub fn spmv(a: &tensor<?x?xf64, #CSR_UNIT>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
             y[i] = a[i, j] * x[j];
         }",
    );
    assert!(workspaces(&def).is_empty());
    let plan = sparsify(&def.kernel).expect("plans");
    assert_text(
        &plan.text(&def.kernel),
        "
y[i] = a[i + a.offset0, j + a.offset1] * x[j]
order i (parallel), j (reduction)
output y: dense, stored directly: every element is visited once
for i in 0..y.dim0  // parallel
  local r = 0
  iterate j in a.lvl1 compressed at j + a.offset1  // reduction
    r += a[i + a.offset0, j + a.offset1] * x[j]
  y[i] = r
",
    );
    let out = expand(
        "pub fn spmv(a: &tensor<?x?xf64, #CSR_UNIT>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
             y[i] = a[i, j] * x[j];
         }",
    );
    assert!(!out.contains("compile_error"), "{out}");
    // No copy: the whole tensor's storage, from the view's offsets.
    assert!(!out.contains("a_sliced"), "{out}");
    assert!(!out.contains("reorder_slice"), "{out}");
    assert!(
        out.contains("a . tensor () . level (1) . coordinates ()"),
        "{out}"
    );
    assert!(out.contains("a . offsets () [0]"), "{out}");
    assert!(out.contains("a . offsets () [1]"), "{out}");
    // Rows at `offset0 + i`, over the whole tensor's row count; columns in
    // the window `offset1 .. offset1 + n_j`, read relative to its start.
    assert!(
        out.contains("__sk_i . wrapping_add (__sk_a_slice_off0)"),
        "{out}"
    );
    assert_eq!(out.matches("lower_bound").count(), 2, "{out}");
    assert!(out.contains("wrapping_sub (__sk_a_off1)"), "{out}");
    // The static parameters are still checked: `j`'s offset 2, both strides.
    assert_eq!(out.matches("slice_mismatch").count(), 3, "{out}");
    // No range check of the slice's subscripts: the view guarantees them.
    assert!(!out.contains("subscript_range"), "{out}");
}

#[test]
fn other_slices_keep_their_copy() {
    // A `?` stride, a nonordered level, an all-dense encoding: copies.
    let matrix = "pub fn f(a: &tensor<?x?xf64, #S>, y: &mut tensor<?xf64>) { y[i] = a[i, j]; }";
    let vector = "pub fn f(a: &tensor<?xf64, #S>, y: &mut tensor<?xf64>) { y[i] = a[i]; }";
    for (enc, kernel) in [
        (
            "(i : #sparse_tensor<slice(?, ?, ?)>, j) -> (i : dense, j : compressed)",
            matrix,
        ),
        (
            "(i : #sparse_tensor<slice(?, ?, 1)>, j) -> (i : dense, j : compressed(nonordered))",
            matrix,
        ),
        (
            "(i : #sparse_tensor<slice(?, ?, 1)>) -> (i : dense)",
            vector,
        ),
    ] {
        let model = super::program(&format!(
            "#S = #sparse_tensor.encoding<{{ map = {enc} }}>\n{kernel}"
        ));
        assert_eq!(
            workspaces(&model.kernels[0].def),
            [("a_sliced".to_string(), "a".to_string())],
            "{enc}"
        );
    }
}
#[test]
fn a_diagonal_of_a_slice_is_walked_in_place() {
    // The model reads `a[i, i]` as `a[i, j]` filtered by `j == i`: two
    // variables, each over its own window, compared in slice coordinates.
    let def = kernel(
        "pub fn f(a: &tensor<?x?xf64, #CSR_UNIT>, y: &mut tensor<?xf64>) { y[i] = a[i, i]; }",
    );
    assert!(workspaces(&def).is_empty());
}
