//! Kernels through the front end: each acceptance kernel parses and checks
//! into the [`Kernel`] an independent hand-built one describes, and the
//! sparsifier accepts it.

use crate::model::{KernelDef, ParamKind, ValueType};
use crate::sparsifier::{sparsify, Expr, Kernel, LoopId, Role, TensorDesc, TensorId};
use crate::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType};

/// The encodings every test kernel may use.
pub(crate) const ENCODINGS: &str = "
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
    #DCSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed) }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
";

/// The one kernel of `ENCODINGS` + `src`.
pub(crate) fn kernel(src: &str) -> KernelDef {
    let program = super::program(&format!("{ENCODINGS}\n{src}"));
    assert_eq!(program.kernels.len(), 1, "{src}");
    program.kernels.into_iter().next().unwrap().def
}

const D: LevelType = LevelType::new(LevelFormat::Dense);
const C: LevelType = LevelType::new(LevelFormat::Compressed);

fn sparse(name: &str, types: &[LevelType], perm: &[u8]) -> TensorDesc {
    let levels: Vec<_> = types
        .iter()
        .zip(perm)
        .map(|(&t, &d)| (t, LevelExpr::Dim(d)))
        .collect();
    TensorDesc::sparse(name, types.len(), &levels)
}

fn at(t: TensorId, l: &[LoopId]) -> Expr {
    Expr::at(t, l)
}

/// The loop order of statement `n` of the kernel's plan, by name.
fn order(def: &KernelDef, n: usize) -> Vec<(String, Role)> {
    let plan = sparsify(&def.kernel).expect("the sparsifier accepts the kernel");
    plan.stmts[n]
        .order
        .iter()
        .map(|&(l, role)| (def.kernel.loop_name(l).to_string(), role))
        .collect()
}

use Role::{Parallel as P, Reduction as R};

fn names(order: &[(&str, Role)]) -> Vec<(String, Role)> {
    order.iter().map(|&(n, r)| (n.to_string(), r)).collect()
}

/// SpMV `y = A x` over `a` with the given encoding and level layout.
fn spmv(enc: &str, a: TensorDesc, expected_order: &[(&str, Role)]) {
    let def = kernel(&format!(
        "pub fn spmv(a: &tensor<?x?xf64, #{enc}>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {{
             y[i] = a[i, j] * x[j];
         }}"
    ));
    let mut k = Kernel::new();
    let ta = k.tensor(a);
    let x = k.tensor(TensorDesc::dense("x", 1));
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let (i, j) = (k.index("i"), k.index("j"));
    k.assign(y, &[i], at(ta, &[i, j]) * at(x, &[j]));
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(expected_order), "{enc}");
}

#[test]
fn spmv_in_every_matrix_format() {
    spmv("CSR", sparse("a", &[D, C], &[0, 1]), &[("i", P), ("j", R)]);
    spmv("CSC", sparse("a", &[D, C], &[1, 0]), &[("j", R), ("i", P)]);
    spmv("DCSR", sparse("a", &[C, C], &[0, 1]), &[("i", P), ("j", R)]);
    spmv("DCSC", sparse("a", &[C, C], &[1, 0]), &[("j", R), ("i", P)]);
    let coo = [
        C.with(LevelProps::NONUNIQUE),
        LevelType::new(LevelFormat::Singleton),
    ];
    spmv("COO", sparse("a", &coo, &[0, 1]), &[("i", P), ("j", R)]);
}

