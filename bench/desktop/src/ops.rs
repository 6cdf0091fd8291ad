//! Sparse outputs: C = A + B (CSR) and SDDMM
//! (C = S ⊙ (U Vᵀ), the pattern of S), ours against the peers that have
//! the operation. Every result is compared with an independent Rust
//! reference (pattern exactly, values within rounding) before timing.

use crate::ffi;
use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::report::{table, Work};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use nalgebra_sparse::CsrMatrix;
use sparse_core::{DenseView, Level, Owned};
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;

/// A CSR result read back from any implementation, in f64.
#[derive(Default, Clone)]
pub struct Out {
    pub pos: Vec<usize>,
    pub crd: Vec<usize>,
    pub val: Vec<f64>,
}

impl Out {
    pub fn from_parts<P: Copy + TryInto<usize>, C: Copy + TryInto<usize>, V: Copy + Into<f64>>(
        pos: &[P],
        crd: &[C],
        val: &[V],
    ) -> Out {
        let u = |x: usize| x;
        Out {
            pos: pos
                .iter()
                .map(|&p| u(p.try_into().ok().expect("position")))
                .collect(),
            crd: crd
                .iter()
                .map(|&c| u(c.try_into().ok().expect("coordinate")))
                .collect(),
            val: val.iter().map(|&v| v.into()).collect(),
        }
    }

    /// Same pattern exactly; values within `tol` relative to `scale` (the
    /// sum of magnitudes that went into each value).
    pub fn check(&self, what: &str, want: &Out, scale: &[f64], tol: f64) {
        assert_eq!(self.pos, want.pos, "{what}: positions differ");
        assert!(self.crd == want.crd, "{what}: coordinates differ");
        for (p, ((g, w), s)) in self.val.iter().zip(&want.val).zip(scale).enumerate() {
            assert!(
                (g - w).abs() <= tol * s,
                "{what}: value {p}: got {g}, want {w}"
            );
        }
    }
}

fn reference_add(a: &Csr, b: &Csr) -> (Out, Vec<f64>) {
    let mut o = Out {
        pos: vec![0],
        ..Out::default()
    };
    let mut scale = Vec::new();
    for i in 0..a.rows {
        let (mut p, pe) = (a.pos[i] as usize, a.pos[i + 1] as usize);
        let (mut q, qe) = (b.pos[i] as usize, b.pos[i + 1] as usize);
        while p < pe || q < qe {
            let ja = if p < pe { a.crd[p] } else { u32::MAX };
            let jb = if q < qe { b.crd[q] } else { u32::MAX };
            let j = ja.min(jb);
            let mut v = 0.0;
            let mut s = 0.0;
            if ja == j {
                v += a.val[p];
                s += a.val[p].abs();
                p += 1;
            }
            if jb == j {
                v += b.val[q];
                s += b.val[q].abs();
                q += 1;
            }
            o.crd.push(j as usize);
            o.val.push(v);
            scale.push(s);
        }
        o.pos.push(o.crd.len());
    }
    (o, scale)
}

/// Gustavson with a dense accumulator, sorted rows: the reference product
/// and the number of multiply-adds.
pub fn reference_spgemm(a: &Csr, b: &Csr) -> (Out, Vec<f64>, usize) {
    let mut o = Out {
        pos: vec![0],
        ..Out::default()
    };
    let mut scale = Vec::new();
    let mut acc = vec![0.0; b.cols];
    let mut mag = vec![0.0; b.cols];
    let mut seen = vec![false; b.cols];
    let mut cols = Vec::new();
    let mut flops = 0;
    for i in 0..a.rows {
        cols.clear();
        for p in a.pos[i] as usize..a.pos[i + 1] as usize {
            let k = a.crd[p] as usize;
            for q in b.pos[k] as usize..b.pos[k + 1] as usize {
                let j = b.crd[q] as usize;
                if !seen[j] {
                    seen[j] = true;
                    cols.push(j);
                }
                acc[j] += a.val[p] * b.val[q];
                mag[j] += (a.val[p] * b.val[q]).abs();
                flops += 1;
            }
        }
        cols.sort_unstable();
        for &j in &cols {
            o.crd.push(j);
            o.val.push(acc[j]);
            scale.push(mag[j]);
            acc[j] = 0.0;
            mag[j] = 0.0;
            seen[j] = false;
        }
        o.pos.push(o.crd.len());
    }
    (o, scale, flops)
}

