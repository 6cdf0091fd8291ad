//! SpGEMM `C = A B` (CSR × CSR → CSR) over plus-times and min-plus: ours
//! (the workspace kernel) against faer, sprs, GraphBLAS, MKL and Eigen
//! where installed, and a hand-written Gustavson loop in Rust (dense
//! accumulator, flags, `sort_unstable` of each row's columns) shown for
//! reference. Every result is checked against the f64 reference first.

use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;

use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::Par;
use sparse_core::{Level, Owned};

use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::ops::{reference_spgemm, Out};
use crate::peers::{EigenProduct, Elem, GraphBlas, Mkl};
use crate::report::{table, Work};

/// The semiring of a product.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Semiring {
    PlusTimes,
    MinPlus,
}

/// A hand-written Gustavson SpGEMM's reused state and result (u32 arrays).
#[derive(Default)]
pub struct Hand<T> {
    pub pos: Vec<u32>,
    pub crd: Vec<u32>,
    pub val: Vec<T>,
    acc: Vec<T>,
    seen: Vec<bool>,
    cols: Vec<u32>,
}

/// The element operations of the two semirings, for the hand loop.
pub trait Ring:
    Elem + PartialOrd + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
{
    const INF: Self;
}
impl Ring for f64 {
    const INF: f64 = f64::INFINITY;
}
impl Ring for f32 {
    const INF: f32 = f32::INFINITY;
}

impl<T: Ring> Hand<T> {
    /// `C = A B` over `s`: what a programmer writes by hand for one
    /// semiring (the closure is monomorphized away).
    pub fn run(&mut self, a: &Csr, av: &[T], b: &Csr, bv: &[T], s: Semiring) {
        match s {
            Semiring::PlusTimes => self.gustavson(a, av, b, bv, T::default(), |c, x, y| c + x * y),
            Semiring::MinPlus => self.gustavson(a, av, b, bv, T::INF, |c, x, y| {
                let v = x + y;
                if v < c {
                    v
                } else {
                    c
                }
            }),
        }
    }

    // The loops index the arrays as a hand-written Gustavson loop does,
    // which is what this row measures; iterator forms would change it.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn gustavson(
        &mut self,
        a: &Csr,
        av: &[T],
        b: &Csr,
        bv: &[T],
        zero: T,
        f: impl Fn(T, T, T) -> T,
    ) {
        if self.acc.len() != b.cols {
            self.acc = vec![zero; b.cols];
            self.seen = vec![false; b.cols];
        }
        self.pos.clear();
        self.crd.clear();
        self.val.clear();
        self.pos.push(0);
        for i in 0..a.rows {
            self.cols.clear();
            for p in a.pos[i] as usize..a.pos[i + 1] as usize {
                let k = a.crd[p] as usize;
                let x = av[p];
                for q in b.pos[k] as usize..b.pos[k + 1] as usize {
                    let j = b.crd[q] as usize;
                    if !self.seen[j] {
                        self.seen[j] = true;
                        self.cols.push(j as u32);
                    }
                    self.acc[j] = f(self.acc[j], x, bv[q]);
                }
            }
            self.cols.sort_unstable();
            for &j in &self.cols {
                let j = j as usize;
                self.crd.push(j as u32);
                self.val.push(self.acc[j]);
                self.acc[j] = zero;
                self.seen[j] = false;
            }
            self.pos.push(self.crd.len() as u32);
        }
    }

    pub fn out(&self) -> Out {
        Out::from_parts(&self.pos, &self.crd, &self.val)
    }
}

/// The min-plus reference in f64: pattern of the touched `(i, j)`, value
/// the minimum of `a[i, k] + b[k, j]`; scale the largest magnitude.
fn reference_minplus(a: &Csr, b: &Csr) -> (Out, Vec<f64>, usize) {
    let mut hand = Hand::<f64>::default();
    hand.run(a, &a.val, b, &b.val, Semiring::MinPlus);
    let o = hand.out();
    let scale = vec![2.0; o.val.len()];
    let flops = a
        .crd
        .iter()
        .map(|&k| (b.pos[k as usize + 1] - b.pos[k as usize]) as usize)
        .sum();
    (o, scale, flops)
}