#[test]
fn spmv_parameters_become_the_kernel_def() {
    let def = kernel(
        "/// y = A x
         pub fn spmv(a: &tensor<64x200xf32, #CSR>, alpha: f32, x: &tensor<200xf32>, y: &mut tensor<64xf32>) {
             y[i] += alpha * a[i, j] * x[j];
         }",
    );
    assert_eq!(def.name, "spmv");
    assert_eq!(def.attrs.len(), 1);
    assert!(matches!(def.vis, syn::Visibility::Public(_)));
    let kinds: Vec<String> = def
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Sparse {
                tensor,
                encoding,
                elem,
                shape,
                mutable,
            } => format!(
                "{} sparse {} #{encoding} {elem:?} {shape:?} {mutable}",
                p.name, tensor.0
            ),
            ParamKind::Dense {
                tensor,
                elem,
                shape,
                mutable,
            } => format!("{} dense {} {elem:?} {shape:?} {mutable}", p.name, tensor.0),
            ParamKind::Scalar { ty } => format!("{} scalar {}", p.name, quote::quote!(#ty)),
            ParamKind::Unresolved { tensor, mutable } => {
                format!("{} unresolved {} {mutable}", p.name, tensor.0)
            }
            ParamKind::Reordered {
                tensor,
                source,
                encoding,
                elem,
            } => format!(
                "{} reordered {} of {} #{encoding} {elem:?}",
                p.name, tensor.0, source.0
            ),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "a sparse 0 #CSR F32 [Some(64), Some(200)] false",
            "alpha scalar f32",
            "x dense 1 F32 [Some(200)] false",
            "y dense 2 F32 [Some(64)] true",
        ]
    );
    assert_eq!(def.params[1].kind.tensor(), None);
    assert_eq!(def.kernel.loops, ["i", "j"]);
    assert_eq!(def.index_spans.len(), 2);
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[D, C], &[0, 1]));
    let x = k.tensor(TensorDesc::dense("x", 1));
    let y = k.tensor(TensorDesc::dense("y", 1).output());
    let (i, j) = (k.index("i"), k.index("j"));
    k.add_assign(y, &[i], Expr::lit("alpha") * at(a, &[i, j]) * at(x, &[j]));
    assert_eq!(def.kernel, k);
    sparsify(&def.kernel).expect("accepted");
}

#[test]
fn spmm_dot_and_vector_add() {
    let def = kernel(
        "fn spmm(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64>, c: &mut tensor<?x?xf64>) {
             c[i, j] = a[i, k] * b[k, j];
         }",
    );
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[D, C], &[0, 1]));
    let b = k.tensor(TensorDesc::dense("b", 2));
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(c, &[i, j], at(a, &[i, kk]) * at(b, &[kk, j]));
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(&[("i", P), ("j", P), ("k", R)]));

    let def = kernel(
        "fn dot(a: &tensor<?xf32, #SV>, b: &tensor<?xf32>, s: &mut tensor<f32>) { s[] = a[i] * b[i]; }",
    );
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[C], &[0]));
    let b = k.tensor(TensorDesc::dense("b", 1));
    let s = k.tensor(TensorDesc::scalar("s").output());
    let i = k.index("i");
    k.assign(s, &[], at(a, &[i]) * at(b, &[i]));
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(&[("i", R)]));

    let def = kernel(
        "fn add(a: &tensor<?xf32, #SV>, b: &tensor<?xf32, #SV>, c: &mut tensor<?xf32>) { c[i] = a[i] + b[i]; }",
    );
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[C], &[0]));
    let b = k.tensor(sparse("b", &[C], &[0]));
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let i = k.index("i");
    k.assign(c, &[i], at(a, &[i]) + at(b, &[i]));
    assert_eq!(def.kernel, k);
}

#[test]
fn matrix_add_elementwise_mul_and_total() {
    for (op, expr) in [("+", "add"), ("*", "mul")] {
        let def = kernel(&format!(
            "fn m(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {{
                 c[i, j] = a[i, j] {op} b[i, j];
             }}"
        ));
        let mut k = Kernel::new();
        let a = k.tensor(sparse("a", &[D, C], &[0, 1]));
        let b = k.tensor(sparse("b", &[C, C], &[0, 1]));
        let c = k.tensor(TensorDesc::dense("c", 2).output());
        let (i, j) = (k.index("i"), k.index("j"));
        let rhs = if expr == "add" {
            at(a, &[i, j]) + at(b, &[i, j])
        } else {
            at(a, &[i, j]) * at(b, &[i, j])
        };
        k.assign(c, &[i, j], rhs);
        assert_eq!(def.kernel, k, "{op}");
        assert_eq!(order(&def, 0), names(&[("i", P), ("j", P)]));
    }
    let def =
        kernel("pub fn total(a: &tensor<?x?xf64, #CSR>, s: &mut tensor<f64>) { s[] += a[i, j]; }");
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[D, C], &[0, 1]));
    let s = k.tensor(TensorDesc::scalar("s").output());
    let (i, j) = (k.index("i"), k.index("j"));
    k.add_assign(s, &[], at(a, &[i, j]));
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(&[("i", R), ("j", R)]));
}

