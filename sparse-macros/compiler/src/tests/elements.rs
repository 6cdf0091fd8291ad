//! Element types beyond the primitives: `complex<..>` and `f16`/`bf16` in
//! tensor types and kernels (what the expansion names, the feature gates,
//! and the diagnostics of operations those types lack).

use super::errors;
use crate::expand;

fn expand_str(src: &str) -> String {
    expand(src.parse().expect("test input tokenizes")).to_string()
}

const CSR: &str = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>";

#[test]
fn complex_tensor_types_parse_with_their_brackets() {
    let m = super::model(&format!(
        "{CSR} type A = tensor<4x?xcomplex<f64>, #CSR>; type B = tensor<3xcomplex<f32>>;"
    ));
    assert_eq!(m.types[0].elem, crate::model::ValueType::Complex64);
    assert_eq!(m.types[0].shape, vec![Some(4), None]);
    assert_eq!(m.types[1].elem, crate::model::ValueType::Complex32);
}

#[test]
fn complex_kernels_name_num_complex_and_the_feature_gate() {
    let out = expand_str(&format!(
        "{CSR} fn f(a: &tensor<?x?xcomplex<f64>, #CSR>, x: &tensor<?xcomplex<f64>>, \
         y: &mut tensor<?xcomplex<f64>>, r: &mut tensor<?x?xf64>) {{ \
         y[i] = a[i, j] * conj(x[j]) * 2.0; r[i, j] = re(a[i, j]) + abs(a[i, j]); }}"
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("require_complex"), "{out}");
    assert!(out.contains("math :: complex :: conj"), "{out}");
    assert!(out.contains("math :: complex :: re"), "{out}");
    assert!(out.contains("math :: complex :: abs"), "{out}");
}

#[test]
fn operations_complex_numbers_lack_are_errors_at_the_operation() {
    let src = "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>\n\
         #PAT = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1.0 : complex<f32> }>\n\
         fn ops(a: &tensor<?xcomplex<f64>, #SV>, b: &tensor<?xcomplex<f64>>, r: &tensor<?xf64>, \
         y: &mut tensor<?xcomplex<f64>>, m: &mut tensor<?xf64>) {\n\
         y[i] = if a[i] < b[i] { a[i] } else { b[i] };\n\
         y[i] = max(a[i], b[i]);\n\
         m[i] = re(r[i]);\n\
         y[i] = a[i] * 2;\n\
         }";
    let found = errors(src);
    let has = |needle: &str, line: usize| {
        assert!(
            found
                .iter()
                .any(|(m, l, _)| m.contains(needle) && *l == line),
            "{needle:?} at line {line} in {found:#?}"
        )
    };
    has(
        "an `explicitVal` or `implicitVal` of type `complex<f32>` is not supported",
        2,
    );
    has(
        "`<` is not defined on complex numbers (`complex<f64>`), which have no order",
        4,
    );
    has(
        "`max` is defined on real numbers, but its arguments here are `Complex<f64>`",
        5,
    );
    has(
        "`re` is defined on complex numbers, but its arguments here are `f64`",
        6,
    );
    has("integer literal `2` where `Complex<f64>`", 7);
}