macro_rules! spgemm_bench {
    ($fn:ident, $t:ty, $tname:literal, $vals:ident, $plus:path, $min:path, $tol:expr) => {
        pub fn $fn(name: &str, a: &Csr, b: &Csr, s: Semiring, budget: &Budget) {
            let (m, kk, n) = (a.rows, a.cols, b.cols);
            let (want, scale, flops) = match s {
                Semiring::PlusTimes => reference_spgemm(a, b),
                Semiring::MinPlus => reference_minplus(a, b),
            };
            let (av, bv) = (a.$vals(), b.$vals());
            let ta = kernels::CSR32::<$t>::assemble([m, kk], [Level::dense(), Level::compressed(&a.pos, &a.crd)], &av).expect("a");
            let tb = kernels::CSR32::<$t>::assemble([kk, n], [Level::dense(), Level::compressed(&b.pos, &b.crd)], &bv).expect("b");
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
                comps.push(Competitor::ours("sparse_kernel! (workspace, Owned output reused)", move || {
                    let c = &mut *c.borrow_mut();
                    match s {
                        Semiring::PlusTimes => $plus(black_box(ta), black_box(tb), c).expect("ok"),
                        Semiring::MinPlus => $min(black_box(ta), black_box(tb), c).expect("ok"),
                    }
                }));
            }
            {
                let h = Rc::new(RefCell::new(Hand::<$t>::default()));
                let r = h.clone();
                outs.push(Box::new(move || r.borrow().out()));
                let (av, bv) = (&av, &bv);
                let name = "hand Gustavson, Rust (dense accumulator, sort_unstable per row)";
                if s == Semiring::MinPlus {
                    // The min-plus target is this loop: counted as the peer.
                    comps.push(Competitor::peer(name, move || h.borrow_mut().run(a, black_box(av), b, bv, s)));
                } else {
                    comps.push(Competitor::reference(name, move || h.borrow_mut().run(a, black_box(av), b, bv, s)));
                }
            }
            if s == Semiring::PlusTimes {
                // (A B)ᵀ = Bᵀ Aᵀ, and CSR arrays read as CSC are the transposes.
                let fa = SparseColMatRef::new(SymbolicSparseColMatRef::new_checked(kk, m, &a.pos, None, &a.crd), &av[..]);
                let fb = SparseColMatRef::new(SymbolicSparseColMatRef::new_checked(n, kk, &b.pos, None, &b.crd), &bv[..]);
                let c = Rc::new(RefCell::new(None));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let c: &faer::sparse::SparseColMat<u32, $t> = c.as_ref().expect("ran");
                    Out::from_parts(c.symbolic().col_ptr(), c.symbolic().row_idx(), c.val())
                }));
                comps.push(Competitor::peer("faer sparse_sparse_matmul (u32)", move || {
                    let r = faer::sparse::linalg::matmul::sparse_sparse_matmul(black_box(fb), black_box(fa), 1.0 as $t, Par::Seq);
                    *c.borrow_mut() = Some(r.expect("fits"));
                }));
                let (sa, sb) = (
                    sprs::CsMatI::<$t, u32>::new((m, kk), a.pos.clone(), a.crd.clone(), av.clone()),
                    sprs::CsMatI::<$t, u32>::new((kk, n), b.pos.clone(), b.crd.clone(), bv.clone()),
                );
                let c = Rc::new(RefCell::new(None));
                let r = c.clone();
                outs.push(Box::new(move || {
                    let c = r.borrow();
                    let c: &sprs::CsMatI<$t, u32> = c.as_ref().expect("ran");
                    Out::from_parts(c.indptr().raw_storage(), c.indices(), c.data())
                }));
                comps.push(Competitor::peer("sprs &a * &b (u32)", move || {
                    *c.borrow_mut() = Some(black_box(&sa) * black_box(&sb));
                }));
            }
            if let Some(g) = GraphBlas::new::<$t>(a, &av, b, &bv) {
                let g = Rc::new(RefCell::new(g));
                let r = g.clone();
                outs.push(Box::new(move || r.borrow().out()));
                let min = s == Semiring::MinPlus;
                let what = if min { "MIN_PLUS" } else { "PLUS_TIMES" };
                comps.push(Competitor::peer(format!("GraphBLAS {} GrB_mxm {what} (1 thread)", graphblas_version()), move || {
                    g.borrow_mut().run::<$t>(black_box(min))
                }));
            }
            if s == Semiring::PlusTimes {
                if let Some(mk) = Mkl::<$t>::new(a, &av, b, &bv) {
                    let mk = Rc::new(RefCell::new(mk));
                    let r = mk.clone();
                    outs.push(Box::new(move || r.borrow().out()));
                    comps.push(Competitor::peer("MKL mkl_sparse_spmm + order (sequential)", move || mk.borrow_mut().run()));
                }
                if let Some(e) = EigenProduct::new::<$t>(a, &av, b, &bv) {
                    let e = Rc::new(RefCell::new(e));
                    let r = e.clone();
                    outs.push(Box::new(move || r.borrow().out()));
                    comps.push(Competitor::peer("Eigen A * B (RowMajor, int)", move || e.borrow_mut().run()));
                }
            }
            for (c, out) in comps.iter_mut().zip(&outs) {
                (c.run)();
                (c.run)();
                out().check(&format!("spgemm {name} {}", c.name), &want, &scale, $tol);
            }
            let t = measure(comps, budget);
            let ring = if s == Semiring::MinPlus { "min-plus" } else { "plus-times" };
            let title = format!(
                "SpGEMM C = A B ({ring}), {} CSR, {name} ({} × {} nnz → {} nnz, {flops} multiply-adds; ns/nnz is per multiply-add)",
                $tname, a.nnz(), b.nnz(), want.crd.len()
            );
            table(&title, &t, &Work { nnz: flops, bytes: None }, None);
        }
    };
}

fn graphblas_version() -> &'static str {
    "7.4"
}

spgemm_bench!(
    spgemm_f64,
    f64,
    "f64",
    val_f64,
    kernels::spgemm_f64,
    kernels::minplus_f64,
    1e-12
);
spgemm_bench!(
    spgemm_f32,
    f32,
    "f32",
    val_f32,
    kernels::spgemm_f32,
    kernels::minplus_f32,
    1e-5
);