#[test]
fn sddmm_ttv_and_mttkrp() {
    let def = kernel(
        "fn sddmm(s: &tensor<?x?xf32, #CSR>, u: &tensor<?x?xf32>, v: &tensor<?x?xf32>, c: &mut tensor<?x?xf32>) {
             c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
         }",
    );
    let mut k = Kernel::new();
    let s = k.tensor(sparse("s", &[D, C], &[0, 1]));
    let u = k.tensor(TensorDesc::dense("u", 2));
    let v = k.tensor(TensorDesc::dense("v", 2));
    let c = k.tensor(TensorDesc::dense("c", 2).output());
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(
        c,
        &[i, j],
        at(s, &[i, j]) * (at(u, &[i, kk]) * at(v, &[kk, j])),
    );
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(&[("i", P), ("j", P), ("k", R)]));

    let def = kernel(
        "fn ttv(b: &tensor<?x?x?xf64, #CSF>, c: &tensor<?xf64>, a: &mut tensor<?x?xf64>) {
             a[i, j] = b[i, j, k] * c[k];
         }",
    );
    let mut k = Kernel::new();
    let b = k.tensor(sparse("b", &[C, C, C], &[0, 1, 2]));
    let c = k.tensor(TensorDesc::dense("c", 1));
    let a = k.tensor(TensorDesc::dense("a", 2).output());
    let (i, j, kk) = (k.index("i"), k.index("j"), k.index("k"));
    k.assign(a, &[i, j], at(b, &[i, j, kk]) * at(c, &[kk]));
    assert_eq!(def.kernel, k);
    assert_eq!(order(&def, 0), names(&[("i", P), ("j", P), ("k", R)]));

    let def = kernel(
        "fn mttkrp(b: &tensor<?x?x?xf64, #CSF>, c: &tensor<?x?xf64>, d: &tensor<?x?xf64>, a: &mut tensor<?x?xf64>) {
             a[i, j] = b[i, k, l] * c[k, j] * d[l, j];
         }",
    );
    let mut k = Kernel::new();
    let b = k.tensor(sparse("b", &[C, C, C], &[0, 1, 2]));
    let c = k.tensor(TensorDesc::dense("c", 2));
    let d = k.tensor(TensorDesc::dense("d", 2));
    let a = k.tensor(TensorDesc::dense("a", 2).output());
    let (i, j, kk, l) = (k.index("i"), k.index("j"), k.index("k"), k.index("l"));
    k.assign(
        a,
        &[i, j],
        at(b, &[i, kk, l]) * at(c, &[kk, j]) * at(d, &[l, j]),
    );
    assert_eq!(def.kernel, k);
    // The CSF levels fix i, k, l; j is a parallel loop placed innermost.
    let o = order(&def, 0);
    let pos = |n: &str| o.iter().position(|(m, _)| m == n).unwrap();
    assert!(pos("i") < pos("k") && pos("k") < pos("l"), "{o:?}");
}

#[test]
fn expressions_keep_precedence_literals_casts_and_calls() {
    let def = kernel(
        "fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, d: &tensor<?xf64>, alpha: f64, c: &mut tensor<?xf64>) {
             c[i] = a[i] * b[i] + d[i];
             c[i] += -a[i] * (i as f64) - 2.5 / alpha;
             c[i] += sqrt(abs(d[i])) + max(b[i], 0.0) * powi(b[i], 2) + -(b[i] - d[i]);
         }",
    );
    let mut k = Kernel::new();
    let a = k.tensor(sparse("a", &[C], &[0]));
    let b = k.tensor(TensorDesc::dense("b", 1));
    let d = k.tensor(TensorDesc::dense("d", 1));
    let c = k.tensor(TensorDesc::dense("c", 1).output());
    let i = k.index("i");
    k.assign(c, &[i], at(a, &[i]) * at(b, &[i]) + at(d, &[i]));
    k.add_assign(
        c,
        &[i],
        -at(a, &[i]) * Expr::Index(i).cast("f64") - Expr::lit("2.5") / Expr::lit("alpha"),
    );
    k.add_assign(
        c,
        &[i],
        Expr::call("sqrt", vec![Expr::call("abs", vec![at(d, &[i])])])
            + Expr::call("max", vec![at(b, &[i]), Expr::lit("0.0")])
                * Expr::call("powi", vec![at(b, &[i]), Expr::lit("2")])
            + -(at(b, &[i]) - at(d, &[i])),
    );
    assert_eq!(def.kernel, k);
    assert_eq!(
        def.kernel.show_stmt(&def.kernel.stmts[1]),
        "c[i] += -a[i] * i as f64 - 2.5 / alpha"
    );
    sparsify(&def.kernel).expect("accepted");
}

