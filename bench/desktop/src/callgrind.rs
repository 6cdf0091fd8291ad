//! `callgrind IMPL REPS`: runs one CSR SpMV implementation (f64) REPS
//! times on the small matrix (n = 2 000, 20 per row). run.sh runs it under
//! callgrind with two REPS values and divides the difference in executed
//! instructions by the difference in nonzeros processed, which cancels
//! everything else (matrix generation, conversions, process start).

use crate::ffi;
use crate::gen::Csr;
use crate::kernels;
use crate::spmv::{hand_spmv16_f64, hand_spmv_f64};
use faer::sparse::{SparseRowMatRef, SymbolicSparseRowMatRef};
use faer::{Accum, Par};
use nalgebra::DVector;
use nalgebra_sparse::ops::serial::spmm_csr_dense;
use nalgebra_sparse::ops::Op;
use nalgebra_sparse::CsrMatrix;
use sparse_core::Level;
use std::hint::black_box;

pub const IMPLS: [&str; 17] = [
    "ours",
    "ra",
    "sell",
    "mkl",
    "mkl-opt",
    "ours16",
    "c",
    "c16",
    "hand",
    "hand16",
    "sprs",
    "nalgebra",
    "faer",
    "shape-zip",
    "shape-unroll4",
    "shape-ptr",
    "shape-scalar",
];

