//! CSR → CSC (the transpose of the storage): `sparse_core::convert` into
//! caller buffers and into `Vec`s, against sprs' `to_csc` and
//! nalgebra-sparse's `CscMatrix::from`, and a hand-written counting
//! transpose over preallocated arrays.

use std::cell::RefCell;
use std::hint::black_box;

use nalgebra_sparse::{CscMatrix, CsrMatrix};
use sparse_core::convert::convert;
use sparse_core::{Level, Owned, SliceBuffer, Slices};

use crate::gen::Csr;
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::report::{table, Work};

/// The counting transpose, u32 arrays, outputs preallocated.
fn hand(a: &Csr, pos: &mut [u32], crd: &mut [u32], val: &mut [f64]) {
    pos.fill(0);
    for &j in &a.crd {
        pos[j as usize + 1] += 1;
    }
    for j in 0..a.cols {
        pos[j + 1] += pos[j];
    }
    for i in 0..a.rows {
        for p in a.pos[i] as usize..a.pos[i + 1] as usize {
            let j = a.crd[p] as usize;
            let q = pos[j] as usize;
            crd[q] = i as u32;
            val[q] = a.val[p];
            pos[j] += 1;
        }
    }
    for j in (1..=a.cols).rev() {
        pos[j] = pos[j - 1];
    }
    pos[0] = 0;
}

pub fn csr_to_csc(name: &str, a: &Csr, budget: &Budget) {
    let (m, n, nnz) = (a.rows, a.cols, a.nnz());
    let ta = kernels::CSR32::<f64>::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &a.val,
    )
    .expect("valid CSR");
    let sa = sprs::CsMatI::<f64, u32>::new((m, n), a.pos.clone(), a.crd.clone(), a.val.clone());
    let na = CsrMatrix::try_from_csr_data(m, n, a.pos_usize(), a.crd_usize(), a.val.clone())
        .expect("valid CSR");
    let want = sa.to_csc();
    let (wpos, wcrd, wval) = (want.indptr().raw_storage().to_vec(), want.indices().to_vec(), want.data().to_vec());

    let mut pos = vec![0u32; n + 1];
    let mut crd = vec![0u32; nnz];
    let mut val = vec![0.0f64; nnz];
    let slices = RefCell::new(
        kernels::CSC32Out::<f64, Slices<'_>>::new(
            [m, n],
            [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
            [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
            SliceBuffer::new(&mut val),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
        .expect("room for the empty tensor"),
    );
    let owned = RefCell::new(kernels::CSC32Out::<f64, Owned>::with_dims([m, n]).expect("dims"));
    let sprs_out = RefCell::new(None);
    let na_out = RefCell::new(None);
    let hand_out = RefCell::new((vec![0u32; n + 1], vec![0u32; nnz], vec![0.0; nnz]));
    let comps = vec![
        Competitor::ours("convert into caller slices (exact size)", || {
            convert(black_box(&ta), &mut *slices.borrow_mut()).expect("fits")
        }),
        Competitor::ours("convert into Owned (reused)", || {
            convert(black_box(&ta), &mut *owned.borrow_mut()).expect("fits")
        }),
        Competitor::peer("sprs to_csc (allocates)", || {
            *sprs_out.borrow_mut() = Some(black_box(&sa).to_csc());
        }),
        Competitor::peer("nalgebra-sparse CscMatrix::from (allocates)", || {
            *na_out.borrow_mut() = Some(CscMatrix::from(black_box(&na)));
        }),
        Competitor::reference("hand-written counting transpose (preallocated)", || {
            let mut o = hand_out.borrow_mut();
            let (p, c, v) = &mut *o;
            hand(black_box(a), p, c, v);
        }),
    ];
    let t = measure(comps, budget);
    // Every implementation produced the same arrays.
    for out in [&slices.borrow().view(), &owned.borrow().view()] {
        assert_eq!(out.level(1).positions(), &wpos[..], "{name}: positions");
        assert_eq!(out.level(1).coordinates(), &wcrd[..], "{name}: coordinates");
        assert_eq!(out.values(), &wval[..], "{name}: values");
    }
    let h = hand_out.borrow();
    assert_eq!((&h.0, &h.1, &h.2), (&wpos, &wcrd, &wval), "{name}: hand-written");
    let nc = na_out.borrow();
    let nc = nc.as_ref().expect("ran");
    assert_eq!(nc.values(), &wval[..], "{name}: nalgebra-sparse");
    table(
        &format!("{name}, f64: CSR → CSC"),
        &t,
        &Work { nnz, bytes: None },
        None,
    );
}