#[test]
fn index_variables_are_kernel_wide_in_order_of_first_use() {
    let def = kernel(
        "fn two(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>, z: &mut tensor<?xf64>) {
             y[i] = a[i, j] * x[j];
             z[j] = x[j] * 2.0;
             z[k] += y[k];
         }",
    );
    assert_eq!(def.kernel.loops, ["i", "j", "k"]);
    // Each index variable's span is its first use: `y[i`, `a[i, j`, `z[k`.
    let lines: Vec<(usize, usize)> = def
        .index_spans
        .iter()
        .map(|s| (s.start().line, s.start().column))
        .collect();
    let first = ENCODINGS.matches('\n').count() + 2;
    assert_eq!(lines, [(first + 1, 15), (first + 1, 25), (first + 3, 15)]);
    assert_eq!(def.kernel.stmts.len(), 3);
    assert_eq!(def.kernel.stmts[1].lhs.indices, [LoopId(1)]);
    assert_eq!(def.kernel.stmts[2].lhs.indices, [LoopId(2)]);
}

#[test]
fn element_types_and_scalars_of_every_kind() {
    let def = kernel(
        "fn f(a: &tensor<4x4xi32, #CSR>, b: &tensor<4x4xi32>, n: usize, c: &mut tensor<4x4xi32>, m: &mut tensor<4xui8>, t: &tensor<4xi1>) {
             c[i, j] = a[i, j] * 3 + b[i, j] / (n as i32);
             m[i] = max(b[i, i2] as u8, 1u8) + (t[i] as u8);
         }",
    );
    let elems: Vec<Option<ValueType>> = def
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Sparse { elem, .. }
            | ParamKind::Dense { elem, .. }
            | ParamKind::Reordered { elem, .. } => Some(*elem),
            ParamKind::Scalar { .. } | ParamKind::Unresolved { .. } => None,
        })
        .collect();
    assert_eq!(
        elems,
        [
            Some(ValueType::I32),
            Some(ValueType::I32),
            None,
            Some(ValueType::I32),
            Some(ValueType::U8),
            Some(ValueType::Bool)
        ]
    );
    sparsify(&def.kernel).expect("accepted");
}

#[test]
fn attributes_visibility_and_trailing_commas() {
    let def = kernel(
        "#[inline]
         /// Doc.
         pub(crate) fn f(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>,) { y[i,] = a[i]; }",
    );
    assert_eq!(def.attrs.len(), 2);
    assert!(matches!(def.vis, syn::Visibility::Restricted(_)));
    assert_eq!(def.kernel.stmts.len(), 1);
}

