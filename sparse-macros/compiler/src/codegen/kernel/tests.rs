//! Snapshot tests of generated kernels: a `KernelDef` built by hand (the
//! model of real encoding text, the statements through the sparsifier's
//! builder), sparsified, generated and pretty-printed. The snapshots in
//! `snapshots/` are reviewed by hand and compiled and run against dense
//! references by `tests/tests/kernels/codegen_snapshots.rs`. Regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p sparse-compiler codegen::kernel`.

use proc_macro2::{Span, TokenStream};
use syn::{parse_quote, Ident};

use super::generate_kernel;
use crate::model::{ElemType, KernelDef, Model, Param, ParamKind};
use crate::sparsifier::{Expr, Kernel, LoopId, TensorDesc, TensorId};

use ElemType::{F32, F64};

fn model(src: &str) -> Model {
    let tokens: TokenStream = src.parse().expect("tokens");
    crate::parse_and_check(tokens)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .model
}

/// A kernel under construction: parameters in order, statements through
/// the sparsifier's builder.
pub(super) struct Def {
    model: Model,
    name: &'static str,
    pub(super) doc: Option<&'static str>,
    /// `#[parallel]` on the kernel.
    pub(super) parallel: bool,
    /// `#[fma]` on the kernel.
    pub(super) fma: bool,
    /// `#[unroll(n)]` on the kernel.
    pub(super) unroll: Option<u32>,
    /// `#[reassociate]` on the kernel (sets `Kernel::sum_first` too, as
    /// the kernel check does).
    pub(super) reassociate: bool,
    params: Vec<Param>,
    pub(super) k: Kernel,
}

