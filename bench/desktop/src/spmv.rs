//! SpMV: CSR (u32 and u16 coordinates) and CSC, ours against sprs,
//! nalgebra-sparse, faer and C -O3, plus the triad that bounds bandwidth.

use crate::ffi;
use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::report::{check_close, table, Work};
use faer::sparse::{
    SparseColMatRef, SparseRowMatRef, SymbolicSparseColMatRef, SymbolicSparseRowMatRef,
};
use faer::{Accum, Par};
use nalgebra::DVector;
use nalgebra_sparse::ops::serial::{spmm_csc_dense, spmm_csr_dense};
use nalgebra_sparse::ops::Op;
use nalgebra_sparse::{CscMatrix, CsrMatrix};
use sparse_core::Level;
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;

/// The triad `a = b + s c` over three arrays of `n` f64; returns bytes/s
/// (STREAM's count: 24 bytes per element, no write-allocate).
pub fn triad(n: usize, budget: &Budget) -> f64 {
    let mut a = vec![0.0f64; n];
    let b = crate::gen::dense(n, 1);
    let c = crate::gen::dense(n, 2);
    let t = measure(
        vec![Competitor::reference("triad (C -O3)", move || unsafe {
            ffi::c_triad(n, a.as_mut_ptr(), b.as_ptr(), c.as_ptr(), black_box(3.0));
        })],
        budget,
    );
    let bytes = 24.0 * n as f64;
    println!(
        "\nTriad over 3 × {n} f64 ({:.0} MiB): median {:.2} ms, **{:.2} GB/s**",
        24.0 * n as f64 / (1 << 20) as f64,
        t[0].median * 1e3,
        bytes / t[0].median / 1e9
    );
    bytes / t[0].median
}

/// `y = A x` in f64, and the per-row sum of magnitudes for the tolerance.
pub fn reference(a: &Csr, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut y = vec![0.0; a.rows];
    let mut s = vec![0.0; a.rows];
    for i in 0..a.rows {
        for p in a.pos[i] as usize..a.pos[i + 1] as usize {
            let t = a.val[p] * x[a.crd[p] as usize];
            y[i] += t;
            s[i] += t.abs();
        }
    }
    (y, s)
}

/// The hand-written Rust loop the issue's figures quote ("Rust
/// `get_unchecked`, u32"), kept as a reference row, not a peer.
macro_rules! hand_spmv {
    ($name:ident, $t:ty, $c:ty) => {
        #[inline(never)]
        pub fn $name(pos: &[u32], crd: &[$c], val: &[$t], x: &[$t], y: &mut [$t]) {
            assert!(pos.len() == y.len() + 1 && crd.len() == val.len());
            assert!(pos[y.len()] as usize <= crd.len());
            for i in 0..y.len() {
                let mut s: $t = 0.0;
                // SAFETY: the assert above and validated positions/columns
                // (the generators produce them; the result is checked).
                unsafe {
                    let lo = *pos.get_unchecked(i) as usize;
                    let hi = *pos.get_unchecked(i + 1) as usize;
                    for p in lo..hi {
                        s += *val.get_unchecked(p)
                            * *x.get_unchecked(*crd.get_unchecked(p) as usize);
                    }
                    *y.get_unchecked_mut(i) = s;
                }
            }
        }
    };
}
hand_spmv!(hand_spmv_f64, f64, u32);
hand_spmv!(hand_spmv_f32, f32, u32);
hand_spmv!(hand_spmv16_f64, f64, u16);
hand_spmv!(hand_spmv16_f32, f32, u16);

/// Which SpMV table to produce.
#[derive(Clone, Copy, PartialEq)]
pub enum Variant {
    /// CSR, u32 coordinates everywhere (nalgebra-sparse: usize, its only width).
    Csr32,
    /// CSR, our `crdWidth = 16` and `crdWidth = 32` against the peers.
    Csr16,
    /// CSC (the matrix stored by columns), y = A x.
    Csc,
}

