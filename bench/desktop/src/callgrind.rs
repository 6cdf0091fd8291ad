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

pub const IMPLS: [&str; 9] = ["ours", "ours16", "c", "c16", "hand", "hand16", "sprs", "nalgebra", "faer"];

pub fn run(args: &[String]) {
    let (Some(which), Some(reps)) = (args.first(), args.get(1).and_then(|r| r.parse::<usize>().ok())) else {
        panic!("usage: callgrind IMPL REPS, IMPL one of {IMPLS:?}");
    };
    let n = if crate::quick() { 500 } else { 2_000 };
    let a = Csr::uniform(n, 20, 14);
    let x = crate::gen::dense(n, 7);
    let mut y = vec![0.0f64; n];
    let crd16 = a.crd_u16();
    let val = &a.val;
    let mut check = 0.0;
    match which.as_str() {
        "ours" => {
            let t = kernels::CSR32::<f64>::assemble([n, n], [Level::dense(), Level::compressed(&a.pos, &a.crd)], val)
                .expect("valid");
            for _ in 0..reps {
                kernels::spmv_f64(black_box(&t), black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        "ours16" => {
            let t = kernels::CSR16::<f64>::assemble([n, n], [Level::dense(), Level::compressed(&a.pos, &crd16)], val)
                .expect("valid");
            for _ in 0..reps {
                kernels::spmv16_f64(black_box(&t), black_box(&x), black_box(&mut y)).expect("ok");
            }
        }
        "c" => {
            for _ in 0..reps {
                unsafe {
                    ffi::c_spmv_csr_f64_i32(n, a.pos.as_ptr(), a.crd.as_ptr(), val.as_ptr(), black_box(x.as_ptr()), black_box(y.as_mut_ptr()))
                };
            }
        }
        "c16" => {
            for _ in 0..reps {
                unsafe {
                    ffi::c_spmv_csr_f64_u16(n, a.pos.as_ptr(), crd16.as_ptr(), val.as_ptr(), black_box(x.as_ptr()), black_box(y.as_mut_ptr()))
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
        "sprs" => {
            let m = sprs::CsMatI::<f64, u32>::new((n, n), a.pos.clone(), a.crd.clone(), val.clone());
            for _ in 0..reps {
                y.fill(0.0);
                sprs::prod::mul_acc_mat_vec_csr(m.view(), black_box(&x[..]), black_box(&mut y[..]));
            }
        }
        "nalgebra" => {
            let m = CsrMatrix::try_from_csr_data(n, n, a.pos_usize(), a.crd_usize(), val.clone()).expect("valid");
            let nx = DVector::from_vec(x.clone());
            let mut ny = DVector::<f64>::zeros(n);
            for _ in 0..reps {
                spmm_csr_dense(0.0, black_box(&mut ny), 1.0, Op::NoOp(&m), Op::NoOp(black_box(&nx)));
            }
            y.copy_from_slice(ny.as_slice());
        }
        "faer" => {
            let m = SparseRowMatRef::new(SymbolicSparseRowMatRef::new_checked(n, n, &a.pos, None, &a.crd), &val[..]);
            for _ in 0..reps {
                let dst = faer::MatMut::from_column_major_slice_mut(black_box(&mut y[..]), n, 1);
                let rhs = faer::MatRef::from_column_major_slice(black_box(&x[..]), n, 1);
                faer::sparse::linalg::matmul::sparse_dense_matmul(dst, Accum::Replace, m, rhs, 1.0, Par::Seq);
            }
        }
        other => panic!("unknown implementation `{other}`: one of {IMPLS:?}"),
    }
    if reps > 0 {
        // The result must be right, or the count means nothing.
        for i in 0..n {
            let want: f64 = (a.pos[i] as usize..a.pos[i + 1] as usize).map(|p| val[p] * x[a.crd[p] as usize]).sum();
            assert!((y[i] - want).abs() <= 1e-12 * want.abs().max(1.0), "{which}: row {i}");
            check += y[i];
        }
    }
    println!("{which} nnz {} reps {reps} checksum {check:.6}", a.nnz());
}
