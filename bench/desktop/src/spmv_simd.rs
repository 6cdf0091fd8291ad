//! Vectorized SpMV (section `spmv-simd`): the in-order CSR kernel, the
//! `#[reassociate]` kernel (each row one `dot_gather`: 8 partial sums, in
//! AVX-512 or AVX2 vectors in the kernel's copy for the machine) and
//! SELL-C-σ (`sparse_core::sell`, rows in lanes, each row's sum in order),
//! against MKL's `mkl_sparse_?_mv` on a plain CSR
//! handle and after `mkl_sparse_optimize`. Conversion costs (SELL from
//! CSR, MKL's optimize) are timed in their own table.

use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::report::{check_close, table, Work};
use sparse_core::sell::{Sell, SellOptions};
use sparse_core::Level;
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;

/// The SELL options of the bench: σ = 256 rows (the paper's usual
/// choice for C = 8), padding up to 3x (the power-law matrix needs ~1.2x).
pub const SELL: SellOptions = SellOptions {
    sigma: 256,
    max_fill_percent: 300,
};

#[cfg(peer_mkl)]
pub mod mkl {
    //! MKL's SpMV handles (`c/peer_mkl.c`).
    use std::ffi::c_void;
    extern "C" {
        fn mkl_peer_init();
        fn mkl_peer_mv_matrix(
            m: usize,
            n: usize,
            pos: *const u32,
            crd: *const u32,
            val: *mut c_void,
            f32: i32,
            optimize: i32,
        ) -> *mut c_void;
        fn mkl_peer_mv(a: *mut c_void, f32: i32, x: *const c_void, y: *mut c_void) -> i32;
        fn mkl_peer_free(a: *mut c_void);
    }

    /// A handle with its own copy of the values (MKL's `create_csr`
    /// takes them mutable).
    pub struct Mv<T> {
        h: *mut c_void,
        _val: Vec<T>,
        f32: i32,
    }

    impl<T: Copy + 'static> Mv<T> {
        /// Plain (`optimize` false) or optimized for many `mv` calls.
        pub fn new(a: &super::Csr, val: &[T], optimize: bool) -> Mv<T> {
            static INIT: std::sync::Once = std::sync::Once::new();
            // SAFETY: plain calls into MKL's service functions.
            INIT.call_once(|| unsafe { mkl_peer_init() });
            let f32 = i32::from(std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>());
            let mut v = val.to_vec();
            // SAFETY: the arrays outlive the handle (the CSR is the
            // caller's for the whole bench, `v` is owned here).
            let h = unsafe {
                mkl_peer_mv_matrix(
                    a.rows,
                    a.cols,
                    a.pos.as_ptr(),
                    a.crd.as_ptr(),
                    v.as_mut_ptr().cast(),
                    f32,
                    i32::from(optimize),
                )
            };
            assert!(!h.is_null(), "MKL mv handle");
            Mv { h, _val: v, f32 }
        }

        /// `y = A x`.
        pub fn mv(&self, x: &[T], y: &mut [T]) {
            // SAFETY: `x` and `y` have the matrix's sizes (the caller's).
            let r =
                unsafe { mkl_peer_mv(self.h, self.f32, x.as_ptr().cast(), y.as_mut_ptr().cast()) };
            assert_eq!(r, 0, "mkl_sparse_?_mv");
        }
    }

    impl<T> Drop for Mv<T> {
        fn drop(&mut self) {
            // SAFETY: a handle created above, freed once.
            unsafe { mkl_peer_free(self.h) }
        }
    }
}