macro_rules! spmv_bench {
    ($fname:ident, $t:ty, $tname:literal, $vals:ident, $ours32:path, $ours16:path, $ourscsc:path,
     $c32:path, $c16:path, $ccsc:path, $hand32:path, $hand16:path, $shape:expr, $scalar:path, $tol:expr) => {
        pub fn $fname(name: &str, a: &Csr, variant: Variant, triad: f64, budget: &Budget) {
            let (m, n, nnz) = (a.rows, a.cols, a.nnz());
            let xf = crate::gen::dense(n, 7);
            let (want, scale) = reference(a, &xf);
            let x: Vec<$t> = xf.iter().map(|&v| v as $t).collect();
            let val: Vec<$t> = a.$vals();
            let vsz = core::mem::size_of::<$t>() as f64;
            // CSC storage of the same matrix: the transpose's CSR arrays.
            let at = if variant == Variant::Csc {
                Some(a.transpose())
            } else {
                None
            };
            let (pos, crd, cval): (&[u32], &[u32], Vec<$t>) = match &at {
                Some(t) => (&t.pos, &t.crd, t.$vals()),
                None => (&a.pos, &a.crd, val.clone()),
            };
            let crd16: Vec<u16> = if variant == Variant::Csr16 {
                a.crd_u16()
            } else {
                Vec::new()
            };

            // Ours.
            let t32 = kernels::CSR32::<$t>::assemble(
                [m, n],
                [Level::dense(), Level::compressed(&a.pos, &a.crd)],
                &val,
            )
            .expect("valid CSR");
            let t16 = (variant == Variant::Csr16).then(|| {
                kernels::CSR16::<$t>::assemble(
                    [m, n],
                    [Level::dense(), Level::compressed(&a.pos, &crd16)],
                    &val,
                )
                .expect("valid CSR16")
            });
            let tcsc = at.as_ref().map(|_| {
                kernels::CSC32::<$t>::assemble(
                    [m, n],
                    [Level::dense(), Level::compressed(pos, crd)],
                    &cval,
                )
                .expect("valid CSC")
            });
            // sprs (u32 indices; it accumulates, so y is zeroed first).
            let sp = if variant == Variant::Csc {
                sprs::CsMatI::<$t, u32>::new_csc((m, n), pos.to_vec(), crd.to_vec(), cval.clone())
            } else {
                sprs::CsMatI::<$t, u32>::new((m, n), a.pos.clone(), a.crd.clone(), val.clone())
            };
            // nalgebra-sparse (usize indices only).
            let (pu, cu): (Vec<usize>, Vec<usize>) = (
                pos.iter().map(|&p| p as usize).collect(),
                crd.iter().map(|&p| p as usize).collect(),
            );
            let na_csr = (variant != Variant::Csc).then(|| {
                CsrMatrix::try_from_csr_data(m, n, pu.clone(), cu.clone(), val.clone())
                    .expect("valid")
            });
            let na_csc = (variant == Variant::Csc).then(|| {
                CscMatrix::try_from_csc_data(m, n, pu.clone(), cu.clone(), cval.clone())
                    .expect("valid")
            });
            let nx = DVector::from_vec(x.clone());
            // faer (u32 indices).
            let fr = (variant != Variant::Csc).then(|| {
                SparseRowMatRef::new(
                    SymbolicSparseRowMatRef::new_checked(m, n, &a.pos, None, &a.crd),
                    &val[..],
                )
            });
            let fc = (variant == Variant::Csc).then(|| {
                SparseColMatRef::new(
                    SymbolicSparseColMatRef::new_checked(m, n, pos, None, crd),
                    &cval[..],
                )
            });

            let mut comps: Vec<Competitor<'_>> = Vec::new();
            let mut outs: Vec<Box<dyn Fn() -> Vec<f64> + '_>> = Vec::new();
            // Each competitor writes its own output; a getter reads it back for the check.
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
            let (x, val, crd16, cval, t32) = (&x[..], &val[..], &crd16[..], &cval[..], &t32);
            match variant {
                Variant::Csr32 | Variant::Csr16 => {
                    if let Some(t16) = &t16 {
                        let y = slot!();
                        comps.push(Competitor::ours("sparse_kernel! crdWidth=16", move || {
                            $ours16(
                                black_box(t16),
                                black_box(x),
                                black_box(&mut y.borrow_mut()[..]),
                            )
                            .expect("ok")
                        }));
                    }
                    let y = slot!();
                    comps.push(Competitor::ours("sparse_kernel! crdWidth=32", move || {
                        $ours32(
                            black_box(t32),
                            black_box(x),
                            black_box(&mut y.borrow_mut()[..]),
                        )
                        .expect("ok")
                    }));
                    let y = slot!();
                    comps.push(Competitor::peer("C -O3 int32", move || unsafe {
                        $c32(
                            m,
                            a.pos.as_ptr(),
                            a.crd.as_ptr(),
                            val.as_ptr(),
                            black_box(x.as_ptr()),
                            black_box(y.borrow_mut().as_mut_ptr()),
                        )
                    }));
                    if variant == Variant::Csr16 {
                        let y = slot!();
                        comps.push(Competitor::reference("C -O3 uint16", move || unsafe {
                            $c16(
                                m,
                                a.pos.as_ptr(),
                                crd16.as_ptr(),
                                val.as_ptr(),
                                black_box(x.as_ptr()),
                                black_box(y.borrow_mut().as_mut_ptr()),
                            )
                        }));
                        let y = slot!();
                        comps.push(Competitor::reference("Rust get_unchecked u16", move || {
                            $hand16(
                                &a.pos,
                                crd16,
                                val,
                                black_box(x),
                                black_box(&mut y.borrow_mut()[..]),
                            )
                        }));
                    }
                    let y = slot!();
                    comps.push(Competitor::reference("Rust get_unchecked u32", move || {
                        $hand32(
                            &a.pos,
                            &a.crd,
                            val,
                            black_box(x),
                            black_box(&mut y.borrow_mut()[..]),
                        )
                    }));
                    let y = slot!();
                    comps.push(Competitor::reference(
                        "Rust scalar loop (C's shape, no SLP)",
                        move || {
                            $scalar(
                                &a.pos,
                                &a.crd,
                                val,
                                black_box(x),
                                black_box(&mut y.borrow_mut()[..]),
                            )
                        },
                    ));
                    if let Some(shape) = $shape {
                        let y = slot!();
                        comps.push(Competitor::reference(
                            "Rust pointer loop (proposed shape)",
                            move || {
                                shape(
                                    &a.pos,
                                    &a.crd,
                                    val,
                                    black_box(x),
                                    black_box(&mut y.borrow_mut()[..]),
                                )
                            },
                        ));
                    }
                    let y = slot!();
                    let spv = sp.view();
                    comps.push(Competitor::peer("sprs 0.11 (u32)", move || {
                        let mut y = y.borrow_mut();
                        y.fill(0.0);
                        sprs::prod::mul_acc_mat_vec_csr(
                            spv.view(),
                            black_box(&x[..]),
                            black_box(&mut y[..]),
                        );
                    }));
                    let na = na_csr.as_ref().expect("matrix");
                    let nx = &nx;
                    let ny = Rc::new(RefCell::new(DVector::<$t>::zeros(m)));
                    let r = ny.clone();
                    outs.push(Box::new(move || {
                        r.borrow().iter().map(|&v| v as f64).collect()
                    }));
                    comps.push(Competitor::peer(
                        "nalgebra-sparse 0.12 (usize)",
                        move || {
                            spmm_csr_dense(
                                0.0,
                                black_box(&mut *ny.borrow_mut()),
                                1.0,
                                Op::NoOp(na),
                                Op::NoOp(black_box(nx)),
                            );
                        },
                    ));
                    let y = slot!();
                    let fr = fr.expect("csr");
                    comps.push(Competitor::peer("faer 0.24 (u32)", move || {
                        let mut yb = y.borrow_mut();
                        let dst =
                            faer::MatMut::from_column_major_slice_mut(black_box(&mut yb[..]), m, 1);
                        let rhs = faer::MatRef::from_column_major_slice(black_box(&x[..]), n, 1);
                        faer::sparse::linalg::matmul::sparse_dense_matmul(
                            dst,
                            Accum::Replace,
                            fr,
                            rhs,
                            1.0,
                            Par::Seq,
                        );
                    }));
                }
                Variant::Csc => {
                    let tcsc = tcsc.as_ref().expect("csc");
                    let y = slot!();
                    comps.push(Competitor::ours("sparse_kernel! CSC", move || {
                        $ourscsc(
                            black_box(tcsc),
                            black_box(x),
                            black_box(&mut y.borrow_mut()[..]),
                        )
                        .expect("ok")
                    }));
                    let y = slot!();
                    comps.push(Competitor::peer("C -O3 int32", move || unsafe {
                        $ccsc(
                            m,
                            n,
                            pos.as_ptr(),
                            crd.as_ptr(),
                            cval.as_ptr(),
                            black_box(x.as_ptr()),
                            black_box(y.borrow_mut().as_mut_ptr()),
                        )
                    }));
                    let y = slot!();
                    let spv = sp.view();
                    comps.push(Competitor::peer("sprs 0.11 (u32)", move || {
                        let mut y = y.borrow_mut();
                        y.fill(0.0);
                        sprs::prod::mul_acc_mat_vec_csc(
                            spv.view(),
                            black_box(&x[..]),
                            black_box(&mut y[..]),
                        );
                    }));
                    let na = na_csc.as_ref().expect("matrix");
                    let nx = &nx;
                    let ny = Rc::new(RefCell::new(DVector::<$t>::zeros(m)));
                    let r = ny.clone();
                    outs.push(Box::new(move || {
                        r.borrow().iter().map(|&v| v as f64).collect()
                    }));
                    comps.push(Competitor::peer(
                        "nalgebra-sparse 0.12 (usize)",
                        move || {
                            spmm_csc_dense(
                                0.0,
                                black_box(&mut *ny.borrow_mut()),
                                1.0,
                                Op::NoOp(na),
                                Op::NoOp(black_box(nx)),
                            );
                        },
                    ));
                    let y = slot!();
                    let fc = fc.expect("csc");
                    comps.push(Competitor::peer("faer 0.24 (u32)", move || {
                        let mut yb = y.borrow_mut();
                        let dst =
                            faer::MatMut::from_column_major_slice_mut(black_box(&mut yb[..]), m, 1);
                        let rhs = faer::MatRef::from_column_major_slice(black_box(&x[..]), n, 1);
                        faer::sparse::linalg::matmul::sparse_dense_matmul(
                            dst,
                            Accum::Replace,
                            fc,
                            rhs,
                            1.0,
                            Par::Seq,
                        );
                    }));
                }
            }
            // Verify every competitor before timing.
            for (c, out) in comps.iter_mut().zip(&outs) {
                (c.run)();
                check_close(&format!("{name} {}", c.name), &out(), &want, &scale, $tol);
            }
            let t = measure(comps, budget);
            let title = match variant {
                Variant::Csr32 => format!("CSR SpMV {}, {name} ({m}×{n}, {nnz} nnz)", $tname),
                Variant::Csr16 => format!(
                    "CSR SpMV {}, crdWidth 16 vs 32, {name} ({m}×{n}, {nnz} nnz)",
                    $tname
                ),
                Variant::Csc => format!("CSC SpMV {}, {name} ({m}×{n}, {nnz} nnz)", $tname),
            };
            // Each array once: values, coordinates (u32; the u16 rows move
            // less, so their % triad is conservative), positions, x, y.
            let bytes =
                nnz as f64 * (vsz + 4.0) + (m.max(n) + 1) as f64 * 4.0 + (m + n) as f64 * vsz;
            table(
                &title,
                &t,
                &Work {
                    nnz,
                    bytes: Some(bytes),
                },
                Some(triad),
            );
        }
    };
}

