//! SDDMM's `c[i, j] = s[i, j] * (u[i, k] * vt[j, k])` with the `k` sum
//! first (`Kernel::sum_first`: integer kernels, `#[reassociate]`): the sum
//! into a local over whole dense rows, then one product by `s`'s value;
//! without it, `s`'s value multiplies every term, as MLIR does.

use super::tests::{has, snapshot, Def, CSR};
use crate::model::ElemType;
use crate::sparsifier::Expr;

fn sddmm(name: &'static str, elem: ElemType, sum_first: bool) -> String {
    let mut d = sddmm_def(name, elem);
    d.k.sum_first = sum_first;
    d.generate()
}

fn sddmm_def(name: &'static str, elem: ElemType) -> Def {
    let mut d = Def::new(CSR, name);
    let s = d.sparse("s", "CSR", elem, &[None, None]);
    let u = d.dense("u", elem, &[None, None], false);
    let vt = d.dense("vt", elem, &[None, None], false);
    let c = d.sparse_out("c", "CSR", elem, &[None, None]);
    let (i, j, k) = (d.index("i"), d.index("j"), d.index("k"));
    d.k.assign(
        c,
        &[i, j],
        Expr::at(s, &[i, j]) * (Expr::at(u, &[i, k]) * Expr::at(vt, &[j, k])),
    );
    d
}

#[test]
fn sum_first_sums_the_dense_rows_then_multiplies_once() {
    let text = sddmm("sddmm_sum_first", ElemType::F64, true);
    snapshot("sddmm_sum_first", &text);
    assert!(has(&text, "c[i, j] = s[i, j] * sum(k, u[i, k] * vt[j, k])"));
    assert!(has(
        &text,
        "let mut __sk_acc1: ::core::primitive::f64 = 0.0_f64;"
    ));
    assert!(has(&text, "__sk_acc1 += __sk_u_v * __sk_vt_v;"));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_s_v * __sk_acc1) };"
    ));
    // In order: no partial sums without `#[reassociate]`.
    assert!(!has(&text, "__sk_acc1_l0"));
}

#[test]
fn reassociate_sums_the_rows_in_eight_partial_sums() {
    let mut d = sddmm_def("sddmm_reassociate", ElemType::F64);
    d.reassociate = true;
    let text = d.generate();
    snapshot("sddmm_reassociate", &text);
    for k in 0..8 {
        let init = format!("let mut __sk_acc1_l{k}: ::core::primitive::f64 = 0.0_f64;");
        assert!(has(&text, &init), "{k}");
        assert!(
            has(&text, &format!("let __sk_k = __sk_k_base + {k};")),
            "{k}"
        );
        let add = format!("__sk_acc1_l{k} += __sk_u_v * __sk_vt_v;");
        assert!(has(&text, &add), "{k}");
    }
    assert!(has(&text, "while __sk_n_k - __sk_k_base >= 8 {"));
    assert!(has(&text, "for __sk_k in __sk_k_base..__sk_n_k {"));
    assert!(has(
        &text,
        "__sk_acc1 += ((__sk_acc1_l0 + __sk_acc1_l4) + (__sk_acc1_l2 + __sk_acc1_l6)) + ((__sk_acc1_l1 + __sk_acc1_l5) + (__sk_acc1_l3 + __sk_acc1_l7));"
    ));
    assert!(has(&text, "k: summed in 8 partial sums added at the end"));
    assert!(has(
        &text,
        "let () = unsafe { __sk_c_row.push_in_order(__sk_j, __sk_s_v * __sk_acc1) };"
    ));
}

#[test]
fn without_sum_first_the_factor_multiplies_every_term() {
    let text = sddmm("sddmm_fused", ElemType::F64, false);
    assert!(!has(&text, "__sk_acc1"));
    assert!(has(&text, "c[i, j] = s[i, j] * (u[i, k] * vt[j, k])"));
}