macro_rules! simd_bench {
    ($fname:ident, $t:ty, $tname:literal, $vals:ident, $inorder:path, $ra:path, $tol:expr) => {
        pub fn $fname(name: &str, a: &Csr, triad: f64, budget: &Budget) {
            let (m, n, nnz) = (a.rows, a.cols, a.nnz());
            let xf = crate::gen::dense(n, 7);
            let (want, scale) = crate::spmv::reference(a, &xf);
            let x: Vec<$t> = xf.iter().map(|&v| v as $t).collect();
            let val: Vec<$t> = a.$vals();
            let t = kernels::CSR32::<$t>::assemble(
                [m, n],
                [Level::dense(), Level::compressed(&a.pos, &a.crd)],
                &val,
            )
            .expect("valid CSR");
            // σ as a user would pick it: the bench's 256, or one window of
            // every row (a global sort by length) when that pads less, as it
            // does for the power-law rows.
            let sell = Sell::from_csr(&t, SELL).expect("SELL within the padding limit");
            let global = SellOptions {
                sigma: m.max(1),
                ..SELL
            };
            let (sell, sigma) = match Sell::from_csr(&t, global) {
                Ok(g) if g.stored() < sell.stored() => (g, global),
                _ => (sell, SELL),
            };
            let sell_name = if sigma.sigma == SELL.sigma {
                format!("SELL-8-{} (in order)", SELL.sigma)
            } else {
                "SELL-8-rows (in order)".to_string()
            };
            // The in-order kernel's bits, which SELL must reproduce.
            let mut exact = vec![0.0 as $t; m];
            $inorder(&t, &x, &mut exact).expect("ok");
            let mut got = vec![0.0 as $t; m];
            sell.spmv(&x, &mut got).expect("ok");
            assert!(
                got.iter()
                    .zip(&exact)
                    .all(|(p, q)| p.to_bits() == q.to_bits()),
                "{name}: SELL differs from the in-order CSR kernel"
            );
            #[cfg(peer_mkl)]
            let (plain, optimized) = (mkl::Mv::new(a, &val, false), mkl::Mv::new(a, &val, true));
            let mut comps: Vec<Competitor<'_>> = Vec::new();
            let mut outs: Vec<Box<dyn Fn() -> Vec<f64> + '_>> = Vec::new();
            macro_rules! slot {
                () => {{
                    let y = Rc::new(RefCell::new(vec![0.0 as $t; m]));
                    let r = y.clone();
                    outs.push(Box::new(move || {
                        r.borrow().iter().map(|&v| v as f64).collect()
                    }));
                    y
                }};
            }
            let (x, t, sell) = (&x[..], &t, &sell);
            let y = slot!();
            comps.push(Competitor::ours("sparse_kernel! in order", move || {
                $inorder(
                    black_box(t),
                    black_box(x),
                    black_box(&mut y.borrow_mut()[..]),
                )
                .expect("ok")
            }));
            let y = slot!();
            comps.push(Competitor::ours(
                "sparse_kernel! #[reassociate]",
                move || {
                    $ra(
                        black_box(t),
                        black_box(x),
                        black_box(&mut y.borrow_mut()[..]),
                    )
                    .expect("ok")
                },
            ));
            let y = slot!();
            comps.push(Competitor::ours(sell_name.as_str(), move || {
                sell.spmv(black_box(x), black_box(&mut y.borrow_mut()[..]))
                    .expect("ok")
            }));
            #[cfg(peer_mkl)]
            {
                let (plain, optimized) = (&plain, &optimized);
                let y = slot!();
                comps.push(Competitor::peer("MKL mv", move || {
                    plain.mv(black_box(x), black_box(&mut y.borrow_mut()[..]))
                }));
                let y = slot!();
                comps.push(Competitor::peer("MKL mv after optimize", move || {
                    optimized.mv(black_box(x), black_box(&mut y.borrow_mut()[..]))
                }));
            }
            for (c, out) in comps.iter_mut().zip(&outs) {
                (c.run)();
                check_close(&format!("{name} {}", c.name), &out(), &want, &scale, $tol);
            }
            let timings = measure(comps, budget);
            let vsz = core::mem::size_of::<$t>() as f64;
            let bytes = nnz as f64 * (vsz + 4.0) + (m + 1) as f64 * 4.0 + (m + n) as f64 * vsz;
            table(
                &format!(
                    "Vectorized SpMV {}, {name} ({m}×{n}, {nnz} nnz; SELL stores {} slots)",
                    $tname,
                    sell.stored()
                ),
                &timings,
                &Work {
                    nnz,
                    bytes: Some(bytes),
                },
                Some(triad),
            );
            // The conversions, once per matrix: SELL from CSR and MKL's
            // handle with its optimize step.
            let mut conv: Vec<Competitor<'_>> = vec![Competitor::ours(
                "SELL from CSR (the σ above)",
                move || {
                    black_box(Sell::from_csr(black_box(t), sigma).expect("ok"));
                },
            )];
            #[cfg(peer_mkl)]
            {
                let val = &val;
                conv.push(Competitor::peer("MKL create_csr + optimize", move || {
                    black_box(mkl::Mv::new(a, val, true));
                }));
            }
            let timings = measure(conv, budget);
            table(
                &format!("Conversion for vectorized SpMV {}, {name}", $tname),
                &timings,
                &Work { nnz, bytes: None },
                None,
            );
        }
    };
}

simd_bench!(
    spmv_simd_f64,
    f64,
    "f64",
    val_f64,
    kernels::spmv_f64,
    kernels::spmv_ra_f64,
    1e-12
);
simd_bench!(
    spmv_simd_f32,
    f32,
    "f32",
    val_f32,
    kernels::spmv_f32,
    kernels::spmv_ra_f32,
    1e-5
);