spmv_bench!(
    spmv_f64,
    f64,
    "f64",
    val_f64,
    kernels::spmv_f64,
    kernels::spmv16_f64,
    kernels::spmv_csc_f64,
    ffi::c_spmv_csr_f64_i32,
    ffi::c_spmv_csr_f64_u16,
    ffi::c_spmv_csc_f64,
    hand_spmv_f64,
    hand_spmv16_f64,
    Some(shapes::ptr_f64),
    shapes::scalar_f64,
    1e-12
);
spmv_bench!(
    spmv_f32,
    f32,
    "f32",
    val_f32,
    kernels::spmv_f32,
    kernels::spmv16_f32,
    kernels::spmv_csc_f32,
    ffi::c_spmv_csr_f32_i32,
    ffi::c_spmv_csr_f32_u16,
    ffi::c_spmv_csc_f32,
    hand_spmv_f32,
    hand_spmv16_f32,
    Some(shapes::ptr_f32),
    shapes::scalar_f32,
    1e-5
);

/// Experiments for the instruction counts (callgrind only): loop shapes
/// the code generator could emit instead of an indexed `for p in lo..hi`.
pub mod shapes {
    /// Row slices zipped (faer's shape): no index arithmetic per entry.
    #[inline(never)]
    pub fn zip_f64(pos: &[u32], crd: &[u32], val: &[f64], x: &[f64], y: &mut [f64]) {
        assert!(pos.len() == y.len() + 1 && crd.len() == val.len());
        for (i, yi) in y.iter_mut().enumerate() {
            let (lo, hi) = (pos[i] as usize, pos[i + 1] as usize);
            let mut s = 0.0;
            for (&j, &v) in crd[lo..hi].iter().zip(&val[lo..hi]) {
                // SAFETY: columns are below x.len() (validated input).
                s += v * unsafe { *x.get_unchecked(j as usize) };
            }
            *yi = s;
        }
    }