#[test]
fn kernels_and_aliases_share_a_block() {
    let model = super::program(&format!(
        "{ENCODINGS}
         type Mat = tensor<4x4xf64, #CSR>;
         fn f(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {{ y[i] = a[i]; }}
         fn g(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {{ y[i] = a[i] * 2.0; }}"
    ));
    assert_eq!(model.model.types.len(), 1);
    let names: Vec<String> = model
        .kernels
        .iter()
        .map(|k| k.def.name.to_string())
        .collect();
    assert_eq!(names, ["f", "g"]);
}

/// The expansion of `src` as text, with every error message.
fn expansion(src: &str) -> String {
    crate::expand(src.parse().expect("tokenizes")).to_string()
}

#[test]
fn expand_generates_kernels_and_stubs() {
    let ok = expansion(&format!(
        "{ENCODINGS} pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {{ y[i] = a[i, j] * x[j]; }}"
    ));
    assert!(ok.contains("pub fn spmv"), "{ok}");
    assert!(!ok.contains("compile_error"), "{ok}");
    // A sliced operand of stride 2 is read through a compact copy of the
    // slice.
    let sliced = expansion(
        "#P = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 2)>) -> (i : compressed) }>
         pub fn copy(a: &tensor<?xf64, #P>, y: &mut tensor<?xf64>) { y[i] = a[i]; }",
    );
    assert!(sliced.contains("fn copy"), "{sliced}");
    assert!(sliced.contains("a_sliced"), "{sliced}");
    assert!(sliced.contains("reorder_slice"), "{sliced}");
    assert!(!sliced.contains("compile_error"), "{sliced}");
    // Of stride 1, it is walked in place: the window of the whole
    // tensor's coordinates from the view's offset, no copy.
    let sliced = expansion(
        "#P = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 1)>) -> (i : compressed) }>
         pub fn copy(a: &tensor<?xf64, #P>, y: &mut tensor<?xf64>) { y[i] = a[i]; }",
    );
    assert!(!sliced.contains("a_sliced"), "{sliced}");
    assert!(!sliced.contains("reorder_slice"), "{sliced}");
    assert!(sliced.contains("a . tensor () . level (0)"), "{sliced}");
    assert!(sliced.contains("a . offsets () [0]"), "{sliced}");
    assert!(sliced.contains("lower_bound"), "{sliced}");
    assert!(!sliced.contains("compile_error"), "{sliced}");
    let broken = expansion(&format!(
        "{ENCODINGS} pub fn spmv(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {{ y[i] = b[i]; }}"
    ));
    assert!(broken.contains("unknown tensor `b`"), "{broken}");
    // The signature survives as a stub with an empty body, so call sites
    // add no errors of their own.
    assert!(broken.contains("pub fn spmv"), "{broken}");
    let model_errors = crate::parse_and_check(
        format!(
            "{ENCODINGS} pub fn spmv(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {{ y[i] = b[i]; }}"
        )
        .parse()
        .unwrap(),
    );
    assert!(model_errors.is_err());
    // A broken signature gets no stub.
    let no_stub = expansion(&format!(
        "{ENCODINGS} pub fn spmv(a: &tensor<?x?xf65, #CSR>, y: &mut tensor<?xf64>) {{ y[i] = a[i, j]; }}"
    ));
    assert!(!no_stub.contains("fn spmv"), "{no_stub}");
    // Neither does a kernel whose name is taken.
    let twice = expansion(&format!(
        "{ENCODINGS} fn f(y: &mut tensor<?xf64>) {{ y[i] = 1.0; }} fn f(y: &mut tensor<?xf64>) {{ y[i] = 2.0; }}"
    ));
    assert_eq!(twice.matches("fn f (").count(), 1, "{twice}");
}

#[test]
fn stubs_keep_the_signature_of_kernels_with_statement_errors() {
    let mut errors = crate::Errors::new();
    let checked = crate::model::check(
        &crate::syntax::parse(
            format!(
                "{ENCODINGS}
                 fn bad(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {{ y[i] = a[i, j] % x[j]; }}
                 fn conflict(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64>) {{ c[i, j] = a[i, j] + b[i, j]; }}"
            )
            .parse()
            .unwrap(),
            &mut crate::Errors::new(),
        ),
        &mut crate::Errors::new(),
    );
    let model = crate::plan::plan(checked, &mut errors);
    // The order conflict is resolved: `b` is read through a reordered
    // copy, a fourth parameter.
    let kernels: Vec<(String, usize)> = model
        .kernels
        .iter()
        .map(|k| (k.def.name.to_string(), k.def.params.len()))
        .collect();
    assert_eq!(kernels, [("conflict".to_string(), 4)]);
    let stubs: Vec<(String, usize, usize)> = model
        .stubs
        .iter()
        .map(|s| {
            let s = &s.def;
            (s.name.to_string(), s.params.len(), s.kernel.stmts.len())
        })
        .collect();
    assert_eq!(stubs, [("bad".into(), 3, 0)]);
}