impl Def {
    pub(super) fn new(encodings: &str, name: &'static str) -> Def {
        Def {
            model: model(encodings),
            name,
            doc: None,
            parallel: false,
            fma: false,
            unroll: None,
            reassociate: false,
            params: Vec::new(),
            k: Kernel::new(),
        }
    }
    fn ident(name: &str) -> Ident {
        Ident::new(name, Span::call_site())
    }
    pub(super) fn sparse(
        &mut self,
        name: &str,
        enc: &str,
        elem: ElemType,
        shape: &[Option<u64>],
    ) -> TensorId {
        let e = self.model.encoding(enc).expect("encoding");
        let levels: Vec<_> = e.levels.iter().map(|l| (l.ty, l.expr)).collect();
        let tensor = self
            .k
            .tensor(TensorDesc::sparse(name, shape.len(), &levels));
        self.params.push(Param {
            name: Self::ident(name),
            kind: ParamKind::Sparse {
                tensor,
                encoding: Self::ident(enc),
                elem,
                shape: shape.to_vec(),
                mutable: false,
            },
        });
        tensor
    }
    /// A sparse output `&mut tensor<..., #enc>`.
    pub(super) fn sparse_out(
        &mut self,
        name: &str,
        enc: &str,
        elem: ElemType,
        shape: &[Option<u64>],
    ) -> TensorId {
        let t = self.sparse(name, enc, elem, shape);
        if let Some(Param {
            kind: ParamKind::Sparse { mutable, .. },
            ..
        }) = self.params.last_mut()
        {
            *mutable = true;
        }
        self.k.tensors[t.index()].is_output = true;
        t
    }
    pub(super) fn dense(
        &mut self,
        name: &str,
        elem: ElemType,
        shape: &[Option<u64>],
        out: bool,
    ) -> TensorId {
        let mut desc = TensorDesc::dense(name, shape.len());
        if out {
            desc = desc.output();
        }
        let tensor = self.k.tensor(desc);
        self.params.push(Param {
            name: Self::ident(name),
            kind: ParamKind::Dense {
                tensor,
                elem,
                shape: shape.to_vec(),
                mutable: out,
            },
        });
        tensor
    }
    pub(super) fn scalar(&mut self, name: &str, ty: syn::Type) -> Expr {
        self.params.push(Param {
            name: Self::ident(name),
            kind: ParamKind::Scalar { ty: Box::new(ty) },
        });
        Expr::lit(name)
    }
    pub(super) fn index(&mut self, name: &str) -> LoopId {
        self.k.index(name)
    }
    pub(super) fn generate(mut self) -> String {
        let attrs = self
            .doc
            .map(|d| {
                let d = format!(" {d}");
                vec![parse_quote!(#[doc = #d])]
            })
            .unwrap_or_default();
        let n = self.k.loops.len();
        self.k.sum_first |= self.reassociate;
        let def = KernelDef {
            attrs,
            vis: parse_quote!(pub),
            name: Self::ident(self.name),
            params: self.params,
            kernel: self.k,
            index_spans: vec![Span::call_site(); n],
            closures: Vec::new(),
            parallel: self.parallel.then(Span::call_site),
            fma: self.fma.then(Span::call_site),
            reassociate: self.reassociate.then(Span::call_site),
            unroll: self.unroll.map(|n| (n, Span::call_site())),
            specialize: None,
            stmt_spans: Vec::new(),
        };
        // Built as the planner's copies leave it: sparsified as is.
        let planned = crate::plan::sparsify_kernel(def, &self.model, None)
            .unwrap_or_else(|(_, e)| panic!("{e:?}"));
        let tokens = generate_kernel(&planned);
        let file: syn::File = syn::parse2(tokens).unwrap_or_else(|e| panic!("{e}"));
        prettyplease::unparse(&file)
    }
}

/// A whole `sparse_kernel!` block expanded and pretty-printed.
pub(super) fn expand_pretty(src: &str) -> String {
    let tokens = crate::expand(src.parse().expect("tokenizes"));
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses");
    prettyplease::unparse(&file)
}

/// Whether `text` contains `needle`, ignoring whitespace (the pretty
/// printer breaks long lines).
pub(super) fn has(text: &str, needle: &str) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    squash(text).contains(&squash(needle))
}

/// Where `needle` first occurs in `text`, whitespace ignored (as `has`).
pub(super) fn at(text: &str, needle: &str) -> usize {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    squash(text)
        .find(&squash(needle))
        .unwrap_or_else(|| panic!("no `{needle}` in\n{text}"))
}

pub(super) fn snapshot(name: &str, text: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(format!("{name}.rs"));
    let header = "// Generated by sparse-compiler's codegen snapshot tests; do not edit.\n";
    let text = format!("{header}{text}");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {}; run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    assert!(
        expected == text,
        "snapshot {name} differs; rerun with UPDATE_SNAPSHOTS=1 and review the diff\n{text}"
    );
}

pub(super) const CSR: &str = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>";
pub(super) const CSC: &str =
    "#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>";
pub(super) const COO: &str = "#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton), crdWidth = 32 }>";
pub(super) const SV: &str = "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>";
pub(super) const DCSR: &str =
    "#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>";
pub(super) const LOOSE: &str =
    "#LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>";

/// `y[i] = a[i, j] * x[j]` with `a` in encoding `enc`.
pub(super) fn spmv(encodings: &str, enc: &str, name: &'static str) -> String {
    spmv_def(encodings, enc, name).generate()
}

/// The kernel of [`spmv`], not yet generated.
pub(super) fn spmv_def(encodings: &str, enc: &str, name: &'static str) -> Def {
    let mut d = Def::new(encodings, name);
    d.doc = Some("y = A x");
    let a = d.sparse("a", enc, F64, &[None, None]);
    let x = d.dense("x", F64, &[None], false);
    let y = d.dense("y", F64, &[None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(y, &[i], Expr::at(a, &[i, j]) * Expr::at(x, &[j]));
    d
}

pub(super) const BSR: &str = "#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>";

pub(super) const NV24: &str = "#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 8 }>";

#[test]
fn spmv_2_4_writes_out_the_two_entries_of_each_group() {
    let text = spmv(NV24, "NV24", "spmv_2_4");
    snapshot("spmv_2_4", &text);
    assert!(has(&text, "let __sk_a_lo2 = __sk_a_p1 * 2;"));
    assert!(has(&text, "let __sk_a_p2 = __sk_a_lo2 + 0;"));
    assert!(has(&text, "let __sk_a_p2 = __sk_a_lo2 + 1;"));
    assert!(!has(&text, "walk_values"));
    assert!(has(&text, "__sk_j__blk * 4 + __sk_j__in"));
}

#[test]
fn spmv_bsr_walks_blocks_with_constant_inner_loops() {
    let text = spmv(BSR, "BSR", "spmv_bsr");
    snapshot("spmv_bsr", &text);
    // The loops inside a block are written out, one copy per offset; the
    // dense operands are read at `blk * 2 + in`.
    assert!(has(
        &text,
        "let __sk_n_i__in: ::core::primitive::usize = 2;"
    ));
    assert!(!has(&text, "for __sk_i__in in"));
    assert!(has(&text, "let __sk_i__in = 0usize;"));
    assert!(has(&text, "let __sk_i__in = 1usize;"));
    assert!(has(&text, "let __sk_j__in = 1usize;"));
    assert!(has(&text, "__sk_j__blk * 2 + __sk_j__in"));
    assert!(has(&text, "::sparse_core::__private::partial_block("));
}

#[test]
fn spmv_csr_is_a_row_loop_with_a_scalar_reduction() {
    let text = spmv(CSR, "CSR", "spmv_csr");
    snapshot("spmv_csr", &text);
    // Rows counted down: the body uses neither `i` nor a position bound by it.
    assert!(has(&text, "while __sk_left_i != 0 {"));
    assert!(has(
        &text,
        "let mut __sk_acc: ::core::primitive::f64 = 0.0_f64;"
    ));
    // A row cursor (rows.rs): one row per iteration, `y` written in order.
    assert!(has(
        &text,
        "::sparse_core::__private::rows_values(__sk_a_pos1, __sk_a_crd1, __sk_a_val)"
    ));
    assert!(has(
        &text,
        "let __sk_a_walk1 = unsafe { __sk_a_rows1.row() };"
    ));
    assert!(has(
        &text,
        "let mut __sk_y_slots = unsafe { ::sparse_core::__private::slots(__sk_y_data) };"
    ));
    assert!(has(
        &text,
        "let __sk_y_out = unsafe { __sk_y_slots.next() };"
    ));
    assert!(has(
        &text,
        "for (__sk_a_p1, __sk_j, __sk_a_w1) in __sk_a_walk1 {"
    ));
    assert!(has(&text, "let __sk_a_v = __sk_a_w1;"));
    assert!(has(&text, "__sk_acc += __sk_a_v * __sk_x_v;"));
}

#[test]
fn fma_fuses_the_product_accumulation_only() {
    let mut d = Def::new(CSR, "spmv_fma");
    d.fma = true;
    let a = d.sparse("a", "CSR", F32, &[None, None]);
    let x = d.dense("x", F32, &[None], false);
    let y = d.dense("y", F32, &[None], true);
    let s = d.dense("s", F32, &[None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(y, &[i], Expr::at(a, &[i, j]) * Expr::at(x, &[j]));
    d.k.assign(s, &[i], Expr::at(a, &[i, j]));
    let text = d.generate();
    assert!(has(
        &text,
        "__sk_acc = <::core::primitive::f32 as ::sparse_core::__private::MulAdd>::mul_add(__sk_a_v, __sk_x_v, __sk_acc,);"
    ));
    // A sum of single values has nothing to fuse.
    assert!(has(&text, "__sk_acc += __sk_a_v;"));
}

#[test]
fn spmv_csr_f32_for_microcontrollers() {
    // The kernel whose machine code docs/ARCHITECTURE.md shows.
    let mut d = Def::new(CSR, "spmv_csr_f32");
    let a = d.sparse("a", "CSR", F32, &[None, None]);
    let x = d.dense("x", F32, &[None], false);
    let y = d.dense("y", F32, &[None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(y, &[i], Expr::at(a, &[i, j]) * Expr::at(x, &[j]));
    let text = d.generate();
    snapshot("spmv_csr_f32", &text);
    assert!(has(
        &text,
        "let mut __sk_acc: ::core::primitive::f32 = 0.0_f32;"
    ));
}

#[test]
fn spmv_csc_zeroes_y_and_scatters_into_it() {
    let text = spmv(CSC, "CSC", "spmv_csc");
    snapshot("spmv_csc", &text);
    assert!(has(&text, "__sk_y_data.fill(0.0_f64);"));
    assert!(has(&text, "*__sk_y_out += __sk_a_v * __sk_x_v;"));
}

#[test]
fn spmv_coo_walks_duplicate_row_segments() {
    let text = spmv(COO, "COO", "spmv_coo");
    snapshot("spmv_coo", &text);
    // AoS tuples: two coordinates per entry.
    assert!(has(&text, "__sk_a_crd0, __sk_a_p0 * 2)"));
    assert!(has(&text, "__sk_a_crd1, __sk_a_p1 * 2 + 1)"));
    assert!(has(&text, "for __sk_a_p1 in __sk_a_lo1..__sk_a_hi1"));
    assert!(has(&text, "__sk_a_p0 = __sk_a_e0;"));
}

#[test]
fn spmv_loose_reads_lo_hi_pairs() {
    let text = spmv(LOOSE, "LOOSE", "spmv_loose");
    snapshot("spmv_loose", &text);
    assert!(has(&text, "__sk_a_pos1, 2 * __sk_a_p0)"));
    assert!(has(&text, "__sk_a_pos1, 2 * __sk_a_p0 + 1)"));
}

#[test]
fn spmv_dcsr_iterates_stored_rows() {
    let text = spmv(DCSR, "DCSR", "spmv_dcsr");
    snapshot("spmv_dcsr", &text);
    assert!(has(&text, "__sk_a_pos0, 0)"));
    assert!(has(&text, "__sk_a_pos1, __sk_a_p0)"));
}

/// `c[i] = a[i] <op> b[i]`, sparse vectors into a dense one.
fn vector(name: &'static str, rhs: impl Fn(Expr, Expr) -> Expr) -> String {
    let mut d = Def::new(SV, name);
    let c = d.dense("c", F64, &[None], true);
    let a = d.sparse("a", "SV", F64, &[None]);
    let b = d.sparse("b", "SV", F64, &[None]);
    let i = d.index("i");
    d.k.assign(c, &[i], rhs(Expr::at(a, &[i]), Expr::at(b, &[i])));
    d.generate()
}

#[test]
fn vector_add_is_a_union_with_exhaustion_loops() {
    let text = vector("vadd", |a, b| a + b);
    snapshot("vector_add", &text);
    assert!(has(
        &text,
        "while __sk_a_p0 < __sk_a_hi0 && __sk_b_p0 < __sk_b_hi0 {"
    ));
    // Two levels: merged by comparing their coordinates, one arm per
    // outcome (the schedule's two-way merge).
    assert!(has(
        &text,
        "if __sk_a_c0 < __sk_b_c0 { let __sk_i = __sk_a_c0;"
    ));
    assert!(has(
        &text,
        "} else if __sk_b_c0 < __sk_a_c0 { let __sk_i = __sk_b_c0;"
    ));
    assert!(has(
        &text,
        "__sk_b_p0 += 1; } else { let __sk_i = __sk_a_c0;"
    ));
    assert!(!has(&text, "::core::cmp::min("));
    assert!(has(
        &text,
        "i: two levels merged by comparing their coordinates"
    ));
    // Exhaustion: one loop per remaining operand, without tests.
    assert_eq!(text.matches("while __sk_a_p0 < __sk_a_hi0 {").count(), 1);
    assert_eq!(text.matches("while __sk_b_p0 < __sk_b_hi0 {").count(), 1);
}

#[test]
fn dot_is_an_intersection_into_a_scalar() {
    let mut d = Def::new(SV, "dot");
    let s = d.dense("s", F64, &[], true);
    let a = d.sparse("a", "SV", F64, &[None]);
    let b = d.sparse("b", "SV", F64, &[None]);
    let i = d.index("i");
    d.k.assign(s, &[], Expr::at(a, &[i]) * Expr::at(b, &[i]));
    let text = d.generate();
    snapshot("dot", &text);
    assert!(has(&text, "s: &mut ::core::primitive::f64"));
    assert!(has(&text, "*s = __sk_acc;"));
    assert_eq!(text.matches("while __sk").count(), 1);
}

#[test]
fn nonunique_leaf_segments_sum_their_duplicates() {
    let encodings = "#SVNU = #sparse_tensor.encoding<{ map = (i) -> (i : compressed(nonunique)) }> #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>";
    let mut d = Def::new(encodings, "dot_nu");
    let s = d.dense("s", F64, &[], true);
    let a = d.sparse("a", "SVNU", F64, &[None]);
    let b = d.sparse("b", "SV", F64, &[None]);
    let i = d.index("i");
    d.k.assign(s, &[], Expr::at(a, &[i]) * Expr::at(b, &[i]));
    let text = d.generate();
    snapshot("dot_nonunique", &text);
    assert!(has(&text, "for __sk_a_q in __sk_a_p0 + 1..__sk_a_e0 {"));
    assert!(has(&text, "__sk_a_v += __sk_a_dup;"));
    assert!(has(
        &text,
        "if __sk_a_c0 == __sk_i { __sk_a_p0 = __sk_a_e0; }"
    ));
}

#[test]
fn sparse_plus_dense_visits_every_coordinate() {
    let mut d = Def::new(SV, "axpy");
    let c = d.dense("c", F32, &[Some(8)], true);
    let alpha = d.scalar("alpha", parse_quote!(f32));
    let a = d.sparse("a", "SV", F32, &[None]);
    let x = d.dense("x", F32, &[None], false);
    let i = d.index("i");
    d.k.assign(c, &[i], alpha * Expr::at(a, &[i]) + Expr::at(x, &[i]));
    let text = d.generate();
    snapshot("axpy_universal", &text);
    assert!(has(&text, "c: &mut [::core::primitive::f32; 8]"));
    assert!(has(
        &text,
        "while __sk_a_p0 < __sk_a_hi0 && __sk_u_i < __sk_n_i {"
    ));
    assert!(has(&text, "for __sk_i in __sk_u_i..__sk_n_i {"));
    assert!(has(&text, "alpha * __sk_a_v + __sk_x_v"));
}

#[test]
fn static_shapes_scalar_params_and_math() {
    let mut d = Def::new(CSR, "scale");
    let a = d.sparse("a", "CSR", F32, &[Some(64), Some(200)]);
    let alpha = d.scalar("alpha", parse_quote!(f32));
    let x = d.dense("x", F32, &[Some(200)], false);
    let y = d.dense("y", F32, &[Some(64)], true);
    let (i, j) = (d.index("i"), d.index("j"));
    let rhs = alpha * Expr::call("abs", vec![Expr::at(a, &[i, j])]) * Expr::at(x, &[j])
        + Expr::call("sqrt", vec![Expr::Index(j).cast("f32")]);
    d.k.add_assign(y, &[i], rhs);
    let text = d.generate();
    snapshot("scale_static", &text);
    assert!(has(
        &text,
        "(a.dim_sizes()[0].wrapping_sub(64) | a.dim_sizes()[1].wrapping_sub(200)) != 0"
    ));
    assert!(has(&text, "x: &[::core::primitive::f32; 200]"));
    assert!(has(&text, "__sk_a_v.abs()"));
    assert!(has(
        &text,
        "::sparse_core::__private::math::sqrt(__sk_j as ::core::primitive::f32"
    ));
}

#[test]
fn spmm_with_dynamic_dense_matrices_uses_views() {
    let mut d = Def::new(CSR, "spmm");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let b = d.dense("b", F64, &[None, Some(4)], false);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, k]) * Expr::at(b, &[k, j]));
    let text = d.generate();
    snapshot("spmm_views", &text);
    assert!(has(
        &text,
        "b: ::sparse_core::__private::DenseView<'_, ::core::primitive::f64, 2>"
    ));
    assert!(has(
        &text,
        "c: ::sparse_core::__private::DenseViewMut<'_, ::core::primitive::f64, 2>"
    ));
    assert!(has(&text, "__sk_k * 4 + __sk_j"));
    assert!(has(&text, "__sk_i * __sk_n_j + __sk_j"));
}

pub(super) const CSF: &str = "#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed), crdWidth = 16 }>";

#[test]
fn scalar_sum_over_a_matrix() {
    let mut d = Def::new(CSR, "sum");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let s = d.dense("s", F64, &[], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.add_assign(s, &[], Expr::at(a, &[i, j]));
    let text = d.generate();
    snapshot("sum_csr", &text);
    assert!(has(
        &text,
        "let __sk_s_v = *s; let mut __sk_acc: ::core::primitive::f64 = __sk_s_v;"
    ));
}

#[test]
fn coo_plus_coo_merges_row_segments_then_columns() {
    let mut d = Def::new(COO, "coo_add");
    let a = d.sparse("a", "COO", F64, &[None, None]);
    let b = d.sparse("b", "COO", F64, &[None, None]);
    let c = d.dense("c", F64, &[None, None], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(c, &[i, j], Expr::at(a, &[i, j]) + Expr::at(b, &[i, j]));
    let text = d.generate();
    snapshot("coo_add", &text);
    // Rows merge by segment; inside a row both singleton levels walk their
    // segment.
    assert!(has(
        &text,
        "let __sk_a_lo1 = __sk_a_p0; let __sk_a_hi1 = __sk_a_e0;"
    ));
    assert!(has(
        &text,
        "if __sk_a_c0 == __sk_i { __sk_a_p0 = __sk_a_e0; }"
    ));
}

#[test]
fn two_statements_each_in_their_own_block() {
    let mut d = Def::new(CSR, "spmv_norm");
    let a = d.sparse("a", "CSR", F64, &[None, None]);
    let x = d.dense("x", F64, &[None], false);
    let y = d.dense("y", F64, &[None], true);
    let s = d.dense("s", F64, &[], true);
    let (i, j) = (d.index("i"), d.index("j"));
    d.k.assign(y, &[i], Expr::at(a, &[i, j]) * Expr::at(x, &[j]));
    d.k.assign(s, &[], Expr::at(y, &[i]) * Expr::at(y, &[i]));
    let text = d.generate();
    snapshot("two_statements", &text);
    assert!(has(&text, "/// s[] = y[i] * y[i]"));
    assert!(has(&text, "__sk_acc += __sk_y_v * __sk_y_v;"));
}

#[test]
fn csf_tensor_times_vector_nests_three_walks() {
    let mut d = Def::new(CSF, "ttv");
    let b = d.sparse("b", "CSF", F64, &[None, None, None]);
    let c = d.dense("c", F64, &[None], false);
    let a = d.dense("a", F64, &[None, None], true);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(a, &[i, j], Expr::at(b, &[i, j, k]) * Expr::at(c, &[k]));
    let text = d.generate();
    snapshot("ttv_csf", &text);
    assert!(has(&text, "__sk_b_pos2, __sk_b_p1)"));
    assert!(has(&text, "__sk_i * __sk_n_j + __sk_j"));
}