    /// Four entries per trip, one accumulator (the same rounding as the
    /// sequential loop), the remainder after.
    #[inline(never)]
    pub fn unroll4_f64(pos: &[u32], crd: &[u32], val: &[f64], x: &[f64], y: &mut [f64]) {
        assert!(pos.len() == y.len() + 1 && crd.len() == val.len());
        for (i, yi) in y.iter_mut().enumerate() {
            let (lo, hi) = (pos[i] as usize, pos[i + 1] as usize);
            let (c, v) = (&crd[lo..hi], &val[lo..hi]);
            let mut s = 0.0;
            let (c4, v4) = (c.chunks_exact(4), v.chunks_exact(4));
            let (cr, vr) = (c4.remainder(), v4.remainder());
            // SAFETY (all x reads): columns are below x.len().
            unsafe {
                for (c, v) in c4.zip(v4) {
                    s += v[0] * *x.get_unchecked(c[0] as usize);
                    s += v[1] * *x.get_unchecked(c[1] as usize);
                    s += v[2] * *x.get_unchecked(c[2] as usize);
                    s += v[3] * *x.get_unchecked(c[3] as usize);
                }
                for (&j, &v) in cr.iter().zip(vr) {
                    s += v * *x.get_unchecked(j as usize);
                }
            }
            *yi = s;
        }
    }