/// A second matrix like `a` (same generator, other seed), for A + B and A × B.
pub fn partner(name: &str, a: &Csr) -> Csr {
    if name.starts_with("banded") {
        let half = (a.pos[1] - a.pos[0] - 1) as usize;
        Csr::banded(a.rows, half, 99)
    } else if name.starts_with("power") {
        Csr::power_law(a.rows, 98)
    } else {
        let per_row = a.nnz() / a.rows;
        Csr::uniform(a.rows, per_row, 97)
    }
}

/// `T` as a value the checks compare.
macro_rules! ops_bench {
    ($add:ident, $sddmm:ident, $t:ty, $tname:literal, $vals:ident,
     $ours_add:path, $ours_sddmm:path, $ra_sddmm:path, $c_add:path, $c_sddmm:path, $tol:expr) => {
        pub fn $add(name: &str, a: &Csr, b: &Csr, budget: &Budget) {
            let (m, n) = (a.rows, a.cols);
            let (want, scale) = reference_add(a, b);
            let (av, bv) = (a.$vals(), b.$vals());
            let ta = kernels::CSR32::<$t>::assemble([m, n], [Level::dense(), Level::compressed(&a.pos, &a.crd)], &av).expect("a");
            let tb = kernels::CSR32::<$t>::assemble([m, n], [Level::dense(), Level::compressed(&b.pos, &b.crd)], &bv).expect("b");
            let (sa, sb) = (
                sprs::CsMatI::<$t, u32>::new((m, n), a.pos.clone(), a.crd.clone(), av.clone()),
                sprs::CsMatI::<$t, u32>::new((m, n), b.pos.clone(), b.crd.clone(), bv.clone()),
            );
            let (na, nb) = (
                CsrMatrix::try_from_csr_data(m, n, a.pos_usize(), a.crd_usize(), av.clone()).expect("a"),
                CsrMatrix::try_from_csr_data(m, n, b.pos_usize(), b.crd_usize(), bv.clone()).expect("b"),
            );
            // faer is column-major only: CSR arrays read as CSC are the
            // transposes, and (A + B)ᵀ = Aᵀ + Bᵀ, so the arrays come out CSR.
            let fa = SparseColMatRef::new(SymbolicSparseColMatRef::new_checked(n, m, &a.pos, None, &a.crd), &av[..]);
            let fb = SparseColMatRef::new(SymbolicSparseColMatRef::new_checked(n, m, &b.pos, None, &b.crd), &bv[..]);
            let cap = a.nnz() + b.nnz();

            let mut comps: Vec<Competitor<'_>> = Vec::new();
            let mut outs: Vec<Box<dyn Fn() -> Out + '_>> = Vec::new();
            {
                let c = Rc::new(RefCell::new(kernels::CSR32Out::<$t, Owned>::with_dims([m, n]).expect("dims")));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let v = c.view();
                    Out::from_parts(v.level(1).positions(), v.level(1).coordinates(), v.values())
                }));
                let (ta, tb) = (&ta, &tb);
                comps.push(Competitor::ours("sparse_kernel! (Owned output, reused)", move || {
                    $ours_add(black_box(ta), black_box(tb), &mut *c.borrow_mut()).expect("ok")
                }));
            }
            {
                let c = Rc::new(RefCell::new((vec![0u32; m + 1], vec![0u32; cap], vec![0.0 as $t; cap], 0usize)));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    Out::from_parts(&c.0, &c.1[..c.3], &c.2[..c.3])
                }));
                let (a, b, av, bv) = (a, b, &av, &bv);
                comps.push(Competitor::peer("C -O3 merge (preallocated)", move || {
                    let mut c = c.borrow_mut();
                    let c = &mut *c;
                    c.3 = unsafe {
                        $c_add(m, a.pos.as_ptr(), a.crd.as_ptr(), av.as_ptr(), b.pos.as_ptr(), b.crd.as_ptr(), bv.as_ptr(),
                            c.0.as_mut_ptr(), c.1.as_mut_ptr(), c.2.as_mut_ptr())
                    };
                }));
            }
            {
                let c = Rc::new(RefCell::new((vec![0u32; m + 1], vec![0u32; cap], vec![0.0 as $t; cap], 0usize)));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    Out::from_parts(&c.0, &c.1[..c.3], &c.2[..c.3])
                }));
                let (sa, sb) = (sa.view(), sb.view());
                comps.push(Competitor::peer("sprs binop_raw (preallocated)", move || {
                    let mut c = c.borrow_mut();
                    let c = &mut *c;
                    c.3 = sprs::binop::csmat_binop_same_storage_raw(
                        black_box(sa.view()), black_box(sb.view()), |x: &$t, y: &$t| x + y, &mut c.0, &mut c.1, &mut c.2);
                }));
            }
            {
                let c = Rc::new(RefCell::new(None));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let c: &sprs::CsMatI<$t, u32> = c.as_ref().expect("ran");
                    Out::from_parts(c.indptr().raw_storage(), c.indices(), c.data())
                }));
                let (sa, sb) = (&sa, &sb);
                comps.push(Competitor::peer("sprs &a + &b (allocates)", move || {
                    *c.borrow_mut() = Some(black_box(sa) + black_box(sb));
                }));
            }
            {
                let c = Rc::new(RefCell::new(None));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let c: &CsrMatrix<$t> = c.as_ref().expect("ran");
                    Out::from_parts(c.row_offsets(), c.col_indices(), c.values())
                }));
                let (na, nb) = (&na, &nb);
                comps.push(Competitor::peer("nalgebra-sparse &a + &b (allocates, usize)", move || {
                    *c.borrow_mut() = Some(black_box(na) + black_box(nb));
                }));
            }
            {
                let c = Rc::new(RefCell::new(None));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let c: &faer::sparse::SparseColMat<u32, $t> = c.as_ref().expect("ran");
                    Out::from_parts(c.symbolic().col_ptr(), c.symbolic().row_idx(), c.val())
                }));
                comps.push(Competitor::peer("faer binary_op (allocates)", move || {
                    let r = faer::sparse::ops::binary_op(black_box(fa), black_box(fb), |x: Option<&$t>, y: Option<&$t>| {
                        x.copied().unwrap_or(0.0) + y.copied().unwrap_or(0.0)
                    });
                    *c.borrow_mut() = Some(r.expect("fits"));
                }));
            }
            for (c, out) in comps.iter_mut().zip(&outs) {
                (c.run)();
                (c.run)();
                out().check(&format!("add {name} {}", c.name), &want, &scale, $tol);
            }
            let t = measure(comps, budget);
            let nnz = a.nnz() + b.nnz();
            let title = format!("C = A + B, {} CSR, {name} ({} + {} nnz → {} nnz)", $tname, a.nnz(), b.nnz(), want.crd.len());
            table(&title, &t, &Work { nnz, bytes: None }, None);
        }

        pub fn $sddmm(name: &str, s: &Csr, k: usize, budget: &Budget) {
            let (m, n) = (s.rows, s.cols);
            let uf = crate::gen::dense(m * k, 21);
            let vf = crate::gen::dense(n * k, 22);
            let mut want = Out { pos: s.pos_usize(), crd: s.crd_usize(), val: Vec::new() };
            let mut scale = Vec::new();
            for i in 0..m {
                for p in s.pos[i] as usize..s.pos[i + 1] as usize {
                    let j = s.crd[p] as usize;
                    let d: f64 = (0..k).map(|t| uf[i * k + t] * vf[j * k + t]).sum();
                    let mag: f64 = (0..k).map(|t| (uf[i * k + t] * vf[j * k + t]).abs()).sum();
                    want.val.push(s.val[p] * d);
                    scale.push(s.val[p].abs() * mag);
                }
            }
            let u: Vec<$t> = uf.iter().map(|&v| v as $t).collect();
            let vt: Vec<$t> = vf.iter().map(|&v| v as $t).collect();
            let sv = s.$vals();
            let ts = kernels::CSR32::<$t>::assemble([m, n], [Level::dense(), Level::compressed(&s.pos, &s.crd)], &sv).expect("s");
            let du = DenseView::new(&u[..], [m, k]).expect("u");
            let dv = DenseView::new(&vt[..], [n, k]).expect("vt");

            let mut comps: Vec<Competitor<'_>> = Vec::new();
            let mut outs: Vec<Box<dyn Fn() -> Out + '_>> = Vec::new();
            {
                let c = Rc::new(RefCell::new(kernels::CSR32Out::<$t, Owned>::with_dims([m, n]).expect("dims")));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let v = c.view();
                    Out::from_parts(v.level(1).positions(), v.level(1).coordinates(), v.values())
                }));
                let ts = &ts;
                comps.push(Competitor::ours("sparse_kernel! (Owned output reused)", move || {
                    $ours_sddmm(black_box(ts), black_box(du), black_box(dv), &mut *c.borrow_mut()).expect("ok")
                }));
            }
            {
                let c = Rc::new(RefCell::new(kernels::CSR32Out::<$t, Owned>::with_dims([m, n]).expect("dims")));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let v = c.view();
                    Out::from_parts(v.level(1).positions(), v.level(1).coordinates(), v.values())
                }));
                let ts = &ts;
                comps.push(Competitor::ours("sparse_kernel! #[reassociate] (sum first, 8 partial sums)", move || {
                    $ra_sddmm(black_box(ts), black_box(du), black_box(dv), &mut *c.borrow_mut()).expect("ok")
                }));
            }
            {
                let c = Rc::new(RefCell::new(vec![0.0 as $t; s.nnz()]));
                let r = c.clone();
                let sp = &s.pos;
                let sc = &s.crd;
                outs.push(Box::new(move || Out::from_parts(sp, sc, &r.borrow())));
                let (sv, u, vt) = (&sv, &u, &vt);
                comps.push(Competitor::peer("C -O3 (values only, pattern of S)", move || unsafe {
                    $c_sddmm(m, k, s.pos.as_ptr(), s.crd.as_ptr(), sv.as_ptr(), black_box(u.as_ptr()), vt.as_ptr(),
                        c.borrow_mut().as_mut_ptr())
                }));
            }
            for (c, out) in comps.iter_mut().zip(&outs) {
                (c.run)();
                (c.run)();
                out().check(&format!("sddmm {name} {}", c.name), &want, &scale, $tol);
            }
            let t = measure(comps, budget);
            let title = format!("SDDMM C = S ⊙ (U Vᵀ), {} CSR, K = {k}, {name} ({} nnz; ns/nnz is per stored entry)", $tname, s.nnz());
            table(&title, &t, &Work { nnz: s.nnz(), bytes: None }, None);
        }
    };
}

ops_bench!(
    add_f64,
    sddmm_f64,
    f64,
    "f64",
    val_f64,
    kernels::add_f64,
    kernels::sddmm_f64,
    kernels::sddmm_ra_f64,
    ffi::c_add_f64,
    ffi::c_sddmm_f64,
    1e-12
);
ops_bench!(
    add_f32,
    sddmm_f32,
    f32,
    "f32",
    val_f32,
    kernels::add_f32,
    kernels::sddmm_f32,
    kernels::sddmm_ra_f32,
    ffi::c_add_f32,
    ffi::c_sddmm_f32,
    1e-5
);