pub fn run(args: &[String]) {
    let (Some(which), Some(reps)) = (
        args.first(),
        args.get(1).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        panic!("usage: callgrind IMPL REPS, IMPL one of {IMPLS:?}");
    };
    if which.contains(':') {
        return run_ops(which, reps);
    }
    let n = if crate::quick() { 500 } else { 2_000 };
    let a = Csr::uniform(n, 20, 14);
    let x = crate::gen::dense(n, 7);
    let mut y = vec![0.0f64; n];
    let crd16 = a.crd_u16();
    let val = &a.val;
    let mut check = 0.0;
    match which.as_str() {
        "ours" => {
            let t = kernels::CSR32::<f64>::assemble(
                [n, n],
                [Level::dense(), Level::compressed(&a.pos, &a.crd)],
                val,
            )
            .expect("valid");
            for _ in 0..reps {
                kernels::spmv_f64(black_box(&t), black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        "ra" => {
            let t = kernels::CSR32::<f64>::assemble(
                [n, n],
                [Level::dense(), Level::compressed(&a.pos, &a.crd)],
                val,
            )
            .expect("valid");
            for _ in 0..reps {
                kernels::spmv_ra_f64(black_box(&t), black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        "sell" => {
            let t = kernels::CSR32::<f64>::assemble(
                [n, n],
                [Level::dense(), Level::compressed(&a.pos, &a.crd)],
                val,
            )
            .expect("valid");
            let s = sparse_core::sell::Sell::from_csr(&t, crate::spmv_simd::SELL).expect("fits");
            for _ in 0..reps {
                s.spmv(black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        #[cfg(peer_mkl)]
        "mkl" | "mkl-opt" => {
            let h = crate::spmv_simd::mkl::Mv::new(&a, val, which == "mkl-opt");
            for _ in 0..reps {
                h.mv(black_box(&x), black_box(&mut y));
            }
        }
        "ours16" => {
            let t = kernels::CSR16::<f64>::assemble(
                [n, n],
                [Level::dense(), Level::compressed(&a.pos, &crd16)],
                val,
            )
            .expect("valid");
            for _ in 0..reps {
                kernels::spmv16_f64(black_box(&t), black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        "c" => {
            for _ in 0..reps {
                unsafe {
                    ffi::c_spmv_csr_f64_i32(
                        n,
                        a.pos.as_ptr(),
                        a.crd.as_ptr(),
                        val.as_ptr(),
                        black_box(x.as_ptr()),
                        black_box(y.as_mut_ptr()),
                    )
                };
            }
        }
        "c16" => {
            for _ in 0..reps {
                unsafe {
                    ffi::c_spmv_csr_f64_u16(
                        n,
                        a.pos.as_ptr(),
                        crd16.as_ptr(),
                        val.as_ptr(),
                        black_box(x.as_ptr()),
                        black_box(y.as_mut_ptr()),
                    )
                };
            }
        }
        "hand" => {
            for _ in 0..reps {
                hand_spmv_f64(&a.pos, &a.crd, val, black_box(&x), black_box(&mut y));
            }
        }
        "hand16" => {
            for _ in 0..reps {
                hand_spmv16_f64(&a.pos, &crd16, val, black_box(&x), black_box(&mut y));
            }
        }
        "shape-zip" | "shape-unroll4" | "shape-ptr" | "shape-scalar" => {
            let f = match which.as_str() {
                "shape-zip" => crate::spmv::shapes::zip_f64,
                "shape-unroll4" => crate::spmv::shapes::unroll4_f64,
                "shape-scalar" => crate::spmv::shapes::scalar_f64,
                _ => crate::spmv::shapes::ptr_f64,
            };
            for _ in 0..reps {
                f(&a.pos, &a.crd, val, black_box(&x), black_box(&mut y));
            }
        }
        "sprs" => {
            let m =
                sprs::CsMatI::<f64, u32>::new((n, n), a.pos.clone(), a.crd.clone(), val.clone());
            for _ in 0..reps {
                y.fill(0.0);
                sprs::prod::mul_acc_mat_vec_csr(m.view(), black_box(&x[..]), black_box(&mut y[..]));
            }
        }
        "nalgebra" => {
            let m = CsrMatrix::try_from_csr_data(n, n, a.pos_usize(), a.crd_usize(), val.clone())
                .expect("valid");
            let nx = DVector::from_vec(x.clone());
            let mut ny = DVector::<f64>::zeros(n);
            for _ in 0..reps {
                spmm_csr_dense(
                    0.0,
                    black_box(&mut ny),
                    1.0,
                    Op::NoOp(&m),
                    Op::NoOp(black_box(&nx)),
                );
            }
            y.copy_from_slice(ny.as_slice());
        }
        "faer" => {
            let m = SparseRowMatRef::new(
                SymbolicSparseRowMatRef::new_checked(n, n, &a.pos, None, &a.crd),
                &val[..],
            );
            for _ in 0..reps {
                let dst = faer::MatMut::from_column_major_slice_mut(black_box(&mut y[..]), n, 1);
                let rhs = faer::MatRef::from_column_major_slice(black_box(&x[..]), n, 1);
                faer::sparse::linalg::matmul::sparse_dense_matmul(
                    dst,
                    Accum::Replace,
                    m,
                    rhs,
                    1.0,
                    Par::Seq,
                );
            }
        }
        other => panic!("unknown implementation `{other}`: one of {IMPLS:?}"),
    }
    if reps > 0 {
        // The result must be right, or the count means nothing.
        for (i, yi) in y.iter().enumerate() {
            let want: f64 = (a.pos[i] as usize..a.pos[i + 1] as usize)
                .map(|p| val[p] * x[a.crd[p] as usize])
                .sum();
            assert!(
                (yi - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{which}: row {i}"
            );
            check += yi;
        }
    }
    println!("{which} nnz {} reps {reps} checksum {check:.6}", a.nnz());
}

/// Sparse-output kernels for instruction counts: `add:ours`, `add:fresh`
/// (ours into a new `Owned` output each call, allocation included), `add:c`,
/// `add:sprs`, `sddmm:ours`, `sddmm:ra`, `sddmm:c`, `spgemm:ours`, `spgemm:faer`,
/// `spgemm:sprs` (f64, the small matrix and its partner; SDDMM with K = 32).
/// The count per unit is printed by run.sh from two REPS values.
pub const OPS: [&str; 10] = [
    "add:ours",
    "add:fresh",
    "add:c",
    "add:sprs",
    "sddmm:ours",
    "sddmm:ra",
    "sddmm:c",
    "spgemm:ours",
    "spgemm:faer",
    "spgemm:sprs",
];

/// SpGEMM implementations for instruction counts, as `OP:IMPL` with `OP`
/// `spgemm` (plus-times) or `minplus` on the small matrix (n = 2000, 20
/// per row), `spgemm20k` or `minplus20k` on n = 20 000, 5 per row; `IMPL`
/// one of these (min-plus: ours, hand, graphblas).
pub const SPGEMM_IMPLS: [&str; 7] = ["ours", "hand", "faer", "sprs", "graphblas", "mkl", "eigen"];

/// One SpGEMM implementation, `reps` times; prints the multiply-adds.
fn run_spgemm(op: &str, imp: &str, reps: usize) {
    use crate::spgemm::{Hand, Semiring};
    use sparse_core::Owned;
    let min = op.starts_with("minplus");
    let s = if min {
        Semiring::MinPlus
    } else {
        Semiring::PlusTimes
    };
    let a = if op.ends_with("20k") {
        crate::spgemm_short().1
    } else {
        Csr::uniform(if crate::quick() { 500 } else { 2_000 }, 20, 14)
    };
    let b = crate::ops::partner("uniform", &a);
    let (n, nb) = (a.rows, b.cols);
    let flops: usize = a
        .crd
        .iter()
        .map(|&k| (b.pos[k as usize + 1] - b.pos[k as usize]) as usize)
        .sum();
    let ta = kernels::CSR32::<f64>::assemble(
        [n, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &a.val,
    )
    .expect("a");
    let tb = kernels::CSR32::<f64>::assemble(
        [n, nb],
        [Level::dense(), Level::compressed(&b.pos, &b.crd)],
        &b.val,
    )
    .expect("b");
    let mut c = kernels::CSR32Out::<f64, Owned>::with_dims([n, nb]).expect("dims");
    let mut hand = Hand::<f64>::default();
    let mut gb = crate::peers::GraphBlas::new::<f64>(&a, &a.val, &b, &b.val);
    let mut mkl = crate::peers::Mkl::<f64>::new(&a, &a.val, &b, &b.val);
    let mut eigen = crate::peers::EigenProduct::new::<f64>(&a, &a.val, &b, &b.val);
    let sa = sprs::CsMatI::<f64, u32>::new((n, n), a.pos.clone(), a.crd.clone(), a.val.clone());
    let sb = sprs::CsMatI::<f64, u32>::new((n, nb), b.pos.clone(), b.crd.clone(), b.val.clone());
    for _ in 0..reps {
        match (imp, min) {
            ("ours", false) => {
                kernels::spgemm_f64(black_box(&ta), black_box(&tb), &mut c).expect("ok")
            }
            ("ours", true) => {
                kernels::minplus_f64(black_box(&ta), black_box(&tb), &mut c).expect("ok")
            }
            ("hand", _) => hand.run(&a, black_box(&a.val), &b, &b.val, s),
            ("sprs", false) => {
                black_box(&sa * &sb);
            }
            ("faer", false) => {
                use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
                let fa = SparseColMatRef::new(
                    SymbolicSparseColMatRef::new_checked(n, n, &a.pos, None, &a.crd),
                    &a.val[..],
                );
                let fb = SparseColMatRef::new(
                    SymbolicSparseColMatRef::new_checked(nb, n, &b.pos, None, &b.crd),
                    &b.val[..],
                );
                black_box(
                    faer::sparse::linalg::matmul::sparse_sparse_matmul(fb, fa, 1.0, Par::Seq)
                        .expect("fits"),
                );
            }
            ("graphblas", _) => gb.as_mut().expect("GraphBLAS not built in").run::<f64>(min),
            ("mkl", false) => mkl.as_mut().expect("MKL not built in").run(),
            ("eigen", false) => eigen.as_mut().expect("Eigen not built in").run(),
            _ => panic!("unknown `{op}:{imp}`: {SPGEMM_IMPLS:?} (min-plus: ours, hand, graphblas)"),
        }
    }
    println!("{op}:{imp} nnz {flops} reps {reps}");
}

/// Conversions for instruction counts on the small matrix: `csc:IMPL`
/// (CSR → CSC) with IMPL `ours` (into `Owned`, reused), `slices` (caller
/// slices), `eigen`, `graphblas`, `hand`; `coo:IMPL` (unordered COO → CSR,
/// repeats summed) with `ours`, `slices`, `eigen`, `graphblas`, `sprs`.
/// `csc-banded` and `coo-banded` convert the banded matrix of the same n
/// (half band 16: 33 per row) instead. The unit is a stored entry.
fn run_convert(op: &str, imp: &str, reps: usize) {
    use sparse_core::convert::{convert, convert_sum};
    use sparse_core::{Owned, SliceBuffer, Slices};
    let n = if crate::quick() { 500 } else { 2_000 };
    let (op, a) = match op.strip_suffix("-banded") {
        Some(op) => (op, Csr::banded(n, 16, 14)),
        None => (op, Csr::uniform(n, 20, 14)),
    };
    let nnz = a.nnz();
    let ta = kernels::CSR32::<f64>::assemble(
        [n, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &a.val,
    )
    .expect("a");
    let t = crate::transpose::triplets(&a, false);
    let aos: Vec<u32> = t.iter().flat_map(|t| [t.0, t.1]).collect();
    let val: Vec<f64> = t.iter().map(|t| t.2).collect();
    let coo_pos = [0u32, nnz as u32];
    let levels = [Level::compressed(&coo_pos, &aos), Level::fused()];
    let coo = kernels::UCOO32::<f64>::assemble([n, n], levels, &val).expect("COO");
    let (ti, tj): (Vec<u32>, Vec<u32>) = t.iter().map(|t| (t.0, t.1)).unzip();
    let tri = sprs::TriMatI::<f64, u32>::from_triplets((n, n), ti.clone(), tj.clone(), val.clone());
    let mut csc = kernels::CSC32Out::<f64, Owned>::with_dims([n, n]).expect("dims");
    let mut csr = kernels::CSR32Out::<f64, Owned>::with_dims([n, n]).expect("dims");
    let (mut p, mut c, mut v) = (vec![0u32; n + 1], vec![0u32; nnz], vec![0.0f64; nnz]);
    let mut eigen_csc = crate::peers::EigenToCsc::new(&a);
    let mut eigen_coo = crate::peers::EigenTriplets::new(n, n, &ti, &tj, &val);
    let mut gb = crate::peers::GraphBlasConvert::new(
        &a,
        if op == "coo" {
            Some((&ti, &tj, &val))
        } else {
            None
        },
    );
    for _ in 0..reps {
        match (op, imp) {
            ("csc", "ours") => convert(black_box(&ta), &mut csc).expect("fits"),
            ("coo", "ours") => convert_sum(black_box(&coo), &mut csr).expect("fits"),
            (_, "slices") => {
                let (pp, cc, vv) = (
                    [SliceBuffer::default(), SliceBuffer::new(&mut p[..])],
                    [SliceBuffer::default(), SliceBuffer::new(&mut c[..])],
                    SliceBuffer::new(&mut v[..]),
                );
                if op == "csc" {
                    let mut o = kernels::CSC32Out::<f64, Slices<'_>>::new(
                        [n, n],
                        pp,
                        cc,
                        vv,
                        SliceBuffer::default(),
                        SliceBuffer::default(),
                        SliceBuffer::default(),
                    )
                    .expect("room");
                    convert(black_box(&ta), &mut o).expect("fits");
                } else {
                    let mut o = kernels::CSR32Out::<f64, Slices<'_>>::new(
                        [n, n],
                        pp,
                        cc,
                        vv,
                        SliceBuffer::default(),
                        SliceBuffer::default(),
                        SliceBuffer::default(),
                    )
                    .expect("room");
                    convert_sum(black_box(&coo), &mut o).expect("fits");
                }
            }
            ("csc", "hand") => crate::transpose::hand(black_box(&a), &mut p, &mut c, &mut v),
            ("csc", "eigen") => eigen_csc.as_mut().expect("Eigen not built in").run(),
            ("coo", "eigen") => eigen_coo.as_mut().expect("Eigen not built in").run(),
            (_, "graphblas") => gb.as_mut().expect("GraphBLAS not built in").run(),
            ("coo", "sprs") => {
                black_box(black_box(&tri).to_csr::<u32>());
            }
            _ => panic!("unknown `{op}:{imp}`"),
        }
    }
    println!("{op}:{imp} nnz {nnz} reps {reps}");
}

fn run_ops(which: &str, reps: usize) {
    use sparse_core::{DenseView, Owned};
    if let Some((op, imp)) = which.split_once(':') {
        if op.starts_with("spgemm") || op.starts_with("minplus") {
            return run_spgemm(op, imp, reps);
        }
        if ["csc", "coo", "csc-banded", "coo-banded"].contains(&op) {
            return run_convert(op, imp, reps);
        }
    }
    let n = if crate::quick() { 500 } else { 2_000 };
    let a = Csr::uniform(n, 20, 14);
    let b = crate::ops::partner("uniform", &a);
    let ta = kernels::CSR32::<f64>::assemble(
        [n, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &a.val,
    )
    .expect("a");
    let tb = kernels::CSR32::<f64>::assemble(
        [n, n],
        [Level::dense(), Level::compressed(&b.pos, &b.crd)],
        &b.val,
    )
    .expect("b");
    let k = 32;
    let u = crate::gen::dense(n * k, 21);
    let vt = crate::gen::dense(n * k, 22);
    let mut c = kernels::CSR32Out::<f64, Owned>::with_dims([n, n]).expect("dims");
    let cap = a.nnz() + b.nnz();
    let (mut cp, mut cc, mut cv) = (vec![0u32; n + 1], vec![0u32; cap], vec![0.0f64; cap]);
    // Units: entries of A and B for add, stored entries for SDDMM,
    // multiply-adds for SpGEMM.
    let flops: usize = a
        .crd
        .iter()
        .map(|&k| (b.pos[k as usize + 1] - b.pos[k as usize]) as usize)
        .sum();
    let units = match which.split(':').next() {
        Some("add") => a.nnz() + b.nnz(),
        Some("sddmm") => a.nnz(),
        _ => flops,
    };
    let sa = sprs::CsMatI::<f64, u32>::new((n, n), a.pos.clone(), a.crd.clone(), a.val.clone());
    let sb = sprs::CsMatI::<f64, u32>::new((n, n), b.pos.clone(), b.crd.clone(), b.val.clone());
    for _ in 0..reps {
        match which {
            "add:ours" => kernels::add_f64(black_box(&ta), black_box(&tb), &mut c).expect("ok"),
            "add:fresh" => {
                let mut fresh = kernels::CSR32Out::<f64, Owned>::with_dims([n, n]).expect("dims");
                kernels::add_f64(black_box(&ta), black_box(&tb), &mut fresh).expect("ok");
                black_box(&fresh);
            }
            "add:c" => {
                unsafe {
                    ffi::c_add_f64(
                        n,
                        a.pos.as_ptr(),
                        a.crd.as_ptr(),
                        a.val.as_ptr(),
                        b.pos.as_ptr(),
                        b.crd.as_ptr(),
                        b.val.as_ptr(),
                        cp.as_mut_ptr(),
                        cc.as_mut_ptr(),
                        black_box(cv.as_mut_ptr()),
                    )
                };
            }
            "add:sprs" => {
                sprs::binop::csmat_binop_same_storage_raw(
                    black_box(sa.view()),
                    sb.view(),
                    |x: &f64, y: &f64| x + y,
                    &mut cp,
                    &mut cc,
                    &mut cv,
                );
            }
            "sddmm:ours" => {
                let du = DenseView::new(&u[..], [n, k]).expect("u");
                let dv = DenseView::new(&vt[..], [n, k]).expect("vt");
                kernels::sddmm_f64(black_box(&ta), black_box(du), dv, &mut c).expect("ok")
            }
            "sddmm:ra" => {
                let du = DenseView::new(&u[..], [n, k]).expect("u");
                let dv = DenseView::new(&vt[..], [n, k]).expect("vt");
                kernels::sddmm_ra_f64(black_box(&ta), black_box(du), dv, &mut c).expect("ok")
            }
            "sddmm:c" => unsafe {
                ffi::c_sddmm_f64(
                    n,
                    k,
                    a.pos.as_ptr(),
                    a.crd.as_ptr(),
                    a.val.as_ptr(),
                    black_box(u.as_ptr()),
                    vt.as_ptr(),
                    black_box(cv.as_mut_ptr()),
                )
            },
            other => panic!("unknown `{other}`: one of {OPS:?}"),
        }
    }
    println!("{which} nnz {units} reps {reps}");
}