    macro_rules! ptr_shape {
        ($name:ident, $t:ty) => {
            /// Pointers walking the row, counting a negative offset up to
            /// zero: the increment sets the flags the loop branch tests.
            #[inline(never)]
            pub fn $name(pos: &[u32], crd: &[u32], val: &[$t], x: &[$t], y: &mut [$t]) {
                assert!(pos.len() == y.len() + 1 && crd.len() == val.len());
                assert!(pos[y.len()] as usize <= crd.len());
                // SAFETY: positions are monotone and end within crd/val
                // (asserted for the last; validated input for the rest),
                // columns below x.len().
                unsafe {
                    for (i, yi) in y.iter_mut().enumerate() {
                        let (lo, hi) = (
                            *pos.get_unchecked(i) as usize,
                            *pos.get_unchecked(i + 1) as usize,
                        );
                        let cp = crd.as_ptr().add(hi);
                        let vp = val.as_ptr().add(hi);
                        let mut k = lo as isize - hi as isize;
                        let mut s: $t = 0.0;
                        while k != 0 {
                            s += *vp.offset(k) * *x.get_unchecked(*cp.offset(k) as usize);
                            k += 1;
                        }
                        *yi = s;
                    }
                }
            }
        };
    }
    ptr_shape!(ptr_f64, f64);
    ptr_shape!(ptr_f32, f32);

    macro_rules! scalar_shape {
        ($name:ident, $t:ty) => {
            /// C's shape: one entry per trip, scalar multiply-add. The
            /// volatile read of `x` keeps LLVM's SLP vectorizer from pairing
            /// the gathers (`movsd` + `movhpd`, `mulpd`, `unpckhpd`), which
            /// it does for every other Rust shape here.
            #[inline(never)]
            pub fn $name(pos: &[u32], crd: &[u32], val: &[$t], x: &[$t], y: &mut [$t]) {
                assert!(pos.len() == y.len() + 1 && crd.len() == val.len());
                assert!(pos[y.len()] as usize <= crd.len());
                // SAFETY: as `ptr_shape`.
                unsafe {
                    for (i, yi) in y.iter_mut().enumerate() {
                        let (lo, hi) = (
                            *pos.get_unchecked(i) as usize,
                            *pos.get_unchecked(i + 1) as usize,
                        );
                        let mut s: $t = 0.0;
                        for p in lo..hi {
                            let xj = core::ptr::read_volatile(
                                x.as_ptr().add(*crd.get_unchecked(p) as usize),
                            );
                            s += *val.get_unchecked(p) * xj;
                        }
                        *yi = s;
                    }
                }
            }
        };
    }
    scalar_shape!(scalar_f64, f64);
    scalar_shape!(scalar_f32, f32);
}
